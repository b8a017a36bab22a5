#!/usr/bin/env bats
# Derived events (issue 17): KCachegrind's well-known formulas where their inputs
# are in the profile, and the user's own (--event=NAME=FORMULA). The fixture is
# valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes on
# test/fixtures/src/recur.c (gcc -O1 -g); its totals: line is
#   Ir 8984626 Dr 1687757 Dw 1242205 I1mr 1354 D1mr 28055 D1mw 13506
#   ILmr 1334 DLmr 777 DLmw 2995 Bc 1179551 Bcm 69508 Bi 68804 Bim 172
# KCachegrind (libcore/globalconfig.cpp): L1m = I1mr + D1mr + D1mw,
# LLm = ILmr + DLmr + DLmw, Bm = Bim + Bcm,
# CEst = Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm (Ge, L2m absent here).

load test_helper

CS="$BATS_TEST_DIRNAME/fixtures/events/cachesim.callgrind"

@test "derived events: L1m, LLm, Bm and CEst of a cache simulation, totals by hand" {
	# by hand from the totals: line: L1m 1354 + 28055 + 13506 = 42,915;
	# LLm 1334 + 777 + 2995 = 5,106; Bm 69508 + 172 = 69,680;
	# CEst 8984626 + 10 * 69680 + 10 * 42915 + 100 * 5106 = 10,621,176
	ncg --dump=functions --events=Ir,L1m,LLm,Bm,CEst "$CS"
	expect_status 0
	expect_no_err
	assert_grep '8,984,626 (100.0%)  42,915 (100.0%)  5,106 (100.0%)  69,680 (100.0%)  10,621,176 (100.0%)  PROGRAM TOTALS' "$OUT"
}

@test "derived events: every function's value is the formula of its own raw events, self and inclusive" {
	ncg --dump=functions --format=tsv \
		--events=Ir,I1mr,D1mr,D1mw,ILmr,DLmr,DLmw,Bcm,Bim,L1m,LLm,Bm,CEst "$CS"
	expect_status 0
	# columns: 5..17 self, 18..30 incl, in the order of --events
	awk -F'\t' 'NR > 1 { for (o = 4; o <= 17; o += 13) {
		ir = $(o + 1); l1 = $(o + 2) + $(o + 3) + $(o + 4); ll = $(o + 5) + $(o + 6) + $(o + 7)
		bm = $(o + 8) + $(o + 9)
		if ($(o + 10) != l1 || $(o + 11) != ll || $(o + 12) != bm ||
		    $(o + 13) != ir + 10 * bm + 10 * l1 + 100 * ll) { print "bad: " $0; bad++ }
		rows++ } }
		END { if (rows < 100) { print "only " rows " rows"; exit 1 } exit bad > 0 }' "$OUT"
}

@test "derived events: named only; none is added without its inputs (a plain profile has no CEst)" {
	ncg --dump=functions --format=tsv "$CS"
	head -1 "$OUT" | grep -q $'\tself:Bim\t'
	head -1 "$OUT" >"$OUT.head"
	refute_grep 'L1m|CEst' "$OUT.head"
	ncg --dump=functions --events=CEst "$FIX/example.callgrind"
	expect_status 2
	assert_grep "unknown event 'CEst'" "$ERR"
	# the sort key too
	ncg --dump=functions --format=tsv --sort=self:CEst --events=CEst "$CS"
	expect_status 0
	awk -F'\t' 'NR > 2 && $5 > prev { bad++ } NR > 1 { prev = $5 } END { exit bad > 0 }' "$OUT"
}

