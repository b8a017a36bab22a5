#!/usr/bin/env bats
# What a call costs as the screens and reports show it (README, "Calls inside a
# recursion"). The file records a call's inclusive cost, and a call within
# recursion counts each nested level again; a call is shown as its share of
# what its caller spends, as the call trees show it:
#   share(e) = recorded(e) * incl(caller) / spent(caller)
#   spent(f) = max(incl(f), self(f) + the recorded costs of f's calls)
# (with cycles on, f's calls to itself are inside f and left out of spent(f);
# the share of such a call itself is taken of all f spends). Where nothing
# recurses the share is the recorded cost. The tsv and json keep the recorded
# one too.

load test_helper

R="$BATS_TEST_DIRNAME/fixtures/recursion"

# browse PROFILE: run the keys on stdin in script mode, from a copy of the
# profile's directory name (so the screens say its base name).
browse() {
	sed "s|^:save-screen |:save-screen $BATS_TEST_TMPDIR/|" >"$BATS_TEST_TMPDIR/keys"
	(cd "$(dirname "$1")" && "$NCGRIND" --script="$BATS_TEST_TMPDIR/keys" "$(basename "$1")" \
		>"$OUT" 2>"$ERR")
}

# direct.callgrind by hand (its lines): total 70 = main 10 + f 40 + g 20.
# f: self 40 (line 20), incl 60 (main -> f, line "2 60"); calls f -> f 3x for
# 120 as recorded (line "21 120": 50 + 40 + 30, each level again) and f -> g
# 2x for 20 (line "22 20"). With cycles on, spent(f) = max(60, 40 + 20) = 60:
#   f -> g = 20 * 60 / 60 = 20 (28.57% of 70, 33.33% of f's 60)
#   f -> f = 120 * 60 / (40 + 120 + 20) = 40 (57.14% of 70, 66.67% of 60)
#   main -> f: main recurses nowhere, 60 as recorded (85.71%, 100.0% of f)
@test "shares: direct recursion, by hand: the callers and callees screen" {
	browse "$R/direct.callgrind" <<'EOF'
:resize 80x12
:goto ^f$
Enter
:save-screen d
EOF
	sed -n '4,10p' "$BATS_TEST_TMPDIR/d" >"$OUT"
	expect_out <<'EOF'
 Cost  %total   %func     Calls  Function  call site
Callers (2)
   60  85.71%  100.0%         1  main  r.c:2
   40  57.14%  66.67%         3  f [recursive]  r.c:21
Callees (2)
   40  57.14%  66.67%         3  f [recursive]  r.c:21
   20  28.57%  33.33%         2  g  r.c:22
EOF
}

@test "shares: direct recursion, by hand: callers and callees reports, text and tsv" {
	ncg --dump=callees --function='^f$' "$R/direct.callgrind"
	expect_status 0
	expect_out <<'EOF'
callees of f  (incl 60 = 85.71%, called 4 times)
    cost of calls  %total    %func      calls  callee
               40  57.14%  66.67%          3  f  [recursive]  at r.c:21
               20  28.57%  33.33%          2  g  at r.c:22
EOF
	tsv_ok --dump=callers --function='^f$' "$R/direct.callgrind"
	expect_tsv <<'EOF'
function | caller | caller_file | count | incl:Ir | recorded:Ir | total_pct | function_pct | sites | mark
f | main | r.c | 1 | 60 | 60 | 85.71 | 100.00 | r.c:2 | 
f | f | r.c | 3 | 40 | 120 | 57.14 | 66.67 | r.c:21 | recursive
EOF
}

@test "shares: the source view's and the annotated source's call lines, marked recursive" {
	# f's call lines: f -> f at line 21 (40, see above), f -> g at line 22 (20)
	browse "$R/direct.callgrind" <<'EOF'
:resize 80x12
:goto ^f$
v
:save-screen v
EOF
	grep '=>' "$BATS_TEST_TMPDIR/v" >"$OUT"
	expect_out <<'EOF'
   40  57.14%        => f [recursive] (3 times)
   20  28.57%        => g (2 times)
EOF
	ncg --dump=source --function='^f$' "$R/direct.callgrind"
	expect_status 0
	grep '=>' "$OUT" >"$OUT.calls"
	diff -u - "$OUT.calls" <<'EOF'
40 (57.14%)  => f [recursive] (3 times)
20 (28.57%)  => g (2 times)
EOF
}

@test "shares: the calls report marks recursion in text; a diff's calls are shares too" {
	ncg --dump=calls "$R/direct.callgrind"
	expect_status 0
	grep ' r.c:.* -> ' "$OUT" >"$OUT.rows"
	diff -u - "$OUT.rows" <<'EOF'
60 (85.71%)      1  r.c:main -> r.c:f
40 (57.14%)      3  r.c:f -> r.c:f  [recursive]
20 (28.57%)      2  r.c:f -> r.c:g
EOF
	# the file against itself: each call at its share on both sides (f -> f: 40)
	ncg --diff --dump=calls --format=tsv "$R/direct.callgrind" "$R/direct.callgrind"
	expect_status 0
	awk -F'\t' '$1 == "f" && $3 == "f" { print $9, $10 }' "$OUT" >"$OUT.ff"
	echo "40 40" | diff -u - "$OUT.ff"
}

