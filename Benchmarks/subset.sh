#!/usr/bin/env bash
# Font subsetting for `subfix fix --embed`: one episode's worth of characters (1,500 distinct: the most common
# Simplified Chinese characters, GB2312 level 1, plus ASCII) cut from Debian's Noto Sans CJK SC (a CFF face in a
# TTC), through SubCore's FontSubsetter, against the hb-subset CLI and fontTools' pyftsubset on the same input in
# the same run. Target: at least as fast as hb-subset. Also prints the embedded size in bytes per character.
set -euo pipefail
cd "$(dirname "$0")/.."
work=bench-out/subset
mkdir -p "$work"
font=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
index=2
repeat=${REPEAT:-10}
bench=.build/release/subset-bench
[ -x "$bench" ] || swift build -c release --product subset-bench >/dev/null
[ -f "$font" ] || { echo "subset bench: $font missing (fonts-noto-cjk)" >&2; exit 1; }
chars=$work/chars.txt
/usr/bin/python3 - "$chars" <<'PY'
import sys
out = []
for lead in range(0xB0, 0xD8):
    for trail in range(0xA1, 0xFF):
        try:
            out.append(bytes([lead, trail]).decode("gb2312"))
        except UnicodeDecodeError:
            pass
text = "".join(out[:1405]) + "".join(chr(c) for c in range(0x21, 0x7F))
open(sys.argv[1], "w", encoding="utf-8").write(text)
PY
unicodes=$(/usr/bin/python3 -c "import sys; print(','.join('%X' % ord(c) for c in open(sys.argv[1], encoding='utf-8').read()))" "$chars")

read -r ours bytes count < <("$bench" "$font" "$index" "$chars" "$repeat")
start=$(date +%s%N)
for _ in $(seq "$repeat"); do
    hb-subset --font-file="$font" --face-index="$index" --unicodes="$unicodes" --output-file="$work/hb.otf"
done
hb=$(echo "scale=2; ($(date +%s%N) - $start) / 1000000 / $repeat" | bc)
py_repeat=2
start=$(date +%s%N)
for _ in $(seq "$py_repeat"); do
    /usr/bin/python3 -m fontTools.subset "$font" --font-number="$index" --unicodes="$unicodes" \
        --output-file="$work/py.otf" 2>/dev/null
done
py=$(echo "scale=2; ($(date +%s%N) - $start) / 1000000 / $py_repeat" | bc)
hb_bytes=$(stat -c %s "$work/hb.otf")
ratio=$(echo "scale=2; $hb / $ours" | bc)
verdict=$([ "$(echo "$ours <= $hb" | bc)" -eq 1 ] && echo ok || echo "MISSED (target: no slower than hb-subset)")
echo "subset $count characters from Noto Sans CJK SC: subfix ${ours} ms, hb-subset ${hb} ms (${ratio}x), pyftsubset ${py} ms: $verdict"
echo "embedded size: $bytes bytes = $((bytes / count)) bytes per character (hb-subset CLI: $hb_bytes bytes)"
