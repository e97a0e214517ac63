#!/usr/bin/env bash
# OCR of bitmap subtitle tracks (issue 33): `subfix`'s recognizer (libavcodec decoding, bitmap preparation,
# Tesseract through its C API with one engine per thread) over VobSub tracks made from known lines (5 languages,
# 1080 and 480 lines), against the tesseract CLI run on the very same prepared bitmaps (one process per event, as
# scripts around the CLI run it), both on every core in the same run. Prints the character accuracy per language
# and height, and events per second of each with their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=.build/release/ocr-bench
out=bench-out/ocr
[ -x "$bench" ] || { echo "ocr.sh: build first: swift build -c release" >&2; exit 1; }
command -v tesseract >/dev/null || { echo "ocr.sh: the tesseract CLI is missing: make bench-deps" >&2; exit 1; }
export LC_ALL=C.UTF-8 OMP_THREAD_LIMIT=1
jobs=$(nproc)
rm -rf "$out"
"$bench" generate "$out"
now() { date +%s.%N; }

t0=$(now)
report=$("$bench" run "$out" "$jobs")
t1=$(now)
printf 'machine: %s cores, load average %s\n' "$jobs" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'character accuracy (1 - edit distance / length), goal at 1080p: eng >= 98%%, CJK >= 95%%\n'
echo "$report" | grep -v '^events ' | awk '{ printf "  %-14s %s events  %s\n", $1, $3, $5 }'
events=$(echo "$report" | awk '/^events / { print $2 }')
t_subfix=$(echo "$t1 - $t0" | bc -l)

pgms=("$out"/pgm/*.pgm)
t0=$(now)
printf '%s\n' "${pgms[@]}" | xargs -P "$jobs" -I{} sh -c \
    'lang=$(basename "$1" | cut -d- -f1); tesseract "$1" "${1%.pgm}" -l "$lang" --psm 6 >/dev/null 2>&1' _ {}
t1=$(now)
t_cli=$(echo "$t1 - $t0" | bc -l)
printf 'subfix extract --ocr  %3d events in %6.3f s  %6.1f events/s  (decode + prepare + recognize, %d jobs)\n' \
    "$events" "$t_subfix" "$(echo "$events / $t_subfix" | bc -l)" "$jobs"
printf 'tesseract CLI         %3d events in %6.3f s  %6.1f events/s  (the same prepared bitmaps, %d at once)\n' \
    "${#pgms[@]}" "$t_cli" "$(echo "${#pgms[@]} / $t_cli" | bc -l)" "$jobs"
printf 'ratio subfix/CLI: %.2fx the events per second\n' \
    "$(echo "($events / $t_subfix) / (${#pgms[@]} / $t_cli)" | bc -l)"

# Memory over a long track: peak resident size of `subfix extract --ocr` on a short and a ten-times-longer track
# (1,500 events is a two-hour film at one subtitle every five seconds); flat means events are not held as pictures.
bin=${SUBFIX_BIN:-.build/release/subfix}
long=${OCR_BENCH_LONG:-1500}
short=$((long / 10))
"$bench" long "$out/long-$short.mkv" "$short"
"$bench" long "$out/long-$long.mkv" "$long"
peak() { /usr/bin/time -f '%M' "$bin" extract "$1" --track 1 --ocr --jobs "$jobs" --out "$out/long-out" --quiet \
    2>&1 >/dev/null | tail -1; }
m_short=$(peak "$out/long-$short.mkv")
m_long=$(peak "$out/long-$long.mkv")
printf 'peak memory: %d events %d MB, %d events %d MB (%.2fx for %dx the events)\n' "$short" "$((m_short / 1024))" \
    "$long" "$((m_long / 1024))" "$(echo "$m_long / $m_short" | bc -l)" 10