@test "shares: a percentage above its base is shown, not cut to 100%" {
	# mutual.callgrind: a (self 20, incl 37) calls b 2x for 39 as recorded:
	# spent(a) = max(37, 20 + 39) = 59, a -> b = 39 * 37 / 59 = 24.46 -> 24,
	# 60.00% of the total 40. b's inclusive cost is 17 (self 10 + leaf 7: only a,
	# of its own cycle, calls it), so the caller's row is 24 / 17 = 141.2% of b:
	# before, 100.0%. b (self 10, incl 17) calls a for 22 and leaf for 7:
	# spent(b) = max(17, 10 + 22 + 7) = 39: b -> a = 22 * 17 / 39 = 9.59 -> 10
	# (25.00%, 58.82%), b -> leaf = 7 * 17 / 39 = 3.05 -> 3 (7.50%, 17.65%).
	browse "$R/mutual.callgrind" <<'EOF'
:resize 80x12
:goto ^b$
Enter
:save-screen d
EOF
	sed -n '4,9p' "$BATS_TEST_TMPDIR/d" >"$OUT"
	expect_out <<'EOF'
 Cost  %total   %func     Calls  Function  call site
Callers (1)
   24  60.00%  141.2%         2  a <cycle 1> [recursive]  m.c:11
Callees (2)
   10  25.00%  58.82%         1  a <cycle 1> [recursive]  m.c:21
    3   7.50%  17.65%         1  leaf  m.c:22
EOF
}

@test "shares: --format=json of callers and callees, valid, with the recorded cost" {
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	ncg --dump=callees --function='^f$' --format=json "$R/direct.callgrind"
	expect_status 0
	expect_no_err
	python3 - "$OUT" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["events"] == ["Ir"] and j["totals"] == {"Ir": 70}, j
[f] = j["functions"]
assert (f["function"], f["calls"], f["self"], f["incl"]) == ("f", 4, {"Ir": 40}, {"Ir": 60}), f
got = [(c["function"], c["count"], c["incl"]["Ir"], c["recorded"]["Ir"], c["recursive"],
        [(s["file"], s["line"]) for s in c["sites"]]) for c in f["callees"]]
assert got == [("f", 3, 40, 120, True, [("r.c", 21)]),
               ("g", 2, 20, 20, False, [("r.c", 22)])], got
EOF
	# names escaped as the functions report escapes them (escape.callgrind: a tab,
	# a backslash); every function of the file, callers and all
	ncg --dump=callers --function=. --format=json "$FIX/report/escape.callgrind"
	expect_status 0
	python3 - "$OUT" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
callers = {f["function"]: [(c["function"], c["file"], c["count"], c["incl"]["Ir"],
                            c["recorded"]["Ir"]) for c in f["callers"]] for f in j["functions"]}
assert callers == {"tab\tname": [], "back\\slash": [],
                   "lit\\n": [("tab\tname", "dir\\sub/tab\tfile.c", 2, 10, 10)]}, callers
EOF
	# the ring (recursion.bats works its shares out): calls within the cycle flagged
	ncg --dump=callees --function='^c$' --format=json "$R/ring.callgrind"
	python3 - "$OUT" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
got = [(c["function"], c["incl"]["Ir"], c["recorded"]["Ir"], c["recursive"])
       for c in j["functions"][0]["callees"]]
assert got == [("a", 4, 10, True), ("leaf", 1, 2, False)], got
EOF
}

@test "shares: --command filters pick the functions the callers and callees reports cover" {
	# as the browser's table: the filters decide which functions are there; each
	# then has all of its callers (callees), as its screen lists them
	ncg --dump=callees --function=. --command='filter ^(f|g)$' "$R/direct.callgrind"
	expect_status 0
	grep '^callees of' "$OUT" >"$OUT.heads"
	diff -u - "$OUT.heads" <<'EOF'
callees of f  (incl 60 = 85.71%, called 4 times)
callees of g  (incl 20 = 28.57%, called 2 times)
EOF
	ncg --dump=callers --function='^g$' --format=tsv --command='ignore ^f$' "$R/direct.callgrind"
	expect_status 1
	expect_err <<'EOF'
ncgrind: no function matches '^g$' among those the filters keep
EOF
	# hide is for trees: it narrows nothing here
	ncg --dump=callers --function='^g$' --command='hide ^f$' "$R/direct.callgrind"
	expect_status 0
	assert_grep '2  f  at r.c:22' "$OUT"
}

# Every fixture that loads (callgrind and cachegrind): no call cost that the
# calls, callers and callees reports print exceeds its event's total, and no
# percentage is cut; the callers screen of every function of the recursive ones.
@test "shares: no call costs more than the total, in any report of any fixture" {
	local files
	files=$(find "$FIX" -type f \( -name '*.callgrind' -o -name '*.cachegrind' \
		-o -name 'cachegrind.out.*' \) ! -name '*.txt' ! -path '*/malformed*' | LC_ALL=C sort)
	run "$TOOLS/call-costs-check" "$NCGRIND" $files
	[ "$status" -eq 0 ] || { echo "$output" | tail -5; return 1; }
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^ok: ')" -gt 100 ]
}

@test "shares: the callers screens of the recursive fixtures: nothing above the total, none cut" {
	# (the eleven of recursion/, recur-default and clique11)
	run "$TOOLS/call-costs-check" --screens 20 "$NCGRIND" "$R"/*.callgrind \
		"$FIX/oracle/recur-default.callgrind" "$FIX/monkey/clique11.callgrind"
	[ "$status" -eq 0 ] || { echo "$output" | tail -5; return 1; }
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^ok: ')" -eq 13 ]
}
