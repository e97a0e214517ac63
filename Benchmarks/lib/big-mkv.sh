#!/usr/bin/env bash
# Generates the benchmarks' big MKV (shared by extract.sh and remux.sh) unless it is already there: raw 320x240
# video, 112 s, three dense text subtitle tracks (ASS Chinese, SubRip English, ASS Japanese, a cue every 50 ms),
# at least 300 MB. Usage: big-mkv.sh OUTPUT.mkv
set -euo pipefail
input=$1
work=$(dirname "$input")
minimum=$((300 * 1024 * 1024))
mkdir -p "$work"
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
