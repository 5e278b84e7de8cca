#!/usr/bin/env bash
# Install the Sugar Table Companion on Raspberry Pi OS Lite (64-bit) so it starts on boot.
#
#   sudo hardware/install.sh                  install or update (safe to run again: changes
#                                             only what is not right, works offline then)
#   sudo hardware/install.sh --wheelhouse DIR install offline: Python wheels from DIR, and
#                                             Debian packages from DIR/debs/*.deb if there
#                                             (make DIR with hardware/make-wheelhouse.sh)
#   sudo hardware/install.sh --uninstall      remove the service, udev rules, /opt/companion
#                                             and the companion command; tty1's login comes
#                                             back (keeps your config and game history)
#   hardware/install.sh --root DIR            write the files into DIR instead of / (no root
#                                             needed, no network): commands that change the
#                                             running system are printed, not run
#   --force                                   install on Debian that is not Raspberry Pi OS
#
# What it does: checks the OS is 64-bit; apt-get installs python3-venv, python3-evdev,
# python3-lgpio, i2c-tools, the Mesa/GBM/EGL/GLES libraries SDL draws with, and fontconfig
# (nothing is compiled on the Pi); creates the system user `companion` (groups input, video,
# render, i2c, gpio, dialout); builds a wheel of this folder in a temporary folder and
# installs it into the venv /opt/companion/venv (which sees apt's evdev and lgpio), and
# links /usr/local/bin/companion; enables I2C; boots to the console (a desktop image's
# display manager is stopped: the companion needs the screen); turns console blanking off;
# installs /etc/companion/companion.toml (only if you have none), the udev rules and the
# hardened systemd unit; enables and (re)starts the service when something changed.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT=""
FORCE=0
UNINSTALL=0
WHEELHOUSE=""
# PyPI has no wheel for evdev (pip would compile it, and Lite has no python3-dev) nor for
# lgpio; SDL (inside pygame-ce) loads libgbm, libEGL and libGLESv2 at run time for its kmsdrm
# driver, and Mesa then loads the GPU's DRI driver (libgl1-mesa-dri: v3d/vc4 on a Pi, a
# Recommends that --no-install-recommends would skip); all of which
# Lite lacks; fontconfig finds fonts for names in other scripts.
APT_PACKAGES=(python3-venv python3-evdev python3-lgpio i2c-tools libgbm1 libegl1 libgles2 libgl1-mesa-dri fontconfig)
# Not in plain Debian (only in Raspberry Pi OS's own archive): skipped elsewhere.
APT_PI_ONLY=(python3-lgpio)
GROUPS_WANTED=(input video render i2c gpio dialout)
UNIT=/etc/systemd/system/companion.service
DROPIN=/etc/systemd/system/companion.service.d/no-network.conf
RULES=/etc/udev/rules.d/99-sugar-companion.rules
CONFIG=/etc/companion/companion.toml
PREFIX=/opt/companion
STAMP=/opt/companion/installed-source.sha256
BOOT_BEFORE=/opt/companion/boot-target-before-install
LINK=/usr/local/bin/companion
STATE=/var/lib/companion
CHANGED=()
RESTART=0

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a folder" >&2; exit 2; }
                ROOT="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
        --root=*) ROOT="$(mkdir -p "${1#--root=}" && cd "${1#--root=}" && pwd)"; shift ;;
        --wheelhouse) [ $# -ge 2 ] || { echo "install.sh: --wheelhouse needs a folder of wheels" >&2; exit 2; }
                WHEELHOUSE="$2"; shift 2 ;;
        --wheelhouse=*) WHEELHOUSE="${1#--wheelhouse=}"; shift ;;
        --force) FORCE=1; shift ;;
        --uninstall) UNINSTALL=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
