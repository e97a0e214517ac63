#!/usr/bin/env bash
# subfix fix --remux against the ffmpeg CLI on the generated ~300 MB MKV with three dense text subtitle tracks
# (Benchmarks/lib/big-mkv.sh, shared with extract.sh): subfix reads the text tracks (pass 1), fixes them, cuts
# the font subsets, and writes the whole file again with the fixed tracks and the fonts attached (pass 2,
# flushed with fsync before the rename); ffmpeg copies every stream and attaches one font
# (`ffmpeg -i IN -map 0 -c copy -attach FONT -metadata:s:t mimetype=font/otf OUT.mkv`, no fsync), measured in
# the same run (ffmpeg also computes the optional CRC-32 elements, which subfix, like mkvmerge, leaves out).
# Targets: no slower than ffmpeg; peak RSS under 100 MB. Wall time is the best of $REPEAT runs; peak RSS from
# GNU time (-v). Also checks that subfix's output has the very video packets of the input.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SUBFIX_BIN:-.build/release/subfix}
work=bench-out/remux
input=bench-out/extract/big.mkv
font=Fonts/NotoSansCJKsc-Subset.otf
repeat=${REPEAT:-3}
mkdir -p "$work"
[ -x "$bin" ] || { echo "remux bench: $bin missing (swift build -c release)" >&2; exit 1; }

Benchmarks/lib/big-mkv.sh "$input"
echo "input: $input, $(( $(stat -c %s "$input") / 1024 / 1024 )) MB"
cat "$input" > /dev/null   # same page cache state for everyone

# shellcheck source=lib/measure.sh
source Benchmarks/lib/measure.sh

read -r subfix_wall subfix_rss < <(measure "$bin" fix "$input" --remux --out "$work/subfix" --db "$work/db.sqlite")
read -r ffmpeg_wall ffmpeg_rss < <(measure ffmpeg -nostdin -hide_banner -loglevel error -y -i "$input" \
    -map 0 -c copy -attach "$font" -metadata:s:t mimetype=font/otf "$work/ffmpeg.mkv")
# Memory must not follow the file's size: the same remux of the 67 KB sample for comparison.
read -r _ small_rss < <(REPEAT=1 measure "$bin" fix Samples/tram.mkv --remux --out "$work/sample" \
    --db "$work/db.sqlite")

output=$work/subfix/big.mkv
framemd5() { ffmpeg -nostdin -v error -i "$1" -map 0:v -f framemd5 -c copy - | grep -v '^#' | md5sum; }
same=no
[ "$(framemd5 "$input")" = "$(framemd5 "$output")" ] && same=yes
attached=$(ffprobe -v error -select_streams t -show_entries stream_tags=filename -of csv=p=0 "$output" | paste -sd, -)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '%-52s %8s %10s\n' "run (best of $repeat)" "wall s" "peak RSS"
printf '%-52s %8.2f %7d MB\n' "subfix fix --remux (2 passes, 3 tracks fixed, fsync)" "$subfix_wall" \
    $((subfix_rss / 1024))
printf '%-52s %8.2f %7d MB\n' "ffmpeg -map 0 -c copy -attach FONT" "$ffmpeg_wall" $((ffmpeg_rss / 1024))
echo "subfix / ffmpeg: $(ratio "$subfix_wall" "$ffmpeg_wall")x  (target <= 1.00)"
echo "subfix peak RSS: $((subfix_rss / 1024)) MB (target < 100 MB); on the 67 KB sample: $((small_rss / 1024)) MB"
echo "fonts attached by subfix: $attached"
echo "video packets identical to the input: $same"
[ "$same" = yes ]
