#!/usr/bin/env bats
# The configuration file (issue 29): $XDG_CONFIG_HOME/ncgrind/config, else
# ~/.config/ncgrind/config, or --config=FILE: set, bind, color, source and
# comments, tig's tigrc in spirit. A wrong line is told on stderr as
# PATH:LINE: WHY and skipped; the rest applies. test_helper gives every test a
# HOME of its own and no XDG_CONFIG_HOME, so no one's own file is read here.
#
# The fixture: a --cache-sim=yes --branch-sim=yes run of recur (columns.bats).
# Its first rows by self Ir: is_even'2 2,232,804 then is_odd'2 2,231,208
# (--dump=functions --format=tsv); by name, the first is (below main).

load test_helper

CS="$BATS_TEST_DIRNAME/fixtures/events/cachesim.callgrind"

# conf TEXT: the user's configuration file in the default place.
conf() {
	mkdir -p "$BATS_TEST_TMPDIR/xdg/ncgrind"
	printf '%s\n' "$@" >"$BATS_TEST_TMPDIR/xdg/ncgrind/config"
	export XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/xdg"
}

@test "config: set, bind and color from the default file take effect in the browser" {
	cd "$BATS_TEST_TMPDIR"
	conf '# units, columns, a key' 'set units short' '  set columns Ir,D1mr   # two events' \
		'bind generic x sort-name' 'color cursor white blue bold'
	printf '%s\n' ':save-screen s0' 'x' ':save-screen s1' >keys
	"$NCGRIND" --script=keys --size=200x12 "$CS" 2>err
	refute_grep . err
	# short units: is_even'2's 2,232,804 self Ir reads 2.2M; D1mr beside it
	sed -n 3p s0 | grep -qE 'Self +% +D1mr +Calls'
	sed -n 4p s0 | grep -qE "2\.2M .*is_even'2"
	# x sorts by name, as a is bound to on the table
	tail -n 1 s1 >"$OUT"
	assert_grep 'sort: name' "$OUT"
}

@test "config: a wrong line is named by file and line on stderr, skipped, and the rest applies" {
	cd "$BATS_TEST_TMPDIR"
	conf 'set units short' 'set bogus 1' 'bind nowhere x sort-name' 'bind table C-q nothing' \
		'bind table %% what' 'color title purple default' 'color nothing red blue' \
		'set percent maybe' 'set threshold 200' 'frobnicate' '"unclosed' 'bind table' \
		'color cursor red blue sparkly' 'set columns'
	printf '%s\n' ':save-screen s0' >keys
	# (wide: the status line names the file by its whole temporary path)
	"$NCGRIND" --script=keys --size=400x12 "$CS" 2>err
	c="$BATS_TEST_TMPDIR/xdg/ncgrind/config"
	sed "s|^$c:|config:|" err >"$OUT"
	expect_out <<'EOF'
config:2: unknown setting 'bogus' (units, percent, colour, mouse, cycles, demangle, columns, threshold, include, substitute-path, cache, cache-size)
config:3: unknown scope 'nowhere' (generic, table, callers, tree, flame, source, groups, group, parts, events, diff, diff-callers, diff-tree, diff-source, help)
config:4: unknown request 'nothing' (ncgrind --list-keys lists them)
config:5: unknown key '%%' (x, X, C-x, F5, Enter, Tab, Space, Esc, ...)
config:6: unknown colour 'purple' (default, black, red, green, yellow, blue, magenta, cyan, white, bright-NAME, color0 to color255)
config:7: unknown area 'nothing' (normal, title, header, cursor, status, dim, mark, error, frame1, frame2, frame3, match, grown, shrunk)
config:8: usage: set percent on|off
config:9: usage: set threshold PCT
config:10: unknown command 'frobnicate' (set, bind, color, source)
config:11: a quote is not closed
config:12: usage: bind SCOPE KEY REQUEST (REQUEST none: unbind)
config:13: unknown attribute 'sparkly' (normal, bold, dim, underline, reverse, blink, standout, italic)
config:14: usage: set NAME VALUE
EOF
	# line 1 still applied: short units; the first wrong line on the status line
	sed -n 4p s0 | grep -qE "2\.2M .*is_even'2"
	tail -n 1 s0 >"$OUT"
	assert_grep "config:2: unknown setting 'bogus'" "$OUT"
	assert_grep "(and more wrong lines: on stderr)" "$OUT"
}

