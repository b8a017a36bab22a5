#!/usr/bin/env bats
# Hostile files (issue 13): profiles made to hang ncgrind, to reach the terminal
# through its output, to make it read what it should not, or to reach undefined
# behaviour. Four come from ../shared/corpus/hostile (copied to fixtures/hostile/, with
# their note quoted in the test); the others are made for these tests:
#   escapes.callgrind     main (5 Ir, line 1) in /nonexistent/a U+009B [31m b U+202E
#                         c 0x9b d.c; shown U+009B (3 Ir, line 1) in src.c. Total 8.
#   json-bytes.callgrind  a 0x9b b 0xff c ESC d U+202E e (5 Ir) in x ESC .c
#   event-name.callgrind  the event is named I ESC ]0;x BEL r; main costs 5 of it
#   callee-only.callgrind main (10 Ir) calls f (20 Ir inclusive): f has no cost line
#   far-line.callgrind    main in five.c: 3 Ir on line 2, 4 Ir on line 10^15. Total 7.
# Expected values are worked out by hand from these files.

load test_helper

H="$BATS_TEST_DIRNAME/fixtures/hostile"

# copy FILES...: fixtures/hostile/FILES into $BATS_TEST_TMPDIR, and cd there (the
# messages and the paths tried then start with the bare names).
copy() {
	local f
	for f; do
		cp "$H/$f" "$BATS_TEST_TMPDIR/"
	done
	cd "$BATS_TEST_TMPDIR" || return
}

# five: five.c (lines "one" .. "five"), older than the profiles.
five() {
	printf 'one\ntwo\nthree\nfour\nfive\n' >"$BATS_TEST_TMPDIR/five.c"
	touch -d 2000-01-01 "$BATS_TEST_TMPDIR/five.c"
}

# browse PROFILE [OPTIONS]: keys on standard input, from the current directory, at most
# 10 seconds; :save-screen NAME writes $BATS_TEST_TMPDIR/NAME.
browse() {
	local prof="$1"
	shift
	sed "s|^:save-screen |:save-screen $BATS_TEST_TMPDIR/|" >"$BATS_TEST_TMPDIR/keys"
	status=0
	timeout 10 "$NCGRIND" --script="$BATS_TEST_TMPDIR/keys" "$@" "$prof" >"$OUT" 2>"$ERR" ||
		status=$?
}

# on_tty ARGS...: ncgrind ARGS with its standard output a terminal (a pty of
# script(1)); what it wrote there in $OUT, without the \r the terminal adds.
on_tty() {
	command -v script >/dev/null || { echo "script (util-linux) is needed"; return 1; }
	status=0
	timeout 10 script -qec "$(printf '%q ' "$NCGRIND" "$@") 2>$(printf '%q' "$ERR")" /dev/null \
		</dev/null >"$OUT.tty" || status=$?
	tr -d '\r' <"$OUT.tty" >"$OUT"
}

# printable FILE: fail when FILE holds a byte other than printable ASCII, tab and
# newline (what the fixtures hold beyond ASCII must all come out escaped).
printable() {
	local bad
	bad=$(LC_ALL=C tr -d '\040-\176\t\n' <"$1" | od -An -tx1 | head -3)
	if [ -n "$bad" ]; then
		echo "bytes a terminal would act on in $1:$bad"
		return 1
	fi
}

# ------------------------------------------------------------ line numbers

@test "hostile: --dump=source on costs at lines 2^64 - 2 and 2^64 - 1 ends at once" {
	# corpus note: "--dump=source (and browser 'v') iterate every line number up to the
	# largest one; line 18446744073709551615 never ends".
	# Line 3: 5 Ir at line 2^64 - 2; line 4: 5 Ir at 2^64 - 1; line 5 (+1 past address
	# 2^64 - 1) is rejected; line 6: 1 Ir at address 0, line '*' = 2^64 - 1. Total 11:
	# 5 (45.45%) and 6 (54.55%). No fl=: the empty name is tried as '' and './'.
	copy hang-dump-source-line-2pow64.callgrind
	status=0
	timeout 10 "$NCGRIND" --dump=source --function=main hang-dump-source-line-2pow64.callgrind \
		>"$OUT" 2>"$ERR" || status=$?
	expect_status 1
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function main
-- file ???
-- not found; tried:
--   
--   ./
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
-- line 18446744073709551614 ----------------------------------------
 5 (45.45%)  (line 18446744073709551614)
 6 (54.55%)  (line 18446744073709551615)
EOF2
}

