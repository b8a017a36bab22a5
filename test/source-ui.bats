#!/usr/bin/env bats
# run-suite: alone (its tests wait on what a tmux pane shows: test/tools/run-suite)
# The browser's annotated source (v) and instruction (V) screens, in script mode.
# edge-fi-fe-inlining, worked out by hand (total Ir 620): main's self cost is
# 5, 3, 2, 1, 1 Ir on /src/main.c lines 10-14 (the call to compute, 5x 500 Ir, is
# on line 13), 40 and 60 on /src/vec.h lines 7-8, and 8 on string_fortified.h
# line 29. By file: vec.h 100 (83.33% of main's 120), main.c 12 (10.00%),
# string_fortified.h 8 (6.67%). main's own file (the fl= where fn=main is named)
# is main.c: it comes first, then the others by their share.

load test_helper

X="$BATS_TEST_DIRNAME/fixtures/edge/edge-fi-fe-inlining.callgrind"
BESIDE="$BATS_TEST_DIRNAME/fixtures/beside"

# browse PROFILE [OPTIONS]: keys on standard input, screens into $BATS_TEST_TMPDIR.
browse() {
	local prof="$1"
	shift
	sed "s|^:save-screen |:save-screen $BATS_TEST_TMPDIR/|" >"$BATS_TEST_TMPDIR/keys"
	status=0
	(cd "$(dirname "$prof")" && "$NCGRIND" --script="$BATS_TEST_TMPDIR/keys" "$@" \
		"$(basename "$prof")" >"$OUT" 2>"$ERR") || status=$?
}

# sources LINES...: /src/main.c and /src/vec.h as numbered lines, older than the profile
sources() {
	mkdir -p "$BATS_TEST_TMPDIR/src"
	for f in main.c vec.h; do
		for i in $(seq 1 20); do echo "$f line $i"; done >"$BATS_TEST_TMPDIR/src/$f"
		touch -d 2000-01-01 "$BATS_TEST_TMPDIR/src/$f"
	done
}

@test "source: v opens the function's own file, not the larger inlined one, on its hottest line" {
	sources
	browse "$X" --substitute-path=/src="$BATS_TEST_TMPDIR/src" <<'EOF2'
/ "^main$" Enter v
:save-screen main
f
:save-screen vec
EOF2
	expect_status 0
	# main.c: 21 rows (lines 1..20 and the call on 13), the cursor on line 10 (5 Ir)
	diff -u - <(sed -n '1,4p' "$BATS_TEST_TMPDIR/main") <<'EOF2'
ncgrind: annotated source
main
file 1/3 (10.00% of the self cost): /src/main.c
 Self  %total  Line  Source
EOF2
	grep -q '^10/21 ' "$BATS_TEST_TMPDIR/main"
	# f: vec.h, 20 rows, the cursor (row 8) in the middle of the screen
	diff -u - <(sed -n '3p' "$BATS_TEST_TMPDIR/vec") <<<'file 2/3 (83.33% of the self cost): /src/vec.h'
	grep -E '^ +(40|60) ' "$BATS_TEST_TMPDIR/vec" >"$OUT"
	expect_out <<'EOF2'
   40   6.45%     7  vec.h line 7
   60   9.68%     8  vec.h line 8
EOF2
	grep -q '^8/20 ' "$BATS_TEST_TMPDIR/vec"
}

