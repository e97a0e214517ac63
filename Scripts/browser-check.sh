#!/usr/bin/env bash
# Loads an HTML page in headless Chromium (Debian's `chromium`, from `make deps`) as a person's browser would,
# lets it run for two seconds of virtual time (timers and image errors fire), and leaves in OUTDIR:
#   dom.html      the DOM after loading (`--dump-dom`): what any script on the page did to it shows here
#   console.txt   every console message and page error the page caused (CSP violations included), one a line
#   chromium.log  Chromium's own standard error, for diagnosis
#   Scripts/browser-check.sh report.html /tmp/check
# Exit 0 when the page was loaded; 3 when Chromium is missing, 4 when it failed (the reason on stderr).
set -uo pipefail
page="${1:?usage: browser-check.sh PAGE OUTDIR}"
out="${2:?usage: browser-check.sh PAGE OUTDIR}"
browser="${CHROMIUM:-chromium}"
if ! command -v "$browser" >/dev/null 2>&1; then
    echo "browser-check: '$browser' not found: install Debian's chromium package (make deps)" >&2
    exit 3
fi
mkdir -p "$out"
profile=$(mktemp -d "${TMPDIR:-/tmp}/subfix-chromium-XXXXXX")
trap 'rm -rf "$profile"' EXIT
url="file://$(realpath "$page")"
# --no-sandbox: the tests run as root, where Chromium's sandbox refuses to start. No network is touched: the
# page is a local file, and the flags below turn off Chromium's own background requests.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --virtual-time-budget=2000 \
    --dump-dom "$url" >"$out/dom.html" 2>"$out/chromium.log"
status=$?
# Console lines look like `[pid:tid:time:INFO:CONSOLE:12] "message", source: file:///... (12)`.
grep -E ':CONSOLE[:(]' "$out/chromium.log" >"$out/console.txt" || true
if [ $status -ne 0 ] || [ ! -s "$out/dom.html" ]; then
    echo "browser-check: chromium exited with status $status and wrote no DOM; its last lines:" >&2
    tail -5 "$out/chromium.log" >&2
    exit 4
fi
