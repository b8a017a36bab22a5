#!/usr/bin/env bats
# Annotated source in batch: --dump=lines against callgrind_annotate --auto=yes,
# --dump=source with -I, --substitute-path, a source beside the profile, a missing
# file and inlined files.

load test_helper

SRC="$BATS_TEST_DIRNAME/fixtures/src"
BESIDE="$BATS_TEST_DIRNAME/fixtures/beside"

# A copy of the sources older than the profiles (no "newer" warning).
old_sources() {
	mkdir -p "$BATS_TEST_TMPDIR/src"
	cp "$SRC/recur.c" "$BATS_TEST_TMPDIR/src/"
	touch -d '2000-01-01' "$BATS_TEST_TMPDIR/src/recur.c"
}

# The example profile alone in a directory, as $PROF, written in 2001 (after the old
# sources): in fixtures/ it would find fixtures/src/recur.c beside it (src/recur.c
# is a trailing part of its fl=).
lone_profile() {
	mkdir -p "$BATS_TEST_TMPDIR/lone"
	PROF="$BATS_TEST_TMPDIR/lone/example.callgrind"
	cp "$FIX/example.callgrind" "$PROF"
	touch -d '2001-01-01' "$PROF"
}

@test "lines: every line of recur.c costs what callgrind_annotate --auto=yes says" {
	# The oracle annotates recur.c with the self cost of each line summed over all
	# functions; --dump=lines gives the same sums. Parse its numbered lines
	# ("-- line N ---" then one row per source line; "=>" rows are calls).
	awk '/^-- Auto-annotated source: \/home\/dev\/corpus\/src\/recur.c/ { on = 1; next }
	     /^-- Auto-annotated source/ { on = 0 }
	     on && /^-- line [0-9]+ -/ { n = $3; next }
	     on && n && /=>/ { next }
	     on && n && /^ *([0-9,]+|\.) / { if ($1 != ".") { gsub(",", "", $1); print n "\t" $1 } n++ }' \
		"$FIX/oracle/recur-default.annotate-auto.txt" | sed '$d' >"$BATS_TEST_TMPDIR/want"
	# not vacuous: the oracle has its 74 lines with cost
	[ "$(wc -l <"$BATS_TEST_TMPDIR/want")" -eq 74 ]
	ncg --dump=lines --format=tsv "$FIX/example.callgrind"
	expect_status 0
	awk -F'\t' '$1 == "/home/dev/corpus/src/recur.c" && $3 != 0 { print $2 "\t" $3 }' "$OUT" \
		>"$BATS_TEST_TMPDIR/got"
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "source: fib annotated, found through --substitute-path" {
	# fib (recur.c:16) costs 20 self on line 16 (11 + 5 + 4) and calls fib'2 twice
	# there: 216,460 + 133,772 = 350,232 (2.66% of 13,143,514). Context: 2 lines.
	old_sources
	ncg --dump=source --function='^fib$' --context=2 \
		--substitute-path=/home/dev/corpus/src="$BATS_TEST_TMPDIR/src" "$FIX/example.callgrind"
	expect_status 0
	expect_out <<'EOF2'
        Ir           source
--------------------------------------------------------------------------------
-- function fib
-- file /home/dev/corpus/src/recur.c
-- line 14 ----------------------------------------
         .           NOINL int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
         .           
        20 ( 0.00%)  NOINL unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
   350,232 ( 2.66%)  => fib'2 (2 times)
         .           
         .           typedef unsigned long (*ringfn)(unsigned depth, unsigned long acc);
EOF2
}

@test "source: -I DIR finds the file by its path below DIR or by its base name" {
	old_sources
	lone_profile
	ncg --dump=source --function='^fib$' --context=0 -I "$BATS_TEST_TMPDIR/src" "$PROF"
	expect_status 0
	assert_grep "        20 ( 0.00%)  NOINL unsigned long fib(unsigned n)" "$OUT"
	refute_grep "not found" "$OUT"
}

@test "source: a source newer than the profile is flagged" {
	old_sources
	lone_profile
	touch "$BATS_TEST_TMPDIR/src/recur.c"
	ncg --dump=source --function='^fib$' --context=0 -I "$BATS_TEST_TMPDIR/src" "$PROF"
	assert_grep "-- warning: the source is newer than the profile" "$OUT"
}

@test "source: not found, the paths tried and how to add one; the lines with cost stay" {
	# as written; then its trailing components under the profile's directory (.),
	# longest first; then under -I nowhere, its path and its base name
	cd "$BATS_TEST_TMPDIR"
	cp "$FIX/example.callgrind" prof.callgrind
	ncg --dump=source --function='^fib$' -I nowhere prof.callgrind
	expect_status 0
	expect_out <<'EOF2'
        Ir           source
--------------------------------------------------------------------------------
-- function fib
-- file /home/dev/corpus/src/recur.c
-- not found; tried:
--   /home/dev/corpus/src/recur.c
--   ./home/dev/corpus/src/recur.c
--   ./dev/corpus/src/recur.c
--   ./corpus/src/recur.c
--   ./src/recur.c
--   ./recur.c
--   nowhere/home/dev/corpus/src/recur.c
--   nowhere/recur.c
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
-- line 16 ----------------------------------------
        20 ( 0.00%)  (line 16)
   350,232 ( 2.66%)  => fib'2 (2 times)
EOF2
}

@test "source: a profile copied with its source: fl= names another place, the file lies beside it" {
	# count_words costs 30 and 12 Ir on lines 5 and 6 (of 48 Ir in all: 62.50% and
	# 25.00%); with --context=1, lines 4 to 7. wordfreq.c is found as prof/wordfreq.c.
	beside wordfreq.c
	cd "$BATS_TEST_TMPDIR"
	ncg --dump=source --function='^count_words$' --context=1 prof/wordfreq.callgrind
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function count_words
-- file /home/dev/hidden/wordfreq.c
-- line 4 ----------------------------------------
 .           {
30 (62.50%)      int n = 0; for (; *s; s++) n += *s == ' ';
12 (25.00%)      return n + 1;
 .           }
EOF2
}

@test "source: beside the profile, the longest trailing path wins: hidden/wordfreq.c, then wordfreq.c" {
	# hidden/wordfreq.c is wordfreq.c with " /* hidden */" at the end of each line
	beside wordfreq.c hidden/wordfreq.c
	cd "$BATS_TEST_TMPDIR"
	cat >want <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function count_words
-- file /home/dev/hidden/wordfreq.c
-- line 4 ----------------------------------------
 .           { /* hidden */
30 (62.50%)      int n = 0; for (; *s; s++) n += *s == ' '; /* hidden */
12 (25.00%)      return n + 1; /* hidden */
 .           } /* hidden */
EOF2
	ncg --dump=source --function='^count_words$' --context=1 prof/wordfreq.callgrind
	expect_status 0
	expect_out <want
	# and alone
	rm prof/wordfreq.c
	ncg --dump=source --function='^count_words$' --context=1 prof/wordfreq.callgrind
	expect_status 0
	expect_out <want
}

@test "source: each path is tried once; trailing components skip empty, . and .." {
	# -I . repeats what the profile's directory (.) gave: ./../..//etc/./nosuch.c and
	# ./nosuch.c are listed once. Under the profile's directory the trailing
	# components are etc/nosuch.c and nosuch.c: none climbs out of it.
	cd "$BATS_TEST_TMPDIR"
	printf 'events: Ir\nfl=../..//etc/./nosuch.c\nfn=f\n3 7\n' >climb.callgrind
	ncg --dump=source --function='^f$' -I . climb.callgrind
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function f
-- file ../..//etc/./nosuch.c
-- not found; tried:
--   ../..//etc/./nosuch.c
--   ./../..//etc/./nosuch.c
--   ./etc/nosuch.c
--   ./nosuch.c
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
-- line 3 ----------------------------------------
 7 (100.00%)  (line 3)
EOF2
}

@test "source: the paths tried come from the profile: escaped like every name" {
	# an OSC 52 (clipboard) and an OSC 2 (window title) in fl= must reach no terminal
	cd "$BATS_TEST_TMPDIR"
	printf 'events: Ir\nfl=/nonexistent/\033]52;c;cHduZWQ=\007\033]2;PWNED-TITLE\007x.c\nfn=main\n1 5\n' \
		>osc.callgrind
	ncg --dump=source --function='^main$' osc.callgrind
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function main
-- file /nonexistent/\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
-- not found; tried:
--   /nonexistent/\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
--   ./nonexistent/\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
--   ./\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
 5 (100.00%)  (line 1)
EOF2
}

@test "source: a function with inlined code has one section per file, in file order" {
	# edge-fi-fe-inlining (total Ir 620: main 120, compute 500): main's self cost lies
	# in /src/main.c (lines 10-14: 5, 3, 2, 1, 1 Ir), /src/vec.h (lines 7-8: 40, 60)
	# and string_fortified.h (line 29: 8); the call to compute (5x, 500 Ir = 80.65%)
	# is on main.c:13. Only the costs are compared: string_fortified.h may exist on
	# the machine (its text then replaces "(line 29)").
	ncg --dump=source --function='^main$' --events=Ir "$FIX/edge/edge-fi-fe-inlining.callgrind"
	expect_status 0
	grep -E '^-- file|^ *[0-9,]+ \(' "$OUT" |
		sed -E 's/^( *[0-9,]+ \([ 0-9.]+%\))  (=> .*)?.*$/\1  \2/; s/ *$//' >"$BATS_TEST_TMPDIR/got"
	diff -u - "$BATS_TEST_TMPDIR/got" <<'EOF2'
-- file /src/main.c
  5 ( 0.81%)
  3 ( 0.48%)
  2 ( 0.32%)
  1 ( 0.16%)
500 (80.65%)  => compute (5 times)
  1 ( 0.16%)
-- file /src/vec.h
 40 ( 6.45%)
 60 ( 9.68%)
-- file /usr/include/x86_64-linux-gnu/bits/string_fortified.h
  8 ( 1.29%)
EOF2
}

@test "source: errors" {
	ncg --dump=source "$FIX/example.callgrind"
	expect_status 1
	expect_err <<'EOF2'
ncgrind: --dump=source needs --function=REGEX
EOF2
	ncg --dump=source --function=nothing_like_this "$FIX/example.callgrind"
	expect_status 1
	ncg --dump=source --function=x --substitute-path=noequals "$FIX/example.callgrind"
	expect_status 2
}

@test "source: --dump=source does not look for '???' (code without debug information)" {
	printf '%s\n' '# callgrind format' 'events: Ir' 'fl=???' 'fn=nodebug' '0 42' \
		>"$BATS_TEST_TMPDIR/nodebug.callgrind"
	ncg --dump=source --function=nodebug "$BATS_TEST_TMPDIR/nodebug.callgrind"
	expect_status 0
	sed -n '3,6p' "$OUT" >"$OUT.part"
	mv "$OUT.part" "$OUT"
	expect_out <<'EOF2'
-- function nodebug
-- file ???
-- no source file: the code has no debug information (compiled without -g?)
42 (100.00%)  (no line information)
EOF2
}
