#!/usr/bin/env bats
# run-suite: alone (its tests wait on what a tmux pane shows: test/tools/run-suite)
# The browser on a real terminal: ncgrind runs in a tmux pane (a private server,
# 100x30, TERM=screen, or TERM=xterm-256color for the tests in colour), keys are
# sent with send-keys and the pane is read with capture-pane (-e: with its
# attributes, which test/tools/pane-attrs.awk turns into a mark on each line: H
# for a background colour, R for reverse video). The screens must be those that script mode saves for the same keys
# and size (browser.bats checks those by hand), and the terminal must be given back
# as it was: on q, and on Ctrl-C.
# ncgrind runs under a small sh wrapper that prints its exit status and whether the
# tty settings are those it found, then waits for Enter (the pane stays alive, so its
# terminal modes can still be read). The exit status is not read from tmux's
# #{pane_dead_status}: tmux 3.3a often misses the SIGCHLD of a pane's process (it
# stays a zombie, the status never comes, with any program), which would make the
# tests flaky. remain-on-exit keeps the pane's last output readable if the wrapper
# ends early (ncgrind failing to start).
# tmux is required (CI installs it): without it the tests fail, they do not skip.

load test_helper

SOCK="ncgrind-test-$$-${BATS_TEST_NUMBER:-0}"

tm() {
	tmux -u -L "$SOCK" "$@"
}

# kill the test's server, and remove its socket (tmux leaves it behind)
teardown() {
	tmux_kill_server "$SOCK"
}

# tmux_start DIR ARGS...: a detached 100x30 session whose pane runs ARGS (a command
# and its arguments, no shell) in DIR; no status line, so the pane is 100x30. The
# pane's TERM is $PANE_TERM (default screen: no colour there).
tmux_start() {
	local dir=$1
	shift
	if ! command -v tmux >/dev/null; then
		echo "tmux is not installed: the terminal tests need it (apt-get install tmux)"
		return 1
	fi
	# the helper's LINES and COLUMNS (80x24) would override the pane's size in curses
	unset TMUX LINES COLUMNS
	printf '%s\n' 'set -g status off' 'set -g remain-on-exit on' \
		"set -g default-terminal ${PANE_TERM:-screen}" 'set -g history-limit 0' \
		>"$BATS_TEST_TMPDIR/tmux.conf"
	tm -f "$BATS_TEST_TMPDIR/tmux.conf" new-session -d -x 100 -y 30 -c "$dir" "$@"
}

# script_screens DIR PROFILE KEYS...: run script mode at 100x30 in DIR on PROFILE, and
# save the screen first as $BATS_TEST_TMPDIR/s0, then after each KEYS (a line of key
# names) as s1, s2, ...
script_screens() {
	local dir=$1 profile=$2 i=0 keys="$BATS_TEST_TMPDIR/keys"
	shift 2
	echo ":save-screen $BATS_TEST_TMPDIR/s0" >"$keys"
	for k; do
		i=$((i + 1))
		printf '%s\n:save-screen %s\n' "$k" "$BATS_TEST_TMPDIR/s$i" >>"$keys"
	done
	(cd "$dir" && "$NCGRIND" --script="$keys" --size=100x30 "$profile") >"$OUT" 2>"$ERR" || {
		echo "script mode failed"
		cat "$ERR"
		return 1
	}
}

# wait_for FILE OUT LABEL COMMAND...: wait (3 s at most) until COMMAND prints exactly
# the text of FILE into OUT; else show the difference, labelled LABEL.
wait_for() {
	local want=$1 got=$2 label=$3 i
	shift 3
	for i in $(seq 60); do
		"$@" >"$got"
		cmp -s "$want" "$got" && return 0
		sleep 0.05
	done
	diff -u --label "expected (${want##*/})" --label "$label" "$want" "$got"
	return 1
}

# wait_screen FILE: wait until the pane shows exactly the text of FILE (capture-pane
# drops the trailing blanks, as :save-screen does); the pane is left in $BATS_TEST_TMPDIR/pane.
wait_screen() {
	wait_for "$1" "$BATS_TEST_TMPDIR/pane" "tmux pane" tm capture-pane -p
}

# wait_text TEXT: wait (3 s at most) until a line of the pane contains TEXT (lines
# wrapped at the pane's edge joined, trailing blanks removed).
wait_text() {
	local pane="$BATS_TEST_TMPDIR/pane" i
	for i in $(seq 60); do
		tm capture-pane -p -J | sed 's/ *$//' >"$pane"
		grep -qF -- "$1" "$pane" && return 0
		sleep 0.05
	done
	echo "the pane never showed: $1"
	echo "--- pane:"
	cat "$pane"
	return 1
}

# pane_modes: the terminal modes of the pane that a full-screen program changes.
pane_modes() {
	tm display-message -p 'alternate screen #{alternate_on}, cursor shown #{cursor_flag}, keypad #{keypad_flag}'
}

# The wrapper (sh -c "$WRAPPER" NCGRIND [OPTION...] FILE): runs ncgrind FILE, then prints
# "ncgrind exit status N, tty settings as before" (or CHANGED: stty -g differs from
# what it was before ncgrind), and waits for Enter. `trap : INT` lets the wrapper
# survive Ctrl-C; ncgrind gets the default SIGINT disposition back (a handler is not
# inherited across exec).
# `trap : INT QUIT` lets it survive Ctrl-C and C-\ too; no core files.
# shellcheck disable=SC2016 # expanded by the wrapper's sh
WRAPPER='trap : INT QUIT
ulimit -c 0
before=$(stty -g)
"$0" "$@"
st=$?
if [ "$(stty -g)" = "$before" ]; then t="as before"; else t=CHANGED; fi
echo "ncgrind exit status $st, tty settings $t"
read -r _'

# start_ncgrind DIR FILE: tmux_start DIR running the wrapper on ncgrind FILE.
start_ncgrind() {
	tmux_start "$1" sh -c "$WRAPPER" "$NCGRIND" "$2"
}

# expect_ended STATUS: wait until ncgrind has ended with STATUS, the tty settings as
# it found them; the table is gone (the normal screen is back, with the wrapper's
# line), the cursor is shown again, the keypad mode is off.
expect_ended() {
	wait_text "ncgrind exit status $1, tty settings as before" || return
	refute_grep 'ncgrind:|sort: ' "$BATS_TEST_TMPDIR/pane" || return
	local modes
	modes=$(pane_modes)
	if [ "$modes" != "alternate screen 0, cursor shown 1, keypad 0" ]; then
		echo "terminal modes not restored: $modes"
		return 1
	fi
}

@test "tmux: the first screen is the one script mode saves (100x30); q quits, exit 0" {
	# spec-extended at 100x30: the screen of browser.bats' first test with 6 more
	# table rows; the hand-known lines are checked too.
	local d="$FIX/spec"
	script_screens "$d" spec-extended.callgrind
	start_ncgrind "$d" spec-extended.callgrind
	wait_screen "$BATS_TEST_TMPDIR/s0"
	sed -n '1,6p;28,30p' "$BATS_TEST_TMPDIR/pane" >"$OUT"
	expect_out <<'EOF'
ncgrind: spec-extended.callgrind
Events: [Instructions]   Total Instructions: 820   Parts: 1
Incl      %  Self      %  Calls  Function
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
 820 100.0%    20  2.44%      0  main
func2
called 5 times  file: file2.c  object:
1/3  sort: self Instructions   ? help  q quit
EOF
	# a full-screen program: the alternate screen, no cursor, keypad mode
	pane_modes >"$OUT"
	expect_out <<'EOF'
alternate screen 1, cursor shown 0, keypad 1
EOF
	tm send-keys q
	expect_ended 0
}

