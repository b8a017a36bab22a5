#!/usr/bin/env bats
# The command prompt (':', libedit on a pseudo-terminal of ncgrind's own) and
# the commands, in script mode; history across runs; --command at start-up and
# in the batch reports. A script line ": ..." types ':' and then keys; a line
# ":word ..." is a script command.

load test_helper

X="$BATS_TEST_DIRNAME/fixtures/spec/spec-extended.callgrind"
E="$BATS_TEST_DIRNAME/fixtures/example.callgrind"

# browse PROFILE [OPTIONS]: keys on stdin; :save-screen NAME into $BATS_TEST_TMPDIR
browse() {
	local prof="$1"
	shift
	sed "s|^:save-screen |:save-screen $BATS_TEST_TMPDIR/|" >"$BATS_TEST_TMPDIR/keys"
	status=0
	(cd "$(dirname "$prof")" && "$NCGRIND" --script="$BATS_TEST_TMPDIR/keys" "$@" \
		"$(basename "$prof")" >"$OUT" 2>"$ERR") || status=$?
}

last() {
	tail -1 "$BATS_TEST_TMPDIR/$1"
}

@test "prompt: ':' opens it, text is typed, Enter runs the command" {
	# filter ^tree_: the 6 functions of example.callgrind whose names start with
	# tree_ (tree_insert'2 890,266 + tree_sum'2 104,987 + tree_free'2 89,992 +
	# tree_insert 68,505 + tree_sum 24 + tree_free 21 = 1,153,795 = 8.78%)
	browse "$E" <<'EOF2'
: "filter ^tree_"
:save-screen typing
Enter
:save-screen filtered
EOF2
	expect_status 0
	diff -u - <(last typing) <<<':filter ^tree__'
	diff -u - <(head -1 "$BATS_TEST_TMPDIR/filtered") <<<'ncgrind: example.callgrind  [filter ^tree_: 6 functions, 8.78% of the self cost]'
	diff -u - <(last filtered) <<<'1/6  sort: self Ir   ? help  q quit'
}

@test "prompt: emacs keys edit the line (C-a, C-e, C-w, C-u, C-k, arrows, Backspace)" {
	browse "$X" <<'EOF2'
: "sort calls"
C-a C-k "sort name" Left Left Left Left C-w
:save-screen cw
C-e Backspace "x"
:save-screen end
C-u
:save-screen cleared
"top 1" Home Right Right Right Delete
:save-screen delete
Esc
:save-screen cancelled
EOF2
	diff -u - <(last cw) <<<':name'
	diff -u - <(last end) <<<':namx_'
	diff -u - <(last cleared) <<<':_'
	diff -u - <(last delete) <<<':top1'
	diff -u - <(last cancelled) <<<'1/3  sort: self Instructions   ? help  q quit'
}

@test "prompt: Tab completes commands, events, sort keys and function names" {
	browse "$E" <<'EOF2'
: "fil" Tab
:save-screen cmd
C-u "so" Tab "ca" Tab
:save-screen sort
C-u "goto tree_i" Tab
:save-screen fn
Tab
:save-screen fn-again
C-u "f" Tab
:save-screen many
EOF2
	diff -u - <(last cmd) <<<':filter _'
	diff -u - <(last sort) <<<':sort calls _'
	# tree_insert and tree_insert'2: the common prefix, then the candidates above
	diff -u - <(last fn) <<<':goto tree_insert_'
	diff -u - <(tail -2 "$BATS_TEST_TMPDIR/fn-again" | head -1) <<<"tree_insert  tree_insert'2"
	diff -u - <(tail -2 "$BATS_TEST_TMPDIR/many" | head -1) <<<'filter  focus'
}

@test "prompt: history is kept across two runs, recalled with Up" {
	browse "$X" <<'EOF2'
: "sort name" Enter
: "top 2" Enter
EOF2
	[ -s "$HOME/.local/state/ncgrind/history" ]
	browse "$X" <<'EOF2'
: Up
:save-screen up1
Up
:save-screen up2
Down
:save-screen down
EOF2
	diff -u - <(last up1) <<<':top 2_'
	diff -u - <(last up2) <<<':sort name_'
	diff -u - <(last down) <<<':top 2_'
	# XDG_STATE_HOME wins over ~/.local/state
	XDG_STATE_HOME="$BATS_TEST_TMPDIR/state" browse "$X" <<'EOF2'
: "sort calls" Enter
EOF2
	grep -q 'sort\\040calls' "$BATS_TEST_TMPDIR/state/ncgrind/history"
}

