#!/usr/bin/env bats
# Annotated source in batch: --dump=lines against callgrind_annotate --auto=yes,
# --dump=source with -I, --substitute-path, a missing file and inlined files.

load test_helper

SRC="$BATS_TEST_DIRNAME/fixtures/src"

# A copy of the sources older than the profiles (no "newer" warning).
old_sources() {
	mkdir -p "$BATS_TEST_TMPDIR/src"
	cp "$SRC/recur.c" "$BATS_TEST_TMPDIR/src/"
	touch -d '2000-01-01' "$BATS_TEST_TMPDIR/src/recur.c"
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
	ncg --dump=source --function='^fib$' --context=0 -I "$BATS_TEST_TMPDIR/src" "$FIX/example.callgrind"
	expect_status 0
	assert_grep "        20 ( 0.00%)  NOINL unsigned long fib(unsigned n)" "$OUT"
	refute_grep "not found" "$OUT"
}

@test "source: a source newer than the profile is flagged" {
	old_sources
	touch "$BATS_TEST_TMPDIR/src/recur.c"
	ncg --dump=source --function='^fib$' --context=0 -I "$BATS_TEST_TMPDIR/src" "$FIX/example.callgrind"
	assert_grep "-- warning: the source is newer than the profile" "$OUT"
}

@test "source: not found, the paths tried and how to add one; the lines with cost stay" {
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
--   nowhere/home/dev/corpus/src/recur.c
--   nowhere/recur.c
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
-- line 16 ----------------------------------------
        20 ( 0.00%)  (line 16)
   350,232 ( 2.66%)  => fib'2 (2 times)
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
