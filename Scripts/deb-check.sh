#!/usr/bin/env bash
# `make deb-check`: installs the package `make deb` built into a clean Debian 12 (bookworm) root, as a user would
# (`apt-get install ./subfix_*.deb`, which must find every dependency from the control file's Depends), then runs
# `subfix --version`, `subfix probe` and `subfix fix` of the samples there (a subtitle file, and a Matroska file,
# which loads the FFmpeg libraries the package opens by name rather than links).
#
# The root is made once with `debootstrap --variant=minbase` and kept under CACHE/bookworm; each run works on a
# fresh copy of it (CACHE/root, removed afterwards), so the package always meets a system that never had it. The
# .deb files apt downloads are kept in CACHE/archives and handed to the next run. Recommends (fonts-noto-cjk) are
# not installed: the fix has to work with the font the package ships.
#
# Needs root (debootstrap, chroot, mounting /proc) and the Debian mirror (DEB_CHECK_MIRROR, default
# http://deb.debian.org/debian); nothing else from the network. First run: about 3 minutes for the root plus the
# dependencies' download; later runs about 2 minutes.
#
# Usage: Scripts/deb-check.sh PACKAGE.deb CACHE
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 2 ] || { echo "usage: $0 PACKAGE.deb CACHE" >&2; exit 2; }
deb="$1"
cache="$2"
mirror="${DEB_CHECK_MIRROR:-http://deb.debian.org/debian}"
[ -f "$deb" ] || { echo "deb-check: $deb: no such package (run make deb)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "deb-check: needs root (debootstrap, chroot and mount)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "deb-check: debootstrap not found (apt-get install debootstrap)" >&2; exit 1; }

mkdir -p "$cache/archives"
base="$cache/bookworm"
if [ ! -f "$base/.subfix-complete" ]; then
    echo "deb-check: making a minimal Debian 12 root in $base (debootstrap, once)"
    rm -rf "$base" "$base.partial"
    debootstrap --variant=minbase bookworm "$base.partial" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
        { tail -20 "$cache/debootstrap.log" >&2; echo "deb-check: debootstrap failed (log: $cache/debootstrap.log)" >&2; exit 1; }
    touch "$base.partial/.subfix-complete"
    mv "$base.partial" "$base"
fi

root="$cache/root"
cleanup() {
    mountpoint -q "$root/proc" 2>/dev/null && umount "$root/proc"
    rm -rf "$root"
}
trap cleanup EXIT
cleanup
cp -a "$base" "$root"
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cp "$cache/archives/"*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
name="$(basename "$deb")"
cp "$deb" "$root/tmp/$name"
mkdir -p "$root/tmp/samples"
cp "$here/Samples/yahei-styles.ass" "$here/Samples/tram.mkv" "$root/tmp/samples/"

# Run a command in the root with a clean environment, as root in /tmp.
in_root() {
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive sh -c "cd /tmp && $1"
}

echo "deb-check: apt-get install ./$name in a clean bookworm root"
in_root "apt-get update -qq" >"$cache/apt.log" 2>&1 ||
    { cat "$cache/apt.log" >&2; echo "deb-check: apt-get update failed" >&2; exit 1; }
in_root "apt-get install -y -q --no-install-recommends ./$name" >>"$cache/apt.log" 2>&1 ||
    { tail -30 "$cache/apt.log" >&2; echo "deb-check: the package does not install (log: $cache/apt.log)" >&2; exit 1; }
cp -n "$root/var/cache/apt/archives/"*.deb "$cache/archives/" 2>/dev/null || true

fail() { echo "deb-check: $1" >&2; exit 1; }
version="$(in_root "subfix --version")" || fail "subfix --version failed"
echo "$version" | sed 's/^/  /'
echo "$version" | head -1 | grep -q '^subfix ' || fail "subfix --version did not print 'subfix VERSION'"
in_root "subfix probe samples/tram.mkv" >/dev/null || fail "subfix probe samples/tram.mkv failed (FFmpeg libraries?)"
in_root "subfix fix samples/yahei-styles.ass samples/tram.mkv --out out --naming jellyfin -q" ||
    fail "subfix fix failed"
listing="$(in_root "ls out" | tr '\n' ' ')"
echo "  fixed: $listing"
for expected in yahei-styles.ass tram.zh-Hans.zh.default.ass tram.en.srt tram.ja.forced.ass; do
    in_root "test -s out/$expected" || fail "subfix fix wrote no out/$expected (wrote: $listing)"
done
in_root "grep -q 'Noto Sans CJK' out/yahei-styles.ass" || fail "out/yahei-styles.ass names no Noto Sans CJK face"
echo "deb-check: $name installs on a clean Debian 12 and runs"
