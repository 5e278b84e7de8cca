#!/usr/bin/env bash
# Install the Sugar Table Companion on Raspberry Pi OS so it starts on boot.
#
#   sudo hardware/install.sh               install or update (safe to run again)
#   sudo hardware/install.sh --uninstall   remove the service, udev rules and /opt/companion
#                                          (keeps your config and game history)
#   hardware/install.sh --root DIR         write the files into DIR instead of / (no root
#                                          needed, no network): commands that change the
#                                          running system are printed, not run
#   --force                                install on an OS that is not Raspberry Pi OS
#
# What it does: apt-get installs python3-venv, python3-lgpio and i2c-tools; creates the
# system user `companion` (groups input, video, render, i2c, gpio, dialout); makes a venv
# in /opt/companion/venv with this package; enables I2C (raspi-config); turns console
# blanking off (consoleblank=0 in cmdline.txt); installs /etc/companion/companion.toml
# (only if you have none), the udev rules and the systemd unit; enables and starts the
# service. Every change is printed; a second run changes nothing that is already right.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT=""
FORCE=0
UNINSTALL=0
APT_PACKAGES=(python3-venv python3-pip python3-lgpio i2c-tools)
GROUPS_WANTED=(input video render i2c gpio dialout)
UNIT=/etc/systemd/system/companion.service
RULES=/etc/udev/rules.d/99-sugar-companion.rules
CONFIG=/etc/companion/companion.toml
PREFIX=/opt/companion
STATE=/var/lib/companion
CHANGED=()

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a folder" >&2; exit 2; }
                ROOT="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
        --root=*) ROOT="$(mkdir -p "${1#--root=}" && cd "${1#--root=}" && pwd)"; shift ;;
        --force) FORCE=1; shift ;;
        --uninstall) UNINSTALL=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
done
[ "$ROOT" = "/" ] && ROOT=""

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