@test "tmux: j, s, Tab, ?, q work as in script mode; q gives the terminal back" {
	# edge-event-longnames-inherited (events Ir Dr I1mr D1mr Sum L1m CEst):
	#   j: main selected (2/2); s again: self reversed (main first, 1/2); Tab: Dr,
	#   still reversed (main 400 before leaf 800); ?: the help; q closes the help;
	#   q quits.
	local d="$FIX/edge" f=edge-event-longnames-inherited.callgrind
	script_screens "$d" "$f" j s Tab '?' q
	start_ncgrind "$d" "$f"
	wait_screen "$BATS_TEST_TMPDIR/s0"
	tm send-keys j
	wait_screen "$BATS_TEST_TMPDIR/s1"
	tm send-keys s
	wait_screen "$BATS_TEST_TMPDIR/s2"
	tm send-keys Tab
	wait_screen "$BATS_TEST_TMPDIR/s3"
	tm send-keys '?'
	wait_screen "$BATS_TEST_TMPDIR/s4"
	tm send-keys q
	wait_screen "$BATS_TEST_TMPDIR/s5"
	# what those screens say: Dr totals 1,200, main self 400 (33.33%), leaf 800
	sed -n '2,5p;28p;30p' "$BATS_TEST_TMPDIR/s3" >"$OUT"
	expect_out <<'EOF'
Events: Ir [Dr] I1mr D1mr Sum L1m CEst   Total Dr: 1,200   Parts: 1
 Incl      %   Self      %  Calls  Function
1,200 100.0%    400 33.33%      0  main
  800 66.67%    800 66.67%     10  leaf
main
1/2  sort: self Dr (reversed)   ? help  q quit
EOF
	# the help on the table: its own keys first (i: sort by inclusive cost)
	sed -n '1p;2p;3p;30p' "$BATS_TEST_TMPDIR/s4" | sed 's|^1/[0-9]*  |1/N  |' >"$OUT"
	expect_out <<'EOF'
ncgrind: help: this screen's keys, every screen's, the commands
Keys of the function table (table)
  i                     sort by inclusive cost (again: reverse)
1/N  q, Esc, ?: close  / search  PgDn, Space, End: move
EOF
	sed -n '1p;28p;30p' "$BATS_TEST_TMPDIR/s5" >"$OUT"
	expect_out <<'EOF'
ncgrind: edge-event-longnames-inherited.callgrind
main
1/2  sort: self Dr (reversed)   ? help  q quit
EOF
	tm send-keys q
	expect_ended 0
}

@test "tmux: Ctrl-C ends the browser and gives the terminal back" {
	local d="$FIX/spec"
	start_ncgrind "$d" spec-extended.callgrind
	wait_text "1/3  sort: self Instructions"
	tm send-keys j
	wait_text "2/3  sort: self Instructions"
	tm send-keys C-c
	# killed by SIGINT: 128 + 2
	expect_ended 130
}

@test "tmux: a terminal resize redraws at the new size, as :resize does" {
	local d="$FIX/spec"
	script_screens "$d" spec-extended.callgrind ':resize 40x10'
	start_ncgrind "$d" spec-extended.callgrind
	wait_screen "$BATS_TEST_TMPDIR/s0"
	tm resize-window -x 40 -y 10
	wait_screen "$BATS_TEST_TMPDIR/s1"
	tm send-keys q
	expect_ended 0
}

@test "tmux: names are escaped on the terminal too; a UTF-8 search typed there" {
	# escapes.callgrind: the pane shows the names as script mode saves them (control
	# characters as ^X, bad bytes as \xNN): nothing reached the terminal raw, or the
	# pane's title would be "pwned" (the OSC in cmd:) and its screen cleared (ESC [2J
	# in the file name). /grü Enter selects grüße_数据 (5/5).
	local d="$BATS_TEST_DIRNAME/fixtures/browser"
	script_screens "$d" escapes.callgrind
	start_ncgrind "$d" escapes.callgrind
	wait_screen "$BATS_TEST_TMPDIR/s0"
	[ "$(tm display-message -p '#{pane_title}')" != pwned ]
	tm send-keys -l '/grü'
	wait_text '/grü_'
	tm send-keys Enter
	wait_text '5/5  sort: self Ir'
	sed -n '28p;30p' "$BATS_TEST_TMPDIR/pane" >"$OUT"
	expect_out <<'EOF'
grüße_数据
5/5  sort: self Ir   1 of 1 match
EOF
	tm send-keys q
	expect_ended 0
}

@test "tmux: the command prompt edits and runs commands on the real terminal too" {
	# the same keys as in script mode: ':' then text, C-a, C-d deletes the first
	# word, Enter runs it; each screen must match script mode's
	local d="$FIX/spec"
	script_screens "$d" spec-extended.callgrind ': "xyz sort name" C-a' 'C-d C-d C-d C-d' Enter
	start_ncgrind "$d" spec-extended.callgrind
	wait_screen "$BATS_TEST_TMPDIR/s0"
	tm send-keys : x y z Space s o r t Space n a m e C-a
	wait_screen "$BATS_TEST_TMPDIR/s1"
	tm send-keys C-d C-d C-d C-d
	wait_screen "$BATS_TEST_TMPDIR/s2"
	tail -1 "$BATS_TEST_TMPDIR/s2" | grep -qx ':sort name' # the cursor is on the s
	tm send-keys Enter
	wait_screen "$BATS_TEST_TMPDIR/s3"
	# sorted by name: func1, func2, main
	sed -n '4,6p' "$BATS_TEST_TMPDIR/pane" | awk '{ print $NF }' >"$OUT"
	expect_out <<'EOF'
func1
func2
main
EOF
	tm send-keys q
	expect_ended 0
}

# pane_attrs: the pane, each line marked H (a background colour on its first
# cell), R (reverse video) or '.', trailing blanks removed.
pane_attrs() {
	tm capture-pane -e -p | awk -f "$TOOLS/pane-attrs.awk" | sed 's/ *$//'
}

# wait_attrs FILE: wait until pane_attrs prints exactly FILE.
wait_attrs() {
	wait_for "$1" "$BATS_TEST_TMPDIR/attrs" "tmux pane, H = colour, R = reverse" pane_attrs
}

# the marks of the table of spec-extended at 100x30 with the cursor on row N
# (1..3): only that row and the status line are highlighted, with mark $2 (H: in
# colour, R: reverse video)
table_marks() {
	local rows=(" 700 85.37%   700 85.37%      5  func2" " 400 48.78%   100 12.20%      1  func1"
		" 820 100.0%    20  2.44%      0  main") i
	echo ". ncgrind: spec-extended.callgrind"
	echo ". Events: [Instructions]   Total Instructions: 820   Parts: 1"
	echo ". Incl      %  Self      %  Calls  Function"
	for i in 1 2 3; do
		if [ "$i" = "$1" ]; then echo "$2 ${rows[i - 1]}"; else echo ". ${rows[i - 1]}"; fi
	done
	for i in $(seq 21); do echo "."; done
}

@test "tmux colour: the cursor row and the status line are highlighted, and only they; j moves it" {
	# TERM=xterm-256color: colour on (the default). The cursor row was drawn with
	# colour pair 0 (no background) before: no highlight anywhere.
	local d="$FIX/spec"
	PANE_TERM=xterm-256color start_ncgrind "$d" spec-extended.callgrind
	{ table_marks 1 H; echo ". func2"; echo ". called 5 times  file: file2.c  object:"
	  echo "H 1/3  sort: self Instructions   ? help  q quit"; } >"$BATS_TEST_TMPDIR/want0"
	wait_attrs "$BATS_TEST_TMPDIR/want0"
	tm send-keys j
	{ table_marks 2 H; echo ". func1"; echo ". called once  file: file1.c  object:"
	  echo "H 2/3  sort: self Instructions   ? help  q quit"; } >"$BATS_TEST_TMPDIR/want1"
	wait_attrs "$BATS_TEST_TMPDIR/want1"
	# the callers and callees of func1: the cursor on its caller main, the
	# status line highlighted; no other line
	tm send-keys Enter
	wait_text "Enter: open  t/r: tree"
	pane_attrs | grep '^H' >"$OUT"
	expect_out <<'EOF2'
H   400  48.78%  100.0%         1  main  file1.c:16
H 2/4  Enter: open  t/r: tree  Backspace: back
EOF2
	tm send-keys Q
	expect_ended 0
}

@test "tmux colour: NO_COLOR and :set colour off show the cursor in reverse video" {
	local d="$FIX/spec"
	tmux_start "$d" env NO_COLOR=1 TERM=xterm-256color sh -c "$WRAPPER" "$NCGRIND" spec-extended.callgrind
	{ table_marks 1 R; echo ". func2"; echo ". called 5 times  file: file2.c  object:"
	  echo "R 1/3  sort: self Instructions   ? help  q quit"; } >"$BATS_TEST_TMPDIR/want0"
	wait_attrs "$BATS_TEST_TMPDIR/want0"
	tm send-keys q
	expect_ended 0
	teardown
	PANE_TERM=xterm-256color start_ncgrind "$d" spec-extended.callgrind
	sed '1,3s/^R/H/;s/^R/H/' "$BATS_TEST_TMPDIR/want0" >"$BATS_TEST_TMPDIR/want0c"
	wait_attrs "$BATS_TEST_TMPDIR/want0c"
	tm send-keys :
	tm send-keys -l 'set colour off'
	tm send-keys Enter j
	{ table_marks 2 R; echo ". func1"; echo ". called once  file: file1.c  object:"
	  echo "R 2/3  sort: self Instructions   ? help  q quit"; } >"$BATS_TEST_TMPDIR/want1"
	wait_attrs "$BATS_TEST_TMPDIR/want1"
	tm send-keys q
	expect_ended 0
}

