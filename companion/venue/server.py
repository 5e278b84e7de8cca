"""An HTTP/1.1 server that holds against slow, idle and many clients (standard library only).

The standard library's ``ThreadingHTTPServer`` gives every connection a thread that waits
for the request as long as the client likes: a thousand idle or half-sent requests from
one client and the page stops for everyone. Here:

- one **reception** thread (a ``selectors`` loop) accepts every connection and reads
  request heads without blocking; a slow or silent client costs a socket and the bytes it
  sent so far, never a thread;
- a connection must send its **whole request head** within :attr:`Limits.request`
  seconds of its first byte (or of connecting): a deadline, not an idle timer, so a client
  trickling a byte a second is cut off all the same; a kept-alive connection waiting for
  its next request is closed after :attr:`Limits.idle` seconds;
- only a connection whose whole head has arrived goes to one of :attr:`Limits.workers`
  worker threads (a bounded pool), which answers it with a send timeout
  (:attr:`Limits.send`);
- at most :attr:`Limits.per_client` connections from one address and :attr:`Limits.total`
  in all: one over either is reset at once (it costs no thread and no buffer);
- a request head over :attr:`Limits.head_bytes` is refused (431), and a request with a
  body is answered and then closed (every request the page makes is a GET).

With :meth:`GuardedServer.use_tls` (``companion venue --cert/--key``) every connection is
TLS: the handshake is done in the reception loop without blocking, within the same
deadline as the request head (a client trickling its handshake is cut off as one
trickling its request), and a client speaking plain HTTP to it is dropped.

A handler may keep its connection as a long-lived stream (the page's server-sent events):
it sets ``stream = True`` and the server hands the socket, non-blocking, to
:meth:`GuardedServer.adopt_stream`; whoever takes it calls :meth:`GuardedServer.release`
when done.
"""

from __future__ import annotations

import io
import logging
import queue
import errno
import selectors
import socket
import ssl
import struct
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """How long and how many (seconds; counts)."""

    request: float = 10.0       # to receive a whole request head, from its first byte or the connection
    idle: float = 30.0          # a kept-alive connection waits this long for its next request
    send: float = 5.0           # a worker waits this long on a client that does not read its answer
    head_bytes: int = 16 * 1024
    per_client: int = 32        # connections from one address (a page uses about 7)
    total: int = 512
    workers: int = 8


class TLSSocket(ssl.SSLSocket):
    """An SSL socket whose non-blocking reads and writes that would wait raise
    BlockingIOError, as a plain socket's do (the stream feeder and the reception loop
    treat any other OSError as a client gone)."""

    def recv(self, buflen: int = 1024, flags: int = 0) -> bytes:
        try:
            return super().recv(buflen, flags)
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            raise BlockingIOError(errno.EAGAIN, "TLS: would wait") from None

    def send(self, data, flags: int = 0) -> int:
        try:
            return super().send(data, flags)
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            raise BlockingIOError(errno.EAGAIN, "TLS: would wait") from None


