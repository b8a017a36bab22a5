#!/usr/bin/env bats
# escape: one rule for every byte that comes from a profile, a path or an option
# and reaches the terminal: the messages on stderr, the heads of the reports on
# stdout. A terminal acts on ESC (OSC 52 sets the clipboard, OSC 0/2 the title),
# on C1 controls (U+009B is a CSI), on the bidi overrides and on bytes that are
# not UTF-8; each is written as a visible escape: \xNN for a byte, \uXXXX for a
# code point.

load test_helper

# H: OSC 52 (ESC ] 52 ; c ; SGk BEL), the C1 CSI U+009B (c2 9b), RLO U+202E
# (e2 80 ae) and the byte ff (not UTF-8); no blank, no '=', so that it stays one
# name in an events: line and in a formula. HE: H as every output must show it.
H=$'\e]52;c;SGk\a\xc2\x9b\xe2\x80\xae\xff'
HE='\x1b]52;c;SGk\x07\u009b\u202e\xff'

# refute_raw FILE: fail when FILE holds what a terminal acts on: a C0 control
# other than the newline, DEL, a C1 control, a bidi control, a byte that is not
# UTF-8.
refute_raw() {
	local c0 c1 bidi
	c0='[\x00-\x09\x0b-\x1f\x7f]'
	c1='\xc2[\x80-\x9f]'
	bidi='\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c'
	if LC_ALL=C grep -n -a -P "$c0|$c1|$bidi" "$1" | head -3 | cat -A | grep .; then
		echo "raw control bytes in $1"
		return 1
	fi
	# (in a UTF-8 locale, '.' matches no byte that is not UTF-8)
	if LC_ALL=C.UTF-8 grep -n -a -x -v '.*' "$1" | head -3 | cat -A | grep .; then
		echo "bytes that are not UTF-8 in $1"
		return 1
	fi
}

# shown_escaped: $OUT and $ERR together name H, escaped, and hold nothing raw.
shown_escaped() {
	cat "$OUT" "$ERR" >"$BATS_TEST_TMPDIR/all"
	# (a function on the left of || runs without set -e: each check returns)
	assert_grep "$HE" "$BATS_TEST_TMPDIR/all" || return 1
	refute_raw "$BATS_TEST_TMPDIR/all"
}

@test "escape: the check sees each kind of raw byte, and passes what is escaped" {
	# the test's own check: it must fail on each raw unit, else the tests below prove nothing
	local f="$BATS_TEST_TMPDIR/f" u
	for u in $'\e' $'\a' $'\x7f' $'\xc2\x9b' $'\xe2\x80\xae' $'\xe2\x81\xa6' $'\xd8\x9c' \
		$'\xff' $'\xc3('; do
		printf 'a%sb\n' "$u" >"$f"
		run refute_raw "$f"
		[ "$status" -eq 1 ]
	done
	printf '%s\ngrüße 数据\n' "$HE" >"$f"
	refute_raw "$f"
}

@test "escape: event names in the reader's warnings and errors (round 3, item 3)" {
	cd "$BATS_TEST_TMPDIR"
	# calls cost more than the total: main 1, its call to f 5 (both events), f 1
	printf 'events: Ir %s\nfl=a.c\nfn=main\n1 1 1\ncfn=f\ncalls=1 1\n1 5 5\nfn=f\n1 1 1\n' \
		"$H" >calls.cg
	ncg --dump=functions calls.cg
	expect_err <<EOF
calls.cg: warning: calls cost more Ir than the whole profile (by up to 4); inclusive costs are capped at the total
calls.cg: warning: calls cost more $HE than the whole profile (by up to 4); inclusive costs are capped at the total
EOF
	shown_escaped
	# totals: 1, the cost lines 5
	printf 'events: %s\nfl=a.c\nfn=main\n1 5\ntotals: 1\n' "$H" >totals.cg
	ncg --dump=functions totals.cg
	expect_err <<EOF
totals.cg:5: warning: totals: says $HE = 1 but the cost lines add up to 5; using the sum
EOF
	shown_escaped
	# an inherited event of 2^64 - 1 times Ir (2)
	printf 'events: Ir\nevent: %s = 18446744073709551615 Ir\nfl=a.c\nfn=main\n1 2\n' "$H" \
		>inherited.cg
	ncg --dump=functions inherited.cg
	expect_status 1
	expect_err <<EOF
inherited.cg:2: inherited event '$HE' exceeds 64 bits; it is shown as 18446744073709551615
EOF
	shown_escaped
}