@test "config: bind KEY none unbinds, on one screen or on all; F5 and C-x name keys; help lists a bind" {
	cd "$BATS_TEST_TMPDIR"
	conf 'bind table a none' 'bind generic F5 reload' 'bind table C-x sort-calls' \
		'bind generic q none' 'bind generic Q close'
	printf '%s\n' 'a' ':save-screen s0' 'C-x' ':save-screen s1' '?' ':save-screen h' 'Q' \
		'q' ':save-screen s2' 'Q' >keys
	"$NCGRIND" --script=keys --size=120x40 "$CS" 2>err
	refute_grep . err
	tail -n 1 s0 >"$OUT"
	assert_grep 'no action for key a' "$OUT"
	tail -n 1 s1 >"$OUT"
	assert_grep 'sort: calls' "$OUT"
	# the help of the table says the new keys, and no longer a for sort-name
	assert_grep 'C-x' h
	assert_grep 'F5' h
	grep -E '^ *a +sort by name' h >"$OUT" || true
	refute_grep . "$OUT"
	# q unbound everywhere: it says so; Q closes (the help, then the table: the end)
	tail -n 1 s2 >"$OUT"
	assert_grep 'no action for key q' "$OUT"
}

@test "config: source reads a file beside it; a loop and a missing file are told" {
	cd "$BATS_TEST_TMPDIR"
	conf 'source more' 'source missing' 'source loop'
	echo 'set units short' >"$BATS_TEST_TMPDIR/xdg/ncgrind/more"
	echo 'source loop' >"$BATS_TEST_TMPDIR/xdg/ncgrind/loop"
	printf '%s\n' ':save-screen s0' >keys
	"$NCGRIND" --script=keys --size=200x12 "$CS" 2>err
	sed -n 4p s0 | grep -qE "2\.2M .*is_even'2"
	d="$BATS_TEST_TMPDIR/xdg/ncgrind"
	sed "s|$d/|D/|g" err >"$OUT"
	expect_out <<'EOF'
D/config:2: cannot read D/missing: No such file or directory
D/loop:1: source nests more than 8 files deep (a loop?): loop
EOF
}

@test "config: --config=FILE instead of the default; /dev/null: none; a missing one is exit 2" {
	cd "$BATS_TEST_TMPDIR"
	conf 'set units short'
	echo 'set percent off' >mine
	printf '%s\n' ':save-screen s0' >keys
	"$NCGRIND" --config=mine --script=keys --size=200x12 "$CS"
	# not the default file's short units; no percentages
	sed -n 4p s0 | grep -qE "^ *4,464,012 +2,232,804 +279,200  is_even'2"
	"$NCGRIND" --config=/dev/null --script=keys --size=200x12 "$CS"
	sed -n 4p s0 | grep -qE "^ *4,464,012 +[0-9.]+% +2,232,804"
	run "$NCGRIND" --config=nothere --script=keys "$CS"
	[ "$status" -eq 2 ]
	assert_grep "ncgrind: cannot read the configuration nothere: No such file or directory" \
		<(echo "$output")
}

@test "config: the command line wins: --no-demangle over set demangle on" {
	cd "$BATS_TEST_TMPDIR"
	conf 'set demangle on' 'set cycles on'
	printf '%s\n' ':write-config w' >keys
	"$NCGRIND" --no-demangle --no-cycles --script=keys "$CS"
	assert_grep 'set demangle off' w
	assert_grep 'set cycles off' w
}