# Under `make asan` the sanitizer's own handlers would report these signals and
# exit 1; the tests are about the default action after the terminal is restored.
NO_ASAN_SIGNALS="ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_abort=0"

# ncgrind_pid: the ncgrind process under the pane's wrapper.
ncgrind_pid() {
	pgrep -P "$(tm display-message -p '#{pane_pid}')" -x "${NCGRIND##*/}"
}

@test "tmux: a crash (SIGSEGV, SIGBUS, SIGABRT) or C-\\ (SIGQUIT) gives the terminal back" {
	# each signal ends ncgrind with the default action (exit status 128 + N) after
	# the alternate screen, the cursor, the keypad mode and the tty settings were
	# restored; before, the shell was left in the alternate screen in raw mode
	local d="$FIX/spec" sig want
	for sig in SEGV:139 BUS:135 ABRT:134 QUIT:131; do
		want=${sig#*:}
		sig=${sig%:*}
		PANE_TERM=xterm-256color tmux_start "$d" env "$NO_ASAN_SIGNALS" sh -c "$WRAPPER" \
			"$NCGRIND" spec-extended.callgrind
		wait_text "1/3  sort: self Instructions"
		if [ "$sig" = QUIT ]; then
			tm send-keys 'C-\'
		else
			kill -"$sig" "$(ncgrind_pid)"
		fi
		expect_ended "$want" || { echo "after SIG$sig"; return 1; }
		teardown
	done
}

@test "tmux: the profile truncated under the browser: v still works and says so, R reloads it onto the same screen, q gives the terminal back" {
	# the source view re-reads the function's lines from the mapping; the file
	# was emptied, so the read faults (SIGBUS from the kernel): before, exit 135
	cp "$FIX/spec/spec-extended.callgrind" "$BATS_TEST_TMPDIR/p.callgrind"
	PANE_TERM=xterm-256color tmux_start "$BATS_TEST_TMPDIR" env "$NO_ASAN_SIGNALS" sh -c "$WRAPPER" \
		"$NCGRIND" p.callgrind
	wait_text "1/3  sort: self Instructions"
	tm send-keys j Enter # func1's callers and callees
	wait_text "Callers (1)"
	: >"$BATS_TEST_TMPDIR/p.callgrind"
	tm send-keys v
	wait_text "p.callgrind was cut while open: R reloads it"
	# written again (the program ran again): R reads it, back on func1's screen
	cp "$FIX/spec/spec-extended.callgrind" "$BATS_TEST_TMPDIR/p.callgrind"
	tm send-keys q R
	wait_text "reloaded p.callgrind: 3 functions"
	[ "$(sed -n 2p "$BATS_TEST_TMPDIR/pane")" = func1 ]
	assert_grep "Callees (1)" "$BATS_TEST_TMPDIR/pane"
	tm send-keys q
	wait_text "2/3  sort: self Instructions" # the table, on func1
	tm send-keys q
	expect_ended 0
}

@test "tmux: a profile cut while open keeps its names on the screen; a failed R says why and the notice stays" {
	# before: every name read from the emptied mapping as \x00\x00..., and R on
	# the empty file left the old table with the notice and no word of the failure
	cp "$FIX/spec/spec-extended.callgrind" "$BATS_TEST_TMPDIR/p.callgrind"
	PANE_TERM=xterm-256color tmux_start "$BATS_TEST_TMPDIR" env "$NO_ASAN_SIGNALS" sh -c "$WRAPPER" \
		"$NCGRIND" p.callgrind
	wait_text "1/3  sort: self Instructions"
	: >"$BATS_TEST_TMPDIR/p.callgrind"
	tm send-keys j
	wait_text "2/3  sort: self Instructions   p.callgrind changed on disk while open: R reloads it"
	assert_grep "5  func2" "$BATS_TEST_TMPDIR/pane"
	assert_grep "called once  file: file1.c" "$BATS_TEST_TMPDIR/pane"
	refute_grep 'x00' "$BATS_TEST_TMPDIR/pane"
	tm send-keys R
	wait_text "not reloaded: p.callgrind: empty file, no profile data"
	assert_grep "1  func1" "$BATS_TEST_TMPDIR/pane"
	tm send-keys k # the next key: the notice again, until R reads the file
	wait_text "1/3  sort: self Instructions   p.callgrind changed on disk while open: R reloads it"
	# appended to (a profile still being written) is a change too
	cp "$FIX/spec/spec-extended.callgrind" "$BATS_TEST_TMPDIR/p.callgrind"
	tm send-keys R
	wait_text "reloaded p.callgrind: 3 functions"
	echo 'fn=late' >>"$BATS_TEST_TMPDIR/p.callgrind"
	tm send-keys j
	wait_text "changed on disk while open: R reloads it"
	tm send-keys q
	expect_ended 0
}

@test "tmux: TERM=dumb cannot move the cursor: a message, then the text report" {
	# before: curses drew a blank screen on it and garbled on j
	local d="$FIX/spec"
	PANE_TERM=dumb start_ncgrind "$d" spec-extended.callgrind
	wait_text "ncgrind exit status 0, tty settings as before"
	tm capture-pane -p -J | sed 's/ *$//' | grep -v '^$' | head -4 >"$OUT"
	expect_out <<'EOF2'
ncgrind: the terminal 'dumb' cannot move its cursor: printing the report instead (see --dump)
--------------------------------------------------------------------------------
Profile data file 'spec-extended.callgrind'
--------------------------------------------------------------------------------
EOF2
	# the report's rows: func2 700 self (5 calls), func1 100, main 20
	tm capture-pane -p -J | grep -E ':(func1|func2|main)$' | awk '{ print $3, $NF }' >"$OUT"
	expect_out <<'EOF2'
700 file2.c:func2
100 file1.c:func1
20 file1.c:main
EOF2
}

# big_profile FILE: 44 MB, more than one progress step (32 MB) of the loader:
# functions f0001..f4000 in big.c, f<i> with 1,250 lines of cost i each.
big_profile() {
	awk 'BEGIN { print "# callgrind format"; print "events: Ir"; print "fl=big.c"
		for (f = 1; f <= 4000; f++) {
			printf "fn=f%04d\n", f
			for (l = 1; l <= 1250; l++) printf "%d %d\n", l, f
		} }' >"$1"
}

@test "tmux: start-up on a 44 MB profile (the loading screen) and :open, on the real terminal in colour" {
	# the loading screen is drawn every 32 MB and at the end; :open crashed there
	# (the loading screen had no name to show). Total: 1,250 x (1 + ... + 4000) =
	# 10,002,500,000; f4000 has the most self cost, 1,250 x 4,000 = 5,000,000.
	big_profile "$BATS_TEST_TMPDIR/big.callgrind"
	cp "$FIX/spec/spec-extended.callgrind" "$BATS_TEST_TMPDIR/"
	PANE_TERM=xterm-256color start_ncgrind "$BATS_TEST_TMPDIR" big.callgrind
	wait_text "1/4000  sort: self Ir"
	tm capture-pane -p | sed -n '1p;2p;4p' | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
ncgrind: big.callgrind
Events: [Ir]   Total Ir: 10,002,500,000   Parts: 1
     5,000,000  0.05%       5,000,000  0.05%      0  f4000
EOF2
	tm send-keys :
	tm send-keys -l 'open spec-extended.callgrind'
	tm send-keys Enter
	wait_text "1/3  sort: self Instructions   opened spec-extended.callgrind"
	tm capture-pane -p | sed -n '1p;4p' | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
ncgrind: spec-extended.callgrind
 700 85.37%   700 85.37%      5  func2
EOF2
	# a file that cannot be read: a message, the profile stays
	tm send-keys :
	tm send-keys -l 'open nothere.callgrind'
	tm send-keys Enter
	wait_text "cannot read"
	tm capture-pane -p | sed -n '1p' | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
ncgrind: spec-extended.callgrind
EOF2
	# and back to the big one: the loading screen again, then its table
	tm send-keys :
	tm send-keys -l 'open big.callgrind'
	tm send-keys Enter
	wait_text "1/4000  sort: self Ir   opened big.callgrind"
	tm send-keys q
	expect_ended 0
}