@test "source: f and F go through the files; Tab and S-Tab through the lines with cost" {
	sources
	browse "$X" --substitute-path=/src="$BATS_TEST_TMPDIR/src" <<'EOF2'
/ "^main$" Enter v
:save-screen main
Tab
:save-screen tab1
Tab Tab Tab Tab
:save-screen tab-end
S-Tab
:save-screen stab
f f
:save-screen fortified
F
:save-screen back-to-vec
F
:save-screen back-to-main
EOF2
	# main.c: hottest line 10 (5 Ir); Tab: 11, then 12, 13, 14 (the call row is not
	# a line with cost of its own), then no more; S-Tab: back to 13
	diff -u - <(sed -n '3p' "$BATS_TEST_TMPDIR/main") <<<'file 1/3 (10.00% of the self cost): /src/main.c'
	grep -q '^10/21 ' "$BATS_TEST_TMPDIR/main"
	grep -q '^11/21 ' "$BATS_TEST_TMPDIR/tab1"
	grep -q '^15/21   no more lines with cost this way$' "$BATS_TEST_TMPDIR/tab-end"
	grep -q '^13/21 ' "$BATS_TEST_TMPDIR/stab"
	grep -E '=> compute' "$BATS_TEST_TMPDIR/main" >"$OUT"
	expect_out <<'EOF2'
  500  80.65%        => compute (5 times)
EOF2
	sed -n '3p' "$BATS_TEST_TMPDIR/fortified" | grep -q '^file 3/3 (6.67% of the self cost): /usr/include/'
	diff -u - <(sed -n '3p' "$BATS_TEST_TMPDIR/back-to-vec") <<<'file 2/3 (83.33% of the self cost): /src/vec.h'
	diff -u - <(sed -n '3p' "$BATS_TEST_TMPDIR/back-to-main") <<<'file 1/3 (10.00% of the self cost): /src/main.c'
}

@test "source: o shows only the lines with cost and three around them" {
	sources
	browse "$X" --substitute-path=/src="$BATS_TEST_TMPDIR/src" <<'EOF2'
/ "^main$" Enter v o
:save-screen only
EOF2
	# main.c lines 10-14 have cost: 7..17 are shown, the others are not
	diff -u - <(sed -n '5,17p' "$BATS_TEST_TMPDIR/only" | sed 's/ *$//') <<'EOF2'
    .             7  main.c line 7
    .             8  main.c line 8
    .             9  main.c line 9
    5   0.81%    10  main.c line 10
    3   0.48%    11  main.c line 11
    2   0.32%    12  main.c line 12
    1   0.16%    13  main.c line 13
  500  80.65%        => compute (5 times)
    1   0.16%    14  main.c line 14
    .            15  main.c line 15
    .            16  main.c line 16
    .            17  main.c line 17

EOF2
}

@test "source: not found, the screen says so, lists what was tried and the lines with cost" {
	# (the message is cut at the 80 columns of the screen). The profile's directory
	# is . (browse runs in it): /src/main.c as written, then src/main.c and main.c there.
	browse "$X" <<'EOF2'
/ "^main$" Enter v
:save-screen missing
EOF2
	diff -u - <(sed -n '3,13p' "$BATS_TEST_TMPDIR/missing" | sed 's/ *$//') <<'EOF2'
file 1/3 (10.00% of the self cost): /src/main.c  source not found; add a direct…
 Self  %total  Line  Source
  tried /src/main.c
  tried ./src/main.c
  tried ./main.c
    5   0.81%    10
    3   0.48%    11
    2   0.32%    12
    1   0.16%    13
  500  80.65%        => compute (5 times)
    1   0.16%    14
EOF2
	# the cursor on the hottest line, 5 Ir on line 10
	grep -q '^4/9 ' "$BATS_TEST_TMPDIR/missing"
}

@test "source: a profile copied with its source: v finds the file beside it" {
	beside wordfreq.c
	browse "$BATS_TEST_TMPDIR/prof/wordfreq.callgrind" <<'EOF2'
/ "^count_words$" Enter v
:save-screen beside
EOF2
	expect_status 0
	diff -u - <(sed -n '1,17p' "$BATS_TEST_TMPDIR/beside" | sed 's/ *$//') <<'EOF2'
ncgrind: annotated source
count_words
file 1/1 (100.0% of the self cost): /home/dev/hidden/wordfreq.c
 Self  %total  Line  Source
    .             1  #include <stdio.h>
    .             2
    .             3  static int count_words(const char *s)
    .             4  {
   30  62.50%     5      int n = 0; for (; *s; s++) n += *s == ' ';
   12  25.00%     6      return n + 1;
    .             7  }
    .             8
    .             9  int main(void)
    .            10  {
    .            11      printf("%d\n", count_words("a b c"));
    .            12      return 0;
    .            13  }
EOF2
	grep -q '^5/13 ' "$BATS_TEST_TMPDIR/beside"
}