@test "config: :write-config writes what holds, and reads back to the same" {
	cd "$BATS_TEST_TMPDIR"
	conf 'set units short' 'set columns D1mr,Ir' 'set threshold 2.5' 'bind table x sort-name' \
		'bind generic "#" tree' 'color cursor white color25 bold underline' \
		'color grown bright-red default' 'set include /my src' 'set substitute-path /a=/b' \
		'set mouse on'
	printf '%s\n' ':write-config w1' >keys
	"$NCGRIND" --script=keys "$CS" 2>err
	refute_grep . err
	cat w1 >"$OUT"
	expect_out <<'EOF'
# ncgrind configuration (man ncgrind, CONFIGURATION), written by :write-config
set units short
set percent on
set colour on
set mouse on
set cycles on
set demangle on
set columns D1mr,Ir
set threshold 2.5
set include "/my src"
set substitute-path /a=/b
set cache on
set cache-size 1G
bind table x sort-name
bind generic "#" tree
color cursor white color25 bold underline
color grown bright-red default
EOF
	printf '%s\n' ':write-config w2' >keys
	"$NCGRIND" --config=w1 --script=keys "$CS" 2>err
	refute_grep . err
	diff w1 w2
}

@test "config: hostile files: NUL bytes, a long line, binary junk, a directory, /dev/zero" {
	cd "$BATS_TEST_TMPDIR"
	printf 'set units short\nset\000percent off\n%5000s\n\377\376 bind\n' x >bad
	printf '%s\n' ':save-screen s0' >keys
	mem_limit 500000
	timeout 20 "$NCGRIND" --config=bad --script=keys --size=200x12 "$CS" 2>err
	sed -n 4p s0 | grep -qE "2\.2M .*is_even'2"
	cat err >"$OUT"
	expect_out <<'EOF'
bad:2: a NUL byte: not a text line
bad:3: longer than 4096 bytes
bad:4: unknown command '\xff\xfe' (set, bind, color, source)
EOF
	mkdir adir
	run timeout 20 "$NCGRIND" --config=adir --script=keys "$CS"
	[ "$status" -eq 2 ]
	assert_grep "configuration adir: is a directory" <(echo "$output")
	run timeout 20 "$NCGRIND" --config=/dev/zero --script=keys "$CS"
	[ "$status" -eq 2 ]
	assert_grep "larger than 1 MiB" <(echo "$output")
	# many wrong lines: twenty told, then how many more
	for i in $(seq 30); do echo "nonsense $i"; done >many
	timeout 20 "$NCGRIND" --config=many --script=keys "$CS" 2>err
	[ "$(wc -l <err)" -eq 21 ]
	assert_grep "many: 10 more wrong lines not shown" err
}

@test "config: the example file of doc/ reads without a wrong line; the manual names every area" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':write-config w' >keys
	"$NCGRIND" --config="$BATS_TEST_DIRNAME/../doc/ncgrind-config.example" --script=keys "$CS" 2>err
	refute_grep . err
	assert_grep 'bind generic x sort-name' w
	assert_grep 'color grown bright-red default bold' w
	# the areas as the program lists them (its message for an unknown one)
	printf 'color nowhere red blue\n' >c
	"$NCGRIND" --config=c --script=keys "$CS" 2>err || true
	sed -n "s/.*unknown area 'nowhere' (\(.*\))$/\1/p" err | tr -d ' ' | tr ',' '\n' >areas
	[ "$(wc -l <areas)" -ge 14 ]
	sed -n '/^\.Sh CONFIGURATION/,/^\.Sh /p' "$BATS_TEST_DIRNAME/../doc/ncgrind.1" >man
	while read -r a; do
		grep -qE "Cm (.*, )?$a( |,|$)" man || { echo "the manual lacks the area $a"; return 1; }
	done <areas
}

@test "config: --color wins over the file's set colour: never over on, always over off" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':write-config w' >keys
	printf 'set colour on\n' >on
	printf 'set colour off\n' >off
	"$NCGRIND" --config=on --color=never --script=keys "$CS" 2>err
	refute_grep . err
	assert_grep 'set colour off' w
	"$NCGRIND" --config=off --colour=always --script=keys "$CS" 2>err
	refute_grep . err
	assert_grep 'set colour on' w
	# auto leaves the file's word
	"$NCGRIND" --config=off --color=auto --script=keys "$CS" 2>err
	assert_grep 'set colour off' w
}
