#!/usr/bin/env bash
# `make demo`: runs subfix on Samples/ and shows what it did. Outputs go to demo-out/.
set -euo pipefail
bin=${1:-.build/debug/subfix}
out=demo-out
rm -rf "$out" && mkdir -p "$out"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "subfix --version"
"$bin" --version

step "Samples/"
ls -l Samples

# --- media: probe the sample MKV, then extract the player's track 1 (the first subtitle stream: Chinese) ---
step "subfix probe Samples/tram.mkv"
"$bin" probe Samples/tram.mkv

step "subfix extract Samples/tram.mkv --track 1 --attachments $out/fonts --out $out"
echo "(track 1 is the player's first subtitle track: ffmpeg's 0:s:0, stream 2, the Chinese one; 0 would be \"Disable\")"
"$bin" extract Samples/tram.mkv --track 1 --attachments "$out/fonts" --out "$out"
head -n 20 "$out/tram.0.chi.ass"

step "subfix fix Samples --out $out/fixed"
"$bin" fix Samples --out "$out/fixed" || true

step "what changed in yahei-styles.ass (excerpt of the diff)"
"$bin" fix Samples/yahei-styles.ass --dry-run --diff | sed -n '1,40p'

step "fixing the fixed files again changes nothing"
"$bin" fix "$out/fixed" --dry-run

# --- search: index Samples/ (sidecar files and the MKV/MP4 text tracks), then query it in three languages ---
step "subfix index Samples --db $out/library.sqlite"
"$bin" index Samples --db "$out/library.sqlite"

step "subfix search 字幕 --db $out/library.sqlite   (Chinese: two characters)"
"$bin" search 字幕 --db "$out/library.sqlite"

step "subfix search 終電 --db $out/library.sqlite --context 1   (Japanese, with the neighbouring lines)"
"$bin" search 終電 --db "$out/library.sqlite" --context 1

step "subfix search 'tram OR ticket' --db $out/library.sqlite --json   (English, alternatives)"
"$bin" search 'tram OR ticket' --db "$out/library.sqlite" --json

step "subfix jobs --db $out/library.sqlite"
"$bin" jobs --db "$out/library.sqlite"
