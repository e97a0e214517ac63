#!/usr/bin/env bash
# Regenerates the small test fonts from the bundled font (OFL 1.1, no Reserved Font Name, so renaming is
# allowed): a regular and a bold face named "subfix Test Sans" with a Chinese (zh-CN) family name and a Mac
# Roman record, and a two-face collection holding both.
#
#   Tests/SubCoreTests/Fixtures/make-test-fonts.sh     (needs python3-fonttools: /usr/bin/python3)
set -euo pipefail
cd "$(dirname "$0")"
/usr/bin/python3 - <<'PY'
from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.ttCollection import TTCollection

def make(weight, style, out):
    options = subset.Options()
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.layout_features = []
    font = TTFont("../../../Fonts/NotoSansCJKsc-Subset.otf")
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="ABCabc 测试字体かな")
    subsetter.subset(font)
    name = font["name"]
    name.names = []
    family, chinese = "subfix Test Sans", "字幕测试黑体"
    postscript = "SubfixTestSans-" + style
    for platform, encoding, language in ((3, 1, 0x409), (1, 0, 0)):
        name.setName(family, 1, platform, encoding, language)
        name.setName(style, 2, platform, encoding, language)
        name.setName(f"{family} {style}", 4, platform, encoding, language)
        name.setName(postscript, 6, platform, encoding, language)
    name.setName(chinese, 1, 3, 1, 0x804)
    name.setName(f"{chinese} {style}", 4, 3, 1, 0x804)
    font["OS/2"].usWeightClass = weight
    if weight >= 700:
        font["head"].macStyle |= 1
        font["OS/2"].fsSelection = (font["OS/2"].fsSelection | 0x20) & ~0x40
    font["CFF "].cff.fontNames = [postscript]
    font.save(out)

make(400, "Regular", "subfix-test-sans.otf")
make(700, "Bold", "subfix-test-sans-bold.otf")
collection = TTCollection()
collection.fonts = [TTFont("subfix-test-sans.otf"), TTFont("subfix-test-sans-bold.otf")]
collection.save("subfix-test-sans.ttc")
PY
ls -l subfix-test-sans*.otf subfix-test-sans.ttc
