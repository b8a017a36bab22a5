#!/usr/bin/env bats
# The source views scrolled sideways (> and <, issue 28): a line scrolls by columns
# as the screen shows them, so a character of several bytes is never cut into its
# bytes, and one that the left edge cuts leaves blanks for its part in view.
#   u.c, five lines, each with 1 Ir in u.callgrind (20.00% each):
#     1  45 x é (2 bytes, 1 column), then END1
#     2  x, 30 x 漢 (3 bytes, 2 columns), then Z
#     3  a, 25 x byte 0x01 (shown \x01, as every report and message spells it:
#        4 columns), then B
#     4  6 x (é, TAB): 8 columns each, then T
#     5  45 x (e, U+0301 combining acute), then C
# > scrolls by half the width: 40 columns at 80. Worked out by hand:
#   1  columns 0-44 are é: 5 left, then END1
#   2  漢 number k (from 0) takes columns 2k+1, 2k+2: the 20th (39-40) is cut,
#      a blank for column 40, then the 21st to 30th (10), then Z
#   3  \x01 number k takes 4k+1..4k+4: the 10th (37-40) is cut, a blank for
#      column 40, then 14 of them (56) in the 58 columns left, and … where the
#      15th does not fit
#   4  the 6th é starts at column 40: é, its tab (7 blanks), T
#   5  45 columns of e: 5 left (the grid keeps no combining mark), then C

load test_helper

utf8() {
	local t=$BATS_TEST_TMPDIR e k c tb m
	cd "$t" || return
	e=$(printf 'é%.0s' $(seq 45))
	k=$(printf '漢%.0s' $(seq 30))
	c=$(printf '\001%.0s' $(seq 25))
	tb=$(printf 'é\t%.0s' $(seq 6))
	m=$(printf 'e\314\201%.0s' $(seq 45))
	printf '%s\n' "${e}END1" "x${k}Z" "a${c}B" "${tb}T" "${m}C" >u.c
	printf 'events: Ir\nfl=%s/u.c\nfn=main\n1 1\n2 1\n3 1\n4 1\n5 1\n' "$t" >u.callgrind
	printf '%s\n' v '>' ':save-screen s1' '<' ':save-screen s0' >keys
}

@test "source scroll: > moves by characters and cells, never by bytes; < goes back" {
	utf8
	timeout 10 "$NCGRIND" --script=keys --size=80x10 u.callgrind
	sed -n '5,9p' s1 >"$OUT"
	expect_out <<'EOF2'
    1  20.00%     1  éééééEND1
    1  20.00%     2   漢漢漢漢漢漢漢漢漢漢Z
    1  20.00%     3   \x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01…
    1  20.00%     4  é       T
    1  20.00%     5  eeeeeC
EOF2
	# back at column 0: line 2 is cut at the right (59 columns for the text: x,
	# 28 x 漢 (57), and … where the 29th does not fit; line 3: a, 14 x \x01 (56), …)
	sed -n '5,9p' s0 >"$OUT"
	expect_out <<'EOF2'
    1  20.00%     1  éééééééééééééééééééééééééééééééééééééééééééééEND1
    1  20.00%     2  x漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢…
    1  20.00%     3  a\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01…
    1  20.00%     4  é       é       é       é       é       é       T
    1  20.00%     5  eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeC
EOF2
}

@test "source scroll: the diff's source view scrolls by characters too, and marks its cut" {
	# before: the diff's lines ran to the edge with no … where they were cut
	utf8
	timeout 10 "$NCGRIND" --diff --script=keys --size=80x10 u.callgrind u.callgrind
	sed -n '6,9p' s1 >"$OUT"
	expect_out <<'EOF2'
             1              1              0       1  éééééEND1
             1              1              0       2   漢漢漢漢漢漢漢漢漢漢Z
             1              1              0       3   \x01\x01\x01\x01\x01\x01…
             1              1              0       4  é       T
EOF2
}
