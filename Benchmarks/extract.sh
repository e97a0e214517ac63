#!/usr/bin/env bash
# subfix extract against the ffmpeg CLI on a generated MKV of at least 300 MB with three dense text subtitle tracks:
# subfix pulling all three tracks in one demux pass, against one `ffmpeg -map 0:s:0` run and against three runs
# (one per track), measured in the same run. Targets: three tracks in no more wall time than ffmpeg takes for
# one; peak RSS under 100 MB. Wall time is the best of $REPEAT runs; peak RSS from GNU time (-v).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SUBFIX_BIN:-.build/release/subfix}
work=bench-out/extract
input=$work/big.mkv
repeat=${REPEAT:-3}
mkdir -p "$work"
[ -x "$bin" ] || { echo "extract bench: $bin missing (swift build -c release)" >&2; exit 1; }

size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

Benchmarks/lib/big-mkv.sh "$input"
echo "input: $input, $(( $(size_of "$input") / 1024 / 1024 )) MB"
cat "$input" > /dev/null   # same page cache state for everyone

# shellcheck source=lib/measure.sh
source Benchmarks/lib/measure.sh

ff=(ffmpeg -nostdin -hide_banner -loglevel error -y -i "$input")
exts=(ass srt ass)

read -r subfix_wall subfix_rss < <(measure "$bin" extract "$input" --all --out "$work/subfix")
read -r one_wall one_rss < <(measure "${ff[@]}" -map 0:s:0 "$work/ffmpeg.0.ass")
read -r three_wall three_rss < <(measure bash -c '
    for n in 0 1 2; do ext=ass; [ $n = 1 ] && ext=srt
        ffmpeg -nostdin -hide_banner -loglevel error -y -i "$0" -map 0:s:$n "$1/ffmpeg.$n.$ext"; done' "$input" "$work")

# Memory must not follow the file's size: the same extraction on the 67 KB sample for comparison.
read -r _ small_rss < <(REPEAT=1 measure "$bin" extract Samples/tram.mkv --all --out "$work/subfix-sample")

# The outputs must be the same bytes as ffmpeg's.
same=yes
for n in 0 1 2; do
    ours=$(ls "$work"/subfix/big."$n".*)
    cmp -s "$ours" "$work/ffmpeg.$n.${exts[$n]}" || { same=no; echo "DIFFERS: $ours" >&2; }
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '%-44s %8s %10s\n' "run (best of $repeat)" "wall s" "peak RSS"
printf '%-44s %8.2f %7d MB\n' "subfix extract --all (3 tracks, 1 pass)" "$subfix_wall" $((subfix_rss / 1024))
printf '%-44s %8.2f %7d MB\n' "ffmpeg -map 0:s:0 (1 track)" "$one_wall" $((one_rss / 1024))
printf '%-44s %8.2f %7d MB\n' "ffmpeg x3 (3 tracks, 3 passes)" "$three_wall" $((three_rss / 1024))
echo "subfix 3 tracks / ffmpeg 1 track:  $(ratio "$subfix_wall" "$one_wall")x  (target <= 1.00)"
echo "subfix 3 tracks / ffmpeg 3 tracks: $(ratio "$subfix_wall" "$three_wall")x"
echo "subfix peak RSS: $((subfix_rss / 1024)) MB (target < 100 MB); on the 67 KB sample: $((small_rss / 1024)) MB"
echo "outputs identical to ffmpeg: $same"
[ "$same" = yes ]
