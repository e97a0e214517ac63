#!/usr/bin/env bash
# Reading media politely (#18 item 5): a generated Matroska file of MEDIA_BENCH_MB (default 4096 MB: raw 1280x720
# video and one dense ASS track), read whole by `subfix extract` and by `subfix fix`, against `ffmpeg -map 0:s:0`
# in the same run. Targets: peak memory flat (no more than the same run on the 67 KB sample plus 50 MB), and
# with --max-read-rate the whole run's read rate no more than the limit (5% slack for timer rounding).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SUBFIX_BIN:-.build/release/subfix}
work=bench-out/media-read
input=$work/huge.mkv
megabytes=${MEDIA_BENCH_MB:-4096}
repeat=1
mkdir -p "$work"
[ -x "$bin" ] || { echo "media-read bench: $bin missing (swift build -c release)" >&2; exit 1; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }
# shellcheck source=lib/measure.sh
source Benchmarks/lib/measure.sh

# One 1280x720 yuv420p frame is 1,382,400 bytes; 25 frames a second.
frames=$(( megabytes * 1048576 / 1382400 + 1 ))
seconds=$(( frames / 25 + 1 ))
if [ "$(size_of "$input")" -lt $(( megabytes * 1048576 )) ]; then
    echo "generating $input ($megabytes MB: raw 1280x720 video, $seconds s, one ASS track with a cue every 100 ms) ..."
    /usr/bin/python3 - "$work/track.ass" "$seconds" <<'PY'
import sys
path, seconds = sys.argv[1], int(sys.argv[2])
def stamp(ms):
    h, ms = divmod(ms, 3600000); m, ms = divmod(ms, 60000); s, ms = divmod(ms, 1000)
    return f"{h}:{m:02}:{s:02}.{ms // 10:02}"
with open(path, "w", encoding="utf-8") as f:
    f.write("[Script Info]\nScriptType: v4.00+\nPlayResX: 1280\nPlayResY: 720\n\n[V4+ Styles]\n"
            "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic,"
            " Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL,"
            " MarginR, MarginV, Encoding\n"
            "Style: Default,微软雅黑,48,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1\n\n"
            "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n")
    for n, start in enumerate(range(0, seconds * 1000, 100)):
        f.write(f"Dialogue: 0,{stamp(start)},{stamp(start + 90)},Default,,0,0,0,,第{n}行：末班车马上就要开了。\n")
PY
    ffmpeg -nostdin -hide_banner -loglevel error -y \
        -f lavfi -i "color=c=gray:size=1280x720:rate=25" -i "$work/track.ass" \
        -map 0:v -map 1:s -frames:v "$frames" -c:v rawvideo -pix_fmt yuv420p -c:s copy \
        -metadata:s:s:0 language=chi "$input"
fi
size=$(size_of "$input")
mb=$(awk -v s="$size" 'BEGIN { printf "%.0f", s / 1048576 }')
echo "input: $input, $mb MB"
cat "$input" > /dev/null   # the same page cache state for every run

read -r ff_wall ff_rss < <(measure ffmpeg -nostdin -hide_banner -loglevel error -y -i "$input" -map 0:s:0 "$work/ffmpeg.ass")
rm -rf "$work/subfix"
read -r ex_wall ex_rss < <(measure "$bin" extract "$input" --all --out "$work/subfix")
rm -rf "$work/sample"
read -r _ small_rss < <(measure "$bin" extract Samples/tram.mkv --all --out "$work/sample")
rm -rf "$work/fixed"
read -r fix_wall fix_rss < <(measure "$bin" fix "$input" --out "$work/fixed" --jobs 1)

# The limit: a little under half of what the unlimited run read per second, so the limit is what decides.
rate=$(awk -v s="$size" -v t="$ex_wall" 'BEGIN { r = s / t / 2.5; if (r > 400e6) r = 400e6; printf "%.0f", r }')
rm -rf "$work/limited"
read -r lim_wall lim_rss < <(measure "$bin" extract "$input" --all --out "$work/limited" --max-read-rate "$rate")
effective=$(awk -v s="$size" -v t="$lim_wall" 'BEGIN { printf "%.0f", s / t }')

cmp -s "$work/ffmpeg.ass" "$work"/subfix/huge.0.*.ass && same=yes || same=no
mbs() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
printf '%-48s %8s %10s %10s\n' "run" "wall s" "MB/s" "peak RSS"
per_s() { awk -v s="$size" -v t="$1" 'BEGIN { printf "%.1f", s / t / 1e6 }'; }
printf '%-48s %8.2f %10s %7d MB\n' "ffmpeg -map 0:s:0" "$ff_wall" "$(per_s "$ff_wall")" $((ff_rss / 1024))
printf '%-48s %8.2f %10s %7d MB\n' "subfix extract --all" "$ex_wall" "$(per_s "$ex_wall")" $((ex_rss / 1024))
printf '%-48s %8.2f %10s %7d MB\n' "subfix fix (sidecar)" "$fix_wall" "$(per_s "$fix_wall")" $((fix_rss / 1024))
printf '%-48s %8.2f %10s %7d MB\n' "subfix extract --all --max-read-rate $(mbs "$rate")M" "$lim_wall" "$(mbs "$effective")" $((lim_rss / 1024))
echo "extract / ffmpeg wall: $(awk -v a="$ex_wall" -v b="$ff_wall" 'BEGIN { printf "%.2f", a / b }')x"
flat=$(( ex_rss <= small_rss + 51200 && fix_rss <= small_rss + 51200 && lim_rss <= small_rss + 51200 ))
echo "peak RSS on $mb MB: extract $((ex_rss / 1024)) MB, fix $((fix_rss / 1024)) MB, limited $((lim_rss / 1024)) MB;" \
    "on the 67 KB sample $((small_rss / 1024)) MB: $([ $flat = 1 ] && echo flat || echo 'NOT FLAT: target missed')"
within=$(awk -v e="$effective" -v r="$rate" 'BEGIN { print (e <= r * 1.05) ? "yes" : "no" }')
echo "read rate with --max-read-rate $(mbs "$rate") MB/s: $(mbs "$effective") MB/s over the run:" \
    "$([ "$within" = yes ] && echo 'within the limit' || echo 'OVER THE LIMIT: target missed')"
echo "track identical to ffmpeg's: $same"
rm -rf "$work/subfix" "$work/fixed" "$work/limited" "$work/sample"
[ "$same" = yes ] && [ "$within" = yes ]