@test "commands: filters combine, the header says what they hold, u undoes the last" {
	# focus main keeps everything on paths through main: all 3; filter file:file2
	# keeps func2 only (700 of 820 = 85.37%); u drops it again
	browse "$X" --size=120x24 <<'EOF2'
: "focus ^main$" Enter
: "filter file:file2" Enter
:save-screen both
u
:save-screen undone
u u
:save-screen none
EOF2
	diff -u - <(head -1 "$BATS_TEST_TMPDIR/both") <<<'ncgrind: spec-extended.callgrind  [focus ^main$ + filter file:file2: 1 function, 85.37% of the self cost]'
	diff -u - <(last both) <<<'1/1  sort: self Instructions   ? help  q quit'
	diff -u - <(head -1 "$BATS_TEST_TMPDIR/undone") <<<'ncgrind: spec-extended.callgrind  [focus ^main$: 3 functions, 100.0% of the self cost]'
	diff -u - <(last none) <<<'1/3  sort: self Instructions   no filter to undo'
}

@test "commands: a long filter is cut with … in the header, its counts stay (120 and 80 columns)" {
	# func1|func2|...: func1 100 + func2 700 = 800 of 820 = 97.56%. At 120 columns:
	# "ncgrind: spec-extended.callgrind" (32) + "  [" (35), the counts ": 2
	# functions, 97.56% of the self cost]" take 39, which leaves 46: the first 45
	# columns of the filters' text and …. At 80 the path gives way first, keeping
	# its end (…ended.callgrind), to leave the filters 16 columns: "filter func1"
	# and …. At 200 all of it. Before, the header was cut at the edge, the counts
	# first.
	browse "$X" --size=120x24 <<'EOF2'
:filter func1|func2|another_long_alternative_that_matches_nothing_at_all
:save-screen w120
:resize 80x24
:save-screen w80
:resize 200x24
:save-screen w200
EOF2
	for s in w120 w80 w200; do head -1 "$BATS_TEST_TMPDIR/$s"; done >"$OUT"
	expect_out <<'EOF2'
ncgrind: spec-extended.callgrind  [filter func1|func2|another_long_alternative_t…: 2 functions, 97.56% of the self cost]
ncgrind: …ended.callgrind  [filter func1…: 2 functions, 97.56% of the self cost]
ncgrind: spec-extended.callgrind  [filter func1|func2|another_long_alternative_that_matches_nothing_at_all: 2 functions, 97.56% of the self cost]
EOF2
}

@test "commands: ignore drops what is reached only through a function; hide joins trees" {
	# ignore func1: func1 goes; func2 is still reached from main directly
	browse "$X" <<'EOF2'
: "ignore ^func1$" Enter
:save-screen ignored
u
: "hide ^func1$" Enter
G t
:save-screen hidden
EOF2
	grep -q '^1/2 ' "$BATS_TEST_TMPDIR/ignored"
	refute_grep 'func1$' <(sed -n '4,5p' "$BATS_TEST_TMPDIR/ignored")
	# main's tree without the func1 frame: func2 under main once, joined: 400
	# directly (3 calls) and 300 through func1 (2 calls): 700 (85.37% of 820), 5
	diff -u - <(sed -n '5,7p' "$BATS_TEST_TMPDIR/hidden") <<'EOF2'
  820  100.0%  100.0%            - main
  700  85.37%  85.37%         5      func2

EOF2
}

