#!/usr/bin/env bash
# Build, once, a Debian 12 (bookworm) or 13 (trixie) root with Raspberry Pi OS Lite's package
# set, for the appliance check (hardware/appliance/check.py) and the arm64 install check.
#
#   hardware/appliance/build-image.sh amd64 CACHE   -> CACHE/bookworm-amd64.img (ext4, systemd
#                                                       as PID 1), vmlinuz, initrd.img
#   hardware/appliance/build-image.sh arm64 CACHE   -> CACHE/rootfs-arm64/ (a chroot, run
#                                                       through qemu-user-static)
#   hardware/appliance/build-image.sh amd64 CACHE trixie
#                                                   -> CACHE/trixie-amd64.img, trixie-vmlinuz,
#                                                      trixie-initrd.img (and rootfs-trixie-ARCH/)
#
# Needs root and the Debian archive (deb.debian.org), on the host only. A finished image is
# marked CACHE/<name>.done and never rebuilt; delete the folder to start again.
#
# The package set is pi-gen's stage0-2 lists (Raspberry Pi OS Lite), minus what Debian has
# not (raspi-*, rpi-*, firmware, Pi kernels) and what the check never touches (gdb,
# manpages-dev, lua, udisks2, bluez, ntfs-3g, cloud-init). Like Lite it has build-essential
# and python3-venv but no python3-dev, no python3-evdev, no Mesa (libgbm1, libegl1,
# libgles2) and no fontconfig: the installer must bring those.
set -euo pipefail
ARCH="${1:?usage: build-image.sh amd64|arm64 CACHE [bookworm|trixie]}"
CACHE="$(mkdir -p "${2:?usage: build-image.sh amd64|arm64 CACHE [bookworm|trixie]}" && cd "$2" && pwd)"
DIST="${3:-bookworm}"
case "$DIST" in bookworm|trixie) ;; *) echo "build-image.sh: the dist is bookworm or trixie, not $DIST" >&2; exit 2 ;; esac
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# Bookworm keeps the names it always had (caches already built stay valid); trixie's are prefixed.
if [ "$DIST" = bookworm ]; then NAME="rootfs-$ARCH"; PRE=""; else NAME="rootfs-$DIST-$ARCH"; PRE="$DIST-"; fi
ROOT="$CACHE/$NAME"
[ "$(id -u)" -eq 0 ] || { echo "build-image.sh: needs root (debootstrap, chroot)" >&2; exit 1; }

LITE=(systemd-sysv udev dbus kmod locales initramfs-tools netbase systemd-timesyncd
      ssh less fbset sudo psmisc strace ed ncdu console-setup keyboard-configuration
      debconf-utils parted build-essential bash-completion pkg-config python-is-python3
      v4l-utils gpiod python3-libgpiod python3-gpiozero python3-spidev python3-smbus2
      avahi-daemon ca-certificates curl usbutils dosfstools apt-listchanges usb-modeswitch
      rsync htop man-db ethtool pciutils unzip zip p7zip-full file python3-venv
      wpasupplicant wireless-tools network-manager net-tools)
[ "$ARCH" = amd64 ] && LITE+=(linux-image-amd64)

if [ -f "$CACHE/$NAME.done" ]; then
    echo "cached: $ROOT"
