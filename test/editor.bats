#!/usr/bin/env bats
# e: the user's editor ($VISUAL, else $EDITOR, else vi) at a line of a source
# file, started as /bin/sh -c '$EDITOR "$@"' sh +LINE FILE (issue 29). In script
# mode the editor runs too, with the script's standard input and output; here
# it is a small script that writes each of its arguments on a line of $REC.
#
# example.callgrind names /home/dev/corpus/src/recur.c; from test/fixtures it is
# found as ./src/recur.c (the name's trailing components under the profile's
# directory). main's cost lines there, by hand from the profile (fn=(536) main):
#   91 5, +1 4, +1 1, +1 2, +1 1 (lines 91 to 95), then a call and `* 1` on
#   each of 95 to 99, -5 7 (94 again), +7 6 (101), +1 1 (102), +1 2 (103)
# so main's first line with cost is 91, and the lines with cost from the top
# of the file are 91, 92, 93, 94, 95, ...; the call to phase_parity is on 95.

load test_helper

E="$BATS_TEST_DIRNAME/fixtures/example.callgrind"

# editor: $BATS_TEST_TMPDIR/ed, which records its arguments into $REC
editor() {
	REC="$BATS_TEST_TMPDIR/rec"
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" >>"%s"\n' "$REC" >"$BATS_TEST_TMPDIR/ed"
	chmod +x "$BATS_TEST_TMPDIR/ed"
	rm -f "$REC"
	unset VISUAL
	export EDITOR="$BATS_TEST_TMPDIR/ed"
}

# browse DIR PROFILE [OPTIONS]: the keys of standard input, in DIR; screens saved
# with ":save-screen NAME" go to $BATS_TEST_TMPDIR/NAME.
browse() {
	local dir=$1 prof=$2
	shift 2
	sed "s|^:save-screen |:save-screen $BATS_TEST_TMPDIR/|" >"$BATS_TEST_TMPDIR/keys"
	status=0
	(cd "$dir" && "$NCGRIND" --script="$BATS_TEST_TMPDIR/keys" --size=200x24 "$@" "$prof" >"$OUT" 2>"$ERR") ||
		status=$?
}

# status_line NAME: the last line of the screen saved as NAME
status_line() {
	tail -n 1 "$BATS_TEST_TMPDIR/$1"
}

@test "editor: e on the table opens the function's own file at its first line with cost" {
	editor
	browse "$BATS_TEST_DIRNAME/fixtures" example.callgrind <<'EOF'
:goto ^main$
e
:save-screen after
EOF
	expect_status 0
	expect_no_err
	printf '%s\n' +91 ./src/recur.c | diff -u - "$REC"
	# the browser goes on, no message
	status_line after | grep -q '^[0-9]*/[0-9]*  sort: self Ir   ? help  q quit$'
}

@test "editor: \$EDITOR may carry arguments; \$VISUAL comes first; vi without either" {
	editor
	browse "$BATS_TEST_DIRNAME/fixtures" example.callgrind <<'EOF'
:goto ^main$
e
EOF
	EDITOR="$BATS_TEST_TMPDIR/ed --wait -n" browse "$BATS_TEST_DIRNAME/fixtures" example.callgrind \
		<<'EOF'
:goto ^main$
e
EOF
	VISUAL="$BATS_TEST_TMPDIR/ed --visual" browse "$BATS_TEST_DIRNAME/fixtures" example.callgrind \
		<<'EOF'
:goto ^main$
e
EOF
	# an empty VISUAL is no VISUAL, as git reads it
	VISUAL= browse "$BATS_TEST_DIRNAME/fixtures" example.callgrind <<'EOF'
:goto ^main$
e
EOF
	# neither: vi, from PATH
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cp "$BATS_TEST_TMPDIR/ed" "$BATS_TEST_TMPDIR/bin/vi"
	sed -i 's/printf/echo vi; printf/' "$BATS_TEST_TMPDIR/bin/vi"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" EDITOR= browse "$BATS_TEST_DIRNAME/fixtures" \
		example.callgrind <<'EOF'
:goto ^main$
e
EOF
	expect_status 0
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF'
+91
./src/recur.c
--wait
-n
+91
./src/recur.c
--visual
+91
./src/recur.c
+91
./src/recur.c
+91
./src/recur.c
EOF
	diff -u "$BATS_TEST_TMPDIR/want" "$REC"
	# vi's own line on standard output: the editor has the script's
	grep -qx vi "$OUT"
}

@test "editor: e on the source screen opens the file at the cursor's line, a call's line on a call" {
	editor
	# g: line 1; Tab: 91, the first line with cost; three more: 94; Down: 95; Down:
	# the call to phase_parity made on line 95
	browse "$BATS_TEST_DIRNAME/fixtures" example.callgrind <<'EOF'
:goto ^main$
v g Tab e
Tab Tab Tab e
Down Down
:save-screen call
e
:save-screen after
EOF
	expect_status 0
	expect_no_err
	printf '%s\n' +91 ./src/recur.c +94 ./src/recur.c +95 ./src/recur.c | diff -u - "$REC"
	grep -q '=> phase_parity (once)' "$BATS_TEST_TMPDIR/call"
	# still the source screen, with no message
	status_line after | grep -q '  Tab: next costly  o: only costly  f: next file  Enter: callee$'
}

@test "editor: the file is found as the source screen finds it: -I, --substitute-path" {
	editor
	cp "$E" "$BATS_TEST_TMPDIR/copy.callgrind"
	browse "$BATS_TEST_TMPDIR" copy.callgrind -I "$BATS_TEST_DIRNAME/fixtures/src" <<'EOF'
:goto ^main$
e
EOF
	browse "$BATS_TEST_TMPDIR" copy.callgrind \
		--substitute-path=/home/dev/corpus="$BATS_TEST_DIRNAME/fixtures" <<'EOF'
:goto ^main$
e
EOF
	expect_status 0
	printf '%s\n' +91 "$BATS_TEST_DIRNAME/fixtures/src/recur.c" \
		+91 "$BATS_TEST_DIRNAME/fixtures/src/recur.c" | diff -u - "$REC"
}

