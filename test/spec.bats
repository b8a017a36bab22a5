#!/usr/bin/env bats
# The examples of the Callgrind format specification (3.1.2 - 3.1.7), copied from
# /work/shared/corpus/spec/ into test/fixtures/spec/. Every expected value is worked
# out by hand from the spec text and the file, as noted in each test.

load test_helper

# ---------------------------------------------------------------- 3.1.2 simple example

@test "spec 3.1.2 simple: no positions: line, second cost line shorter than events:" {
	# "15 90 14 2" + "16 20 12" (missing Flops = 0):
	#   Cycles 90+20 = 110, Instructions 14+12 = 26, Flops 2+0 = 2; no calls: incl = self
	tsv_ok "$FIX/spec/spec-simple.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Cycles | self:Instructions | self:Flops | incl:Cycles | incl:Instructions | incl:Flops
main | file.f |  | 0 | 110 | 26 | 2 | 110 | 26 | 2
EOF
}

# ---------------------------------------------------------------- 3.1.4 extended example

# The spec text: main self 20, incl 820 = 20 + 400 (1 call to func1) + 400 (3 calls to
# func2); func1 self 100, incl 100 + 300 (2 calls to func2) = 400; func2 self 700 and
# called 3 + 2 = 5 times, incl 700. main and func1 are in file1.c (fl=file1.c),
# func2 in file2.c (cfi=file2.c, fl=file2.c). Sorted by self, descending.
extended_functions() {
	expect_tsv <<'EOF'
function | file | object | calls | self:Instructions | incl:Instructions
func2 | file2.c |  | 5 | 700 | 700
func1 | file1.c |  | 1 | 100 | 400
main | file1.c |  | 0 | 20 | 820
EOF
}

# One row per caller/callee pair: counts 1, 3, 2 and the inclusive costs of the
# calls= cost lines 400, 400, 300 (ordered by cost, then caller and callee name).
extended_calls() {
	expect_tsv <<'EOF'
caller | caller_file | callee | callee_file | count | incl:Instructions | recorded:Instructions | mark
main | file1.c | func1 | file1.c | 1 | 400 | 400 | 
main | file1.c | func2 | file2.c | 3 | 400 | 400 | 
func1 | file1.c | func2 | file2.c | 2 | 300 | 300 | 
EOF
}

@test "spec 3.1.4 extended: functions" {
	tsv_ok "$FIX/spec/spec-extended.callgrind"
	extended_functions
}

@test "spec 3.1.4 extended: calls" {
	tsv_ok --dump=calls "$FIX/spec/spec-extended.callgrind"
	extended_calls
}

@test "spec 3.1.4 extended: json totals and functions" {
	ncg --format=json "$FIX/spec/spec-extended.callgrind"
	expect_status 0
	expect_no_err
	# total = sum of the self costs 20 + 100 + 700
	grep -q '"totals":{"Instructions":820}' "$OUT"
	grep -q '"function":"func2","file":"file2.c".*"calls":5,.*"self":{"Instructions":700},"incl":{"Instructions":700}' "$OUT"
	grep -q '"function":"func1","file":"file1.c".*"calls":1,.*"self":{"Instructions":100},"incl":{"Instructions":400}' "$OUT"
	grep -q '"function":"main","file":"file1.c".*"calls":0,.*"self":{"Instructions":20},"incl":{"Instructions":820}' "$OUT"
}

# ---------------------------------------------------------------- 3.1.5 name compression

@test "spec 3.1.5 name compression (ids defined at first use): same as the extended example" {
	tsv_ok "$FIX/spec/spec-extended-compressed.callgrind"
	extended_functions
	tsv_ok --dump=calls "$FIX/spec/spec-extended-compressed.callgrind"
	extended_calls
}

@test "spec 3.1.5 name compression, all ids defined up front: same as the extended example" {
	# The spec: "you can define name compression mappings directly after the header,
	# and before any cost lines. Thus, the above example can also be written as" -- the
	# same profile. `fn=(1) main` is defined while fl=(2) file2.c is current, but its
	# cost lines follow `fl=(1)` `fn=(1)`: main and func1 are in file1.c. And the
	# definitions alone ("position specifications carry no information themselves")
	# make no function: the same three rows as the extended example.
	tsv_ok "$FIX/spec/spec-extended-compressed-predefined.callgrind"
	extended_functions
	tsv_ok --dump=calls "$FIX/spec/spec-extended-compressed-predefined.callgrind"
	extended_calls
}

@test "spec 3.1.5 name compression: costs of the predefined variant" {
	# Only the costs, whatever file the functions are attributed to, and without rows
	# that have no cost at all.
	tsv_ok "$FIX/spec/spec-extended-compressed-predefined.callgrind"
	drop_zero_rows
	cut -f1,4- "$OUT" >"$OUT.cut"
	mv "$OUT.cut" "$OUT"
	expect_tsv <<'EOF'
function | calls | self:Instructions | incl:Instructions
func2 | 5 | 700 | 700
func1 | 1 | 100 | 400
main | 0 | 20 | 820
EOF
}

# ---------------------------------------------------------------- 3.1.6 subpositions

@test "spec 3.1.6 subpositions, absolute hex addresses, no fl= at all" {
	# ticks 1 + 5 + 6 = 12; no fl= so the file (and object) fields are empty
	tsv_ok "$FIX/spec/spec-subposition-absolute.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:ticks | incl:ticks
func |  |  | 0 | 12 | 12
EOF
}

@test "spec 3.1.6 subpositions, relative +N and *: same result as the absolute file" {
	tsv_ok "$FIX/spec/spec-subposition-relative.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:ticks | incl:ticks
func |  |  | 0 | 12 | 12
EOF
}

# ---------------------------------------------------------------- 3.1.7.2 event names

@test "spec 3.1.7.2 long names and inherited 'event: Sum = Ir + Dr'" {
	# Ir 20 + 10 = 30, Dr 5 + 2 = 7, Sum = Ir + Dr = 37; Sum is an extra column after
	# the raw events
	tsv_ok "$FIX/spec/spec-event-longnames-inherited.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | self:Sum | incl:Ir | incl:Dr | incl:Sum
main | file1.c |  | 0 | 30 | 7 | 37 | 30 | 7 | 37
EOF
}

@test "spec 3.1.7.2 the inherited event alone with --events=Sum" {
	tsv_ok --events=Sum "$FIX/spec/spec-event-longnames-inherited.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Sum | incl:Sum
main | file1.c |  | 0 | 37 | 37
EOF
}

@test "spec 3.1.7.2 json: long name of Ir, totals include the inherited event" {
	ncg --format=json "$FIX/spec/spec-event-longnames-inherited.callgrind"
	expect_status 0
	expect_no_err
	grep -q '{"name":"Ir","long_name":"Instruction Fetches"' "$OUT"
	grep -q '"totals":{"Ir":30,"Dr":7,"Sum":37}' "$OUT"
}

@test "spec 3.1.7.2 json: event formulas are given without surrounding blanks" {
	# 'event: Sum = Ir + Dr' -> formula "Ir + Dr" (long names are trimmed the same way:
	# 'event: Ir : Instruction Fetches' gives "Instruction Fetches")
	ncg --format=json "$FIX/spec/spec-event-longnames-inherited.callgrind"
	expect_status 0
	grep -q '{"name":"Sum","long_name":"","formula":"Ir + Dr"}' "$OUT" || {
		echo "expected {\"name\":\"Sum\",\"long_name\":\"\",\"formula\":\"Ir + Dr\"} in:"
		grep -o '"events":\[[^]]*\]' "$OUT"
		return 1
	}
}
