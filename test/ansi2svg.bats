#!/usr/bin/env bats
# test/tools/ansi2svg, the converter of `make screenshots` (the README's pictures):
# a capture with SGR escapes and the characters XML gives a meaning to is
# well-formed SVG whose cells have the colours worked out by hand. The geometry
# is the converter's documented one: a cell 8 x 17 pixels, the screen at (8, 8).

load test_helper

@test "ansi2svg: SGR colours, reverse and XML's characters make well-formed SVG" {
	# row 0: A&B bold red (31: palette 1, #cd3131), then <"x"> ' in the default
	#   colours, then R reversed (7): the default foreground #cccccc as its
	#   background, the default background #1e1e1e as its text; a control byte
	#   (0x01) and a byte that is no UTF-8 (0xff) at columns 13 and 14;
	# row 1: "hi" in 256 colours: 38;5;196 is 16 + 36*5: #ff0000, 48;5;244 is the
	#   grey 8 + 10*(244-232) = 128: #808080; then blanks of that background
	#   that the capture writes (columns 2 and 3);
	# row 2: nothing: blanks of the default colours up to --rows.
	printf '\033[1;31mA&B\033[0m <"x"> '"'"'\033[7mR\033[m \001\377\n\033[38;5;196;48;5;244mhi  \033[0m\n' \
		>"$BATS_TEST_TMPDIR/pane"
	python3 "$TOOLS/ansi2svg" --cols 16 --rows 3 --title 'a <pane> & "more"' \
		-o "$BATS_TEST_TMPDIR/pane.svg" "$BATS_TEST_TMPDIR/pane"
	python3 - "$BATS_TEST_TMPDIR/pane.svg" >"$OUT" <<'EOF'
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()  # fails on XML that is not well-formed
print("size", svg.get("width"), svg.get("height"))
print("title", svg.find(NS + "title").text)


def text_at(row, col):
    """The character drawn at a cell, with its fill and class."""
    x, y = 8 + col * 8, 8 + row * 17 + 13
    for t in svg.iter(NS + "text"):
        if float(t.get("y")) != y:
            continue
        for s in t.iter(NS + "tspan"):
            x0 = float(s.get("x"))
            n = float(s.get("textLength") or 8) / 8
            if x0 <= x < x0 + n * 8:
                return s.text[int((x - x0) / 8)], s.get("fill", "default"), s.get("class", "")
    return None


def background_at(row, col):
    """The fill of the last rect over the middle of a cell."""
    x, y = 8 + col * 8 + 4, 8 + row * 17 + 8
    fill = None
    for r in svg.iter(NS + "rect"):
        x0, y0 = float(r.get("x")), float(r.get("y"))
        if x0 <= x < x0 + float(r.get("width")) and y0 <= y < y0 + float(r.get("height")):
            fill = r.get("fill")
    return fill


for row, col in [(0, 0), (0, 1), (0, 4), (0, 5), (0, 8), (0, 10), (0, 11), (0, 13), (0, 14), (1, 0), (1, 1)]:
    print(row, col, text_at(row, col), background_at(row, col))
for row, col in [(1, 3), (1, 4), (2, 0)]:
    print(row, col, background_at(row, col))
EOF
	expect_out <<'EOF'
size 144 67
title a <pane> & "more"
0 0 ('A', '#cd3131', 'b') #1e1e1e
0 1 ('&', '#cd3131', 'b') #1e1e1e
0 4 ('<', 'default', '') #1e1e1e
0 5 ('"', 'default', '') #1e1e1e
0 8 ('>', 'default', '') #1e1e1e
0 10 ("'", 'default', '') #1e1e1e
0 11 ('R', '#1e1e1e', '') #cccccc
0 13 ('�', 'default', '') #1e1e1e
0 14 ('�', 'default', '') #1e1e1e
1 0 ('h', '#ff0000', '') #808080
1 1 ('i', '#ff0000', '') #808080
1 3 #808080
1 4 #1e1e1e
2 0 #1e1e1e
EOF
	# and in the file itself, every one of them escaped
	assert_grep '&lt;&quot;x&quot;&gt; &apos;' "$BATS_TEST_TMPDIR/pane.svg"
	assert_grep 'A&amp;B' "$BATS_TEST_TMPDIR/pane.svg"
}
