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
minimum=$((300 * 1024 * 1024))
repeat=${REPEAT:-3}
mkdir -p "$work"
[ -x "$bin" ] || { echo "extract bench: $bin missing (swift build -c release)" >&2; exit 1; }

size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

if [ "$(size_of "$input")" -lt "$minimum" ]; then
    echo "generating $input (raw 320x240 video, 112 s, three subtitle tracks with a cue every 50 ms) ..."
    /usr/bin/python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def stamp(ms, sep):
    h, ms = divmod(ms, 3600000); m, ms = divmod(ms, 60000); s, ms = divmod(ms, 1000)
    return f"{h:02}:{m:02}:{s:02}{sep}{ms:03}"
def ass_stamp(ms):
    h, ms = divmod(ms, 3600000); m, ms = divmod(ms, 60000); s, ms = divmod(ms, 1000)
    return f"{h}:{m:02}:{s:02}.{ms // 10:02}"
cues = range(0, 112000, 50)
header = """[Script Info]
ScriptType: v4.00+
PlayResX: 320
PlayResY: 240

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,{font},18,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
"""
for name, font, text in (("zh", "微软雅黑", "第{n}行：末班车马上就要开了，请抓紧时间上车。"),
                         ("ja", "MS Gothic", "{n}行目：終電はまもなく発車します。")):
    with open(f"{work}/{name}.ass", "w", encoding="utf-8") as f:
        f.write(header.replace("{font}", font))
        for n, start in enumerate(cues):
            f.write(f"Dialogue: 0,{ass_stamp(start)},{ass_stamp(start + 45)},Default,,0,0,0,,"
                    + text.replace("{n}", str(n)) + "\n")
with open(f"{work}/en.srt", "w", encoding="utf-8") as f:
    for n, start in enumerate(cues):
        f.write(f"{n + 1}\n{stamp(start, ',')} --> {stamp(start + 45, ',')}\n"
                f"Line {n}: the last tram is about to leave.\n\n")
PY
    ffmpeg -nostdin -hide_banner -loglevel error -y \
        -f lavfi -i "testsrc=size=320x240:rate=25:duration=112" \
        -i "$work/zh.ass" -i "$work/en.srt" -i "$work/ja.ass" \
        -map 0:v -map 1:s -map 2:s -map 3:s -c:v rawvideo -pix_fmt yuv420p -c:s copy \
        -metadata:s:s:0 language=chi -metadata:s:s:1 language=eng -metadata:s:s:2 language=jpn \
        "$input"
fi
echo "input: $input, $(( $(size_of "$input") / 1024 / 1024 )) MB"
cat "$input" > /dev/null   # same page cache state for everyone

# Runs a command $repeat times under GNU time; prints "best_wall_seconds peak_rss_kb".
measure() {
    local best="" peak=0 log=$work/time.log
    for _ in $(seq "${REPEAT:-$repeat}"); do
        /usr/bin/time -v -o "$log" "$@" > /dev/null
        local wall rss
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0;
            for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log")
        rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log")
        if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$wall; fi
        [ "$rss" -gt "$peak" ] && peak=$rss
    done
    echo "$best $peak"
}

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