@test "source: beside the profile, hidden/wordfreq.c wins over wordfreq.c" {
	# hidden/wordfreq.c is wordfreq.c with " /* hidden */" at the end of each line
	beside wordfreq.c hidden/wordfreq.c
	browse "$BATS_TEST_TMPDIR/prof/wordfreq.callgrind" <<'EOF2'
/ "^count_words$" Enter v
:save-screen hidden
EOF2
	expect_status 0
	diff -u - <(sed -n '3p;8p;10p' "$BATS_TEST_TMPDIR/hidden" | sed 's/ *$//') <<'EOF2'
file 1/1 (100.0% of the self cost): /home/dev/hidden/wordfreq.c
    .             4  { /* hidden */
   12  25.00%     6      return n + 1; /* hidden */
EOF2
}

@test "source: not found, the screen lists each path tried, -I ones too" {
	beside
	browse "$BATS_TEST_TMPDIR/prof/wordfreq.callgrind" -I /nowhere <<'EOF2'
/ "^count_words$" Enter v
:save-screen missing
EOF2
	expect_status 0
	diff -u - <(sed -n '3,14p' "$BATS_TEST_TMPDIR/missing" | sed 's/ *$//') <<'EOF2'
file 1/1 (100.0% of the self cost): /home/dev/hidden/wordfreq.c  source not fou…
 Self  %total  Line  Source
  tried /home/dev/hidden/wordfreq.c
  tried ./home/dev/hidden/wordfreq.c
  tried ./dev/hidden/wordfreq.c
  tried ./hidden/wordfreq.c
  tried ./wordfreq.c
  tried /nowhere/home/dev/hidden/wordfreq.c
  tried /nowhere/wordfreq.c
   30  62.50%     5
   12  25.00%     6

EOF2
	grep -q '^8/9 ' "$BATS_TEST_TMPDIR/missing"
}

@test "source: the paths tried come from the profile: the screen escapes them" {
	# an OSC 52 (clipboard) and an OSC 2 (window title) in fl=: shown as \x1b and \x07
	printf 'events: Ir\nfl=/nonexistent/\033]52;c;cHduZWQ=\007\033]2;PWNED-TITLE\007x.c\nfn=main\n1 5\n' \
		>"$BATS_TEST_TMPDIR/osc.callgrind"
	browse "$BATS_TEST_TMPDIR/osc.callgrind" <<'EOF2'
/ "^main$" Enter v
:save-screen osc
EOF2
	expect_status 0
	diff -u - <(sed -n '5,8p' "$BATS_TEST_TMPDIR/osc" | sed 's/ *$//') <<'EOF2'
  tried /nonexistent/\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
  tried ./nonexistent/\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
  tried ./\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
    5  100.0%     1
EOF2
	run grep -c "$(printf '[\033\007]')" "$BATS_TEST_TMPDIR/osc"
	[ "$output" = 0 ]
}

@test "source: Enter on a call goes to the callee's source, Backspace comes back" {
	sources
	browse "$X" --substitute-path=/src="$BATS_TEST_TMPDIR/src" <<'EOF2'
/ "^main$" Enter v Tab Tab Tab j Enter
:save-screen compute
Backspace
:save-screen back
EOF2
	diff -u - <(sed -n '1,2p' "$BATS_TEST_TMPDIR/compute") <<'EOF2'
ncgrind: annotated source
compute
EOF2
	diff -u - <(sed -n '2,3p' "$BATS_TEST_TMPDIR/back") <<'EOF2'
main
file 1/3 (10.00% of the self cost): /src/main.c
EOF2
}

@test "instructions: V without the object file lists the addresses and says why" {
	# main's addresses: 0x401000 5, +4 3, +3 (vec.h) 40, +5 60, +2 2, +6 8, +4 1 and
	# the call, +5 1; the hottest (60 at 0x40100c) is selected.
	browse "$X" <<'EOF2'
/ "^main$" Enter V
:save-screen insn
EOF2
	diff -u - <(sed -n '1,14p' "$BATS_TEST_TMPDIR/insn" | sed 's/ *$//') <<'EOF2'
ncgrind: instructions
main
addresses only: the object file '/usr/bin/prog' is not here
 Self  %total  Address  Instruction
    5   0.81%   401000
    3   0.48%   401004
   40   6.45%   401007
   60   9.68%   40100c
    2   0.32%   40100e
    8   1.29%   401014
    1   0.16%   401018
  500  80.65%           => compute (5 times)
    1   0.16%   40101d

EOF2
	grep -q '^4/9 ' "$BATS_TEST_TMPDIR/insn"
}

@test "instructions: V on a profile without addresses says so and opens no screen" {
	# spec-extended has no `positions:` line, so line numbers only: no instruction
	# addresses. Before, V opened a screen of every cost at address 0. From the
	# table (func2 selected) and from main's callers and callees, the screen
	# stays the one it was, with the message.
	browse "$BATS_TEST_DIRNAME/fixtures/spec/spec-extended.callgrind" <<'EOF2'
V
:save-screen table
/ "^main$" Enter Enter V
:save-screen detail
EOF2
	{
		sed -n 1p "$BATS_TEST_TMPDIR/table"
		tail -n 1 "$BATS_TEST_TMPDIR/table"
		sed -n 1,2p "$BATS_TEST_TMPDIR/detail"
		tail -n 1 "$BATS_TEST_TMPDIR/detail" | sed 's|^[0-9]*/[0-9]*  *||'
	} >"$OUT"
	expect_out <<'EOF2'
ncgrind: spec-extended.callgrind
no instruction addresses for this function (callgrind --dump-instr=yes)
ncgrind: callers and callees
main
no instruction addresses for this function (callgrind --dump-instr=yes)
EOF2
}

@test "instructions: V disassembles the function with objdump, costs beside each instruction" {
	command -v cc >/dev/null || { echo "cc is needed for this test"; return 1; }
	command -v objdump >/dev/null || { echo "objdump (binutils) is needed for this test"; return 1; }
	cd "$BATS_TEST_TMPDIR"
	printf 'int f(int x) { return x * 3 + 1; }\nint main(void) { return f(2); }\n' >prog.c
	cc -O1 -o prog prog.c
	addr=$(nm prog | awk '$3 == "f" { print $1 }' | sed 's/^0*//')
	[ -n "$addr" ]
	# the oracle: objdump's own text for the first instruction of f
	want=$(objdump -d --no-show-raw-insn prog | awk -v a="$addr:" '$1 == a { $1 = ""; sub(/^ +/, ""); print; exit }')
	[ -n "$want" ]
	printf '# callgrind format\npositions: instr line\nevents: Ir\nob=%s\nfl=prog.c\nfn=f\n0x%s 1 7\n' \
		"$BATS_TEST_TMPDIR/prog" "$addr" >prog.callgrind
	printf '/ "^f$" Enter V\n:save-screen insn\n' >keys
	"$NCGRIND" --script=keys prog.callgrind
	row=$(sed -n '5p' insn | sed 's/ *$//')
	got=$(printf '%s\n' "$row" | sed -E 's/^ +7 +100\.0% +[0-9a-f]+  //' | tr -s ' \t' ' ')
	[ "$got" = "$(printf '%s' "$want" | tr -s ' \t' ' ')" ] ||
		{ echo "row: $row"; echo "want: $want"; return 1; }
	sed -n '3p' insn | grep -qv 'addresses only'
}

@test "source: :substitute-path and :include at run time make an open screen find its file" {
	sources
	browse "$X" <<EOF2
/ "^main\$" Enter v
:save-screen before
:substitute-path /src=$BATS_TEST_TMPDIR/src
:save-screen after
EOF2
	sed -n '3p' "$BATS_TEST_TMPDIR/before" | grep -q 'source not found'
	diff -u - <(sed -n '3p' "$BATS_TEST_TMPDIR/after") <<<'file 1/3 (10.00% of the self cost): /src/main.c'
	grep -q '^    5   0.81%    10  main.c line 10' "$BATS_TEST_TMPDIR/after"
	browse "$X" <<EOF2
:include $BATS_TEST_TMPDIR/src
/ "^main\$" Enter v
:save-screen included
:include
:save-screen bad
EOF2
	grep -q '^    5   0.81%    10  main.c line 10' "$BATS_TEST_TMPDIR/included"
	tail -1 "$BATS_TEST_TMPDIR/bad" | grep -q 'usage: set include DIR'
}

# The test below runs ncgrind in a tmux pane of its own server; kill it afterwards.
SOCK="ncgrind-source-ui-$$-${BATS_TEST_NUMBER:-0}"

teardown() {
	tmux_kill_server "$SOCK"
}

@test "source: on a real terminal in colour, the paths tried set neither clipboard nor title" {
	# tmux takes OSC 52 into a buffer (set-clipboard on) and OSC 2 as the pane title
	command -v tmux >/dev/null || { echo "tmux is needed for this test"; return 1; }
	printf 'events: Ir\nfl=/nonexistent/\033]52;c;cHduZWQ=\007\033]2;PWNED-TITLE\007x.c\nfn=main\n1 5\n' \
		>"$BATS_TEST_TMPDIR/osc.callgrind"
	unset TMUX LINES COLUMNS
	printf '%s\n' 'set -g status off' 'set -g set-clipboard on' \
		'set -g default-terminal xterm-256color' >"$BATS_TEST_TMPDIR/tmux.conf"
	tmux -u -L "$SOCK" -f "$BATS_TEST_TMPDIR/tmux.conf" new-session -d -x 100 -y 30 \
		-c "$BATS_TEST_TMPDIR" "$NCGRIND" osc.callgrind
	for i in $(seq 60); do
		tmux -L "$SOCK" capture-pane -p | grep -q ' main' && break
		sleep 0.05
	done
	tmux -L "$SOCK" send-keys v
	for i in $(seq 60); do
		tmux -L "$SOCK" capture-pane -p >"$OUT"
		[ "$(grep -c '^  tried ' "$OUT")" = 3 ] && break
		sleep 0.05
	done
	grep -qF '  tried ./\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c' "$OUT" || { cat "$OUT"; return 1; }
	[ -z "$(tmux -L "$SOCK" list-buffers)" ]
	title=$(tmux -L "$SOCK" display-message -p '#{pane_title}')
	[[ "$title" != *PWNED* ]] || { echo "pane title: $title"; return 1; }
}

@test "source: '???' (Valgrind's file of code without debug information) is not looked for" {
	# before: the screen said "tried ???" and "tried DIR/???" and "source not found"
	printf '%s\n' '# callgrind format' 'events: Ir' 'fl=???' 'fn=nodebug' '0 42' \
		>"$BATS_TEST_TMPDIR/nodebug.callgrind"
	browse "$BATS_TEST_TMPDIR/nodebug.callgrind" --size=140x24 <<'EOF2'
v
:save-screen nodebug
EOF2
	expect_status 0
	sed -n '3,5p' "$BATS_TEST_TMPDIR/nodebug" >"$OUT"
	expect_out <<'EOF2'
file 1/1 (100.0% of the self cost): ???  no source file: the code has no debug information (compiled without -g?)
 Self  %total  Line  Source
   42  100.0%     0
EOF2
}

@test "source: a line longer than the screen ends in …; > scrolls to the rest" {
	# long.c line 1 is 100 x's then END: at 80 columns the row is the cost
	# columns, the line number and the text, cut with … at the last column
	mkdir "$BATS_TEST_TMPDIR/p"
	printf '%s\n' "$(printf 'x%.0s' $(seq 100))END" 'short' >"$BATS_TEST_TMPDIR/p/long.c"
	printf '%s\n' '# callgrind format' 'events: Ir' "fl=$BATS_TEST_TMPDIR/p/long.c" 'fn=main' \
		'1 10' '2 20' >"$BATS_TEST_TMPDIR/p/t.callgrind"
	# "   10  33.33%     1  " takes 21 columns: 58 x's and … fill the other 59
	printf '%s\n' 'v' ':save-screen s' '> >' ':save-screen right' >"$BATS_TEST_TMPDIR/keys"
	(cd "$BATS_TEST_TMPDIR" && "$NCGRIND" --script=keys --size=80x24 p/t.callgrind)
	grep -Eq '^   10  33\.33%     1  x{58}…$' "$BATS_TEST_TMPDIR/s"
	grep -q 'xEND$' "$BATS_TEST_TMPDIR/right"
}