@test "derived events: --event=NAME=FORMULA, yours, in every report; a bad one is named" {
	# Hits = Dr + Dw - ... no minus: D accesses, 1687757 + 1242205 = 2,929,962
	ncg --dump=functions --event='Dacc=Dr + Dw' --event='Dmiss=D1mr+D1mw' --events=Dacc,Dmiss "$CS"
	expect_status 0
	assert_grep '2,929,962 (100.0%)  41,561 (100.0%)  PROGRAM TOTALS' "$OUT"
	# yours are in the reports without --events
	ncg --dump=functions --format=tsv --event='Dacc=Dr+Dw' "$CS"
	head -1 "$OUT" | grep -q $'\tself:Dacc\t'
	# a tree and the calls take it too
	ncg --dump=tree --event='Dacc=Dr+Dw' --events=Dacc "$CS"
	expect_status 0
	assert_grep 'Dacc' "$OUT"
	ncg --dump=functions --event='Bad=Dr+Nope' --event='x' --event='Ir=Dr' "$CS"
	assert_grep "--event Bad: cannot compute it from 'Dr+Nope'" "$ERR"
	assert_grep "--event 'x': not NAME=FORMULA; ignored" "$ERR"
	assert_grep "--event 'Ir=Dr': the profile has Ir already; ignored" "$ERR"
}

@test "derived events in the browser: Tab reaches them, :event CEst sorts by it" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':event CEst' ':save-screen c0' >keys
	"$NCGRIND" --script=keys --size=120x12 --event='Dacc=Dr+Dw' "$CS"
	assert_grep 'CEst' c0
	assert_grep 'Dacc' c0
	assert_grep 'sort: self CEst' c0
}

@test "ratio events: D1mr/Dr of each row's own counts, never summed; cycles on and off" {
	# by hand: 28,055 / 1,687,757 = 0.0166226... -> 0.016623
	ncg --dump=functions --event='D1rate=D1mr/Dr' --events=D1rate,D1mr,Dr "$CS"
	expect_status 0
	assert_grep '0.016623           28,055 (100.0%)  1,687,757 (100.0%)  PROGRAM TOTALS' "$OUT"
	for cycles in --cycles --no-cycles; do
		ncg --dump=functions --format=tsv $cycles --event='D1rate=D1mr/Dr' --events=D1rate,D1mr,Dr "$CS"
		expect_status 0
		# self: 5..7, incl: 8..10; a ratio of the row's own D1mr and Dr, 0 where Dr is 0
		awk -F'\t' 'NR > 1 { for (o = 5; o <= 8; o += 3) {
			want = $(o + 2) ? $(o + 1) / $(o + 2) : 0; d = $o - want
			if (d > 0.0000005 || d < -0.0000005) { print "bad: " $0; bad++ } n++ } }
			END { if (n < 100) exit 1; exit bad > 0 }' "$OUT"
	done
	# json: a number, not millionths
	ncg --dump=functions --format=json --event='D1rate=D1mr/Dr' --events=D1rate "$CS"
	assert_grep '"totals":{"D1rate":0.016623}' "$OUT"
	# a ratio is no term of a sum
	ncg --dump=functions --event='D1rate=D1mr/Dr' --event='X=D1rate+Ir' "$CS"
	assert_grep "--event X: cannot compute it" "$ERR"
}

@test "ratio events in the browser: :event NAME = A / B, no percentages, no call tree" {
	cd "$BATS_TEST_TMPDIR"
	# the cursor stays on its function in the new order: g shows the top
	printf '%s\n' ':event D1rate = D1mr / Dr' 'g' ':save-screen r0' 't' ':save-screen r1' \
		':event Dmiss = D1mr + D1mw' ':save-screen r2' >keys
	"$NCGRIND" --script=keys --size=130x10 "$CS"
	assert_grep 'Total D1rate: 0.0166' r0
	# the first row: 0x...486d360, one D1mr of one Dr: 1.0000, its share of a total none
	sed -n 4p r0 | grep -qE '^0\.3529 +- +1\.0000 +- +1  0x000000000486d360'
	assert_grep 'a call tree needs an event that adds up; D1rate is a ratio' r1
	# 28,055 + 13,506
	assert_grep 'Total Dmiss: 41,561' r2
}