@test "tmux: the / search line edits on the real terminal as in script mode (arrows, Home, Delete, C-u)" {
	# before: the real terminal's Left, Home, Delete and Down were typed into the
	# line as characters (/abcĄĄXĆŊĂ_)
	local d="$FIX/spec"
	script_screens "$d" spec-extended.callgrind '/ "abc" Left Home Delete Down' 'C-u "func1"' Enter
	PANE_TERM=xterm-256color start_ncgrind "$d" spec-extended.callgrind
	wait_screen "$BATS_TEST_TMPDIR/s0"
	tm send-keys / a b c Left Home DC Down
	wait_screen "$BATS_TEST_TMPDIR/s1"
	tail -1 "$BATS_TEST_TMPDIR/s1" | grep -qx '/bc'
	tm send-keys C-u f u n c 1
	wait_screen "$BATS_TEST_TMPDIR/s2"
	tm send-keys Enter
	wait_screen "$BATS_TEST_TMPDIR/s3"
	tail -1 "$BATS_TEST_TMPDIR/s3" | grep -qx '2/3  sort: self Instructions   1 of 1 match'
	tm send-keys q
	expect_ended 0
}

@test "tmux: a profile is shown while it is read: self costs first, the cursor kept, q stops at once" {
	# 44 chunks of 1 MB, each made 100 ms slower: 2 s or more of reading.
	# f4000 has the most self cost (5,000,000), in the file's last chunk: while
	# the first ones are read, f0001.. are all there is.
	big_profile "$BATS_TEST_TMPDIR/big.callgrind"
	export NCGRIND_CHUNK_SIZE=1000000 NCGRIND_TEST_CHUNK_DELAY_MS=100
	start_ncgrind "$BATS_TEST_TMPDIR" big.callgrind
	wait_text "(self costs so far; q stops)"
	# no inclusive column, no calls while reading; the hottest function so far first
	tm capture-pane -p >"$OUT"
	sed -n '3p' "$OUT" >"$BATS_TEST_TMPDIR/heads"
	assert_grep "Self      %  Function" "$BATS_TEST_TMPDIR/heads"
	refute_grep "Incl|Calls" "$OUT"
	refute_grep "f4000" "$OUT"
	tm send-keys j j
	wait_text "3/"
	tm capture-pane -p | sed -n '28p' | sed 's/ *$//' >"$BATS_TEST_TMPDIR/picked"
	# read to the end: the full table (inclusive costs, calls), the cursor on the same function
	wait_text "sort: self Ir   ? help  q quit"
	tm capture-pane -p >"$OUT"
	assert_grep "Incl      %" "$OUT"
	sed -n '28p' "$OUT" >"$BATS_TEST_TMPDIR/now"
	assert_grep "$(cat "$BATS_TEST_TMPDIR/picked")" "$BATS_TEST_TMPDIR/now"
	tm send-keys q
	expect_ended 0
	# q while reading: out at once, the terminal given back (the first open kept
	# the index, which the second would show at once: read afresh instead)
	tmux_kill_server "$SOCK"
	tmux_start "$BATS_TEST_TMPDIR" sh -c "$WRAPPER" "$NCGRIND" --no-cache big.callgrind
	wait_text "(self costs so far; q stops)"
	tm send-keys q
	expect_ended 0
}

# parts_profile FILE: 3 parts of 1.3 MB, functions f001..f100, each 2,000
# lines of cost P in part P and a call to the next with calls=P: each
# function's self cost is 12,000 over all parts, 6,000 in parts 1-2, 2,000 in
# part 1; f002 is called 6 times, 3, once
parts_profile() {
	awk 'BEGIN { print "# callgrind format"; print "events: Ir"
		for (p = 1; p <= 3; p++) {
			print "part: " p; print "fl=m.c"
			for (f = 1; f <= 100; f++) {
				printf "fn=f%03d\n", f
				for (l = 1; l <= 2000; l++) printf "%d %d\n", l, p
				if (f < 100) printf "cfn=f%03d\ncalls=%d 1\n1 1\n", f + 1, p
			}
		} }' >"$1"
}

@test "tmux: q stops counting the chosen parts again, the parts that counted still count" {
	# parts_profile: parts 1-2 (2.6 MB) are read again by 2 threads, each
	# held 1.5 s
	parts_profile "$BATS_TEST_TMPDIR/m.callgrind"
	export NCGRIND_TEST_RESUM_DELAY_MS=1500
	tmux_start "$BATS_TEST_TMPDIR" sh -c "$WRAPPER" "$NCGRIND" --jobs=2 m.callgrind
	wait_text "1/100 "
	tm send-keys ':parts 1-2' Enter
	wait_text "counting the chosen parts again: "
	assert_grep "q stops" "$BATS_TEST_TMPDIR/pane"
	tm send-keys q
	wait_text "stopped: the parts that counted still count"
	# still the browser, every part counting (Incl, %, Self, %, Calls, Function)
	grep -Eq '^ +[0-9,]+ +[0-9.]+% +12,000 +[0-9.]+% +6 +f002$' "$BATS_TEST_TMPDIR/pane" ||
		{ cat "$BATS_TEST_TMPDIR/pane"; return 1; }
	refute_grep ' 6,000 ' "$BATS_TEST_TMPDIR/pane"
	# and the next choice is made whole
	tm send-keys ':parts 1' Enter
	wait_text "counting the chosen parts again: "
	wait_text "1 of 3 parts count" || wait_text "1 of 3 parts count"
	grep -Eq '^ +[0-9,]+ +[0-9.]+% +2,000 +[0-9.]+% +1 +f002$' "$BATS_TEST_TMPDIR/pane" ||
		{ cat "$BATS_TEST_TMPDIR/pane"; return 1; }
	tm send-keys q
	expect_ended 0
}

@test "tmux: with no thread to be had, the chosen parts are counted here, and q still stops it" {
	# parts_profile; NCGRIND_TEST_RESUM_NO_THREADS: every
	# thread of the count fails to start, and its shares are read by the
	# browser's own thread, each held 1.5 s first
	parts_profile "$BATS_TEST_TMPDIR/m.callgrind"
	export NCGRIND_TEST_RESUM_DELAY_MS=1500 NCGRIND_TEST_RESUM_NO_THREADS=1
	tmux_start "$BATS_TEST_TMPDIR" sh -c "$WRAPPER" "$NCGRIND" --jobs=2 m.callgrind
	wait_text "1/100 "
	tm send-keys ':parts 1-2' Enter
	wait_text "counting the chosen parts again: "
	tm send-keys q
	wait_text "stopped: the parts that counted still count"
	grep -Eq '^ +[0-9,]+ +[0-9.]+% +12,000 +[0-9.]+% +6 +f002$' "$BATS_TEST_TMPDIR/pane" ||
		{ cat "$BATS_TEST_TMPDIR/pane"; return 1; }
	# counted to the end, here too: parts 1-2 (6,000, called 3 times)
	tm send-keys ':parts 1-2' Enter
	wait_text "2 of 3 parts count" || wait_text "2 of 3 parts count"
	grep -Eq '^ +[0-9,]+ +[0-9.]+% +6,000 +[0-9.]+% +3 +f002$' "$BATS_TEST_TMPDIR/pane" ||
		{ cat "$BATS_TEST_TMPDIR/pane"; return 1; }
	tm send-keys q
	expect_ended 0
}

# rows_in_order PANE: the table's rows on the pane (cost, %, name) come by cost,
# the highest first, and by name where costs tie; at least 20 of them
rows_in_order() {
	awk '$0 ~ /^ +[0-9]+ +[0-9.]+% +w[0-9]+$/ {
		n++
		if (n > 1 && ($1 + 0 > cost || ($1 + 0 == cost && $3 <= name))) {
			print "out of order: " prev " then " $0; bad = 1
		}
		cost = $1 + 0; name = $3; prev = $0
	} END { if (n < 20) { print n " rows"; bad = 1 } exit bad }' "$1"
}

