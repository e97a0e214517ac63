#!/usr/bin/env bash
# `make demo`: runs subfix on Samples/ and shows what it did. Outputs go to demo-out/.
set -euo pipefail
bin=${1:-.build/debug/subfix}
out=demo-out
rm -rf "$out" && mkdir -p "$out"
db=(--db "$out/library.sqlite")  # every run of the demo is logged in its own library (see 'subfix jobs' below)
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
"$bin" extract Samples/tram.mkv --track 1 --attachments "$out/fonts" --out "$out" "${db[@]}"
head -n 20 "$out/tram.0.chi.ass"

step "subfix extract Samples/tram.mkv --track 1 --fix --out $out/fixed-track"
echo "(the seeds' whole pipeline in one command: extract the track, rewrite its fonts, write it)"
"$bin" extract Samples/tram.mkv --track 1 --fix --out "$out/fixed-track" "${db[@]}"
echo "Style lines before:"
grep '^Style:' "$out/tram.0.chi.ass"
echo "Style lines after:"
grep '^Style:' "$out/fixed-track/tram.0.chi.ass"
step "subfix fix Samples --out $out/fixed"
"$bin" fix Samples --out "$out/fixed" "${db[@]}"

step "what changed in yahei-styles.ass (excerpt of the diff)"
"$bin" fix Samples/yahei-styles.ass --dry-run --diff "${db[@]}" | sed -n '1,40p'

step "fixing the fixed files again changes nothing"
"$bin" fix "$out/fixed" --dry-run "${db[@]}"
# --- Fonts and rendering (subfix fonts / check / render) -------------------------------------------------
# A sandboxed player (the iOS 26 case) sees only the fonts it ships: Samples/render-demo.ass asks for
# 微软雅黑, SimHei and 方正准圆_GBK. With only a Latin default font, its CJK text renders as empty boxes
# and `check` fails.
step "subfix fonts --no-system-fonts --fonts-dir Fonts --covers 今晚的月色 (the bundled font covers it)"
"$bin" fonts --no-system-fonts --fonts-dir Fonts --covers 今晚的月色 "${db[@]}"

latin=$out/latin-fonts
mkdir -p "$latin"
for candidate in /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/noto/NotoSans-Regular.ttf; do
    [ -f "$candidate" ] && { cp "$candidate" "$latin/latin.ttf"; break; }
done
sandbox=(--no-system-fonts --fonts-dir "$latin")
[ -f "$latin/latin.ttf" ] && sandbox+=(--default-font "$latin/latin.ttf")
step "subfix check ${sandbox[*]} Samples/render-demo.ass  (expected to fail)"
if "$bin" check "${sandbox[@]}" Samples/render-demo.ass "${db[@]}"; then
    echo "demo: expected missing glyphs" >&2; exit 1
fi
step "subfix render ... --no-system-fonts (renders without its CJK text)"
"$bin" render Samples/render-demo.ass "${sandbox[@]}" --at 00:00:02 --size 1280x720 \
    --background checker --out "$out/render-before.png" "${db[@]}"

step "subfix fix Samples/render-demo.ass --embed --out $out/render-fixed"
echo "(each style gets the Noto Sans CJK face of its text's language, and a subset of that face holding exactly"
echo " the characters drawn with it goes into the script's [Fonts] section: the fix travels with the file)"
"$bin" fix Samples/render-demo.ass --embed --out "$out/render-fixed" "${db[@]}"
fixed=$out/render-fixed/render-demo.ass
grep -E '^(Style:|fontname:)' "$fixed"
step "subfix check --no-system-fonts $fixed  (passes with no fonts at all but the embedded ones)"
"$bin" check --no-system-fonts "$fixed" "${db[@]}"
step "subfix render ... --no-system-fonts (renders with the embedded subset alone)"
"$bin" render "$fixed" --no-system-fonts --at 00:00:02 --size 1280x720 --background checker \
    --out "$out/render-after.png" "${db[@]}"
"$bin" render "$fixed" --no-system-fonts --every 2 --size 640x360 --background black \
    --sheet "$out/render-sheet.png" "${db[@]}"
