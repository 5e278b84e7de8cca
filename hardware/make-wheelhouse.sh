#!/usr/bin/env bash
# Make a wheelhouse for `install.sh --wheelhouse DIR`, on any machine with internet, for a Pi
# that has none (a café's):
#
#   hardware/make-wheelhouse.sh DIR                  wheels for Raspberry Pi OS Bookworm
#                                                    64-bit (aarch64, Python 3.11)
#   hardware/make-wheelhouse.sh DIR --arch x86_64    for a PC or the appliance check's VM
#   hardware/make-wheelhouse.sh DIR --python 3.13    for Trixie
#   sudo hardware/make-wheelhouse.sh DIR --debs      also the Debian packages this machine
#                                                    lacks, as DIR/debs/*.deb: run it on an
#                                                    online Pi with the same OS as the
#                                                    offline one (a fresh Lite card)
#
# Then copy DIR (a USB stick) beside this folder on the Pi:
#   sudo hardware/install.sh --wheelhouse DIR
#
# The wheels: every dependency in pyproject.toml except evdev (apt's python3-evdev: PyPI has
# only its source, which would need compiling), and setuptools and wheel to build the
# companion's own wheel offline. Plain `pip download` with the Pi's platform tags:
#   pip download --only-binary=:all: --platform manylinux2014_aarch64 \
#       --platform manylinux_2_28_aarch64 --python-version 3.11 --implementation cp \
#       --abi cp311 --dest DIR pygame-ce pyserial smbus2 gpiozero reportlab setuptools wheel
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR=""; ARCH=aarch64; PY=3.11; DEBS=0
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) ARCH="${2:?--arch needs aarch64 or x86_64}"; shift 2 ;;
        --python) PY="${2:?--python needs a version like 3.11}"; shift 2 ;;
        --debs) DEBS=1; shift ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "make-wheelhouse.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
        *) DIR="$1"; shift ;;
    esac
done
[ -n "$DIR" ] || { echo "make-wheelhouse.sh: give the folder to fill (try --help)" >&2; exit 2; }
case "$ARCH" in aarch64|x86_64) ;; *) echo "make-wheelhouse.sh: --arch is aarch64 or x86_64, not $ARCH" >&2; exit 2 ;; esac
mkdir -p "$DIR"
PYTHON="$(command -v python3.11 || command -v python3)"
mapfile -t REQS < <("$PYTHON" - "$SRC/pyproject.toml" <<'PY'
import sys, tomllib
deps = tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]
for d in deps:
    if not d.split(";")[0].strip().startswith("evdev"):
        print(d.split(";")[0].strip())
PY
)
ABI="cp${PY/./}"
"$PYTHON" -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --platform "manylinux2014_$ARCH" --platform "manylinux_2_28_$ARCH" --platform "manylinux_2_34_$ARCH" \
    --python-version "$PY" --implementation cp --abi "$ABI" \
    --dest "$DIR" "${REQS[@]}" "setuptools>=68" wheel
echo "$(ls "$DIR"/*.whl | wc -l) wheels in $DIR for $ABI $ARCH: $(cd "$DIR" && ls *.whl | sed 's/-[0-9].*//' | tr '\n' ' ')"
if [ "$DEBS" -eq 1 ]; then
    [ "$(id -u)" -eq 0 ] || { echo "make-wheelhouse.sh: --debs needs root (apt-get)" >&2; exit 1; }
    # The packages install.sh wants; python3-lgpio exists only in Raspberry Pi OS's archive.
    PKGS=(python3-venv python3-evdev i2c-tools libgbm1 libegl1 libgles2 libgl1-mesa-dri fontconfig)
    apt-cache show python3-lgpio >/dev/null 2>&1 && PKGS+=(python3-lgpio)
    mkdir -p "$DIR/debs/partial"
    apt-get update -q
    apt-get install -y -q --download-only --no-install-recommends -o Dir::Cache::archives="$(cd "$DIR/debs" && pwd)" "${PKGS[@]}"
    rm -rf "$DIR/debs/partial" "$DIR/debs/lock"
    echo "$(ls "$DIR"/debs/*.deb 2>/dev/null | wc -l) Debian packages in $DIR/debs (what this machine lacks of ${PKGS[*]})"
fi