@test "tmux: while 30,000 functions are read, the rows shown are in order: the top, End, pages down" {
	# only the rows up to the screen are sorted while the file is read (the
	# rest waits): End and pages down go where they were not, and sort them
	# there, the cursor on its row (costs tie by the hundred: names decide)
	tied_profile "$BATS_TEST_TMPDIR/t.callgrind" main-last
	export NCGRIND_CHUNK_SIZE=100000 NCGRIND_TEST_CHUNK_DELAY_MS=900
	start_ncgrind "$BATS_TEST_TMPDIR" t.callgrind
	wait_text "(self costs so far; q stops)"
	local i n=0 pane="$BATS_TEST_TMPDIR/pane"
	# more than 20,000 functions read (fewer are all sorted at once)
	for i in $(seq 100); do
		n=$(grep -o '^1/[0-9]*' "$pane" | cut -d/ -f2)
		[ "${n:-0}" -le 20000 ] || break
		sleep 0.1
		tm capture-pane -p -J | sed 's/ *$//' >"$pane"
	done
	[ "$n" -gt 20000 ]
	assert_grep "(self costs so far; q stops)" "$pane"
	rows_in_order "$pane"
	tm send-keys End
	# the cursor on the last row (or on its function, the rows read since
	# sorted around it), the least costs about it
	for i in $(seq 60); do
		tm capture-pane -p -J | sed 's/ *$//' >"$pane"
		if grep -Eq "^[0-9]{5}/[0-9]{5}  sort:" "$pane"; then break; fi
		sleep 0.05
	done
	assert_grep "(self costs so far; q stops)" "$pane"
	grep -Eq "^[0-9]{5}/[0-9]{5}  sort:" "$pane"
	rows_in_order "$pane"
	[ "$(grep -E '^ +[0-9]+ +[0-9.]+% +w[0-9]+$' "$pane" | tail -1 | awk '{ print $1 }')" -le 2 ]
	tm send-keys Home
	wait_text "1/"
	for i in $(seq 30); do tm send-keys PageDown; done
	sleep 0.3
	tm capture-pane -p -J | sed 's/ *$//' >"$pane"
	assert_grep "(self costs so far; q stops)" "$pane"
	rows_in_order "$pane"
	tm send-keys q
	expect_ended 0
}

# PIPE_WRAPPER (sh -c "$PIPE_WRAPPER" NCGRIND FILE): like WRAPPER, with FILE
# decompressed down a pipe into `ncgrind -` (zcat x.gz | ncgrind -, as with less).
# shellcheck disable=SC2016 # expanded by the wrapper's sh
PIPE_WRAPPER='trap : INT QUIT
ulimit -c 0
before=$(stty -g)
gzip -dc "$1" | "$0" -
st=$?
if [ "$(stty -g)" = "$before" ]; then t="as before"; else t=CHANGED; fi
echo "ncgrind exit status $st, tty settings $t"
read -r _'

@test "tmux: a profile down a pipe (gzip -dc x.gz | ncgrind -): the browser, its keys from the terminal" {
	# thread 3 of the --separate-threads run: its summary is 600,283 Ir
	local d=$BATS_TEST_TMPDIR
	gzip -c "$FIX/runs/threads-sep/callgrind.out.26197-03" >"$d/t3.gz"
	PANE_TERM=xterm-256color tmux_start "$d" sh -c "$PIPE_WRAPPER" "$NCGRIND" t3.gz
	wait_text "sort: self Ir"
	tm capture-pane -p | sed -n '1,2p' | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF3'
ncgrind: -  cmd: ../threads
Events: [Ir]   Total Ir: 600,283   Parts: 1
EOF3
	tm send-keys j
	wait_text "2/20  sort: self Ir"
	tm send-keys q
	expect_ended 0
}

# SLOW_PIPE_WRAPPER (sh -c "$SLOW_PIPE_WRAPPER" NCGRIND KEYS): ncgrind - reads a
# pipe whose writer sends one profile line, then waits 20 s before its end; the
# status line is printed as soon as ncgrind ends (the pipeline itself waits for
# its writer). The traps are set again inside: a subshell does not keep them.
# shellcheck disable=SC2016 # expanded by the wrapper's sh
SLOW_PIPE_WRAPPER='trap : INT QUIT
ulimit -c 0
before=$(stty -g)
{ printf "events: Ir\nfl=a.c\nfn=main\n1 5\n"; sleep 20; } | {
	trap : INT QUIT
	"$0" -
	st=$?
	if [ "$(stty -g </dev/tty)" = "$before" ]; then t="as before"; else t=CHANGED; fi
	echo "ncgrind exit status $st, tty settings $t"
}
read -r _'

@test "tmux: a slow pipe shows the loading screen, and q, Esc or Ctrl-C stop the reading" {
	# before: a blank screen until the writer ended, deaf to q. expect_ended waits
	# 3 s at most: ncgrind must be gone long before the pipe's end.
	local key st
	for key in q Escape C-c; do
		tmux_kill_server "$SOCK"
		tmux_start "$BATS_TEST_TMPDIR" sh -c "$SLOW_PIPE_WRAPPER" "$NCGRIND"
		wait_text "Reading the profile: 0.0 MB so far"
		sed -n '1p;30p' "$BATS_TEST_TMPDIR/pane" >"$OUT"
		expect_out <<'EOF3'
ncgrind: -
q stops
EOF3
		tm send-keys "$key"
		# stopped by the user: no message; Ctrl-C ends it by SIGINT (128 + 2)
		st=0
		[ "$key" != C-c ] || st=130
		expect_ended "$st"
	done
}

@test "tmux colour: the parts of a --separate-threads run, chosen on the parts screen" {
	# the 3 thread files of the run (the empty callgrind.out.26197 brings them);
	# summaries 281,879 + 300,283 + 600,283 = 1,182,445 Ir
	local d=$BATS_TEST_TMPDIR
	cp "$FIX"/runs/threads-sep/callgrind.out.* "$d/"
	PANE_TERM=xterm-256color start_ncgrind "$d" callgrind.out.26197
	wait_text "Total Ir: 1,182,445   Parts: 3"
	tm send-keys P
	wait_text "3 parts in 3 files; 3 count (marked *)"
	# Space on thread 2: threads 1 and 3 count, 281,879 + 600,283 = 882,162
	tm send-keys j Space
	wait_text "2 of 3 parts count: 1,3"
	pane_attrs | grep -c '^H' >"$OUT"
	expect_out <<'EOF3'
2
EOF3
	tm send-keys q
	wait_text "Total Ir: 882,162   Parts: 2 of 3"
	tm send-keys q
	expect_ended 0
}

# DIFF_WRAPPER (sh -c "$DIFF_WRAPPER" NCGRIND BASE NEW): like WRAPPER, for
# ncgrind --diff with the rule that makes version1/ and version2/ one path.
# shellcheck disable=SC2016 # expanded by the wrapper's sh
DIFF_WRAPPER='trap : INT QUIT
ulimit -c 0
before=$(stty -g)
"$0" --diff --mod-filename="s/version[0-9]/versionN/" "$1" "$2"
st=$?
if [ "$(stty -g)" = "$before" ]; then t="as before"; else t=CHANGED; fi
echo "ncgrind exit status $st, tty settings $t"
read -r _'

@test "tmux colour: --diff opens the diff screen; Enter shows a function's calls as a diff; q twice quits" {
	# the two builds of test/fixtures/src/diffprog.c: work_b +300,001 (cg_diff's)
	local d="$FIX/diff"
	PANE_TERM=xterm-256color tmux_start "$d" sh -c "$DIFF_WRAPPER" "$NCGRIND" \
		version1.callgrind version2.callgrind
	wait_text "245 matched, 2 gone (self 12,005), 2 new (self 6,005); self, biggest change first"
	tm capture-pane -p | sed -n '5p' | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF3'
       150,005        450,006       +300,001   +52.74%    3.000        work_b
EOF3
	# the cursor row and the status line are highlighted, and only they
	pane_attrs | grep -c '^H' >"$OUT"
	echo 2 | diff -u - "$OUT"
	tm send-keys Enter
	wait_text "ncgrind: diff, callers and callees of work_b"
	wait_text "main (calls 1 -> 1)"
	# r on the caller (main): its callers as a diff tree, the cursor row highlighted;
	# v: its source as a diff
	tm send-keys r
	wait_text "ncgrind: diff, callers, upward, threshold 1%"
	pane_attrs | grep -c '^H' >"$OUT"
	echo 2 | diff -u - "$OUT"
	tm send-keys v
	wait_text "ncgrind: diff, annotated source of main"
	tm send-keys q q q q
	wait_text "Total Ir: 862,835   Parts: 1"
	tm send-keys q
	expect_ended 0
}

