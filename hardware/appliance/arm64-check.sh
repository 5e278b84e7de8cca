#!/usr/bin/env bash
# The arm64 install check: hardware/install.sh --wheelhouse in a Debian 12 (or, DIST=trixie, 13) arm64 root with
# Raspberry Pi OS Lite's packages (no python3-dev), run through qemu-user-static, with no
# network; then `companion --version` and a headless game there. `make arm64-check`.
#
# Needs root and, on the host: apt-get install qemu-user-static binfmt-support debootstrap.
# The root is built once (build-image.sh arm64) and cached in $APPLIANCE_CACHE; each run
# installs into an overlay of it, so the cached root stays a fresh Lite card.
# A chroot has no systemd running: install.sh must say so and set the service up without
# starting it. One line per check, PASS or FAIL with seconds; exit 1 on any FAIL.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="${APPLIANCE_CACHE:-/var/cache/sugar-companion-appliance}"
# DIST=trixie: Debian 13 (Raspberry Pi OS Trixie, Python 3.13); the default is bookworm.
DIST="${DIST:-bookworm}"
case "$DIST" in
    bookworm) LOWER="$CACHE/rootfs-arm64"; PY=3.11; OUT="${1:-$REPO/out/appliance}/arm64" ;;
    trixie) LOWER="$CACHE/rootfs-trixie-arm64"; PY=3.13; OUT="${1:-$REPO/out/appliance}/arm64-trixie" ;;
    *) echo "arm64-check.sh: DIST is bookworm or trixie, not $DIST" >&2; exit 2 ;;
esac
# Exit 2 when the check cannot run (1 is a FAIL): one line naming what to install.
lacking=""
for t in debootstrap:debootstrap qemu-aarch64-static:qemu-user-static update-binfmts:binfmt-support; do
    command -v "${t%%:*}" >/dev/null || lacking="$lacking ${t#*:}"
done
[ -z "$lacking" ] || { echo "arm64-check.sh: this host lacks${lacking}: sudo apt-get install${lacking}" >&2; exit 2; }
# Without a registered qemu-aarch64 binfmt handler (a container, binfmt_misc not mounted)
# every arm64 program in the chroot fails with "Exec format error".
grep -qs '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 || { echo "arm64-check.sh: arm64 programs cannot run here" \
    "(no qemu-aarch64 binfmt handler): sudo mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc;" \
    "sudo update-binfmts --enable qemu-aarch64" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "arm64-check.sh: needs root (chroot, mount)" >&2; exit 2; }
FAILS=0
T0=$(date +%s)
result() { # result OK|FAIL NAME SECONDS DETAIL
    printf '%s  %s  (%s s)  %s\n' "$1" "$2" "$3" "$4"; [ "$1" = PASS ] || FAILS=$((FAILS + 1)); }

s=$(date +%s)
"$HERE/build-image.sh" arm64 "$CACHE" "$DIST" >/dev/null || { echo "FAIL  building the arm64 root"; exit 1; }
result PASS "arm64 $DIST root with Raspberry Pi OS Lite's packages (cached after the first build)" $(( $(date +%s) - s )) "$LOWER"

# An overlay: the install writes into $OUT/upper, the cached root is untouched.
mkdir -p "$OUT"
ROOT="$OUT/root"
cleanup() {
    for m in "$ROOT/proc" "$ROOT/sys" "$ROOT/dev" "$ROOT"; do mountpoint -q "$m" && umount -l "$m"; done
}
trap cleanup EXIT
cleanup
rm -rf "$OUT/upper" "$OUT/work"; mkdir -p "$OUT/upper" "$OUT/work" "$ROOT"
mount -t overlay overlay -o "lowerdir=$LOWER,upperdir=$OUT/upper,workdir=$OUT/work" "$ROOT"
mount -t proc proc "$ROOT/proc"; mount -t sysfs sys "$ROOT/sys"; mount --bind /dev "$ROOT/dev"

