"""Adds the Latin letters the CJK face lacks (most of Latin Extended-A) to the subset, drawn from
Noto Sans (same OFL licence, same 1000-unit em), converted to CFF charstrings in the font's Latin FD.

    add-latin.py SUBSET.otf NotoSans-Regular.ttf FIRST-LAST [FIRST-LAST ...]

Usage: called by make-font.sh. Writes the subset back in place."""
import sys
from fontTools.ttLib import TTFont
from fontTools.pens.t2CharStringPen import T2CharStringPen

subset_path, latin_path, *ranges = sys.argv[1:]
font = TTFont(subset_path)
latin = TTFont(latin_path)
assert font["head"].unitsPerEm == latin["head"].unitsPerEm == 1000, "both fonts must use a 1000-unit em"

cff = font["CFF "].cff
top = cff.topDictIndex[0]
char_strings = top.CharStrings
cmap = font.getBestCmap()
latin_cmap = latin.getBestCmap()
latin_glyphs = latin.getGlyphSet()

# The FD (font dict) that holds the font's own Latin letters; new glyphs join it.
a_index = char_strings.charStrings[cmap[ord("A")]]
fd_index = top.FDSelect[a_index]
private = top.FDArray[fd_index].Private
nominal = getattr(private, "nominalWidthX", 0)
default = getattr(private, "defaultWidthX", 0)
a_vertical = font["vmtx"].metrics[cmap[ord("A")]]

wanted = []
for spec in ranges:
    first, last = (int(x, 16) for x in spec.split("-"))
    wanted += [u for u in range(first, last + 1) if u not in cmap and u in latin_cmap]

order = font.getGlyphOrder()
added = 0
for codepoint in wanted:
    source_name = latin_cmap[codepoint]
    advance, lsb = latin["hmtx"].metrics[source_name]
    pen = T2CharStringPen(None if advance == default else advance - nominal, latin_glyphs)
    latin_glyphs[source_name].draw(pen)
    charstring = pen.getCharString(private=private, globalSubrs=cff.GlobalSubrs)
    gid = len(order)
    name = "cid%05d" % gid
    char_strings.charStringsIndex.append(charstring)
    char_strings.charStrings[name] = gid
    top.FDSelect.append(fd_index)
    order.append(name)
    if top.charset is not order:
        top.charset.append(name)
    charstring.compile()
    bounds = charstring.calcBounds(char_strings)
    font["hmtx"].metrics[name] = (advance, bounds[0] if bounds else 0)
    font["vmtx"].metrics[name] = a_vertical
    for table in font["cmap"].tables:
        if table.isUnicode():
            table.cmap[codepoint] = name
    added += 1

font.setGlyphOrder(order)
font["maxp"].numGlyphs = len(order)
font.save(subset_path)
print(f"add-latin.py: added {added} glyphs from {latin_path}", file=sys.stderr)
