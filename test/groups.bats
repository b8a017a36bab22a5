#!/usr/bin/env bats
# Grouping (issue 17): functions by object, file, class (the scope of the
# demangled name) or cycle, as KCachegrind groups them; a group's self cost is
# its functions', its inclusive cost its self cost and the calls out of it.

load test_helper

# two objects: a.so's f (self 10, calls b.so's g for 5) and f2 (self 3, calls f
# for 15: inside a.so); b.so's g (self 5). By hand: a.so self 13, incl 13 + 5 = 18;
# b.so self 5, incl 5; the total 18.
two_objects() {
	cat >"$BATS_TEST_TMPDIR/two.callgrind" <<'EOF'
events: Ir
ob=a.so
fl=a.c
fn=f
1 10
cob=b.so
cfi=b.c
cfn=g
calls=1 1
1 5
fn=f2
1 3
cfn=f
calls=1 1
1 15
ob=b.so
fl=b.c
fn=g
1 5
EOF
	echo "$BATS_TEST_TMPDIR/two.callgrind"
}

@test "groups: by object, by hand: self the functions', inclusive the calls out of the group" {
	ncg --dump=functions --group=object --format=tsv "$(two_objects)"
	expect_status 0
	expect_out <<'EOF'
group	functions	self:Ir	incl:Ir
a.so	2	13	18
b.so	1	5	5
EOF
}

@test "groups: --command filters narrow them and the head says which; json too; hide refused" {
	# filter ^f2$ keeps f2 alone: a.so is f2, self 3, and its call to f (15) leaves
	# the group now: incl 18; b.so has no function kept, no row
	two="$(two_objects)"
	ncg --dump=functions --group=object --command='filter ^f2$' "$two"
	expect_status 0
	sed -n '2p;4,$p' "$OUT" >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_out <<'EOF'
Filters:     filter ^f2$
             18 (100.00%)                3 ( 16.67%)          1  a.so
EOF
	ncg --dump=functions --group=object --format=json --command='filter ^f2$' "$two"
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["group"] == "object" and d["filters"] == "filter ^f2$", d
assert d["totals"] == {"Ir": 18} and [e["name"] for e in d["events"]] == ["Ir"], d
assert d["groups"] == [{"name": "a.so", "functions": 1, "self": {"Ir": 3}, "incl": {"Ir": 18}}], d
EOF
	ncg --dump=functions --group=object --command='hide ^f$' "$two"
	expect_status 2
	assert_grep "hide shapes call trees; --dump=functions --group takes filter, focus and ignore" "$ERR"
	ncg --dump=calls --group=object "$two"
	expect_status 2
	assert_grep "--group goes with --dump=functions, not --dump=calls" "$ERR"
}