@test "tmux colour: the configuration's color lines paint the areas; a diff's change is red or green" {
	# the cursor row is black on cyan (46) by default; `color cursor white blue`
	# makes it white (37) on blue (44). A diff's change column: grown in red (31),
	# shrunk in green (32), or as the configuration says (grown magenta, 35).
	# Before, there was no configuration, and the changes had no colour.
	local x="$BATS_TEST_TMPDIR/xdg"
	mkdir -p "$x/ncgrind"
	printf '%s\n' 'color cursor white blue bold' 'color grown magenta default' >"$x/ncgrind/config"
	PANE_TERM=xterm-256color tmux_start "$FIX/spec" env XDG_CONFIG_HOME="$x" sh -c "$WRAPPER" \
		"$NCGRIND" spec-extended.callgrind
	wait_text "1/3  sort: self Instructions"
	tm capture-pane -e -p | sed -n 4p | cat -v >"$OUT"
	assert_grep '^[[44m 700 85.37%' "$OUT"
	assert_grep '^[[37m' "$OUT"
	tm send-keys q
	expect_ended 0
	teardown
	PANE_TERM=xterm-256color tmux_start "$FIX/diff" sh -c "$DIFF_WRAPPER" "$NCGRIND" \
		version1.callgrind version2.callgrind
	wait_text "new_helper"
	tm capture-pane -e -p | cat -v >"$OUT"
	grep -F 'old_helper' "$OUT" | grep -qF '^[[32m-12,002^[[39m'
	grep -F 'new_helper' "$OUT" | grep -qF '^[[31m+6,002^[[39m'
	grep -F 'work_b' "$OUT" | grep -qF '^[[46m' # the cursor row: not red, the cursor's
	tm send-keys q q # the diff, then the new profile's table under it
	expect_ended 0
	teardown
	PANE_TERM=xterm-256color tmux_start "$FIX/diff" env XDG_CONFIG_HOME="$x" sh -c "$DIFF_WRAPPER" \
		"$NCGRIND" version1.callgrind version2.callgrind
	wait_text "new_helper"
	tm capture-pane -e -p | cat -v | grep -F 'new_helper' | grep -qF '^[[35m+6,002^[[39m'
	tm send-keys q q
	expect_ended 0
}

@test "tmux colour: several event columns at 100, 200 and 80 columns, as script mode draws them" {
	local d="$FIX/events"
	script_screens "$d" cachesim.callgrind ':set columns Ir,D1mr,CEst' ':resize 200x30' \
		':resize 80x30'
	PANE_TERM=xterm-256color start_ncgrind "$d" cachesim.callgrind
	wait_screen "$BATS_TEST_TMPDIR/s0"
	tm send-keys : && tm send-keys -l 'set columns Ir,D1mr,CEst' && tm send-keys Enter
	wait_screen "$BATS_TEST_TMPDIR/s1"
	tm resize-window -x 200 -y 30
	wait_screen "$BATS_TEST_TMPDIR/s2"
	grep -q 'CEst' "$BATS_TEST_TMPDIR/s2"
	# 80 columns: the extra columns give way first
	tm resize-window -x 80 -y 30
	wait_screen "$BATS_TEST_TMPDIR/s3"
	tm send-keys q
	expect_ended 0
}

@test "tmux colour: the flame graph as script mode draws it, its frames in colour" {
	local d="$FIX/events"
	script_screens "$d" cachesim.callgrind F 'Down Down' Enter
	PANE_TERM=xterm-256color start_ncgrind "$d" cachesim.callgrind
	wait_screen "$BATS_TEST_TMPDIR/s0"
	tm send-keys F
	wait_screen "$BATS_TEST_TMPDIR/s1"
	# the frame rows (from the third) have a background colour
	pane_attrs | sed -n '3,6p' | cut -c1 | sort -u >"$OUT"
	echo H | diff -u - "$OUT"
	# where a frame ends inside a cell, its block of eighths is in the frame's
	# colour on the screen's (red 31, yellow 33, magenta 35, the cursor's cyan 36);
	# before, in the default colour: grey slivers at the frames' ends
	tm capture-pane -e -p | python3 "$TOOLS/edge-colours.py" | sort -u >"$OUT"
	assert_grep 'bg=49' "$OUT"
	grep -vE '^fg=3[1356] bg=49$' "$OUT" >"$OUT.bad" || true
	refute_grep . "$OUT.bad"
	tm send-keys Down Down
	wait_screen "$BATS_TEST_TMPDIR/s2"
	tm send-keys Enter
	wait_screen "$BATS_TEST_TMPDIR/s3"
	tm send-keys Q
	expect_ended 0
}

# key_ms KEY TEXT: send KEY, then read the pane until a line shows TEXT; print the
# milliseconds between the two (the tmux calls included), or fail after 3 s.
key_ms() {
	local t0 now
	t0=$(date +%s%N)
	tm send-keys "$1"
	while :; do
		now=$(date +%s%N)
		tm capture-pane -p | grep -qF -- "$2" && break
		if (((now - t0) > 3000000000)); then
			echo "the pane never showed: $2"
			return 1
		fi
	done
	echo $(((now - t0) / 1000000))
}

# back_times KEY N: N times, open func2's callers (Enter) and go back with KEY;
# print the milliseconds each return to the table took, one a line.
back_times() {
	local i ms
	for i in $(seq "$2"); do
		tm send-keys Enter
		wait_text "Enter: open  t/r: tree" >/dev/null || return
		ms=$(key_ms "$1" "1/3  sort: self Instructions") || { echo "$ms"; return 1; }
		echo "$ms"
	done
}

@test "tmux: Esc goes back at once (ESCDELAY 25 ms unless the environment says), as Backspace does" {
	# ncurses waits ESCDELAY after an Esc for the rest of a key's sequence: 1 s by
	# default, so Esc took a second. The time is read from send-keys to the
	# pane showing the table again, tmux's own calls included: the best of 5
	# must be under 0.1 s, and none may reach the old second (a loaded machine
	# slows one down, not all). The helper's ESCDELAY=25 is not in the pane's
	# environment: the default is the program's.
	local d="$FIX/spec" key t
	unset ESCDELAY
	tmux_start "$d" env -u ESCDELAY sh -c "$WRAPPER" "$NCGRIND" spec-extended.callgrind
	wait_text "1/3  sort: self Instructions"
	for key in Escape BSpace; do
		back_times "$key" 5 >"$OUT" || { cat "$OUT"; return 1; }
		echo "$key: $(tr '\n' ' ' <"$OUT")ms"
		[ "$(sort -n "$OUT" | head -1)" -lt 100 ] || { echo "$key: never under 100 ms"; return 1; }
		[ "$(sort -n "$OUT" | tail -1)" -lt 800 ] || { echo "$key: one took 800 ms or more"; return 1; }
	done
	# Esc closes the prompt at once too
	tm send-keys :
	wait_text ":_"
	t=$(key_ms Escape "1/3  sort: self Instructions") || { echo "$t"; return 1; }
	echo "Esc on the prompt: $t ms"
	[ "$t" -lt 800 ]
	tm send-keys q
	expect_ended 0
	teardown
	# ESCDELAY=600 in the environment wins: Esc takes at least that long
	tmux_start "$d" env ESCDELAY=600 sh -c "$WRAPPER" "$NCGRIND" spec-extended.callgrind
	wait_text "1/3  sort: self Instructions"
	back_times Escape 1 >"$OUT" || { cat "$OUT"; return 1; }
	echo "Esc with ESCDELAY=600: $(cat "$OUT") ms"
	[ "$(cat "$OUT")" -ge 550 ]
	tm send-keys q
	expect_ended 0
}

@test "tmux colour: Right opens a fold row; ) and ( keep the cursor on its function" {
	# many-callers (tree-fold.bats has it by hand): r on leaf folds s01..s30 (1,935,
	# 19.35%). 25 rows to the screen at 100x30: Right on the fold shows s01..s25,
	# then (5 more), off the screen: 30 rows; the cursor stays on s01. j x 5:
	# s06; ) at 2%: s01..s06 then (24 more), the cursor on s06, row 10 of 11;
	# ( ( at 0.5%: every s_i, row 10 of 34.
	PANE_TERM=xterm-256color start_ncgrind "$FIX/browser" many-callers.callgrind
	wait_text "sort: self Ir"
	tm send-keys r
	wait_text "(30 more, 19.35%)"
	tm send-keys G Right
	wait_text "5/30  Right/Left"
	pane_attrs | grep '^H' | tr -s ' ' >"$OUT"
	expect_out <<'EOF2'
H 79 0.79% 0.79% 1 + s01
H 5/30 Right/Left: expand/collapse e: hot path r: callers
EOF2
	tm send-keys j j j j j ')'
	wait_text "(24 more, 14.76%)"
	pane_attrs | grep '^H' | tr -s ' ' >"$OUT"
	expect_out <<'EOF2'
H 74 0.74% 0.74% 1 + s06
H 10/11 threshold 2%: smaller branches are folded
EOF2
	tm send-keys '(' '('
	wait_text "threshold 0.5%: smaller"
	pane_attrs | grep '^H' | tr -s ' ' >"$OUT"
	expect_out <<'EOF2'
H 74 0.74% 0.74% 1 + s06
H 10/34 threshold 0.5%: smaller branches are folded
EOF2
	tm send-keys Q
	expect_ended 0
}