@test "hostile: --dump=source of a cost at line 10^15: the lines near the costs, a gap between" {
	# five.c has 5 lines; --context=1 shows lines 1-3 around line 2 (3 Ir, 3/7 =
	# 42.86%), then line 10^15 - 1 and 10^15 (4 Ir, 57.14%), past the file's end: empty.
	copy far-line.callgrind
	five
	status=0
	timeout 10 "$NCGRIND" --dump=source --function=main --context=1 far-line.callgrind \
		>"$OUT" 2>"$ERR" || status=$?
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function main
-- file five.c
 .           one
 3 (42.86%)  two
 .           three
-- line 999999999999999 ----------------------------------------
 .           
 4 (57.14%)  
EOF2
}

@test "hostile: the source view (v) of costs at line 2^64 - 1 and 10^15 opens at once" {
	# No file: only the lines with cost (cost column 5 wide, the widest being 11).
	copy hang-dump-source-line-2pow64.callgrind far-line.callgrind
	browse hang-dump-source-line-2pow64.callgrind <<'EOF2'
v
:save-screen top
EOF2
	expect_status 1 # the rejected line 5
	sed -n '5,7p' "$BATS_TEST_TMPDIR/top" >"$OUT"
	expect_out <<'EOF2'
    5  45.45% 18446744073709551614
    6  54.55% 18446744073709551615

EOF2
	# five.c found: all its 5 lines, a gap, then 3 lines of context before line
	# 10^15 (4 Ir = 57.14% of 7), which is the hottest: the cursor is on it
	five
	browse far-line.callgrind <<'EOF2'
v
:save-screen far
EOF2
	expect_status 0
	sed -n '5,14p' "$BATS_TEST_TMPDIR/far" | sed 's/ *$//' >"$OUT"
	{
		printf '%5s %7s %5s  %s\n' . '' 1 one 3 42.86% 2 two . '' 3 three . '' 4 four \
			. '' 5 five
		printf '%15s...\n' ''
		printf '%5s %7s %s\n' . '' 999999999999997 . '' 999999999999998 . '' 999999999999999 \
			4 57.14% 1000000000000000
	} | sed 's/ *$//' >"$BATS_TEST_TMPDIR/want"
	diff -u "$BATS_TEST_TMPDIR/want" "$OUT"
	tail -n 1 "$BATS_TEST_TMPDIR/far" | grep -q '^10/10 '
}

# ------------------------------------------------------------ escapes