# The clone (the files git knows) in a user's home, and the wheelhouse beside it.
s=$(date +%s)
chroot "$ROOT" id pi >/dev/null 2>&1 || chroot "$ROOT" useradd -m -s /bin/bash pi
DEST="$ROOT/home/pi/sugar-table-companion"
mkdir -p "$DEST"
(cd "$REPO" && git ls-files -co --exclude-standard -z | xargs -0 -I{} cp --parents -a {} "$DEST/" 2>/dev/null)
chroot "$ROOT" chown -R pi:pi /home/pi/sugar-table-companion
"$REPO/hardware/make-wheelhouse.sh" "$ROOT/home/pi/wheelhouse" --arch aarch64 --python "$PY" >/dev/null 2>&1
# The .debs: what `make-wheelhouse.sh --debs` fetches on an online Lite card (here the root
# itself, before the network is taken away).
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mkdir -p "$ROOT/home/pi/wheelhouse/debs/partial"
chroot "$ROOT" apt-get update -q >/dev/null
chroot "$ROOT" apt-get install -y -q --download-only --no-install-recommends \
    -o Dir::Cache::archives=/home/pi/wheelhouse/debs \
    python3-venv python3-evdev i2c-tools libgbm1 libegl1 libgles2 libgl1-mesa-dri fontconfig >/dev/null
rm -rf "$ROOT/home/pi/wheelhouse/debs/partial" "$ROOT/home/pi/wheelhouse/debs/lock"
result PASS "clone, aarch64 wheelhouse ($(ls "$ROOT"/home/pi/wheelhouse/*.whl | wc -l) wheels) and $(ls "$ROOT"/home/pi/wheelhouse/debs/*.deb | wc -l) .debs" $(( $(date +%s) - s )) ""

# The install, with no network (unshare -n), as root in the chroot.
s=$(date +%s)
unshare -n chroot "$ROOT" /home/pi/sugar-table-companion/hardware/install.sh --force \
    --wheelhouse /home/pi/wheelhouse > "$OUT/install.log" 2>&1
rc=$?
took=$(( $(date +%s) - s ))
if [ $rc -eq 0 ] && grep -q "systemd is not running here" "$OUT/install.log" \
        && ! chroot "$ROOT" dpkg -s python3-dev >/dev/null 2>&1; then
    result PASS "install.sh --wheelhouse in the arm64 root, offline, no python3-dev; says it does not start the service" $took "log: $OUT/install.log"
else
    result FAIL "install.sh --wheelhouse in the arm64 root, offline, no python3-dev" $took "rc $rc: $(tail -3 "$OUT/install.log" | tr '\n' '/')"
fi
if [ -L "$ROOT/etc/systemd/system/multi-user.target.wants/companion.service" ] && [ -z "$(find "$DEST" -user root | head -1)" ]; then
    result PASS "the service is enabled for the next boot; nothing root-owned left in the user's copy" 0 ""
else
    result FAIL "the service is enabled for the next boot; nothing root-owned left in the user's copy" 0 "$(find "$DEST" -user root | head -2 | tr '\n' ' ')"
fi
s=$(date +%s)
version="$(unshare -n chroot "$ROOT" companion --version 2>&1)"
arch="$(chroot "$ROOT" dpkg --print-architecture)"
if [[ "$version" == companion* ]]; then result PASS "companion --version on $arch" $(( $(date +%s) - s )) "$version"
else result FAIL "companion --version on $arch" $(( $(date +%s) - s )) "$version"; fi

s=$(date +%s)
game="$(printf 'SRF064\nSRB220\nSRG41N\nSRR22B\nSRA51Y\n' | unshare -n chroot "$ROOT" env SDL_VIDEODRIVER=dummy \
    SDL_AUDIODRIVER=dummy HOME=/tmp companion run --game sugarrr --names Ana,Ben --headless --simulate \
    --store /tmp/arm64-check.db 2>&1)"
echo "$game" > "$OUT/game.log"
if [ "$(grep -cE '^[^ ].* starts column [1-5]\.' <<<"$game")" -eq 5 ]; then
    result PASS "a headless Sugarrr! game on arm64 (5 column scans, 5 verdicts)" $(( $(date +%s) - s )) "log: $OUT/game.log"
else
    result FAIL "a headless Sugarrr! game on arm64" $(( $(date +%s) - s )) "$(head -5 <<<"$game" | tr '\n' '/')"
fi

echo
echo "$FAILS FAIL in $(( $(date +%s) - T0 )) s (arm64 $DIST through qemu-user-static)"
[ "$FAILS" -eq 0 ]
