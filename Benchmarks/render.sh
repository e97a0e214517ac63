#!/usr/bin/env bash
# `subfix render` against the ffmpeg CLI (`-vf subtitles`, the same libass) on the same 500 frames of a
# typical 1920x1080 ASS script, in the same run. Both draw on black and write one PNG per frame.
# subfix's own split (libass / compositing / PNG encoding) comes from SUBFIX_RENDER_TIMINGS=1.
# Targets: subfix at least 2x faster than ffmpeg; compositing + encoding at most 25% on top of libass.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/subfix
[ -x "$bin" ] || { echo "render.sh: build first (swift build -c release)" >&2; exit 1; }
command -v ffmpeg > /dev/null || { echo "render.sh: ffmpeg not installed (make bench-deps)" >&2; exit 1; }
work=bench-out/render
rm -rf "$work" && mkdir -p "$work/subfix" "$work/ffmpeg"
script=$work/typical.ass
frames=500

# A typical fansub-style script: 1080p, two dialogue styles (CJK over Latin), a sign with \pos and \blur,
# fades and a \move, events 2-3 s long, roughly one line on screen at a time, 20 s = 500 frames at 25 fps.
{
    printf '%s\n' '[Script Info]' 'ScriptType: v4.00+' 'PlayResX: 1920' 'PlayResY: 1080' 'ScaledBorderAndShadow: yes' \
        'WrapStyle: 0' '' '[V4+ Styles]' \
        'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding' \
        'Style: Dialogue,Noto Sans CJK SC,72,&H00FFFFFF,&H000000FF,&H00101010,&H80000000,0,0,0,0,100,100,0,0,1,3.5,1.5,2,80,80,60,1' \
        'Style: English,Noto Sans CJK SC,48,&H00E0E0E0,&H000000FF,&H00101010,&H80000000,0,-1,0,0,100,100,0,0,1,2.5,1,2,80,80,20,1' \
        'Style: Sign,Noto Sans CJK SC,60,&H0000C8FF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,2,0,1,2,0,7,0,0,0,1' \
        '' '[Events]' 'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text'
    lines=("我们明天早上八点在车站见面吧。" "你听说了吗？那家店下个月就要关门了。" "别担心，一切都会好起来的。"
        "这件事情我们需要再好好商量一下。" "今天的天气真好，我们去公园散步吧！" "他说的话，你真的相信吗？"
        "時間がないから、急いでください。" "我們下次再一起去看電影吧。")
    english=("Let's meet at the station at eight tomorrow." "Did you hear? That shop closes next month."
        "Don't worry, everything will be fine." "We need to talk this over again."
        "Lovely weather today, let's walk in the park!" "Do you really believe what he said?"
        "There's no time, please hurry." "Let's go to the movies together next time.")
    t=0
    for i in $(seq 0 7); do
        start=$(printf '0:00:%05.2f' "$(echo "$t / 100" | bc -l)")
        end=$(printf '0:00:%05.2f' "$(echo "($t + 240) / 100" | bc -l)")
        printf 'Dialogue: 0,%s,%s,Dialogue,,0,0,0,,{\\fad(150,150)}%s\n' "$start" "$end" "${lines[$i]}"
        printf 'Dialogue: 0,%s,%s,English,,0,0,0,,%s\n' "$start" "$end" "${english[$i]}"
        t=$((t + 250))
    done
    printf 'Dialogue: 1,0:00:02.00,0:00:08.00,Sign,,0,0,0,,{\\pos(120,100)\\blur2\\frz-3}第一章　出发\n'
    printf 'Dialogue: 1,0:00:10.00,0:00:16.00,Sign,,0,0,0,,{\\move(1500,900,1200,700)\\blur1}車站前・Station\n'
    printf 'Dialogue: 0,0:00:19.90,0:00:20.00,English,,0,0,0,,(end)\n'
} > "$script"

now() { date +%s.%N; }

start=$(now)
SUBFIX_RENDER_TIMINGS=1 "$bin" render "$script" --every 0.04 --size 1920x1080 --background black \
    --no-system-fonts --fonts-dir Fonts --out-dir "$work/subfix" > /dev/null 2> "$work/subfix-timings.txt"