@test "editor: a source not found says where it was looked for, and no editor runs" {
	editor
	cp "$E" "$BATS_TEST_TMPDIR/copy.callgrind"
	browse "$BATS_TEST_TMPDIR" copy.callgrind <<'EOF'
:goto ^main$
e
:save-screen table
v e
:save-screen source
EOF
	expect_status 0
	[ ! -e "$REC" ]
	# the name as written, then under the profile's directory (.), longest first
	status_line table >"$OUT"
	assert_grep '/home/dev/corpus/src/recur.c not found (tried /home/dev/corpus/src/recur.c, ./home/dev/corpus/src/recur.c, ' "$OUT"
	status_line source >"$OUT"
	assert_grep '/home/dev/corpus/src/recur.c not found (tried /home/dev/corpus/src/recur.c, ' "$OUT"
}

@test "editor: code without debug information (???) says so, and no editor runs" {
	editor
	# 0x000000000486e368: fl=(52) ???, its cost on line 0
	browse "$BATS_TEST_DIRNAME/fixtures" example.callgrind <<'EOF'
:goto ^0x000000000486e368$
e
:save-screen table
EOF
	expect_status 0
	[ ! -e "$REC" ]
	status_line table >"$OUT"
	assert_grep 'no source file: the code has no debug information (compiled without -g?)' "$OUT"
}

@test "editor: a file name reaches the editor as one argument that no shell reads" {
	editor
	local dir="$BATS_TEST_TMPDIR/a b;\$(touch pwned)'\"\`touch pwned2\`"
	mkdir -p "$dir/src"
	cp "$E" "$dir/p.callgrind"
	cp "$BATS_TEST_DIRNAME/fixtures/src/recur.c" "$dir/src/"
	browse "$BATS_TEST_TMPDIR" "$dir/p.callgrind" <<'EOF'
:goto ^main$
e
EOF
	expect_status 0
	printf '%s\n' +91 "$dir/src/recur.c" | diff -u - "$REC"
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ] && [ ! -e "$BATS_TEST_TMPDIR/pwned2" ]
}

@test "editor: an editor that fails, or is not there, is said on the status line" {
	editor
	EDITOR=false browse "$BATS_TEST_DIRNAME/fixtures" example.callgrind <<'EOF'
:goto ^main$
e
:save-screen failed
EOF
	expect_status 0
	status_line failed | grep -q "the editor 'false' exited with status 1$"
	EDITOR="$BATS_TEST_TMPDIR/no-such-editor" browse "$BATS_TEST_DIRNAME/fixtures" \
		example.callgrind <<'EOF'
:goto ^main$
e
:save-screen missing
EOF
	expect_status 0
	status_line missing >"$OUT"
	assert_grep "the editor '$BATS_TEST_TMPDIR/no-such-editor' was not found (exit status 127)" "$OUT"
	# the shell's own word on standard error
	assert_grep "no-such-editor" "$ERR"
}

@test "editor: e on a diff's source opens the new build's file at the cursor's line" {
	editor
	# diffdirs: cmpu's lines 23, 24, 25 cost 12,003, 52,001, 1 in a and 36,004,
	# 156,001, 1 in b (diff.bats): the cursor starts on the biggest change, 24
	local DD="$BATS_TEST_DIRNAME/fixtures/diffdirs"
	browse "$DD" b.callgrind --diff a.callgrind \
		--substitute-path=/tmp/ncgrind-fixture/b="$BATS_TEST_DIRNAME/fixtures/src" <<'EOF'
:goto ^cmpu$
e
v
:save-screen source
e
EOF
	expect_status 0
	expect_no_err
	grep -q '+104,000      24  ' "$BATS_TEST_TMPDIR/source"
	# e on the diff's functions: cmpu's first line with cost, 23, in the new build
	printf '%s\n' +23 "$BATS_TEST_DIRNAME/fixtures/src/dprog.c" \
		+24 "$BATS_TEST_DIRNAME/fixtures/src/dprog.c" | diff -u - "$REC"
}

@test "editor: the trees keep e (expand the hot path); bind tree C-e edit reaches the editor there" {
	editor
	mkdir -p "$BATS_TEST_TMPDIR/xdg/ncgrind"
	echo 'bind tree C-e edit' >"$BATS_TEST_TMPDIR/xdg/ncgrind/config"
	# main's tree (its hot path open): e on phase_sort opens phase_sort's hot
	# path (more rows), runs no editor; C-e on the root (main) opens main's file
	XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/xdg" browse "$BATS_TEST_DIRNAME/fixtures" \
		example.callgrind <<'EOF'
:goto ^main$
t / "phase_sort" Enter
:save-screen tree
e
:save-screen hot
g C-e
EOF
	expect_status 0
	expect_no_err
	[ "$(grep -c . "$BATS_TEST_TMPDIR/hot")" -gt "$(grep -c . "$BATS_TEST_TMPDIR/tree")" ]
	printf '%s\n' +91 ./src/recur.c | diff -u - "$REC"
	# --list-keys: edit is e in general, on the source screens; the trees' e is theirs
	"$NCGRIND" --list-keys | awk -F'\t' '$3 == "edit" || $2 == "e" { print $1, $2, $3 }' >"$OUT"
	expect_out <<'EOF'
generic e edit
tree e expand-hot
source e edit
diff-tree e expand-hot
diff-source e edit
EOF
}