@test "groups: every object's self cost is the sum of its functions' (a real profile)" {
	local f=$FIX/names/names-mangled.callgrind
	ncg --dump=functions --format=tsv "$f"
	awk -F'\t' 'NR > 1 { self[$3] += $5; n[$3]++ } END { for (o in self) print o "\t" n[o] "\t" self[o] }' \
		"$OUT" | LC_ALL=C sort >"$BATS_TEST_TMPDIR/want"
	ncg --dump=functions --group=object --format=tsv "$f"
	awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' "$OUT" | LC_ALL=C sort \
		>"$BATS_TEST_TMPDIR/got"
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	# and the files' the same way
	ncg --dump=functions --format=tsv "$f"
	awk -F'\t' 'NR > 1 { self[$2] += $5 } END { for (o in self) print o "\t" self[o] }' \
		"$OUT" | LC_ALL=C sort >"$BATS_TEST_TMPDIR/want"
	ncg --dump=functions --group=file --format=tsv "$f"
	awk -F'\t' 'NR > 1 { print $1 "\t" $3 }' "$OUT" | LC_ALL=C sort \
		>"$BATS_TEST_TMPDIR/got"
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "groups: by class, from the demangled names (--demangle=no recording); by cycle" {
	ncg --dump=functions --group=class --format=tsv "$FIX/names/names-mangled.callgrind"
	expect_status 0
	# shapes::scale(long) and (double): 2,000 each; shapes::Square::area() const: 3,000
	grep -E '^shapes(::Square)?	' "$OUT" >"$OUT.c"
	mv "$OUT.c" "$OUT"
	expect_out <<'EOF'
shapes	2	4000	4000
shapes::Square	1	3000	3000
EOF
	ncg --dump=functions --group=cycle --format=json "$FIX/recursion/mutual.callgrind"
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["group"] == "cycle"
names = [g["name"] for g in d["groups"]]
assert any(n.startswith("<cycle ") for n in names), names
EOF
	ncg --dump=functions --group=bogus "$FIX/example.callgrind"
	expect_status 2
	assert_grep "unknown group 'bogus'" "$ERR"
}

@test "groups in the browser: O by object, again by file, class; Enter: its functions; filters inside" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'O' ':save-screen g0' 'O' 'O' ':save-screen g1' 'G' 'Enter' ':save-screen g2' \
		'Enter' ':save-screen g3' 'q' 'q' ':filter scale' ':save-screen g4' ':group none' \
		':save-screen g5' >keys
	"$NCGRIND" --script=keys --size=110x14 "$FIX/names/names-mangled.callgrind"
	assert_grep 'ncgrind: functions by object' g0
	assert_grep '5 groups;' g0
	# by class: shapes (scale(long) + scale(double), 2,000 each), shapes::Square (3,000)
	assert_grep 'ncgrind: functions by class' g1
	assert_grep '         4,000   2.39%          4,000   2.39%       2  shapes' g1
	# G, Enter: the last group (shapes::Square) and its one function; Enter: its calls
	assert_grep 'ncgrind: the functions of shapes::Square' g2
	assert_grep 'shapes::Square::area() const' g2
	assert_grep 'ncgrind: callers and callees' g3
	# a filter narrows the groups too: only shapes has a function named scale
	assert_grep '1 group;' g4
	refute_grep 'shapes::Square' g4
	# group none: back to the table
	head -1 g5 | grep -q '^ncgrind: .*names-mangled.callgrind'
}

@test "groups in the browser: inside a group, s, i, c and a sort its functions" {
	cd "$BATS_TEST_TMPDIR"
	# by class, shapes: scale(double) and scale(long); by name "(double)" comes first
	printf '%s\n' ':group class' 'j' 'Enter' 'a' ':save-screen n0' 'i' ':save-screen n1' >keys
	"$NCGRIND" --script=keys --size=110x10 "$FIX/names/names-mangled.callgrind"
	assert_grep 'ncgrind: the functions of shapes' n0
	assert_grep '2 functions, by name' n0
	sed -n 5p n0 | grep -q 'shapes::scale(double)$'
	sed -n 6p n0 | grep -q 'shapes::scale(long)$'
	assert_grep '2 functions, by inclusive cost' n1
}

@test "groups and diffs: event names from the profile never reach the output raw" {
	printf 'events: I\033]0;pwn\007r Dr\nfl=a.c\nfn=main\n1 10 1\n' >"$BATS_TEST_TMPDIR/esc.callgrind"
	local f=$BATS_TEST_TMPDIR/esc.callgrind args
	for args in "--dump=functions --group=file" "--diff --dump=tree $f" "--diff --dump=lines $f" \
		"--diff --dump=tree --format=tsv $f" "--diff --dump=functions $f" \
		"--diff --dump=source --function=main $f"; do
		# shellcheck disable=SC2086 # (the words of $args)
		ncg $args "$f"
		tr -d '\n' <"$OUT" | grep -c $'\033' >"$BATS_TEST_TMPDIR/n" || true
		echo 0 | diff - "$BATS_TEST_TMPDIR/n"
	done
}

@test "groups: a recursion across two groups adds the call's share of its caller, not the nested levels" {
	# mutual-files: b.c holds b (self 10) and leaf (self 7); b calls a (a.c) once,
	# recorded 22, a cost that counts a2's call back into b. b spends 10 + 22 + 7 =
	# 39 > its inclusive 17, so the call is 22 x 17 / 39 = 9.59, rounded 10: b.c is
	# 17 + 10 = 27 (the recorded number made it 17 + 22 = 39). a.c: 20 + 39 x 37 /
	# 59 = 44.5, more than the total, so the total, 40.
	ncg --group=file --format=tsv "$FIX/recursion/mutual-files.callgrind"
	expect_status 0
	expect_tsv <<'EOF2'
group | functions | self:Ir | incl:Ir
a.c | 1 | 20 | 40
b.c | 2 | 17 | 27
m.c | 1 | 3 | 40
EOF2
}
