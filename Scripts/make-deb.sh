#!/usr/bin/env bash
# Builds the Debian package `subfix_VERSION_ARCH.deb` (`make deb`) from a built binary: the install tree of
# Scripts/install-tree.sh under /usr (man pages gzipped), /usr/share/doc/subfix/copyright, and a control file
# whose Depends come from the libraries the binary needs:
#   - the ones it links (ELF NEEDED), through dpkg-shlibdeps and the installed packages' symbols files;
#   - FFmpeg's, libpq, libass, fontconfig, HarfBuzz and uchardet, which subfix opens on first use (dlopen, see
#     Sources/CFFmpegLoader, Sources/CLibPQLoader and Sources/CTextLoader) and so never appear in NEEDED:
#     their sonames are read from the binary and mapped through the owning packages' shlibs files.
# dpkg-deb --root-owner-group makes every file root's without fakeroot. The packaged binary is stripped; its debug
# symbols go to OUTDIR/subfix_VERSION_ARCH.debug, which the binary names (.gnu_debuglink) and gdb loads with
# `symbol-file` or from /usr/lib/debug/.build-id. The package is lintian-clean (`Scripts/lint-deb.sh`).
# Maintainer: DEB_MAINTAINER ("Name <address>"), else the author of the checkout's last commit.
#
# Usage: Scripts/make-deb.sh BINARY OUTDIR [--allow-unpackaged-libs]
#   --allow-unpackaged-libs: let libraries no Debian package provides (a debug build's Swift runtime in the
#   toolchain) through without a dependency; for tests of the package's layout only. Without it such a binary is
#   refused. `make deb` builds with --static-swift-stdlib, so its binary links none.
# DEB_COMPRESSION (xz by default; gzip, zstd or none) is passed to dpkg-deb -Z; tests use none for speed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 BINARY OUTDIR [--allow-unpackaged-libs]" >&2; exit 2; }
binary="$1"
outdir="$2"
lenient=no
if [ $# -eq 3 ]; then
    [ "$3" = --allow-unpackaged-libs ] || { echo "usage: $0 BINARY OUTDIR [--allow-unpackaged-libs]" >&2; exit 2; }
    lenient=yes
fi
for tool in dpkg-deb dpkg-shlibdeps dpkg-query objdump objcopy strip; do
    command -v "$tool" >/dev/null || { echo "deb: $tool not found (apt-get install dpkg-dev)" >&2; exit 1; }
done
[ -x "$binary" ] || { echo "deb: $binary: no such executable" >&2; exit 1; }

# Every library the binary links must come from a Debian package, or the package could not declare it
# (dpkg-shlibdeps only warns about those).
needed=($(objdump -p "$binary" | awk '$1 == "NEEDED" { print "*/" $2 }'))
# One query for all of them (each one reads dpkg's whole file list); unmatched patterns are reported on stderr.
unpackaged=($(dpkg-query -S "${needed[@]}" 2>&1 >/dev/null |
    sed -n 's|^dpkg-query: no path found matching pattern \*/||p' || true))
if [ ${#unpackaged[@]} -gt 0 ] && [ "$lenient" = no ]; then
    echo "deb: $binary links libraries no Debian package provides: ${unpackaged[*]}" >&2
    echo "deb: build it with --static-swift-stdlib (make deb does)" >&2
    exit 1
fi

version="$("$binary" --version | sed -n '1s/^subfix //p')"
[ -n "$version" ] || { echo "deb: $binary --version did not print 'subfix VERSION'" >&2; exit 1; }
arch="$(dpkg --print-architecture)"
maintainer="${DEB_MAINTAINER:-$(git -C "$here" log -1 --format='%an <%ae>' 2>/dev/null || true)}"
[[ "$maintainer" =~ ^[^\<\>]+\ \<[^@\<\>\ ]+@[^@\<\>\ ]+\.[^@\<\>\ ]+\>$ ]] || {
    echo "deb: no maintainer: set DEB_MAINTAINER='Name <address>' (the checkout has no commit to take it from)" >&2
    exit 1
}
# The changelog's date: the last commit's (the same package from the same commit), else now.
date="$(git -C "$here" log -1 --format=%cD 2>/dev/null || true)"
[ -n "$date" ] || date="$(date -R)"
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/subfix"
mkdir -p "$outdir"
"$here/Scripts/install-tree.sh" install "$binary" "$root" /usr --gzip-man >/dev/null
# The debug symbols (most of a release build's 89 MB) kept apart, the packaged binary stripped as dh_strip does.
debug="$outdir/subfix_${version}_${arch}.debug"
objcopy --only-keep-debug --compress-debug-sections "$root/usr/bin/subfix" "$debug"
chmod 644 "$debug"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/subfix"
objcopy --add-gnu-debuglink="$debug" "$root/usr/bin/subfix"

# The copyright file (DEP-5): subfix itself, the Swift runtime linked into it, and the bundled font.
install -d "$root/usr/share/doc/subfix"
{
    cat <<'COPYRIGHT'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: subfix
Comment: subfix's source tree carries no licence file of its own yet; until it does, the terms are those its
 authors give with the source.

Files: usr/bin/subfix
Copyright: the subfix authors
License: unspecified
 The source tree names no licence.
Comment: The executable links the Swift standard library, Foundation and Dispatch statically, under
 License: Apache-2.0 with Runtime Library Exception (https://swift.org/LICENSE.txt); on Debian systems the
 Apache License 2.0 is in /usr/share/common-licenses/Apache-2.0.

Files: usr/share/subfix/fonts/*
COPYRIGHT
    sed -n '1s/^/Copyright: /p' "$here/Fonts/LICENSE"
    echo "License: OFL-1.1"
    # The licence text, as DEP-5 wants it: each line indented, blank lines as " .".
    sed -e 's/^$/./' -e 's/^/ /' "$here/Fonts/LICENSE"
} >"$root/usr/share/doc/subfix/copyright"
chmod 644 "$root/usr/share/doc/subfix/copyright"
# The changelog Debian policy asks every package for (subfix is a native package: changelog.gz).
printf 'subfix (%s) unstable; urgency=medium\n\n  * subfix %s.\n\n -- %s  %s\n' \
    "$version" "$version" "$maintainer" "$date" | gzip -9n >"$root/usr/share/doc/subfix/changelog.gz"
chmod 644 "$root/usr/share/doc/subfix/changelog.gz"

# Depends: the linked libraries through dpkg-shlibdeps, which wants to run in a source tree.
mkdir -p "$work/src/debian"
printf 'Source: subfix\n\nPackage: subfix\nArchitecture: any\n' >"$work/src/debian/control"
linked="$(cd "$work/src" && dpkg-shlibdeps -O -e"$root/usr/bin/subfix" 2>"$work/shlibdeps.log" |
    sed -n 's/^shlibs:Depends=//p')" || { cat "$work/shlibdeps.log" >&2; exit 1; }
# Then the libraries the binary opens by name, each at the lowest version that has every function the binary
# looks up (dlsym names are strings in the binary), from the package's symbols file as dpkg-shlibdeps reads it for
# linked libraries; the shlibs file's version when there is no symbols file.
strings -n 4 "$binary" | grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | LC_ALL=C sort -u >"$work/strings"
opened=()
for soname in $(grep -aoE 'lib(avformat|avcodec|avutil|swscale|pq|ass|fontconfig|harfbuzz|harfbuzz-subset|uchardet|freetype)\.so\.[0-9]+' "$binary" | sort -u); do
    package="$(dpkg-query -S "/usr/lib/$multiarch/$soname" 2>/dev/null | head -1 | cut -d: -f1)" || true
    [ -n "$package" ] || { echo "deb: no installed package provides $soname (apt-get install the -dev packages)" >&2; exit 1; }
    info=/var/lib/dpkg/info/"$package"
    [ -f "$info:$arch.shlibs" ] && info="$info:$arch"
    dependency=""
    if [ -f "$info.symbols" ]; then
        minimum=""
        for needed_version in $(awk '/^ / { split($1, name, "@"); print name[1], $2 }' "$info.symbols" |
            LC_ALL=C sort -k1,1 | LC_ALL=C join - "$work/strings" | awk '{ print $2 }' | sort -u); do
            if [ -z "$minimum" ] || dpkg --compare-versions "$needed_version" gt "$minimum"; then
                minimum="$needed_version"
            fi
        done
        [ -n "$minimum" ] && dependency="$package (>= $minimum)"
    fi
    if [ -z "$dependency" ] && [ -f "$info.shlibs" ]; then
        library="${soname%%.so.*}"
        major="${soname##*.so.}"
        dependency="$(awk -v l="$library" -v m="$major" \
            '$1 == l && $2 == m { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' "$info.shlibs")"
    fi
    opened+=("${dependency:-$package}")
done
depends="$linked"
for dependency in "${opened[@]}"; do depends="${depends:+$depends, }$dependency"; done

install -d "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: subfix
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: fonts-noto-cjk
Section: video
Priority: optional
Description: fix the fonts of CJK subtitles so they render
 subfix rewrites the fonts that ASS/SSA, SRT and WebVTT subtitles name to a CJK
 font that is there (losslessly, in any encoding), extracts embedded tracks
 from MKV/MP4, renders frames headlessly through libass to check the fix, and
 indexes every dialogue line so a library can be searched.
 .
 The package ships a Noto Sans CJK SC subset as its default font;
 fonts-noto-cjk (recommended: apt installs it unless told not to) brings the
 full Simplified and Traditional Chinese, Japanese and Korean faces (Sans and
 Serif, Regular and Bold) subfix picks by the language of the text.
CONTROL
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

deb="$outdir/subfix_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" --build "$root" "$deb" >/dev/null
echo "deb: $deb"
echo "deb: Depends: $depends"