def tls_context(cert: str, key: str | None = None) -> ssl.SSLContext:
    """A server's TLS context for the certificate (chain) file ``cert`` and its private
    ``key`` (None: in ``cert``): TLS 1.2 or newer. Raises OSError or ssl.SSLError."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    context.sslsocket_class = TLSSocket
    return context


@dataclass(eq=False)
class Connection:
    """One client connection: its socket, address, the bytes received and not yet
    answered, and when it must have sent its request."""

    sock: socket.socket
    address: tuple
    deadline: float
    buf: bytes = b""
    head: bytes = b""
    closed: bool = False
    started: bool = field(default=False)   # a request's first byte has come
    handshaking: bool = False              # TLS: the handshake is not done yet

    @property
    def client(self) -> str:
        return self.address[0]


class GuardedHandler(BaseHTTPRequestHandler):
    """A request handler answering one request head already received (``rfile`` holds
    just those bytes). Set :attr:`stream` to keep the connection as a stream."""

    protocol_version = "HTTP/1.1"
    stream = False

    def setup(self) -> None:
        self.connection = self.request.sock
        self.rfile = io.BytesIO(self.request.head)
        self.wfile = self.connection.makefile("wb")

    def handle(self) -> None:
        self.close_connection = True
        self.handle_one_request()
        headers = getattr(self, "headers", None)
        if headers is not None and (headers.get("Transfer-Encoding") or
                                    headers.get("Content-Length", "0").strip() not in ("", "0")):
            self.close_connection = True  # a body this server never reads: the connection ends here

    def finish(self) -> None:
        try:
            self.wfile.flush()
        except OSError:
            self.close_connection, self.stream = True, False
        finally:
            self.wfile.close()  # the file, not the socket

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # a page that polls would fill the journal


class GuardedServer:
    """Serve ``handler`` (a :class:`GuardedHandler`) on ``address`` (port 0: any free one)
    within ``limits``. :meth:`serve_forever` runs the reception loop; :meth:`shutdown`
    ends it. Raises OSError when the address is taken."""

    def __init__(self, address: tuple[str, int], handler: type[GuardedHandler], limits: Limits | None = None):
        self.limits = limits or Limits()
        self.handler = handler
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.socket.bind(address)
            self.socket.listen(1024)
            self.socket.setblocking(False)
        except OSError:
            self.socket.close()
            raise
        self.server_address = self.socket.getsockname()
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}    # connections per client address
        self._count = 0
        self._back: queue.SimpleQueue = queue.SimpleQueue()   # connections a worker hands back
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._pool = ThreadPoolExecutor(max_workers=self.limits.workers, thread_name_prefix="venue-web")
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()  # (not serving yet)
        self.tls: ssl.SSLContext | None = None

    def use_tls(self, context: ssl.SSLContext) -> None:
        """Serve every connection over TLS with ``context`` (:func:`tls_context`); call
        before :meth:`serve_forever`."""
        self.tls = context

    @property
    def scheme(self) -> str:
        """``https`` with TLS, else ``http``."""
        return "https" if self.tls is not None else "http"

    # ------------------------------------------------------------ for a subclass

    def adopt_stream(self, conn: Connection) -> None:
        """Take a connection its handler kept as a stream (default: close it)."""
        self.release(conn)

    def release(self, conn: Connection) -> None:
        """Close a connection and stop counting it (safe to call twice)."""
        with self._lock:
            if conn.closed:
                return
            conn.closed = True
        self._forget(conn.client)
        try:
            conn.sock.close()
        except OSError:
            pass

    def _forget(self, client: str) -> None:
        """One connection of ``client`` fewer."""
        with self._lock:
            self._count -= 1
            left = self._open.get(client, 1) - 1
            if left:
                self._open[client] = left
            else:
                self._open.pop(client, None)

    def connections(self, client: str | None = None) -> int:
        """Connections open now (from ``client`` only, when given)."""
        with self._lock:
            return self._count if client is None else self._open.get(client, 0)

    # ------------------------------------------------------------ the reception loop

    def serve_forever(self) -> None:
        """Accept, read and hand out requests until :meth:`shutdown`."""
        sel = selectors.DefaultSelector()
        sel.register(self.socket, selectors.EVENT_READ, "listen")
        sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        waiting: dict[int, Connection] = {}   # fileno -> a connection whose request is not all here
        self._stopped.clear()
        try:
            while not self._stopping.is_set():
                now = time.monotonic()
                soonest = min((c.deadline for c in waiting.values()), default=now + 0.5)
                for key, _ in sel.select(max(0.0, min(0.5, soonest - now))):
                    if key.data == "listen":
                        self._accept(sel, waiting)
                    elif key.data == "wake":
                        self._take_back(sel, waiting)
                    else:
                        self._receive(key.data, sel, waiting)
                now = time.monotonic()
                for conn in [c for c in waiting.values() if c.deadline <= now]:
                    self._drop(conn, sel, waiting)  # too slow to ask, or idle too long
        finally:
            for conn in list(waiting.values()):
                self._drop(conn, sel, waiting)
            sel.close()
            self._stopped.set()

    def _accept(self, sel, waiting) -> None:
        limits = self.limits
        while True:
            try:
                sock, address = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as err:  # out of file descriptors, say: the others are served first
                _log.warning("venue: the page could not take a connection: %s", err)
                return
            client = address[0]
            with self._lock:
                full = self._count >= limits.total or self._open.get(client, 0) >= limits.per_client
                if not full:
                    self._count += 1
                    self._open[client] = self._open.get(client, 0) + 1
            if full:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()  # reset at once: no thread, no buffer, no TIME_WAIT
                continue
            sock.setblocking(False)
            if self.tls is not None:
                try:
                    sock = self.tls.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
                except (OSError, ValueError):
                    self._forget(client)
                    sock.close()
                    continue
            conn = Connection(sock, address, time.monotonic() + limits.request, handshaking=self.tls is not None)
            waiting[sock.fileno()] = conn
            sel.register(sock, selectors.EVENT_READ, conn)

    def _receive(self, conn: Connection, sel, waiting) -> None:
        if conn.handshaking and not self._handshake(conn, sel, waiting):
            return
        try:
            data = conn.sock.recv(65536)
            while data and isinstance(conn.sock, ssl.SSLSocket) and conn.sock.pending():
                data += conn.sock.recv(65536)  # decrypted already: the socket will not say it is readable
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._drop(conn, sel, waiting)
            return
        if not conn.started:
            conn.started, conn.deadline = True, time.monotonic() + self.limits.request
        conn.buf += data
        self._dispatch_if_whole(conn, sel, waiting)

    def _handshake(self, conn: Connection, sel, waiting) -> bool:
        """Go on with a TLS handshake; True once it is done."""
        try:
            conn.sock.do_handshake()
        except ssl.SSLWantReadError:
            sel.modify(conn.sock, selectors.EVENT_READ, conn)
            return False
        except ssl.SSLWantWriteError:
            sel.modify(conn.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, conn)
            return False
        except (OSError, ValueError):  # not TLS (plain HTTP to an https port), or a bad handshake
            self._drop(conn, sel, waiting)
            return False
        conn.handshaking = False
        sel.modify(conn.sock, selectors.EVENT_READ, conn)
        return True

    def _dispatch_if_whole(self, conn: Connection, sel, waiting) -> None:
        end = conn.buf.find(b"\r\n\r\n")
        if end < 0:
            if len(conn.buf) > self.limits.head_bytes:
                try:
                    conn.sock.send(b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n"
                                   b"Connection: close\r\n\r\n")
                except OSError:
                    pass
                self._drop(conn, sel, waiting)
            return
        conn.head, conn.buf = conn.buf[:end + 4], conn.buf[end + 4:]
        sel.unregister(conn.sock)
        del waiting[conn.sock.fileno()]
        self._pool.submit(self._work, conn)

    def _drop(self, conn: Connection, sel, waiting) -> None:
        waiting.pop(conn.sock.fileno(), None)
        try:
            sel.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        self.release(conn)

    def _take_back(self, sel, waiting) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except (BlockingIOError, InterruptedError):
            pass
        while True:
            try:
                conn = self._back.get_nowait()
            except queue.Empty:
                return
            if conn.closed:
                continue
            conn.started = bool(conn.buf)
            conn.deadline = time.monotonic() + (self.limits.request if conn.buf else self.limits.idle)
            waiting[conn.sock.fileno()] = conn
            sel.register(conn.sock, selectors.EVENT_READ, conn)
            self._dispatch_if_whole(conn, sel, waiting)

    # ------------------------------------------------------------ a worker

    def _work(self, conn: Connection) -> None:
        try:
            conn.sock.settimeout(self.limits.send)
            handler = self.handler(conn, conn.address, self)
        except Exception:  # noqa: BLE001 - one request must never stop the server
            _log.exception("venue: a page request failed")
            self.release(conn)
            return
        if handler.stream and not self._stopping.is_set():
            conn.sock.setblocking(False)
            self.adopt_stream(conn)
        elif handler.close_connection or self._stopping.is_set():
            self.release(conn)
        else:
            conn.sock.setblocking(False)
            conn.head = b""
            self._back.put(conn)
            try:
                self._wake_w.send(b"x")
            except OSError:
                pass

    # ------------------------------------------------------------ stopping

    def shutdown(self) -> None:
        """Stop the reception loop (wait for it, at most 2 s) and the workers."""
        self._stopping.set()
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass
        self._stopped.wait(2.0)
        self._pool.shutdown(wait=False, cancel_futures=True)

    def server_close(self) -> None:
        """Close the listening socket and the connections handed back."""
        self.socket.close()
        while True:
            try:
                self.release(self._back.get_nowait())
            except queue.Empty:
                break
        self._wake_r.close()
        self._wake_w.close()