@test "escape: the name of the file in front of every message (round 3, item 3)" {
	cd "$BATS_TEST_TMPDIR"
	printf 'events: Ir\nfl=a.c\nfn=main\n1 zz\n' >"evil$H.cg"
	ncg --dump=functions "evil$H.cg"
	expect_status 1
	expect_err <<EOF
evil$HE.cg:4: bad cost 'zz'; line ignored
EOF
	shown_escaped
	# a newline in a path is escaped too: one message is one line
	printf 'events: Ir\nfl=a.c\nfn=main\n1 zz\n' >$'two\nlines.cg'
	ncg --dump=functions $'two\nlines.cg'
	expect_err <<'EOF'
two\x0alines.cg:4: bad cost 'zz'; line ignored
EOF
	# more than 50 messages: the count is said with the file's name
	{
		printf 'events: Ir\nfl=a.c\nfn=main\n'
		for i in $(seq 51); do echo "$i zz"; done
	} >"many$H.cg"
	ncg --dump=functions "many$H.cg"
	tail -n 1 "$ERR" >"$OUT"
	expect_out <<EOF
many$HE.cg: 1 more message not shown
EOF
	shown_escaped
}

@test "escape: every message that quotes a line, a token or a formula of the profile" {
	cd "$BATS_TEST_TMPDIR"
	# each file makes one message quote H (or the line holding it)
	printf 'events: %s %s\nfl=a.c\nfn=main\n1 2\n' "$H" "$H" >twice.cg
	printf 'events: Ir\n%s\nfl=a.c\nfn=main\n1 2\n' "$H" >unrecognized.cg
	printf 'events: Ir\nfl=a.c\nfn=main\n1 %s\n' "$H" >cost.cg
	printf 'events: Ir\nfl=a.c\nfn=main\ncfn=f\ncalls=1 1\n%s\n' "$H" >callcost.cg
	printf 'events: Ir\nevent: X = Ir + %s\nfl=a.c\nfn=main\n1 2\n' "$H" >formula.cg
	printf 'fn=%s\nevents: Ir\n' "$H" >before.cg
	printf 'events: Ir\nfl=a.c\nfn=main\n%s=1\n' "$H" >position.cg
	for f in twice unrecognized cost callcost formula before position; do
		ncg --dump=functions "$f.cg"
		shown_escaped || {
			echo "in $f.cg"
			return 1
		}
	done
}

@test "escape: an option's value in the messages about it" {
	local P="$FIX/example.callgrind" args
	cd "$BATS_TEST_TMPDIR"
	# one command line a line, its value H: each is refused with H quoted
	while IFS= read -r args; do
		eval "set -- $args"
		ncg "$@"
		[ "$status" -ne 0 ] || {
			echo "accepted: $args"
			return 1
		}
		shown_escaped || {
			echo "in: $args"
			return 1
		}
	done <<'EOF'
--dump="$H" "$P"
--format="$H" "$P"
--sort="$H" "$P"
--sort="self:$H" "$P"
--events="$H" "$P"
--depth="$H" "$P"
--threshold="$H" "$P"
--context="$H" "$P"
--jobs="$H" "$P"
--size="$H" "$P"
--group="$H" "$P"
--substitute-path="$H" "$P"
--parts="$H" --dump=functions "$P"
--command="$H" --dump=functions "$P"
--command="filter $H[" --dump=functions "$P"
--dump=callers --function="$H" "$P"
--dump=tree --root="$H" "$P"
--dump=source --function="$H" "$P"
--mod-funcname="$H" --diff "$P" "$P"
--dump=functions "$P" "missing$H"
--diff "$P" "missing$H"
--script="missing$H" "$P"
EOF
	# the --event warnings: not NAME=FORMULA, a formula of unknown events, a ratio
	for args in "$H" "X=Ir+$H" "X=$H/Ir" "Ir=Ir"; do
		ncg --dump=functions --event="$args" --event="Z$H=Ir" "$P"
		shown_escaped || {
			echo "in: --event=$args"
			return 1
		}
	done
}

@test "escape: --diff's Base: and New: heads, of every text report (round 3, item 3)" {
	local kind
	cd "$BATS_TEST_TMPDIR"
	printf 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=f\ncalls=1 1\n1 3\nfn=f\n1 3\n' >"base$H.cg"
	printf 'events: Ir\nfl=a.c\nfn=main\n1 6\ncfn=f\ncalls=1 1\n1 3\nfn=f\n1 3\n' >"new$H.cg"
	for kind in functions calls tree; do
		ncg --diff --dump=$kind --function=main "base$H.cg" "new$H.cg"
		expect_status 0
		head -n 2 "$OUT" >"$BATS_TEST_TMPDIR/head"
		diff -u - "$BATS_TEST_TMPDIR/head" <<EOF
Base: base$HE.cg
New:  new$HE.cg
EOF
		shown_escaped
	done
}

@test "escape: a script's unknown key and the browser's messages on stderr" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' "$H" >keys
	ncg --script=keys "$FIX/example.callgrind"
	expect_err <<EOF
keys:1: unknown key '$HE'
EOF
	shown_escaped
	# the reader's messages after the browser closes name the file escaped
	printf 'events: Ir\nfl=a.c\nfn=main\n1 zz\n' >"evil$H.cg"
	: >nokeys
	ncg --script=nokeys "evil$H.cg"
	expect_status 1
	expect_err <<EOF
evil$HE.cg:4: bad cost 'zz'; line ignored
EOF
	shown_escaped
}