done
[ "$ROOT" = "/" ] && ROOT=""
if [ -n "$WHEELHOUSE" ]; then
    if [ ! -d "$WHEELHOUSE" ] || ! ls "$WHEELHOUSE"/*.whl >/dev/null 2>&1; then
        echo "install.sh: --wheelhouse $WHEELHOUSE has no wheels (*.whl): make it with hardware/make-wheelhouse.sh" >&2
        exit 2
    fi
    WHEELHOUSE="$(cd "$WHEELHOUSE" && pwd)"
    [ "$UNINSTALL" -eq 1 ] && { echo "install.sh: --wheelhouse is for installing, not with --uninstall" >&2; exit 2; }
fi

say() { printf '%s\n' "$*"; }
changed() { CHANGED+=("$*"); say "  changed: $*"; }
unchanged() { say "  already right: $*"; }

# A command that changes the running system: run it, or under --root only print it.
run() {
    if [ -n "$ROOT" ]; then
        say "  not run (--root): $*"
    else
        say "  running: $*"
        "$@"
    fi
}

# install_file SOURCE DEST MODE: copy when missing or different, and say which (returns 1
# when nothing changed, so callers can tell).
install_file() {
    local src="$1" dest="$ROOT$2" mode="$3"
    if [ -f "$dest" ] && cmp -s "$src" "$dest"; then
        if [ "$(stat -c %a "$dest")" != "$mode" ]; then chmod "$mode" "$dest"; changed "$2 mode $mode"; return 0; fi
        unchanged "$2"
        return 1
    fi
    install -D -m "$mode" "$src" "$dest"
    changed "wrote $2"
}

remove_path() {
    local path="$ROOT$1"
    if [ -e "$path" ] || [ -L "$path" ]; then
        rm -rf "$path"
        changed "removed $1"
    fi
}

cmdline_file() {
    local f
    for f in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        [ -f "$ROOT$f" ] && { echo "$f"; return 0; }
    done
    return 0
}

# systemd is PID 1 here (sd_booted()); false in a chroot, a container build or --root.
systemd_running() { [ -z "$ROOT" ] && [ -d /run/systemd/system ]; }

# Up, or on its way up (a start without --no-block would wait for READY=1).
running_or_starting() {
    case "$(systemctl show -p ActiveState --value companion.service 2>/dev/null || true)" in
        active|activating|reloading) return 0 ;;
        *) return 1 ;;
    esac
}

# The default boot target, read from the files (works under --root and in a chroot).
default_target() {
    local t
    t="$(readlink "$ROOT/etc/systemd/system/default.target" 2>/dev/null || true)"
    [ -n "$t" ] || t="$(readlink "$ROOT/lib/systemd/system/default.target" 2>/dev/null || true)"
    basename "${t:-graphical.target}"
}

# The source's fingerprint: what would end up in the wheel.
source_hash() {
    (cd "$SRC" && find pyproject.toml companion -type f ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 \
        | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

# ---------------------------------------------------------------- checks

if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root: sudo $0 $*" >&2
    exit 1
fi

# The userland's architecture (dpkg's), not the kernel's: 32-bit Raspberry Pi OS runs a
# 64-bit kernel on a Pi 4 or 5, so uname -m says aarch64 there.
if command -v dpkg >/dev/null; then ARCH="$(dpkg --print-architecture)"; else ARCH="$(uname -m)"; fi
case "$ARCH" in
    arm64|aarch64|amd64|x86_64) ;;
    armhf|armel|armv7l|armv6l|i386|i686)
        if [ "$UNINSTALL" -eq 0 ]; then
            echo "install.sh: this is a 32-bit system ($ARCH). The companion needs Raspberry Pi OS Lite (64-bit):" >&2
            echo "install.sh: PyPI has no pygame-ce for 32-bit ARM, and building it on the Pi needs the development" >&2
            echo "install.sh: packages and hours. Write 'Raspberry Pi OS Lite (64-bit)' to the card with Raspberry Pi" >&2
            echo "install.sh: Imager (the Pi 4, Pi 5 and Zero 2 W all run it), copy this folder over and run this again." >&2
            exit 1
        fi ;;
    *) if [ "$FORCE" -eq 1 ]; then say "Architecture $ARCH is untested: carrying on because of --force."
       else echo "install.sh: architecture $ARCH is not one the companion is made for (64-bit ARM: arm64). Add --force to try anyway." >&2; exit 1; fi ;;
esac

# Raspberry Pi OS is Debian plus /etc/rpi-issue (written by the image builder).
OS_NAME="$( (. "$ROOT/etc/os-release" 2>/dev/null && echo "${PRETTY_NAME:-unknown}") || echo "unknown (no /etc/os-release)")"
if [ ! -f "$ROOT/etc/rpi-issue" ]; then
    if [ "$FORCE" -eq 1 ]; then
        say "This is $OS_NAME, not Raspberry Pi OS: carrying on because of --force."
    else
        echo "install.sh: this is $OS_NAME, not Raspberry Pi OS (no /etc/rpi-issue)." >&2
        echo "install.sh: the companion is made for Raspberry Pi OS Lite (64-bit) Bookworm or later on a Pi 4, 5 or Zero 2 W." >&2
        echo "install.sh: to install anyway (a Debian machine with a display and the same groups), add --force." >&2
        exit 1
    fi
fi
[ -n "$ROOT" ] && say "Installing into $ROOT (--root): files are written there; system commands are only printed."
[ -z "$ROOT" ] && ! systemd_running && say "systemd is not running here (a chroot or a container): the service is set up but not started; it starts at the next boot."

# ---------------------------------------------------------------- uninstall

if [ "$UNINSTALL" -eq 1 ]; then
    say "Removing the Sugar Table Companion"
    if systemd_running || [ -n "$ROOT" ]; then run systemctl disable --now companion.service || true; fi
    remove_path /etc/systemd/system/multi-user.target.wants/companion.service
    remove_path "$UNIT"
    remove_path "$(dirname "$DROPIN")"
    systemd_running || [ -n "$ROOT" ] && run systemctl daemon-reload
    remove_path "$RULES"
    systemd_running || [ -n "$ROOT" ] && { run udevadm control --reload-rules || true; }
    if [ -f "$ROOT$BOOT_BEFORE" ] && [ "$(cat "$ROOT$BOOT_BEFORE")" = graphical.target ]; then
        mkdir -p "$ROOT/etc/systemd/system"
        ln -sfn /lib/systemd/system/graphical.target "$ROOT/etc/systemd/system/default.target"
        changed "boots to the desktop again (default.target -> graphical.target), from the next boot"
    fi
    remove_path "$LINK"
    remove_path "$PREFIX"
    # The unit had Conflicts=getty@tty1.service: give the console its login prompt back now
    # (getty.target starts it at every boot anyway).
    if systemd_running || [ -n "$ROOT" ]; then run systemctl start getty@tty1.service || true; fi
    CMDLINE="$(cmdline_file)"
    if [ -n "$CMDLINE" ] && grep -qw 'consoleblank=0' "$ROOT$CMDLINE"; then
        sed -i 's/ *consoleblank=0//' "$ROOT$CMDLINE"
        changed "$CMDLINE: removed consoleblank=0 (console blanking back to the default)"
    fi
    say "Kept $CONFIG (your settings), $STATE (the game history) and the user companion, who owns"
    say "the history (so no file is left owned by a user that no longer exists). To remove them too:"
    say "  sudo rm -r $STATE /etc/companion && sudo userdel companion"
    say "I2C stays enabled (sudo raspi-config nonint do_i2c 1 turns it off)."
    say "${#CHANGED[@]} change(s)."
    exit 0
fi

# ---------------------------------------------------------------- install

say "Installing the Sugar Table Companion from $SRC${WHEELHOUSE:+ (offline, wheels from $WHEELHOUSE)}"

say "1. Debian packages: ${APT_PACKAGES[*]}"
if [ -n "$ROOT" ]; then
    [ -z "$WHEELHOUSE" ] && run apt-get update
    [ -n "$WHEELHOUSE" ] && [ -d "$WHEELHOUSE/debs" ] && run apt-get install -y --no-install-recommends -o APT::Sandbox::User=root "$WHEELHOUSE/debs/*.deb"
    run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
else
    # Not installed, and not a Raspberry Pi OS-only package this system's archive lacks.
    missing() {
        local p out=()
        for p in "${APT_PACKAGES[@]}"; do
            dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' && continue
            if printf '%s\n' "${APT_PI_ONLY[@]}" | grep -qx "$p" && ! apt-cache show "$p" >/dev/null 2>&1; then
                say "  $p is not in this system's archive (it is Raspberry Pi OS's): skipped" >&2
                continue
            fi
            out+=("$p")
        done
        echo "${out[*]}"
    }
    MISSING="$(missing)"
    if [ -z "$MISSING" ]; then
        unchanged "all installed"
    else
        if [ -n "$WHEELHOUSE" ] && ls "$WHEELHOUSE"/debs/*.deb >/dev/null 2>&1; then
            # Trixie's apt reads local .debs as its _apt user, which cannot enter a home
            # folder made 0700 (Trixie's default): the user's own files, read as root.
            run apt-get install -y --no-install-recommends -o APT::Sandbox::User=root "$WHEELHOUSE"/debs/*.deb
        elif ! run apt-get update; then
            say "  apt-get update failed (no network?): trying with the package lists already here"
        fi
        WANT=($(missing 2>/dev/null))
        if [ "${#WANT[@]}" -gt 0 ] && ! run apt-get install -y --no-install-recommends "${WANT[@]}"; then
            echo "install.sh: could not install ${WANT[*]} with apt-get. With no network, bring them in the" >&2
            echo "install.sh: wheelhouse: hardware/make-wheelhouse.sh --debs on a Pi with the same OS that is online." >&2
            exit 1
        fi
        changed "installed Debian packages: $MISSING"
    fi
fi

say "2. The service user 'companion' (home $STATE) in the groups ${GROUPS_WANTED[*]}"
if [ -n "$ROOT" ]; then
    run useradd --system --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin --user-group companion
    run usermod -aG "$(IFS=,; echo "${GROUPS_WANTED[*]}")" companion
else
    if getent passwd companion >/dev/null; then
        unchanged "user companion exists"
    else
        run useradd --system --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin --user-group companion
        changed "created user companion"
    fi
    for g in "${GROUPS_WANTED[@]}"; do
        if ! getent group "$g" >/dev/null; then
            # The unit names every group (SupplementaryGroups=): a missing one stops it starting.
            run groupadd --system "$g"
            changed "created group $g (not on this system before)"
        fi
        if id -nG companion | tr ' ' '\n' | grep -qx "$g"; then
            unchanged "companion is in $g"
        else
            run usermod -aG "$g" companion
            changed "added companion to $g"
        fi
    done
fi

# systemd makes the state folder at the first start (StateDirectory=); making it now lets
# `companion calibrate --out /var/lib/companion/...` and doctor work before that.
if [ -n "$ROOT" ] || [ ! -d "$STATE" ]; then
    run install -d -o companion -g companion -m 0750 "$STATE"
    [ -z "$ROOT" ] && changed "made $STATE (the game history lives here)"
fi

say "3. The program: a venv in $PREFIX/venv (with the system's evdev and lgpio)"
install_file "$SRC/README.md" "$PREFIX/README.md" 644 || true
install_file "$SRC/hardware/companion.toml.example" "$PREFIX/companion.toml.example" 644 || true
PIP_SOURCE=()
[ -n "$WHEELHOUSE" ] && PIP_SOURCE=(--no-index --find-links "$WHEELHOUSE")
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_WARN_SCRIPT_LOCATION=1
HASH="$(source_hash)"
if [ -n "$ROOT" ]; then
    run python3 -m venv --system-site-packages "$PREFIX/venv"
    run "$PREFIX/venv/bin/pip" wheel --no-deps --wheel-dir TMP/dist "${PIP_SOURCE[@]}" TMP/src
    run "$PREFIX/venv/bin/pip" install --upgrade "${PIP_SOURCE[@]}" "TMP/dist/*.whl"
    mkdir -p "$ROOT$(dirname "$STAMP")"; echo "$HASH" > "$ROOT$STAMP"
elif [ -x "$PREFIX/venv/bin/companion" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$HASH" ] \
        && "$PREFIX/venv/bin/python" -c 'import companion, pygame, evdev' 2>/dev/null; then
    unchanged "$PREFIX/venv has this version of the program"
else
    if [ ! -x "$PREFIX/venv/bin/python" ]; then
        run python3 -m venv --system-site-packages "$PREFIX/venv"
        changed "created $PREFIX/venv"
    fi
    # Build from a copy in a temporary folder: building in place would leave root-owned
    # build/ and *.egg-info in your copy of the source.
    TMP="$(mktemp -d)"
    trap 'rm -rf "$TMP"' EXIT
    mkdir "$TMP/src"
    tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./out --exclude=./build \
        --exclude='*.egg-info' --exclude=__pycache__ -cf - . | tar -C "$TMP/src" -xf -
    run "$PREFIX/venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$TMP/dist" "${PIP_SOURCE[@]}" "$TMP/src"
    if ! run "$PREFIX/venv/bin/pip" install --quiet --upgrade "${PIP_SOURCE[@]}" "$TMP"/dist/*.whl; then
        echo "install.sh: pip could not install the program (above: what it missed). Offline, use" >&2
        echo "install.sh: --wheelhouse DIR with the wheels from hardware/make-wheelhouse.sh." >&2
        exit 1
    fi
    echo "$HASH" > "$STAMP"
    changed "installed $("$PREFIX/venv/bin/companion" --version 2>/dev/null || echo 'the program') into $PREFIX/venv"
    RESTART=1
fi
if [ "$(readlink "$ROOT$LINK" 2>/dev/null)" = "$PREFIX/venv/bin/companion" ]; then
    unchanged "$LINK"
else
    mkdir -p "$ROOT$(dirname "$LINK")"
    ln -sfn "$PREFIX/venv/bin/companion" "$ROOT$LINK"
    changed "linked $LINK (the companion command for every user)"
fi

say "4. I2C on (for the tray sensor), console boot, console blanking off"
if [ -n "$ROOT" ] || command -v raspi-config >/dev/null; then
    run raspi-config nonint do_i2c 0
else
    say "  no raspi-config here: turn I2C on yourself (dtparam=i2c_arm=on in config.txt, and the i2c-dev module)"
fi
# A desktop image starts a display manager (graphical.target), which holds the screen SDL's
# kmsdrm driver needs. Boot to the console instead, as a kiosk does; --uninstall restores it.
BOOT="$(default_target)"
if [ "$BOOT" = graphical.target ] && [ -L "$ROOT/etc/systemd/system/display-manager.service" ]; then
    echo "$BOOT" > "$ROOT$BOOT_BEFORE"
    ln -sfn /lib/systemd/system/multi-user.target "$ROOT/etc/systemd/system/default.target"
    changed "boots to the console now, not the desktop (default.target -> multi-user.target; --uninstall restores it)"
    systemd_running && run systemctl stop display-manager.service
    [ -n "$ROOT" ] && run systemctl stop display-manager.service
else
    unchanged "boots to the console ($BOOT, no display manager)"
fi
CMDLINE="$(cmdline_file)"
if [ -z "$CMDLINE" ]; then
    say "  no /boot/firmware/cmdline.txt: console blanking left as it is"
elif grep -qw 'consoleblank=0' "$ROOT$CMDLINE"; then
    unchanged "$CMDLINE has consoleblank=0"
else
    sed -i '1 s/[[:space:]]*$/ consoleblank=0/' "$ROOT$CMDLINE"
    changed "$CMDLINE: added consoleblank=0 (the screen never blanks; takes effect after a reboot)"
fi

say "5. Config, udev rules and the service"
if [ -f "$ROOT$CONFIG" ]; then
    unchanged "$CONFIG kept as you have it (every key: $PREFIX/companion.toml.example)"
else
    install_file "$SRC/hardware/companion.toml.example" "$CONFIG" 644 && RESTART=1
fi
if install_file "$SRC/hardware/99-sugar-companion.rules" "$RULES" 644 && { systemd_running || [ -n "$ROOT" ]; }; then
    run udevadm control --reload-rules
    run udevadm trigger --subsystem-match=tty --subsystem-match=input
fi
UNIT_CHANGED=0
install_file "$SRC/systemd/companion.service" "$UNIT" 644 && UNIT_CHANGED=1
# The companion opens no socket: no network at all, unless a [venue] (MQTT) is configured;
# then `companion venue enable` writes venue-network.conf, which opens it to the broker only
# (AF_INET/AF_INET6, IPAddressAllow= localhost and the broker: companion/venue/unit.py).
if grep -q '^[[:space:]]*broker[[:space:]]*=' "$ROOT$CONFIG" 2>/dev/null; then  # [venue] broker = ... set
    say "  $CONFIG has a [venue]: the network is opened to its broker only (companion venue enable)"
    [ -e "$ROOT$DROPIN" ] && { remove_path "$DROPIN"; UNIT_CHANGED=1; }
    OPENED="$ROOT$(dirname "$DROPIN")/venue-network.conf"
    BEFORE_SUM="$(if [ -f "$OPENED" ]; then sha256sum < "$OPENED"; fi)"
    # (no daemon-reload or restart of its own: this script does both below when needed)
    run "$PREFIX/venv/bin/companion" venue enable --config "$CONFIG" --no-restart
    if [ "$(if [ -f "$OPENED" ]; then sha256sum < "$OPENED"; fi)" != "$BEFORE_SUM" ]; then UNIT_CHANGED=1; fi
else
    OPENED="$(dirname "$DROPIN")/venue-network.conf"
    [ -e "$ROOT$OPENED" ] && { remove_path "$OPENED"; UNIT_CHANGED=1; }
    install_file "$SRC/systemd/no-network.conf" "$DROPIN" 644 && UNIT_CHANGED=1
fi
[ "$UNIT_CHANGED" -eq 1 ] && RESTART=1
WANTS="/etc/systemd/system/multi-user.target.wants/companion.service"
if [ "$(readlink "$ROOT$WANTS" 2>/dev/null)" = "$UNIT" ]; then
    unchanged "companion.service enabled"
else
    # What `systemctl enable` does; works without a running systemd (a chroot) and under --root.
    mkdir -p "$(dirname "$ROOT$WANTS")"
    ln -sfn "$UNIT" "$ROOT$WANTS"
    changed "enabled companion.service ($WANTS)"
fi
if [ -n "$ROOT" ]; then
    run systemctl daemon-reload
    run systemctl restart companion.service
elif ! systemd_running; then
    say "  systemd is not running: not started now (it starts at the next boot)"
else
    [ "$UNIT_CHANGED" -eq 1 ] && run systemctl daemon-reload
    # --no-block: the unit is Type=notify and says READY=1 only once the panel shows the
    # table; without a panel attached yet, a blocking start would wait TimeoutStartSec and
    # then fail the whole install. The service keeps trying by itself (Restart=always).
    if [ "$RESTART" -eq 1 ]; then
        run systemctl reset-failed companion.service 2>/dev/null || true
        run systemctl --no-block restart companion.service
        say "  the companion is starting: it is up when the panel shows the table (systemctl status companion)"
    elif running_or_starting; then
        unchanged "companion.service running (not restarted: nothing changed)"
    else
        run systemctl --no-block start companion.service
        changed "started companion.service"
        say "  the companion is starting: it is up when the panel shows the table (systemctl status companion)"
    fi
fi

say ""
say "Done: ${#CHANGED[@]} change(s)."
for c in "${CHANGED[@]}"; do say "  - $c"; done
say "Edit $CONFIG (players, readers, pins), then: sudo systemctl restart companion"
say "Check everything: sudo -u companion companion doctor --config $CONFIG"
say "Wiring diagrams: $SRC/wiring/README.md"