# install_file SOURCE DEST MODE: copy when missing or different, and say which.
install_file() {
    local src="$1" dest="$ROOT$2" mode="$3"
    if [ -f "$dest" ] && cmp -s "$src" "$dest"; then
        [ "$(stat -c %a "$dest")" = "$mode" ] || { chmod "$mode" "$dest"; changed "$2 mode $mode"; return; }
        unchanged "$2"
    else
        install -D -m "$mode" "$src" "$dest"
        changed "wrote $2"
    fi
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

# ---------------------------------------------------------------- checks

if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root: sudo $0 $*" >&2
    exit 1
fi

# Raspberry Pi OS is Debian plus /etc/rpi-issue (written by the image builder).
OS_NAME="$( (. "$ROOT/etc/os-release" 2>/dev/null && echo "${PRETTY_NAME:-unknown}") || echo "unknown (no /etc/os-release)")"
if [ ! -f "$ROOT/etc/rpi-issue" ]; then
    if [ "$FORCE" -eq 1 ]; then
        say "This is $OS_NAME, not Raspberry Pi OS: carrying on because of --force."
    else
        echo "install.sh: this is $OS_NAME, not Raspberry Pi OS (no /etc/rpi-issue)." >&2
        echo "install.sh: the companion is made for Raspberry Pi OS Bookworm or later on a Pi 4, 5 or Zero 2 W." >&2
        echo "install.sh: to install anyway (a Debian machine with a display and the same groups), add --force." >&2
        exit 1
    fi
fi
[ -n "$ROOT" ] && say "Installing into $ROOT (--root): files are written there; system commands are only printed."

# ---------------------------------------------------------------- uninstall

if [ "$UNINSTALL" -eq 1 ]; then
    say "Removing the Sugar Table Companion"
    run systemctl disable --now companion.service || true
    remove_path /etc/systemd/system/multi-user.target.wants/companion.service
    remove_path "$UNIT"
    run systemctl daemon-reload
    remove_path "$RULES"
    run udevadm control --reload-rules
    remove_path "$PREFIX"
    CMDLINE="$(cmdline_file)"
    if [ -n "$CMDLINE" ] && grep -qw 'consoleblank=0' "$ROOT$CMDLINE"; then
        sed -i 's/ *consoleblank=0//' "$ROOT$CMDLINE"
        changed "$CMDLINE: removed consoleblank=0 (console blanking back to the default)"
    fi
    if [ -n "$ROOT" ] || getent passwd companion >/dev/null; then
        run userdel companion
    fi
    say "Kept $CONFIG (your settings) and $STATE (the game history): remove them by hand if you want them gone."
    say "I2C stays enabled (sudo raspi-config nonint do_i2c 1 turns it off)."
    say "${#CHANGED[@]} change(s)."
    exit 0
fi

# ---------------------------------------------------------------- install

say "Installing the Sugar Table Companion from $SRC"

say "1. Debian packages: ${APT_PACKAGES[*]}"
run apt-get update
if [ -z "$ROOT" ]; then
    # python3-lgpio comes from Raspberry Pi OS's own archive; elsewhere (--force) go without it.
    AVAILABLE=()
    for p in "${APT_PACKAGES[@]}"; do
        if apt-cache show "$p" >/dev/null 2>&1; then AVAILABLE+=("$p"); else say "  $p is not in this system's archive: skipped"; fi
    done
    APT_PACKAGES=("${AVAILABLE[@]}")
fi
run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

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

say "3. The program: a venv in $PREFIX/venv (with the system's lgpio)"
install_file "$SRC/README.md" "$PREFIX/README.md" 644
install_file "$SRC/hardware/companion.toml.example" "$PREFIX/companion.toml.example" 644
if [ -n "$ROOT" ]; then
    run python3 -m venv --system-site-packages "$PREFIX/venv"
    run "$PREFIX/venv/bin/pip" install --upgrade "$SRC"
else
    if [ ! -x "$PREFIX/venv/bin/python" ]; then
        run python3 -m venv --system-site-packages "$PREFIX/venv"
        changed "created $PREFIX/venv"
    fi
    run "$PREFIX/venv/bin/pip" install --quiet --upgrade "$SRC"
    changed "installed $(cd "$SRC" && git describe --always --dirty 2>/dev/null || echo 'this copy') into $PREFIX/venv"
fi

say "4. I2C on (for the tray sensor) and console blanking off"
if [ -n "$ROOT" ] || command -v raspi-config >/dev/null; then
    run raspi-config nonint do_i2c 0
else
    say "  no raspi-config here: turn I2C on yourself (dtparam=i2c_arm=on in config.txt, and the i2c-dev module)"
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
    install_file "$SRC/hardware/companion.toml.example" "$CONFIG" 644
fi
install_file "$SRC/hardware/99-sugar-companion.rules" "$RULES" 644
run udevadm control --reload-rules
run udevadm trigger --subsystem-match=tty --subsystem-match=input
install_file "$SRC/systemd/companion.service" "$UNIT" 644
WANTS="/etc/systemd/system/multi-user.target.wants/companion.service"
if [ -n "$ROOT" ]; then
    # What `systemctl enable` does, so the scratch root shows it.
    if [ "$(readlink "$ROOT$WANTS" 2>/dev/null)" = "$UNIT" ]; then
        unchanged "companion.service enabled"
    else
        mkdir -p "$(dirname "$ROOT$WANTS")"
        ln -sfn "$UNIT" "$ROOT$WANTS"
        changed "enabled companion.service ($WANTS)"
    fi
    run systemctl daemon-reload
    run systemctl restart companion.service
else
    run systemctl daemon-reload
    if systemctl is-enabled --quiet companion.service; then
        unchanged "companion.service enabled"
    else
        run systemctl enable companion.service
        changed "enabled companion.service"
    fi
    run systemctl restart companion.service
fi

say ""
say "Done: ${#CHANGED[@]} change(s)."
for c in "${CHANGED[@]}"; do say "  - $c"; done
say "Edit $CONFIG (players, readers, pins), then: sudo systemctl restart companion"
say "Check everything: sudo -u companion $PREFIX/venv/bin/companion doctor --config $CONFIG"
say "Wiring diagrams: $SRC/wiring/README.md"