step "fixing the fixed file again changes nothing (the embedded subset is replaced by an identical one)"
"$bin" fix "$fixed" --embed --dry-run "${db[@]}"
ls -l "$out"/render-*.png

# --- typography: a Japanese+Chinese script as its author meant it (issue 29) ------------------------------
# Samples/bilingual.JPSC.ass has a bold title, a Mincho (serif) letter in Japanese, a Song (serif) letter in
# Chinese, Japanese and Chinese dialogue in alternate lines, and a Chinese credits line with a name in kana.
step "subfix fix Samples/bilingual.JPSC.ass --embed -v --out $out/bilingual"
echo "(each style and run gets the face of its own language, class and weight; the reasons say what decided)"
"$bin" fix Samples/bilingual.JPSC.ass --embed -v --out "$out/bilingual" "${db[@]}" | grep -E '^  (style|.fn|embedded)'
bilingual=$out/bilingual/bilingual.JPSC.ass
step "subfix check --no-system-fonts $bilingual  (every character drawn by the embedded subsets)"
"$bin" check --no-system-fonts "$bilingual" "${db[@]}"
step "subfix render ... --no-system-fonts: bold title and credits, Chinese and Japanese lines, serif letters"
"$bin" render "$bilingual" --no-system-fonts --at 00:00:02 --size 1280x720 --background checker \
    --out "$out/bilingual-dialogue.png" "${db[@]}"
"$bin" render "$bilingual" --no-system-fonts --at 00:00:12 --size 1280x720 --background checker \
    --out "$out/bilingual-serif.png" "${db[@]}"
step "the same bytes from another process"
"$bin" fix Samples/bilingual.JPSC.ass --embed --out "$out/bilingual-again" -q "${db[@]}" >/dev/null
cmp "$bilingual" "$out/bilingual-again/bilingual.JPSC.ass" && echo "identical"
ls -l "$out"/bilingual-*.png

# --- remux: the fixed MKV itself, its font subsets attached (subfix fix --remux) ---------------------------
# Players that prefer the embedded track, or a library where sidecars get lost, need the MKV fixed. The sample's
# tracks name 微软雅黑, SimHei and MS Gothic; its only attachment (a Noto Sans CJK SC subset) is named otherwise.
remux=$out/remux
step "subfix check Samples/tram.mkv --no-system-fonts  (expected to fail: the fonts it names are not there)"
if "$bin" check Samples/tram.mkv --no-system-fonts "${db[@]}"; then
    echo "demo: expected missing glyphs" >&2; exit 1
fi
step "subfix render Samples/tram.mkv --track 1 --no-system-fonts ... (before)"
"$bin" render Samples/tram.mkv --track 1 --no-system-fonts --at 00:00:01.700 --size 640x360 \
    --background video --out "$out/remux-before.png" "${db[@]}"
step "subfix fix Samples/tram.mkv --remux --out $remux"
echo "(every packet copied, each text track fixed, the faces the fixed tracks name attached as subsets)"
"$bin" fix Samples/tram.mkv --remux --out "$remux" "${db[@]}"
"$bin" probe "$remux/tram.mkv"
step "the video and audio packets are the input's (ffmpeg -f framemd5)"
for file in Samples/tram.mkv "$remux/tram.mkv"; do
    printf '%s  %s\n' "$(ffmpeg -nostdin -v error -i "$file" -map 0:v -map 0:a -f framemd5 -c copy - | grep -v '^#' \
        | md5sum | cut -d' ' -f1)" "$file"
done
step "subfix check $remux/tram.mkv --no-system-fonts  (passes with no fonts but the attachments)"
"$bin" check "$remux/tram.mkv" --no-system-fonts "${db[@]}"
step "subfix render $remux/tram.mkv --track 1 --no-system-fonts ... (after)"
"$bin" render "$remux/tram.mkv" --track 1 --no-system-fonts --at 00:00:01.700 --size 640x360 \
    --background video --out "$out/remux-after.png" "${db[@]}"
"$bin" render "$remux/tram.mkv" --track 3 --no-system-fonts --at 00:00:02.500 --size 640x360 \
    --background video --out "$out/remux-after-ja.png" "${db[@]}"
ls -l "$out"/remux-*.png

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