@test "hostile: --dump=source escapes C1, bidi controls and bytes that are not UTF-8" {
	# corpus note (term-osc52): "--dump=source prints the 'tried:' paths raw; fl= with
	# OSC 52/OSC 2 sets the clipboard and window title". Its ESC and BEL are \x1b, \x07.
	copy term-osc52-dump-source-tried.callgrind escapes.callgrind
	ncg --dump=source --function=main term-osc52-dump-source-tried.callgrind
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
	# U+009B (an 8-bit CSI) and U+202E (right-to-left override) are \uXXXX, the byte
	# 0x9b alone \x9b, in the paths, the names and the source line; the tab stays
	printf 'x\x9b[1my\xc2\x9bz\xe2\x80\xaew\tend\n' >src.c
	touch -d 2000-01-01 src.c
	ncg --dump=source --function=. escapes.callgrind
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function main
-- file /nonexistent/a\u009b[31mb\u202ec\x9bd.c
-- not found; tried:
--   /nonexistent/a\u009b[31mb\u202ec\x9bd.c
--   ./nonexistent/a\u009b[31mb\u202ec\x9bd.c
--   ./a\u009b[31mb\u202ec\x9bd.c
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
 5 (62.50%)  (line 1)
--------------------------------------------------------------------------------
-- function shown\u009b
-- file src.c
 3 (37.50%)  x\x9b[1my\u009bz\u202ew	end
EOF2
}

@test "hostile: the text report escapes U+009B and U+202E in names" {
	copy escapes.callgrind
	ncg escapes.callgrind
	expect_status 0
	assert_grep '/nonexistent/a\u009b[31mb\u202ec\x9bd.c:main' "$OUT"
	assert_grep 'src.c:shown\u009b' "$OUT"
	printable "$OUT"
	ncg --dump=calls escapes.callgrind
	printable "$OUT"
}

@test "hostile: tsv and --dump=lines escape on a terminal, and are the profile's bytes elsewhere" {
	copy escapes.callgrind
	on_tty --dump=functions --format=tsv escapes.callgrind
	expect_status 0
	expect_tsv <<'EOF2'
function | file | object | calls | self:Ir | incl:Ir
main | /nonexistent/a\u009b[31mb\u202ec\x9bd.c |  | 0 | 5 | 5
shown\u009b | src.c |  | 0 | 3 | 3
EOF2
	on_tty --dump=lines escapes.callgrind
	expect_status 0
	expect_tsv <<'EOF2'
file | line | self:Ir
/nonexistent/a\u009b[31mb\u202ec\x9bd.c | 1 | 5
src.c | 1 | 3
EOF2
	# not a terminal: the bytes as they are
	ncg --dump=functions --format=tsv escapes.callgrind
	printf 'function\tfile\tobject\tcalls\tself:Ir\tincl:Ir\nmain\t/nonexistent/a\xc2\x9b[31mb\xe2\x80\xaec\x9bd.c\t\t0\t5\t5\nshown\xc2\x9b\tsrc.c\t\t0\t3\t3\n' \
		>want
	cmp want "$OUT"
	ncg --dump=lines escapes.callgrind
	printf 'file\tline\tself:Ir\n/nonexistent/a\xc2\x9b[31mb\xe2\x80\xaec\x9bd.c\t1\t5\nsrc.c\t1\t3\n' >want
	cmp want "$OUT"
}

@test "hostile: an event's name is escaped in every header a terminal sees" {
	# the event I ESC ]0;x BEL r: an OSC 0 (window title) in the column heads
	copy event-name.callgrind
	ncg event-name.callgrind
	expect_status 0
	assert_grep 'I\x1b]0;x\x07r incl' "$OUT"
	printable "$OUT"
	ncg --dump=tree event-name.callgrind
	assert_grep 'I\x1b]0;x\x07r: inclusive cost' "$OUT"
	printable "$OUT"
	ncg --dump=source --function=main event-name.callgrind
	printable "$OUT"
	on_tty --dump=tree --format=tsv event-name.callgrind
	assert_grep 'incl:I\x1b]0;x\x07r' "$OUT"
	printable "$OUT"
	on_tty --dump=callees --function=main --format=tsv event-name.callgrind
	printable "$OUT"
	on_tty --dump=lines event-name.callgrind
	printable "$OUT"
}

@test "hostile: json is valid UTF-8 without lone surrogates; a byte that is not UTF-8 is the text \\xNN" {
	# a 0x9b b 0xff c ESC d U+202E e: the bytes 0x9b and 0xff as the text \x9b, \xff;
	# ESC and U+202E as the escapes \u001b and \u202e (the same characters)
	copy json-bytes.callgrind
	ncg --format=json json-bytes.callgrind
	expect_status 0
	assert_grep '"function":"a\\x9bb\\xffc\u001bd\u202ee","file":"x\u001b.c"' "$OUT"
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF2'
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))  # strict UTF-8
json.dumps(d, ensure_ascii=False).encode("utf-8")  # fails on a lone surrogate
f = d["functions"][0]
assert f["function"] == "a\\x9bb\\xffc\x1bd\u202ee", ascii(f["function"])
assert f["file"] == "x\x1b.c", ascii(f["file"])
EOF2
	printable "$OUT"
}

@test "hostile: the browser shows a bidi override as \\u202e, not hidden" {
	# the selected function's file on the line above the status: U+009B and U+202E
	# as \u009b and \u202e, the byte 0x9b as \x9b
	copy escapes.callgrind
	browse escapes.callgrind <<'EOF2'
:save-screen table
EOF2
	expect_status 0
	tail -n 2 "$BATS_TEST_TMPDIR/table" | head -n 1 >"$OUT"
	assert_grep 'file: /nonexistent/a\u009b[31mb\u202ec\x9bd.c' "$OUT"
}

# ------------------------------------------------------------ what the profile names

@test "hostile: a FIFO named by fl= is passed over at once, with the reason" {
	# opening a FIFO for reading waits for a writer: it is not opened
	copy
	mkfifo fifo.c
	printf 'events: Ir\nfl=fifo.c\nfn=main\n1 5\n' >fifo.callgrind
	status=0
	timeout 10 "$NCGRIND" --dump=source --function=main fifo.callgrind >"$OUT" 2>"$ERR" ||
		status=$?
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function main
-- file fifo.c
-- not read; tried:
--   fifo.c (not read: not a regular file)
--   ./fifo.c (not read: not a regular file)
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
 5 (100.00%)  (line 1)
EOF2
}

@test "hostile: a source file larger than 64 MiB is not read, and the source view says why" {
	copy
	truncate -s 200M big.c
	printf 'events: Ir\nfl=big.c\nfn=main\n1 5\n' >big.callgrind
	status=0
	timeout 10 "$NCGRIND" --dump=source --function=main big.callgrind >"$OUT" 2>"$ERR" ||
		status=$?
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function main
-- file big.c
-- not read; tried:
--   big.c (not read: larger than 64 MiB)
--   ./big.c (not read: larger than 64 MiB)
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
 5 (100.00%)  (line 1)
EOF2
	browse big.callgrind <<'EOF2'
v
:save-screen big
EOF2
	expect_status 0
	sed -n '3p;5,6p' "$BATS_TEST_TMPDIR/big" >"$OUT"
	expect_out <<'EOF2'
file 1/1 (100.0% of the self cost): big.c  source not read: larger than 64 MiB
  tried big.c (not read: larger than 64 MiB)
  tried ./big.c (not read: larger than 64 MiB)
EOF2
}

@test "hostile: a file of /proc, which says it is empty, is read to its end" {
	# /proc/self/limits has size 0 to stat; its first line is the heading of the table
	printf 'events: Ir\nfl=/proc/self/limits\nfn=main\n1 5\n' >"$BATS_TEST_TMPDIR/proc.callgrind"
	ncg --dump=source --function=main "$BATS_TEST_TMPDIR/proc.callgrind"
	expect_status 0
	assert_grep ' 5 (100.00%)  Limit ' "$OUT"
	assert_grep 'Soft Limit' "$OUT"
}

@test "hostile: an object whose name starts with '-' is a file to objdump, not an option" {
	command -v cc >/dev/null || { echo "cc is needed for this test"; return 1; }
	command -v objdump >/dev/null || { echo "objdump (binutils) is needed for this test"; return 1; }
	copy
	printf 'int f(int x) { return x * 3 + 1; }\nint main(void) { return f(2); }\n' >prog.c
	cc -O1 -o ./-prog prog.c
	addr=$(nm ./-prog | awk '$3 == "f" { print $1 }' | sed 's/^0*//')
	[ -n "$addr" ]
	# the oracle: objdump's own text for the first instruction of f
	want=$(objdump -d --no-show-raw-insn ./-prog |
		awk -v a="$addr:" '$1 == a { $1 = ""; sub(/^ +/, ""); print; exit }')
	[ -n "$want" ]
	printf 'positions: instr line\nevents: Ir\nob=-prog\nfl=prog.c\nfn=f\n0x%s 1 7\n' "$addr" \
		>prog.callgrind
	browse prog.callgrind <<'EOF2'
V
:save-screen insn
EOF2
	expect_status 0
	sed -n '3p' "$BATS_TEST_TMPDIR/insn" >"$OUT"
	refute_grep 'addresses only' "$OUT"
	row=$(sed -n '5p' "$BATS_TEST_TMPDIR/insn" | sed 's/ *$//')
	got=$(printf '%s\n' "$row" | sed -E 's/^ +7 +100\.0% +[0-9a-f]+  //' | tr -s ' \t' ' ')
	[ "$got" = "$(printf '%s' "$want" | tr -s ' \t' ' ')" ] ||
		{ echo "row: $row"; echo "want: $want"; return 1; }
}

@test "hostile: a symbolic link at the history's path is replaced, not written through" {
	dir="$HOME/.local/state/ncgrind"
	mkdir -p "$dir"
	echo precious >"$BATS_TEST_TMPDIR/victim"
	ln -s "$BATS_TEST_TMPDIR/victim" "$dir/history"
	copy escapes.callgrind
	browse escapes.callgrind <<'EOF2'
: "sort name" Enter
EOF2
	expect_status 0
	diff -u - "$BATS_TEST_TMPDIR/victim" <<<'precious'
	[ ! -L "$dir/history" ]
	grep -q 'sort\\040name' "$dir/history"
	# no temporary file left beside it
	ls -A "$dir" >"$OUT"
	refute_grep '^history\.' "$OUT"
}

# ------------------------------------------------------------ undefined behaviour

@test "hostile: a function with no cost line of its own (only called): source, v, --dump=source" {
	# corpus note (ubsan-qsort-null-srcview): "srcview.c merge() calls qsort(NULL,0,...)
	# for a function with no blocks (callee only)". The corpus file ends at its calls=
	# line, so its call is dropped and f is not listed; callee-only has the cost line.
	# f has no rows: the report names it only, the view says it has no cost lines
	# (make asan runs this under UBSan).
	copy callee-only.callgrind
	ncg --dump=source --function='^f$' callee-only.callgrind
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function f
EOF2
	browse callee-only.callgrind <<'EOF2'
/ "^f$" Enter v
:save-screen f
EOF2
	expect_status 0
	sed -n '5p' "$BATS_TEST_TMPDIR/f" >"$OUT"
	expect_out <<<'(no cost lines)'
}

@test "hostile: a saturated inherited cost (2^64 - 1) is printed as it is in the trees" {
	# corpus note: "report_tree.c:37 (uint64_t)(node->cost+0.5) with a saturated
	# (UINT64_MAX) inherited-event cost; --dump=tree --events=Big prints a wrong number".
	# Big = 18446744073709551615 Ir saturates at 2^64 - 1; as a double it is 2^64, out
	# of uint64_t's range: clamped to 18,446,744,073,709,551,615, 100% of the root.
	copy ubsan-float-cast-tree-cost.callgrind
	ncg --dump=tree --events=Big ubsan-float-cast-tree-cost.callgrind
	expect_status 1 # the message that Big exceeds 64 bits is an error
	expect_out <<'EOF2'
Big: inclusive cost of each call, folded under 1.00% of the root
           incl   %root  %parent      calls  function, then its callees
18,446,744,073,709,551,615 100.00% 100.00%             main
EOF2
	ncg --dump=tree --events=Big --format=tsv ubsan-float-cast-tree-cost.callgrind
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Big | root_pct | parent_pct | mark
0 | main | a.c | 0 | 18446744073709551615 | 100.00 | 100.00 | 
EOF2
	# the browser's tree (t) on the event Big
	browse ubsan-float-cast-tree-cost.callgrind <<'EOF2'
:event Big
t
:save-screen tree
EOF2
	expect_status 1
	sed -n '5p' "$BATS_TEST_TMPDIR/tree" >"$OUT"
	expect_out <<<'18,446,744,073,709,551,615  100.0%  100.0%              main'
}