@test "ratio events: a group's ratio is of its own sums; a tree report refuses a ratio" {
	ncg --dump=functions --group=object --format=tsv --event='D1rate=D1mr/Dr' \
		--events=D1rate,D1mr,Dr "$CS"
	expect_status 0
	# group functions self:D1rate self:D1mr self:Dr incl:...
	awk -F'\t' 'NR > 1 { for (o = 3; o <= 6; o += 3) {
		want = $(o + 2) ? $(o + 1) / $(o + 2) : 0; d = $o - want
		if (d > 0.0000005 || d < -0.0000005) { print "bad: " $0; bad++ } n++ } }
		END { if (n < 4) exit 1; exit bad > 0 }' "$OUT"
	ncg --dump=tree --event='D1rate=D1mr/Dr' --events=D1rate "$CS"
	expect_status 1
	assert_grep 'a call tree needs an event that adds up; D1rate is a ratio' "$ERR"
}

@test "ratio events: lines merged in the source are a ratio of their sums; a ratio past 64 bits is said" {
	cd "$BATS_TEST_TMPDIR"
	# two records of line 1: Dr 5 + 5 over Ir 10 + 10 = 0.5 (not 0.5 + 0.5)
	printf 'events: Ir Dr\nfl=a.c\nfn=main\n1 10 5\nfn=main\n1 10 5\n' >rep.callgrind
	ncg --event='R=Dr/Ir' --dump=source --function=main --events=Ir,Dr,R rep.callgrind
	assert_grep '20 (100.00%) 10 (100.00%)   0.5000' "$OUT"
	ncg --event='R=Dr/Ir' --dump=lines --events=Ir,Dr,R rep.callgrind
	assert_grep "$(printf 'a.c\t1\t20\t10\t0.500000')" "$OUT"
	# 10^14 / 1 in millionths is past 64 bits: saturated, and said (the helper's review)
	printf 'events: Ir Dr\nfl=a.c\nfn=main\n1 100000000000000 1\n' >big.callgrind
	ncg --event='R=Ir/Dr' --dump=functions --format=tsv --events=R big.callgrind
	assert_grep "inherited event 'R' exceeds 64 bits" "$ERR"
}

@test "derived events: a sum past 64 bits in one call's cost alone is said" {
	# The call main -> f records Ir 1000, the whole profile 10 (recursion.bats):
	# X = 10^17 Ir is 10^18 in the total and in every function, self or
	# inclusive (capped at the total), but 10^20 in the call, past 2^64.
	cd "$BATS_TEST_TMPDIR"
	ncg --event='X=100000000000000000 Ir' --dump=calls --format=tsv --events=Ir,X \
		"$BATS_TEST_DIRNAME/fixtures/recursion/inconsistent.callgrind"
	assert_grep "inherited event 'X' exceeds 64 bits" "$ERR"
	assert_grep "$(printf '\t1000\t18446744073709551615\t')" "$OUT"
	# 10^16 Ir: 10^19 in the call still fits, and nothing is said
	ncg --event='X=10000000000000000 Ir' --dump=calls --format=tsv --events=Ir,X \
		"$BATS_TEST_DIRNAME/fixtures/recursion/inconsistent.callgrind"
	refute_grep "exceeds 64 bits" "$ERR"
	assert_grep "$(printf '\t1000\t10000000000000000000\t')" "$OUT"
}

@test "derived events: a well-known formula says only the terms the profile has, and is what is computed" {
	# The cache simulation has no Ge and no L2m: CEst is Ir + 10 Bm + 10 L1m + 100 LLm
	# (10,621,176 above). A profile with Ir, I1mr and D1mr only: L1m = I1mr + D1mr,
	# no LLm, no Bm, CEst = Ir + 10 L1m: f 100 + 10 * (3 + 4) = 170, g 50 + 10 * 1 = 60.
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'events: Ir I1mr D1mr' 'fl=a.c' 'fn=f' '1 100 3 4' 'fn=g' '2 50 1 0' >few.callgrind
	printf '%s\n' ':events' ':save-screen ev' >keys
	"$NCGRIND" --script=keys --size=100x24 "$CS"
	grep -E '^  (L1m|LLm|Bm|CEst) ' ev | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
  L1m                      42,915  = I1mr + D1mr + D1mw
  LLm                       5,106  = ILmr + DLmr + DLmw
  Bm                       69,680  = Bim + Bcm
  CEst                 10,621,176  = Ir + 10 Bm + 10 L1m + 100 LLm
EOF2
	"$NCGRIND" --script=keys --size=100x24 few.callgrind
	grep -E '^  (L1m|LLm|Bm|CEst) ' ev | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
  L1m                           8  = I1mr + D1mr
  CEst                        230  = Ir + 10 L1m
EOF2
	ncg --dump=functions --format=json --events=Ir,L1m,CEst few.callgrind
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
formula = {e["name"]: e["formula"] for e in d["events"]}
assert formula == {"Ir": None, "L1m": "I1mr + D1mr", "CEst": "Ir + 10 L1m"}, formula
cest = {f["function"]: f["self"]["CEst"] for f in d["functions"]}
assert cest == {"f": 170, "g": 60}, cest
EOF2
}

