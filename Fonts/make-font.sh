#!/usr/bin/env bash
# Reproduces Fonts/NotoSansCJKsc-Subset.otf from Debian's fonts-noto-cjk with fontTools' subsetter.
#
#   apt-get install fonts-noto-cjk fonts-noto-core python3-fonttools
#   Fonts/make-font.sh            # writes Fonts/NotoSansCJKsc-Subset.otf and Fonts/charset.txt
#
# The character list comes from Python's own codecs (gb2312, big5, euc_jp), so it is exactly the
# character sets the README promises, not a hand-kept list.
set -euo pipefail
cd "$(dirname "$0")"
source_ttc=${NOTO_CJK_TTC:-/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc}
latin_ttf=${NOTO_SANS_TTF:-/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf}
python=${PYTHON:-/usr/bin/python3}   # Debian's python3, where python3-fonttools is installed
face_index=2                          # face 2 of the collection is "Noto Sans CJK SC"
out=NotoSansCJKsc-Subset.otf

[ -f "$source_ttc" ] || { echo "make-font.sh: $source_ttc not found (apt-get install fonts-noto-cjk)" >&2; exit 1; }
[ -f "$latin_ttf" ] || { echo "make-font.sh: $latin_ttf not found (apt-get install fonts-noto-core)" >&2; exit 1; }

"$python" - "$source_ttc" "$face_index" > charset.txt <<'PY'
import sys
from fontTools.ttLib import TTCollection

def double_byte(codec, lead, trail):
    """Every character a double-byte codec decodes in the given lead/trail byte ranges."""
    found = set()
    for a in lead:
        for b in trail:
            try:
                found.update(bytes([a, b]).decode(codec))
            except UnicodeDecodeError:
                pass
    return found

chars = set()
chars.update(map(chr, range(0x20, 0x7F)))              # ASCII
chars.update(map(chr, range(0xA0, 0x100)))             # Latin-1 Supplement
chars.update(map(chr, range(0x100, 0x180)))            # Latin Extended-A
chars.update(map(chr, range(0x2000, 0x2070)))          # General Punctuation
chars.update(map(chr, range(0x3000, 0x3040)))          # CJK Symbols and Punctuation
chars.update(map(chr, range(0x3040, 0x3100)))          # Hiragana, Katakana
chars.update(map(chr, range(0x31F0, 0x3200)))          # Katakana Phonetic Extensions
chars.update(map(chr, range(0xFF00, 0xFFF0)))          # Halfwidth and Fullwidth Forms
chars.update(double_byte("gb2312", range(0xA1, 0xF8), range(0xA1, 0xFF)))   # all of GB2312
big5_trail = list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF))
chars.update(double_byte("big5", range(0xA1, 0xA4), big5_trail))             # Big5 symbols
chars.update(double_byte("big5", range(0xA4, 0xC7), big5_trail))             # Big5 level 1 (0xA440-0xC67E)
chars.update(double_byte("euc_jp", range(0xA1, 0xD0), range(0xA1, 0xFF)))    # JIS X 0208 rows 1-47 (level 1)

font = TTCollection(sys.argv[1]).fonts[int(sys.argv[2])]
cmap = font.getBestCmap()
missing = sorted(c for c in chars if ord(c) not in cmap and ord(c) >= 0x20)
for c in missing:
    print(f"not in the source font: U+{ord(c):04X}", file=sys.stderr)
print("".join(sorted(c for c in chars if ord(c) in cmap)))
PY

echo "make-font.sh: $(wc -m < charset.txt) characters" >&2
"$python" -m fontTools.subset "$source_ttc" \
    --font-number="$face_index" \
    --text-file=charset.txt \
    --output-file="$out.tmp" \
    --layout-features='*' \
    --name-IDs='*' --name-languages='*' --name-legacy \
    --notdef-outline --recommended-glyphs \
    --no-hinting --desubroutinize=false
# The SC face has only the pinyin letters of Latin Extended-A: draw the rest (and the General
# Punctuation it lacks, e.g. zero-width space) from Noto Sans into the font's Latin FD.
"$python" add-latin.py "$out.tmp" "$latin_ttf" 0100-017F 2000-206F
mv "$out.tmp" "$out"
ls -l "$out" >&2