subfix_seconds=$(echo "$(now) - $start" | bc -l)

start=$(now)
ffmpeg -nostdin -loglevel error -y -f lavfi -i "color=black:s=1920x1080:r=25:d=20,format=rgb24" \
    -vf "subtitles=$script:fontsdir=Fonts" -frames:v $frames "$work/ffmpeg/%04d.png"
ffmpeg_seconds=$(echo "$(now) - $start" | bc -l)

# The same ffmpeg run without PNG output: what ffmpeg spends on libass and drawing alone, so that its own PNG
# encoding share can be printed next to ours.
start=$(now)
ffmpeg -nostdin -loglevel error -y -f lavfi -i "color=black:s=1920x1080:r=25:d=20,format=rgb24" \
    -vf "subtitles=$script:fontsdir=Fonts" -frames:v $frames -f null -
ffmpeg_null_seconds=$(echo "$(now) - $start" | bc -l)

count_subfix=$(ls "$work/subfix" | wc -l)
count_ffmpeg=$(ls "$work/ffmpeg" | wc -l)
timings=$(grep '^timings:' "$work/subfix-timings.txt")
libass=$(echo "$timings" | sed -E 's/.*libass ([0-9.]+) ms.*/\1/')
compositing=$(echo "$timings" | sed -E 's/.*compositing ([0-9.]+) ms.*/\1/')
encoding=$(echo "$timings" | sed -E 's/.*encoding ([0-9.]+) ms.*/\1/')
changed=$(echo "$timings" | sed -E 's/.*changed ([0-9]+) .*/\1/')

printf 'frames: subfix %d, ffmpeg %d (1920x1080, %s)\n' "$count_subfix" "$count_ffmpeg" "$script"
printf 'subfix per frame: libass %.2f ms, compositing %.2f ms, PNG encoding %.2f ms (%d of %d frames changed;\n' \
    "$libass" "$compositing" "$encoding" "$changed" "$frames"
printf '  unchanged frames reuse the previous pixels and PNG, so libass answers from its caches)\n'
printf 'compositing + encoding on top of libass: %.0f%% (target <= 25%%)\n' \
    "$(echo "($compositing + $encoding) * 100 / $libass" | bc -l)"
ffmpeg_render=$(echo "$ffmpeg_null_seconds * 1000 / $frames" | bc -l)
ffmpeg_png=$(echo "($ffmpeg_seconds - $ffmpeg_null_seconds) * 1000 / $frames" | bc -l)
printf 'ffmpeg per frame, same frames: libass + drawing %.2f ms, PNG encoding %.2f ms (%.0f%% on top)\n' \
    "$ffmpeg_render" "$ffmpeg_png" "$(echo "$ffmpeg_png * 100 / $ffmpeg_render" | bc -l)"
printf 'wall time: subfix %.2f s (%.1f ms/frame), ffmpeg %.2f s (%.1f ms/frame)\n' \
    "$subfix_seconds" "$(echo "$subfix_seconds * 1000 / $frames" | bc -l)" \
    "$ffmpeg_seconds" "$(echo "$ffmpeg_seconds * 1000 / $frames" | bc -l)"
printf 'subfix vs ffmpeg: %.2fx faster (target >= 2x)\n' "$(echo "$ffmpeg_seconds / $subfix_seconds" | bc -l)"

# Memory stays flat over thousands of frames (libass cache limits): peak RSS for 500 and 2,500 frames.
if [ -x /usr/bin/time ]; then
    for step in 0.04 0.008; do
        rm -rf "$work/memory" && mkdir -p "$work/memory"
        /usr/bin/time -f "%M" -o "$work/rss.txt" "$bin" render "$script" --every "$step" --size 640x360 \
            --no-system-fonts --fonts-dir Fonts --out-dir "$work/memory" > /dev/null
        printf 'peak memory for %d frames: %d MB\n' "$(ls "$work/memory" | wc -l)" "$(( $(cat "$work/rss.txt") / 1024 ))"
    done
fi