@test "commands: sort, event, threshold, goto, top, set, write, help" {
	browse "$E" <<'EOF2'
: "sort calls" Enter
:save-screen sorted
: "goto ^fib$" Enter
:save-screen goto
: "top 2" Enter
:save-screen top
: "set units short" Enter
: "set percent off" Enter
:save-screen set
: "help" Enter
:save-screen help
EOF2
	grep -q '^1/281  sort: calls ' "$BATS_TEST_TMPDIR/sorted"
	sed -n '22p' "$BATS_TEST_TMPDIR/goto" | grep -qx 'fib'
	grep -q '^1/2 ' "$BATS_TEST_TMPDIR/top"
	sed -n '3p' "$BATS_TEST_TMPDIR/set" | grep -qx ' Incl   Self    Calls  Function'
	# write: the whole table (all 281 functions) as a report, not just the screen
	browse "$E" <<EOF2
: "write $BATS_TEST_TMPDIR/written.txt" Enter
:save-screen wrote
EOF2
	grep -q 'PROGRAM TOTALS' "$BATS_TEST_TMPDIR/written.txt"
	[ "$(grep -c '/home/dev/corpus/src/recur.c:' "$BATS_TEST_TMPDIR/written.txt")" -gt 20 ]
	last wrote | grep -q "wrote $BATS_TEST_TMPDIR/written.txt"
	head -1 "$BATS_TEST_TMPDIR/help" | grep -qx "ncgrind: help: this screen's keys, every screen's, the commands"
}

@test "commands: errors are messages, the view stays as it was" {
	browse "$X" <<'EOF2'
: "filter (" Enter
:save-screen badre
: "frobnicate" Enter
:save-screen unknown
: "sort sideways" Enter
:save-screen badsort
: "event Nope" Enter
:save-screen badevent
: "threshold lots" Enter
:save-screen badthr
EOF2
	last badre | grep -q "bad regular expression '(': "
	diff -u - <(last unknown) <<<"unknown command 'frobnicate' (help shows the commands)"
	last badsort | grep -q "unknown sort key 'sideways' (self, incl, calls, name)"
	last badevent | grep -q "unknown event 'Nope'"
	last badthr | grep -q "threshold needs a number from 0 to 100, not 'lots'"
	# the table is as it was: three functions, func2 first
	sed -n '4p' "$BATS_TEST_TMPDIR/badthr" | grep -q 'func2$'
}

@test "commands: --command runs at start-up; the reports honour filter, focus, ignore, hide" {
	browse "$X" --command='filter ^func' --command='sort name' <<'EOF2'
:save-screen start
EOF2
	diff -u - <(sed -n '4,5p' "$BATS_TEST_TMPDIR/start" | sed 's/ *$//') <<'EOF2'
 400 48.78%   100 12.20%      1  func1
 700 85.37%   700 85.37%      5  func2
EOF2
	ncg --dump=functions --format=tsv --command='ignore ^func1$' "$X"
	expect_tsv <<'EOF2'
function | file | object | calls | self:Instructions | incl:Instructions
func2 | file2.c |  | 5 | 700 | 700
main | file1.c |  | 0 | 20 | 820
EOF2
	ncg --dump=calls --format=tsv --command='filter func' "$X"
	expect_tsv <<'EOF2'
caller | caller_file | callee | callee_file | count | incl:Instructions | recorded:Instructions | mark
func1 | file1.c | func2 | file2.c | 2 | 300 | 300 | 
EOF2
	ncg --dump=functions --command='goto main' "$X"
	expect_status 2
}

@test "commands: filter ^std:: on a C++ profile keeps exactly the std:: functions" {
	# the oracle: callgrind_annotate's table of tmpl-default, summed per name:
	# the names that start with std:: and their self cost, out of the total
	awk -f "$TOOLS/annotate-self.awk" "$FIX/oracle/tmpl-default.annotate-all.txt" |
		awk -F'\t' '$1 ~ /^std::/ { n++; s += $2 } END { printf "%d %d\n", n, s }' >"$BATS_TEST_TMPDIR/want"
	read -r n self <"$BATS_TEST_TMPDIR/want"
	[ "$n" -gt 10 ]
	pct=$(awk -v s="$self" 'BEGIN { printf "%.2f%%", 100 * s / 5121737 }')
	browse "$FIX/oracle/tmpl-default.callgrind" --size=200x40 <<'EOF2'
: "filter ^std::" Enter
:save-screen std
EOF2
	head -1 "$BATS_TEST_TMPDIR/std" | grep -qF "[filter ^std::: $n functions, $pct of the self cost]"
	ncg --dump=functions --format=tsv --command='filter ^std::' "$FIX/oracle/tmpl-default.callgrind"
	[ "$(($(wc -l <"$OUT") - 1))" -eq "$n" ]
	refute_grep . <(awk -F'\t' 'NR > 1 && $1 !~ /^std::/' "$OUT")
}