else
    start=$(date +%s)
    rm -rf "$ROOT"
    debootstrap --arch "$ARCH" --variant=minbase --include=ca-certificates "$DIST" "$ROOT" "$MIRROR"
    printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"; chmod 755 "$ROOT/usr/sbin/policy-rc.d"
    mount -t proc proc "$ROOT/proc"; mount --bind /dev "$ROOT/dev"; mount -t sysfs sys "$ROOT/sys"
    trap 'umount -l "$ROOT/proc" "$ROOT/dev" "$ROOT/sys" 2>/dev/null || true' EXIT
    chroot "$ROOT" apt-get update -q
    DEBIAN_FRONTEND=noninteractive chroot "$ROOT" apt-get install -y -q --no-install-recommends "${LITE[@]}"
    chroot "$ROOT" apt-get clean
    umount -l "$ROOT/proc" "$ROOT/dev" "$ROOT/sys"; trap - EXIT
    rm -f "$ROOT/usr/sbin/policy-rc.d"
    for p in python3-dev python3-evdev libgbm1 libegl1 libgles2 libgl1-mesa-dri fontconfig; do
        if chroot "$ROOT" dpkg -s "$p" >/dev/null 2>&1; then echo "build-image.sh: $p is installed: not Lite" >&2; exit 1; fi
    done
    echo "$DIST $ARCH root built in $(( $(date +%s) - start )) s"
    touch "$CACHE/$NAME.done"
fi
[ "$ARCH" = amd64 ] || exit 0

# ------------------------------------------------- the amd64 VM: a bootable ext4 image
IMG="$CACHE/$DIST-amd64.img"
if [ -f "$IMG.done" ]; then echo "cached: $IMG"; exit 0; fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
echo sugar-table > "$ROOT/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 sugar-table\n' > "$ROOT/etc/hosts"
printf '/dev/vda / ext4 defaults,errors=remount-ro 0 1\n' > "$ROOT/etc/fstab"
ln -sf /usr/share/zoneinfo/Etc/UTC "$ROOT/etc/localtime"
# A maker's account, as Raspberry Pi Imager makes one: the clone is copied into its home.
chroot "$ROOT" id pi >/dev/null 2>&1 || chroot "$ROOT" useradd -m -s /bin/bash -G sudo pi
# The check's serial agent on a virtio serial port (not part of the product: the VM's stand-in for ssh).
install -D -m 755 "$HERE/guest_agent.py" "$ROOT/usr/local/sbin/appliance-agent"
cat > "$ROOT/etc/systemd/system/appliance-agent.service" <<'UNIT'
[Unit]
Description=Appliance check agent on a virtio serial port (test harness only)
DefaultDependencies=no
After=systemd-remount-fs.service
[Service]
ExecStart=/usr/bin/python3 /usr/local/sbin/appliance-agent /dev/virtio-ports/agent
Restart=always
RestartSec=1
[Install]
WantedBy=sysinit.target
UNIT
mkdir -p "$ROOT/etc/systemd/system/sysinit.target.wants"
ln -sf /etc/systemd/system/appliance-agent.service "$ROOT/etc/systemd/system/sysinit.target.wants/"
# No network exists in the VM: do not wait for it.
ln -sf /dev/null "$ROOT/etc/systemd/system/NetworkManager-wait-online.service"
ln -sf /dev/null "$ROOT/etc/systemd/system/systemd-networkd-wait-online.service"
# Nothing in the VM can use a network: its services would only slow each boot (20 power cuts).
for s in NetworkManager.service wpa_supplicant.service avahi-daemon.service avahi-daemon.socket ssh.service \
         ModemManager.service apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer; do
    ln -sf /dev/null "$ROOT/etc/systemd/system/$s"
done
# A small initramfs: only what finds the root on virtio (TCG loads and unpacks it each boot).
printf 'virtio_pci\nvirtio_blk\next4\n' > "$ROOT/etc/initramfs-tools/modules"
sed -i 's/^MODULES=.*/MODULES=list/; s/^COMPRESS=.*/COMPRESS=gzip/' "$ROOT/etc/initramfs-tools/initramfs.conf"
chroot "$ROOT" update-initramfs -u -k all
cp -L "$ROOT/vmlinuz" "$CACHE/${PRE}vmlinuz"
cp -L "$ROOT/initrd.img" "$CACHE/${PRE}initrd.img"
rm -f "$IMG"
mkfs.ext4 -q -L sugar-root -d "$ROOT" "$IMG" 4G
touch "$IMG.done"
echo "built $IMG"
