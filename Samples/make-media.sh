#!/usr/bin/env bash
# Regenerates the media samples from Samples/media-src/ with the ffmpeg CLI (and fontTools for the font):
#   Samples/tram.mkv  video + audio + three subtitle streams + one font attachment
#   Samples/tram.mp4  video + one mov_text subtitle track
# Stream layout of tram.mkv (the absolute stream index differs from the subtitle index on purpose):
#   0 video h264   1 audio flac
#   2 subtitle ass    chi "简体中文"  default    (subtitle index 0, player index 1)
#   3 subtitle subrip eng "English"             (subtitle index 1, player index 2)
#   4 subtitle ass    jpn "日本語"    forced     (subtitle index 2, player index 3)
#   5 attachment NotoSansCJKsc-Sample.otf (a subset of Noto Sans CJK SC holding only the samples' characters)
set -euo pipefail
cd "$(dirname "$0")"
src=media-src
ff=(ffmpeg -hide_banner -loglevel error -y)

# The font: Noto Sans CJK SC (SIL OFL 1.1, Debian's fonts-noto-cjk) cut down to the characters the samples use.
ttc=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
font=$src/NotoSansCJKsc-Sample.otf
if [ ! -f "$font" ] || [ "${REBUILD_FONT:-0}" = 1 ]; then
    [ -f "$ttc" ] || { echo "make-media: $ttc missing (apt-get install fonts-noto-cjk)" >&2; exit 1; }
    text=$(cat "$src"/zh.ass "$src"/ja.ass "$src"/en.srt)
    # Collection face 2 is Noto Sans CJK SC.
    /usr/bin/python3 -m fontTools.subset "$ttc" --font-number=2 --text="$text" \
        --unicodes=U+0020-007E --layout-features='' --no-hinting --desubroutinize \
        --name-IDs='*' --output-file="$font"
fi

video=(-f lavfi -i "testsrc=size=320x180:rate=25:duration=5")
audio=(-f lavfi -i "sine=frequency=440:sample_rate=8000:duration=5")
venc=(-c:v libx264 -preset veryfast -crf 38 -g 50 -pix_fmt yuv420p -x264-params bframes=0)

"${ff[@]}" "${video[@]}" "${audio[@]}" -i "$src/zh.ass" -i "$src/en.srt" -i "$src/ja.ass" \
    -attach "$font" \
    -map 0:v -map 1:a -map 2:s -map 3:s -map 4:s \
    "${venc[@]}" -c:a flac -c:s copy \
    -metadata title="Night tram (subfix sample)" \
    -metadata:s:s:0 language=chi -metadata:s:s:0 title="简体中文" \
    -metadata:s:s:1 language=eng -metadata:s:s:1 title="English" \
    -metadata:s:s:2 language=jpn -metadata:s:s:2 title="日本語" \
    -metadata:s:t:0 mimetype=application/vnd.ms-opentype -metadata:s:t:0 filename=NotoSansCJKsc-Sample.otf \
    -disposition:s:0 default -disposition:s:1 0 -disposition:s:2 forced \
    -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
    tram.mkv

"${ff[@]}" "${video[@]}" -i "$src/zh.ass" -map 0:v -map 1:s \
    "${venc[@]}" -c:s mov_text -metadata:s:s:0 language=chi -metadata:s:s:0 title="简体中文" \
    -fflags +bitexact -flags:v +bitexact -movflags +faststart \
    tram.mp4

ls -l tram.mkv tram.mp4 "$font"