# Inherited events are worked out when shown (events_on_demand) for up to 64
# events and 256 terms; past that their columns are kept as before. Both ways
# give a value by its formula: here by hand.
few_events() { # N: a profile of N raw events E1..EN, main calls f
	local n=$1 i
	{
		printf '# callgrind format\nevents:'
		for i in $(seq 1 "$n"); do printf ' E%d' "$i"; done
		# S = E1 + 2 E2 + EN; T = S + S (an inherited event naming one before it)
		printf '\nevent: S = E1 + 2 E2 + E%d\nevent: T = S + S\n' "$n"
		printf 'fl=a.c\nfn=main\n1 1 2'
		for i in $(seq 3 "$n"); do printf ' %d' "$i"; done
		printf '\ncfn=f\ncalls=1 1\n1 10 20'
		for i in $(seq 3 "$n"); do printf ' %d' $((i * 10)); done
		printf '\nfn=f\n1 10 20'
		for i in $(seq 3 "$n"); do printf ' %d' $((i * 10)); done
		printf '\n'
	} >"E$n.callgrind"
}

@test "derived events: worked out when shown (3 events) or kept (70, or a formula of 300 terms): same values" {
	cd "$BATS_TEST_TMPDIR"
	# main self: E1 1, E2 2, EN N; f (self, and main's call): E1 10, E2 20, EN 10 N.
	# 3 events: S = 1 + 4 + 3 = 8 (main self); f: 10 + 40 + 30 = 80; main incl 88.
	# 70 events: main self S = 1 + 4 + 70 = 75; f 10 + 40 + 700 = 750; incl 825. T = 2 S.
	few_events 3
	few_events 70
	ncg --dump=functions --format=tsv --events=S,T --sort=name E3.callgrind
	expect_status 0
	expect_no_err
	expect_tsv <<'EOF2'
function | file | object | calls | self:S | self:T | incl:S | incl:T
f | a.c |  | 1 | 80 | 160 | 80 | 160
main | a.c |  | 0 | 8 | 16 | 88 | 176
EOF2
	ncg --dump=functions --format=tsv --events=S,T --sort=name E70.callgrind
	expect_status 0
	expect_no_err
	expect_tsv <<'EOF2'
function | file | object | calls | self:S | self:T | incl:S | incl:T
f | a.c |  | 1 | 750 | 1500 | 750 | 1500
main | a.c |  | 0 | 75 | 150 | 825 | 1650
EOF2
	# the call's cost too: main -> f is f's 80 (3 events)
	ncg --dump=calls --format=tsv --events=T E3.callgrind
	expect_status 0
	assert_grep "160" "$OUT"
	# a formula of 300 terms (E1 300 times): kept; S = 300 E1 = 300 (main), 3,000 (f)
	sed "s/^event: S = .*/event: S = $(seq 1 300 | sed 's/.*/E1/' | paste -sd+ | sed 's/+/ + /g')/" \
		E3.callgrind >long.callgrind
	ncg --dump=functions --format=tsv --events=S --sort=name long.callgrind
	expect_status 0
	expect_no_err
	expect_tsv <<'EOF2'
function | file | object | calls | self:S | incl:S
f | a.c |  | 1 | 3000 | 3000
main | a.c |  | 0 | 300 | 3300
EOF2
}