@test "prompt: C-r finds the last line of the history that starts with what is typed" {
	browse "$X" <<'EOF2'
: "sort name" Enter
: "top 2" Enter
: "so" C-r
:save-screen found
EOF2
	diff -u - <(last found) <<<':sort name_'
}

@test "commands: open reads another profile; a file that cannot be read keeps the current one" {
	browse "$X" <<EOF2
: "open $FIX/spec/spec-simple.callgrind" Enter
:save-screen opened
: "open nothing-here" Enter
:save-screen kept
EOF2
	head -2 "$BATS_TEST_TMPDIR/opened" | tail -1 | grep -q '^Events: \[Cycles\] Instructions Flops'
	last opened | grep -q "opened $FIX/spec/spec-simple.callgrind"
	head -2 "$BATS_TEST_TMPDIR/kept" | tail -1 | grep -q '^Events: \[Cycles\]'
	last kept | grep -q "nothing-here: cannot read: No such file or directory"
}

C="$BATS_TEST_DIRNAME/fixtures/browser/cxx.callgrind"

@test "prompt: Tab completes a C++ name into a regular expression that matches it, no blank after" {
	# cxx.callgrind by self cost: ggc_internal_alloc(...) 500, ..._cleared_alloc(...)
	# 400, operator new[](unsigned long) 300, std::vector<...>::push_back 200, main 10.
	# Before: Tab gave the raw name and a blank, which goto rejected as a bad
	# regular expression (the parentheses and the '*').
	browse "$C" --size=200x24 <<'EOF2'
: "goto ggc" Tab
:save-screen lcp
Tab
:save-screen hint
"c" Tab
:save-screen one
Enter
:save-screen went
: "goto ^oper" Tab Enter
:save-screen anchored
: "filter file:ve" Tab Enter
:save-screen file
EOF2
	expect_status 0
	diff -u - <(last lcp) <<<':goto ggc_internal__'
	diff -u - <(tail -2 "$BATS_TEST_TMPDIR/hint" | head -1) <<<'ggc_internal_alloc(unsigned long, void (*)(void*), unsigned long, unsigned long)  ggc_internal_cleared_alloc(unsigned long, void (*)(void*), unsigned long, unsigned long)'
	diff -u - <(last one) <<<':goto ggc_internal_cleared_alloc\(unsigned long, void \(\*\)\(void\*\), unsigned long, unsigned long\)_'
	diff -u - <(last went) <<<'2/5  sort: self Ir   1 of 1 match'
	diff -u - <(last anchored) <<<'3/5  sort: self Ir   1 of 1 match'
	diff -u - <(head -1 "$BATS_TEST_TMPDIR/file") <<<'ncgrind: cxx.callgrind  [filter file:vector\.h: 1 function, 14.18% of the self cost]'
}

@test "search: the / line is a libedit line: arrows, Home, Delete, C-u, Down, Tab; no garbage" {
	# before: Left, Home, Delete and Down were typed into the line as characters
	# (/abcĄĄXĆŊĂ_) and C-u did nothing
	browse "$C" <<'EOF2'
/ "abc" Left Home Delete
:save-screen edited
Down
:save-screen down
C-u
:save-screen cleared
"operator n" Tab
:save-screen completed
Enter
:save-screen found
EOF2
	expect_status 0
	diff -u - <(last edited) <<<'/bc'
	diff -u - <(last down) <<<'/bc'
	diff -u - <(last cleared) <<<'/_'
	diff -u - <(last completed) <<<'/operator new\[\]\(unsigned long\)_'
	diff -u - <(last found) <<<'3/5  sort: self Ir   1 of 1 match'
}