@test "tmux colour: / marks every match on the screen, as less does" {
	# spec-extended at 100x30: / func marks "func" in the rows of func2 and func1
	# and on the name line (func2, the first match: the cursor stays there); main's
	# row has none; "Func" of the column head matches too (lower case: any case);
	# the title and the status line are not marked. Each line of the
	# pane as the characters drawn with the match colour (black on green, SGR 42).
	local d="$FIX/spec"
	PANE_TERM=xterm-256color tmux_start "$d" env TERM=xterm-256color sh -c "$WRAPPER" \
		"$NCGRIND" spec-extended.callgrind
	wait_text "1/3  sort: self Instructions"
	tm send-keys / f u n c Enter
	wait_text "1 of 2 matches"
	tm capture-pane -e -p | awk '
		{ line = $0; out = ""; bg = 0
		  while (length(line)) {
			if (match(line, /^\033\[[0-9;]*m/)) {
				n = split(substr(line, 3, RLENGTH - 3), p, ";")
				if (n == 0) bg = 0
				for (i = 1; i <= n; i++) {
					if (p[i] == "" || p[i] == 0 || p[i] == 49) bg = 0
					else if (p[i] == 42) bg = 1
					else if (p[i] >= 40 && p[i] <= 47) bg = 0
				}
				line = substr(line, RLENGTH + 1); continue
			}
			if (bg) out = out substr(line, 1, 1)
			else if (out != "" && substr(out, length(out)) != "|") out = out "|"
			line = substr(line, 2)
		  }
		  sub(/\|$/, "", out); print NR ": " out }' | grep -v ': $' >"$OUT"
	expect_out <<'EOF'
3: Func
4: func
5: func
28: func
EOF
	tm send-keys q
	expect_ended 0
}

@test "tmux colour: ? on the flame lists the flame's keys first; End scrolls the help to its end" {
	# the flame's keymap (screen_flame.c) comes first: Enter zooms in there; End
	# shows the last line of the help, the end of the last setting's help
	# (substitute-path, under TO); q closes the help, back on the flame.
	local d="$FIX/spec"
	PANE_TERM=xterm-256color tmux_start "$d" env TERM=xterm-256color sh -c "$WRAPPER" \
		"$NCGRIND" spec-extended.callgrind
	wait_text "1/3  sort: self Instructions"
	tm send-keys F
	wait_text "ncgrind: flame graph"
	tm send-keys '?'
	wait_text "Keys of the flame graph (flame)"
	grep -q '^  Enter                 zoom in: the frame as wide as the screen$' \
		"$BATS_TEST_TMPDIR/pane"
	grep -q '^  Up, k                 to the parent frame$' "$BATS_TEST_TMPDIR/pane"
	tm send-keys End
	wait_text "under TO"
	# the status line: the last of the help's lines
	tail -1 "$BATS_TEST_TMPDIR/pane" | grep -Eq '^([0-9]+)/\1  '
	tm send-keys q
	wait_text "ncgrind: flame graph"
	tm send-keys Q
	expect_ended 0
}

@test "tmux: the messages said when the browser ends set neither the clipboard nor the title" {
	# round 3, item 3: the "calls cost more" warning names the event and the file.
	# The event's name holds OSC 52 (set the clipboard to "pwned"), the file's OSC 2
	# (the title FNTITLE); both were written raw to the terminal after q. main
	# costs 1 and its call to f 5: the calls cost 4 more than the total (2).
	local d="$BATS_TEST_TMPDIR" f=$'osc\e]2;FNTITLE\a.callgrind'
	printf 'events: Ir X\e]52;c;cHduZWQ=\a\nfl=a.c\nfn=main\n1 1 1\ncfn=f\ncalls=1 1\n1 5 5\nfn=f\n1 1 1\n' \
		>"$d/$f"
	start_ncgrind "$d" "$f"
	wait_text '2 problems reading the profile'
	tm set -g set-clipboard on
	tm send-keys q
	expect_ended 0
	assert_grep 'calls cost more X\x1b]52;c;cHduZWQ=\x07 than the whole profile' \
		"$BATS_TEST_TMPDIR/pane"
	assert_grep 'osc\x1b]2;FNTITLE\x07.callgrind: warning: calls cost more Ir' \
		"$BATS_TEST_TMPDIR/pane"
	[ "$(tm display-message -p '#{pane_title}')" != FNTITLE ]
	run tm list-buffers
	[ -z "$output" ]
}

# The mouse (set mouse on). The pane's reporting modes as tmux keeps them: any
# button press (1000) and the SGR format (1006).
mouse_modes() {
	tm display-message -p 'mouse #{mouse_standard_flag} sgr #{mouse_sgr_flag}'
}

# wait_modes TEXT: wait (3 s at most) until mouse_modes says TEXT.
wait_modes() {
	local got i
	for i in $(seq 60); do
		got=$(mouse_modes)
		[ "$got" = "$1" ] && return 0
		sleep 0.05
	done
	echo "mouse modes: expected '$1', got '$got'"
	return 1
}

# wait_line N TEXT: wait (3 s at most) until line N of the pane contains TEXT.
wait_line() {
	local i
	for i in $(seq 60); do
		tm capture-pane -p | sed -n "$1p" >"$BATS_TEST_TMPDIR/line"
		grep -qF -- "$2" "$BATS_TEST_TMPDIR/line" && return 0
		sleep 0.05
	done
	echo "line $1 of the pane never showed '$2': $(cat "$BATS_TEST_TMPDIR/line")"
	return 1
}

# mouse_conf: a configuration file with the mouse on, where the browser looks
# (the tmux server, started after, passes XDG_CONFIG_HOME to the pane).
mouse_conf() {
	mkdir -p "$BATS_TEST_TMPDIR/xdg/ncgrind"
	echo 'set mouse on' >"$BATS_TEST_TMPDIR/xdg/ncgrind/config"
	export XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/xdg"
}

@test "tmux: set mouse on: an SGR click on the eighth row puts the cursor there, at column 240 too; the wheel scrolls; q turns the reporting off" {
	# TERM=screen: its entry asks ncurses for X10 reports (ESC [M and three bytes,
	# whose columns end at 223); the browser asks for SGR itself and reads it.
	# pages.callgrind at 30 rows: the table's rows are the pane's rows 4 to 27,
	# so row 8 is f05; a notch of the wheel shows f04 first (the cursor, in view,
	# stays on f05); the whole name of the selected function is on row 28.
	mouse_conf
	start_ncgrind "$FIX/browser" pages.callgrind
	wait_text "1/40  sort: self Ir"
	wait_modes "mouse 1 sgr 1"
	tm resize-window -x 250 -y 30
	wait_line 4 'pages.c' # (the file column, at 120 columns and more)
	tm send-keys -l $'\e[<0;240;8M'
	tm send-keys -l $'\e[<0;240;8m'
	wait_text "5/40  sort: self Ir"
	wait_line 28 f05
	tm send-keys -l $'\e[<65;240;8M'
	wait_line 4 ' f04 '
	wait_line 30 "5/40  sort: self Ir"
	tm send-keys q
	expect_ended 0
	wait_modes "mouse 0 sgr 0"
}

@test "tmux colour: :set mouse on with TERM=xterm-256color; a double click opens the callers; Ctrl-C turns the reporting off" {
	# the xterm entries ask ncurses for SGR itself (XM): the same clicks work.
	# spec-extended's table: func2, func1, main on rows 4 to 6. Off by default.
	local d="$FIX/spec"
	PANE_TERM=xterm-256color start_ncgrind "$d" spec-extended.callgrind
	wait_text "1/3  sort: self Instructions"
	wait_modes "mouse 0 sgr 0"
	tm send-keys -l ':set mouse on'
	tm send-keys Enter
	wait_modes "mouse 1 sgr 1"
	tm send-keys -l $'\e[<0;10;6M\e[<0;10;6m'
	wait_text "3/3  sort: self Instructions"
	tm send-keys -l $'\e[<0;10;5M\e[<0;10;5m\e[<0;10;5M\e[<0;10;5m'
	wait_text "Callers (1)"
	wait_line 2 func1
	tm send-keys C-c
	expect_ended 130
	wait_modes "mouse 0 sgr 0"
}

@test "tmux: Ctrl-Z turns the mouse reporting off (SGR too) until fg, which turns it on again" {
	# in an interactive shell, for job control; TERM=screen: the SGR mode is the
	# browser's own, which ncurses' suspension would leave on
	local cmd
	mouse_conf
	cmd="$(printf '%q' "$NCGRIND") pages.callgrind"
	tmux_start "$FIX/browser" bash --norc --noprofile -i
	tm send-keys -l "$cmd"
	tm send-keys Enter
	wait_text "1/40  sort: self Ir"
	wait_modes "mouse 1 sgr 1"
	tm send-keys C-z
	wait_text "Stopped"
	wait_modes "mouse 0 sgr 0"
	[ "$(tm display-message -p '#{alternate_on}')" = 0 ]
	tm send-keys -l fg
	tm send-keys Enter
	wait_modes "mouse 1 sgr 1"
	tm send-keys -l $'\e[<0;10;8M\e[<0;10;8m'
	wait_text "5/40  sort: self Ir"
	tm send-keys q
	wait_modes "mouse 0 sgr 0"
	[ "$(tm display-message -p '#{alternate_on}')" = 0 ]
}

# colour_escapes: the parameters of the pane's SGR sequences that set a colour
# (30-38, 40-48, 90-97, 100-107; tmux writes 39 and 49, the default colours,
# after each 0)
colour_escapes() {
	tm capture-pane -e -p | grep -oE $'\e\\[[0-9;]*m' | tr -d '\033[m' | tr ';' '\n' |
		awk '($1 >= 30 && $1 <= 48 && $1 != 39) || ($1 >= 90 && $1 <= 107)'
}

@test "tmux colour: --color=never draws no colour on a colour terminal; :set colour on switches it on" {
	local d="$FIX/spec"
	PANE_TERM=xterm-256color tmux_start "$d" sh -c "$WRAPPER" "$NCGRIND" --color=never \
		spec-extended.callgrind
	{ table_marks 1 R; echo ". func2"; echo ". called 5 times  file: file2.c  object:"
	  echo "R 1/3  sort: self Instructions   ? help  q quit"; } >"$BATS_TEST_TMPDIR/want0"
	wait_attrs "$BATS_TEST_TMPDIR/want0"
	colour_escapes >"$OUT"
	expect_out </dev/null
	# the setting still switches it, for this session
	tm send-keys :
	tm send-keys -l 'set colour on'
	tm send-keys Enter
	sed 's/^R/H/' "$BATS_TEST_TMPDIR/want0" >"$BATS_TEST_TMPDIR/want1"
	wait_attrs "$BATS_TEST_TMPDIR/want1"
	tm send-keys q
	expect_ended 0
}

@test "tmux colour: --color=always and --colour=always draw colour even with NO_COLOR" {
	local d="$FIX/spec" opt
	{ table_marks 1 H; echo ". func2"; echo ". called 5 times  file: file2.c  object:"
	  echo "H 1/3  sort: self Instructions   ? help  q quit"; } >"$BATS_TEST_TMPDIR/want0"
	for opt in --color=always --colour=always; do
		PANE_TERM=xterm-256color tmux_start "$d" env NO_COLOR=1 sh -c "$WRAPPER" \
			"$NCGRIND" "$opt" spec-extended.callgrind
		wait_attrs "$BATS_TEST_TMPDIR/want0"
		tm send-keys q
		expect_ended 0
		teardown
	done
	# auto (the default) with NO_COLOR: none; :set colour on, asked for by name,
	# wins over it as no-color.org asks of a user's setting (before: it stayed off)
	PANE_TERM=xterm-256color tmux_start "$d" env NO_COLOR=1 sh -c "$WRAPPER" \
		"$NCGRIND" --color=auto spec-extended.callgrind
	sed 's/^H/R/' "$BATS_TEST_TMPDIR/want0" >"$BATS_TEST_TMPDIR/want1"
	wait_attrs "$BATS_TEST_TMPDIR/want1"
	colour_escapes >"$OUT"
	expect_out </dev/null
	tm send-keys :
	tm send-keys -l 'set colour on'
	tm send-keys Enter
	wait_attrs "$BATS_TEST_TMPDIR/want0"
	tm send-keys q
	expect_ended 0
	teardown
	# and so does the configuration's set colour on
	mkdir -p "$BATS_TEST_TMPDIR/xdg/ncgrind"
	echo 'set colour on' >"$BATS_TEST_TMPDIR/xdg/ncgrind/config"
	PANE_TERM=xterm-256color tmux_start "$d" env NO_COLOR=1 \
		XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/xdg" sh -c "$WRAPPER" "$NCGRIND" spec-extended.callgrind
	wait_attrs "$BATS_TEST_TMPDIR/want0"
	tm send-keys q
	expect_ended 0
}

# edit_script: $BATS_TEST_TMPDIR/ed, an editor that writes its arguments into
# $BATS_TEST_TMPDIR/rec, says what it edits, waits for Enter (the pane's modes
# can be read meanwhile) and exits 3.
edit_script() {
	# shellcheck disable=SC2016 # expanded by the editor's sh
	printf '%s\n' '#!/bin/sh' "printf '%s\\n' \"\$@\" >\"$BATS_TEST_TMPDIR/rec\"" \
		'echo "editing $3 at $2"' 'read -r _' 'exit 3' >"$BATS_TEST_TMPDIR/ed"
	chmod +x "$BATS_TEST_TMPDIR/ed"
}

@test "tmux: e on the source screen gives the terminal to the editor and takes it back after" {
	# main's source (example.callgrind, from test/fixtures: ./src/recur.c): the
	# cursor starts on its hottest line, 101 (self 6 + 5; editor.bats has the lines)
	local d="$FIX"
	edit_script
	script_screens "$d" example.callgrind ':goto ^main$' v
	PANE_TERM=xterm-256color tmux_start "$d" env EDITOR="$BATS_TEST_TMPDIR/ed --flag" \
		sh -c "$WRAPPER" "$NCGRIND" example.callgrind
	wait_screen "$BATS_TEST_TMPDIR/s0"
	tm send-keys : && tm send-keys -l 'goto ^main$' && tm send-keys Enter
	tm send-keys v
	wait_screen "$BATS_TEST_TMPDIR/s2"
	tm send-keys e
	wait_text 'editing ./src/recur.c at +101'
	# the terminal as the shell has it: the normal screen, the cursor, no keypad mode
	pane_modes >"$OUT"
	expect_out <<'EOF'
alternate screen 0, cursor shown 1, keypad 0
EOF
	printf '%s\n' --flag +101 ./src/recur.c | diff -u - "$BATS_TEST_TMPDIR/rec"
	tm send-keys Enter
	# back: the same screen; the status line says the editor's status
	wait_text "exited with status 3"
	sed '$d' "$BATS_TEST_TMPDIR/s2" >"$BATS_TEST_TMPDIR/want"
	tm capture-pane -p | sed 's/ *$//' | sed '$d' >"$OUT"
	diff -u "$BATS_TEST_TMPDIR/want" "$OUT"
	tm capture-pane -p | tail -n 1 >"$OUT"
	assert_grep "the editor '$BATS_TEST_TMPDIR/ed --flag' exited with status 3" "$OUT"
	pane_modes >"$OUT"
	expect_out <<'EOF'
alternate screen 1, cursor shown 0, keypad 1
EOF
	# Ctrl-C in the editor is the editor's: the browser lives on
	tm send-keys e
	wait_text 'editing ./src/recur.c at +101'
	tm send-keys C-c
	wait_text "the editor '$BATS_TEST_TMPDIR/ed --flag'"
	wait_text "ncgrind: annotated source"
	tm send-keys Q
	expect_ended 0
}

@test "tmux: with the mouse on, the editor gets no mouse reports; they come back after it" {
	# TERM=screen: SGR (1006) is the browser's to turn off and on; before, e left
	# it on while the editor ran, which then read ESC [< ... for every click
	local d="$FIX"
	edit_script
	mouse_conf
	tmux_start "$d" env EDITOR="$BATS_TEST_TMPDIR/ed --flag" sh -c "$WRAPPER" "$NCGRIND" \
		example.callgrind
	wait_text "sort: self Ir"
	wait_modes "mouse 1 sgr 1"
	tm send-keys v
	wait_text "ncgrind: annotated source"
	tm send-keys e
	wait_text 'editing ./src/recur.c at +'
	wait_modes "mouse 0 sgr 0"
	tm send-keys Enter
	wait_text "exited with status 3"
	wait_modes "mouse 1 sgr 1"
	tm send-keys Q
	expect_ended 0
	wait_modes "mouse 0 sgr 0"
}
