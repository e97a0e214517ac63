#!/usr/bin/env bash
# Runs lintian on a package `Scripts/make-deb.sh` built (`make deb-check` on the release package; the install tests
# on one built from the debug binary) and fails on any error or warning: the package is lintian-clean, with no
# overrides. Info tags (font-outside-font-dir for the bundled font, hardening-no-bindnow of Swift's linker
# defaults) are printed but do not fail.
#
# Usage: Scripts/lint-deb.sh PACKAGE.deb [--debug-build]
#   --debug-build: the package holds a debug build (make-deb.sh --allow-unpackaged-libs), whose RUNPATH names the
#   toolchain's Swift runtime; lintian's custom-library-search-path, which a release build cannot have, is left
#   out. Everything else is checked as for the release package.
set -euo pipefail
usage() { echo "usage: $0 PACKAGE.deb [--debug-build]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
deb="$1"
suppress=()
if [ $# -eq 2 ]; then
    [ "$2" = --debug-build ] || usage
    suppress=(--suppress-tags custom-library-search-path)
fi
command -v lintian >/dev/null || { echo "lint-deb: lintian not found (apt-get install lintian)" >&2; exit 1; }
[ -f "$deb" ] || { echo "lint-deb: $deb: no such package (run make deb)" >&2; exit 1; }
# lintian's "running with root privileges is not recommended" is the only line it writes to standard error as root.
if lintian --fail-on error,warning --tag-display-limit 0 --display-info "${suppress[@]}" "$deb" 2> >(grep -v 'root privileges' >&2); then
    echo "lint-deb: $(basename "$deb"): no lintian errors or warnings"
else
    echo "lint-deb: $(basename "$deb"): lintian reports the errors or warnings above" >&2
    exit 1
fi