@test "search: Backspace past the start closes the line and does nothing else; its own history" {
	# the table with a screen ahead of it in the history (Enter, Backspace): a
	# Backspace that closes the search line is not also a Backspace of the table
	browse "$C" <<'EOF2'
Enter Backspace
/ "m" Backspace Backspace
:save-screen closed
/ "main" Enter
: "top 3" Enter
/ Up
:save-screen history
EOF2
	expect_status 0
	diff -u - <(head -1 "$BATS_TEST_TMPDIR/closed") <<<'ncgrind: cxx.callgrind'
	diff -u - <(last closed) <<<'1/5  sort: self Ir   ? help  q quit'
	# Up on the search line brings back the search, not the command
	diff -u - <(last history) <<<'/main_'
	[ -s "$HOME/.local/state/ncgrind/search-history" ]
	grep -qx 'main' "$HOME/.local/state/ncgrind/search-history"
}

@test ":help lists the prompt's commands with their usage, from the same table as the prompt" {
	# a screen tall enough for the keys and the commands
	browse "$X" --size=110x90 <<'EOF2'
: "help" Enter
:save-screen help
EOF2
	expect_status 0
	assert_grep "Commands (type : first)" "$BATS_TEST_TMPDIR/help"
	assert_grep "  threshold PCT                  trees fold the branches under PCT% of the root" "$BATS_TEST_TMPDIR/help"
	assert_grep "  filter [file:|object:]REGEX    keep the functions (files, objects) that match; alone: all" "$BATS_TEST_TMPDIR/help"
	# every command of the table is there, each once
	"$NCGRIND" --list-commands | cut -f2 | while read -r usage; do
		# (a usage wider than its column stands on a line of its own)
		[ "$(awk -v u="  $usage" 'index($0, u) == 1 && (length($0) == length(u) ||
			substr($0, length(u) + 1, 1) == " ")' "$BATS_TEST_TMPDIR/help" | wc -l)" -eq 1 ] ||
			{ echo "usage '$usage'"; return 1; }
	done
	# and the batch reports refuse what is not theirs, naming what they take
	ncg --dump=functions --command='sort calls' "$X"
	expect_status 2
	assert_grep "'sort' works in the browser only; the reports take filter, focus, ignore, hide and set cycles" "$ERR"
}

@test "commands: open after Tab shows the new profile's first event (the other display settings stay)" {
	mkdir "$BATS_TEST_TMPDIR/p"
	printf '%s\n' '# callgrind format' 'events: Ir Dr' 'fn=a' '1 10 90' >"$BATS_TEST_TMPDIR/p/two.callgrind"
	cp "$X" "$BATS_TEST_TMPDIR/p/one.callgrind"
	browse "$BATS_TEST_TMPDIR/p/two.callgrind" <<EOF2
Tab U
:save-screen dr
:open $BATS_TEST_TMPDIR/p/one.callgrind
:save-screen one
EOF2
	expect_status 0
	sed -n '2p' "$BATS_TEST_TMPDIR/dr" | grep -q '^Events: Ir \[Dr\] '
	# the event of a profile with one: before, the index (1) was kept past its end
	sed -n '2p' "$BATS_TEST_TMPDIR/one" | grep -q '^Events: \[Instructions\] '
}

@test ":write of a filtered table and a filtered report say which filters made them" {
	# spec-extended: ^func keeps func1 and func2; the head says the filter, the
	# rows are the two functions (and main is not among them)
	browse "$X" <<EOF2
:filter ^func
: "write $BATS_TEST_TMPDIR/w.txt" Enter
EOF2
	expect_status 0
	grep -qx 'Filters:     filter ^func' "$BATS_TEST_TMPDIR/w.txt"
	browse "$X" <<EOF2
: "write $BATS_TEST_TMPDIR/all.txt" Enter
EOF2
	refute_grep '^Filters:' "$BATS_TEST_TMPDIR/all.txt"
	# the batch report's head says them as :write's does
	ncg --dump=functions --command='filter ^func' --command='ignore 2$' "$X"
	expect_status 0
	grep -qx 'Filters:     filter ^func + ignore 2\$' "$OUT"
	ncg --dump=functions "$X"
	refute_grep '^Filters:' "$OUT"
}
