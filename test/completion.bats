#!/usr/bin/env bats
# run-suite: alone (its tests wait on what a tmux pane shows: test/tools/run-suite)
# The shell completions (contrib/completion) and what they ask the program:
# `ncgrind --list-options` prints getopt_long's table with the words each
# value may be, and the completions ask it at each Tab, so that they know what
# the program they complete knows. Here: the listing against the option table
# of src/main.c and against the lists the program's own messages give; the
# bash completion sourced into a plain bash (no bash-completion package: it
# must not need one), then in an interactive bash in tmux, as a user types;
# the zsh completion (zsh is not in DEB_PKGS: its file is read, not run).

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."
BASH_COMPLETION="$ROOT/contrib/completion/ncgrind.bash"
ZSH_COMPLETION="$ROOT/contrib/completion/_ncgrind"
SOCK="ncgrind-completion-$$-${BATS_TEST_NUMBER:-0}"

teardown() {
	tmux_kill_server "$SOCK"
}

# complete WORD...: the replies of the bash completion, one a line, for the
# words of a command line as bash splits them (COMP_WORDBREAKS has '=', so
# --dump=ca is "--dump" "=" "ca"), the last one being completed; in a bash
# without rc files, in the current directory.
complete() {
	bash --norc --noprofile -c '
		source "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_ncgrind "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		[ "${#COMPREPLY[@]}" = 0 ] || printf "%s\n" "${COMPREPLY[@]}"' _ "$BASH_COMPLETION" "$NCGRIND" "$@" >"$OUT"
}

# the long options of longopts[] in src/main.c ("--name=" when they take a
# value) and the letters of getopt_long's option string, in order
options_of_source() {
	sed -n '/longopts\[\] = {/,/};/p' "$ROOT/src/main.c" |
		sed -n 's/.*{"\([a-z][a-z0-9-]*\)", *\([a-z_]*\),.*/\1 \2/p' |
		while read -r name arg; do
			[ "$arg" = no_argument ] && echo "--$name" || echo "--$name="
		done
	sed -n 's/.*shortopts\[\] = "\([^"]*\)".*/\1/p' "$ROOT/src/main.c" | tr -d ':' |
		grep -oE '[A-Za-z]' | sed 's/^/-/'
}

@test "list-options: every option of getopt_long's table and option string, once" {
	ncg --list-options
	expect_status 0
	expect_no_err
	cut -f1 "$OUT" >"$BATS_TEST_TMPDIR/listed"
	options_of_source >"$BATS_TEST_TMPDIR/source"
	diff -u "$BATS_TEST_TMPDIR/source" "$BATS_TEST_TMPDIR/listed"
	# not vacuous: the table was read, with and without values, long and short
	[ "$(wc -l <"$BATS_TEST_TMPDIR/listed")" -ge 35 ]
	grep -qx -- --dump= "$BATS_TEST_TMPDIR/listed"
	grep -qx -- --inverted "$BATS_TEST_TMPDIR/listed"
	grep -qx -- --list-options "$BATS_TEST_TMPDIR/listed"
	grep -qx -- -I "$BATS_TEST_TMPDIR/listed"
	# one or two fields, never an empty list of words
	awk -F'\t' 'NF > 2 || (NF == 2 && $2 == "") { print; bad = 1 } END { exit bad }' "$OUT"
}

@test "list-options: the words of the values are the reports, formats, sort keys and groups" {
	ncg --list-options
	expect_status 0
	grep $'\t' "$OUT" >"$BATS_TEST_TMPDIR/values"
	diff -u - "$BATS_TEST_TMPDIR/values" <<'EOF'
--dump=	functions calls tree callers callees folded source lines
--format=	text tsv json
--sort=	self incl calls name
--script=	<file>
--include=	<dir>
--config=	<file>
--color=	auto always never
--colour=	auto always never
--group=	none object file class cycle
-I	<dir>
EOF
}

# words OPTION: the words --list-options gives for OPTION's value, one a line, sorted
words() {
	"$NCGRIND" --list-options | sed -n "s/^$1=\t//p" | tr ' ' '\n' | sort
}

# message_words ARG...: the list in parentheses of the usage error of ARG, sorted
message_words() {
	ncg "$@" "$FIX/spec/spec-simple.callgrind"
	expect_status 2
	sed -n "1s/.*(\(.*\))\$/\1/p" "$ERR" | sed 's/, /\n/g' | sort
}

@test "list-options: the same words as the program's messages, and each is accepted" {
	local opt w
	diff -u <(message_words --dump=x) <(words --dump)
	diff -u <(message_words --format=x) <(words --format)
	diff -u <(message_words --sort=x) <(words --sort)
	diff -u <(message_words --group=x) <(words --group)
	for opt in dump format sort group; do
		[ "$(words --$opt | wc -l)" -ge 3 ]
		for w in $(words --$opt); do
			# the parser takes it (a bad one is exit 2 before --help is seen)
			ncg --$opt="$w" --help
			expect_status 0
		done
	done
}

@test "bash completion: --du completes to --dump=, without bash-completion" {
	complete --du
	printf '%s\n' --dump= | diff -u - "$OUT"
	complete --list-
	printf '%s\n' --list-keys --list-commands --list-settings --list-options | diff -u - "$OUT"
	complete --inv
	printf '%s\n' --inverted | diff -u - "$OUT"
	# bash-completion's helpers are not used, so nothing here needs them
	refute_grep _init_completion "$BASH_COMPLETION"
	refute_grep _filedir "$BASH_COMPLETION"
}

@test "bash completion: the words of --dump=, --sort=, --format=, --group= and -I" {
	complete --dump =
	printf '%s\n' functions calls tree callers callees folded source lines | diff -u - "$OUT"
	complete --dump = ca
	printf '%s\n' calls callers callees | diff -u - "$OUT"
	complete --sort =
	printf '%s\n' self incl calls name | diff -u - "$OUT"
	complete --format = t
	printf '%s\n' text tsv | diff -u - "$OUT"
	complete --group = c
	printf '%s\n' class cycle | diff -u - "$OUT"
	# the value as the next word, as getopt_long takes it too
	complete --sort i
	printf '%s\n' incl | diff -u - "$OUT"
	# a bash whose COMP_WORDBREAKS has no '=': one word, the replies keep the option
	complete --sort=n
	printf '%s\n' --sort=name | diff -u - "$OUT"
	# an option whose value is the user's own: nothing to offer
	complete --jobs =
	diff -u /dev/null "$OUT"
	mkdir -p "$BATS_TEST_TMPDIR/w/srcdir" && touch "$BATS_TEST_TMPDIR/w/srcfile"
	cd "$BATS_TEST_TMPDIR/w"
	complete -I src
	printf '%s\n' srcdir | diff -u - "$OUT"
	complete --include = s
	printf '%s\n' srcdir | diff -u - "$OUT"
}

@test "bash completion: callgrind.out.* and cachegrind.out.* come before the other files" {
	mkdir -p "$BATS_TEST_TMPDIR/w/sub" "$BATS_TEST_TMPDIR/w/run"
	cd "$BATS_TEST_TMPDIR/w"
	touch a.txt zz callgrind.out.12 cachegrind.out.3 'my file' run/callgrind.out.7 run/notes
	complete ''
	printf '%s\n' cachegrind.out.3 callgrind.out.12 a.txt 'my file' run sub zz | diff -u - "$OUT"
	complete --dump = functions run/
	printf '%s\n' run/callgrind.out.7 run/notes | diff -u - "$OUT"
	# a name typed with a backslash or a quote, as the shell will read it
	complete 'my\ f'
	printf '%s\n' 'my file' | diff -u - "$OUT"
	complete "'my"
	printf '%s\n' 'my file' | diff -u - "$OUT"
	# after --, files only, even those that look like options
	complete -- --
	diff -u /dev/null "$OUT"
}

@test "bash completion: a program that cannot be run leaves the files" {
	mkdir -p "$BATS_TEST_TMPDIR/w" && cd "$BATS_TEST_TMPDIR/w" && touch callgrind.out.1
	NCGRIND="$BATS_TEST_TMPDIR/no-such-ncgrind" complete --du
	diff -u /dev/null "$OUT"
	NCGRIND="$BATS_TEST_TMPDIR/no-such-ncgrind" complete c
	printf '%s\n' callgrind.out.1 | diff -u - "$OUT"
}

# pane: the lines of the tmux pane that are not empty
pane() {
	tmux -L "$SOCK" capture-pane -p | grep -v '^$'
}

# pane_shows TEXT [LINE]: the pane's last line is TEXT (and, given LINE, a
# line above is LINE)
pane_shows() {
	[ "$(pane | tail -n 1)" = "$1" ] && { [ -z "${2-}" ] || pane | grep -qxF -- "$2"; }
}

# wait_pane TEXT [LINE]: wait (3 s at most) until pane_shows TEXT [LINE]
wait_pane() {
	local i
	for i in $(seq 60); do
		pane_shows "$@" && return
		sleep 0.05
	done
	echo "expected the last line '$1'${2:+ under '$2'}; the pane:"
	pane
	return 1
}

@test "bash completion in an interactive bash: Tab on --du, on --dump=ca, on a file" {
	mkdir -p "$BATS_TEST_TMPDIR/w" && cd "$BATS_TEST_TMPDIR/w"
	touch notes callgrind.out.42
	ln -s "$NCGRIND" ncgrind
	unset TMUX
	tmux -L "$SOCK" -f /dev/null new-session -d -x 80 -y 10 -c "$PWD" \
		env -i HOME="$HOME" TERM=screen PATH="$PWD:/usr/bin:/bin" PS1='$ ' \
		bash --norc --noprofile -i
	tmux -L "$SOCK" set -g status off
	wait_pane '$'
	tmux -L "$SOCK" send-keys "source '$BASH_COMPLETION'" Enter
	wait_pane '$'
	# no blank after "--dump=": the value follows
	tmux -L "$SOCK" send-keys 'ncgrind --du' Tab
	wait_pane '$ ncgrind --dump='
	tmux -L "$SOCK" send-keys 'ca' Tab
	wait_pane '$ ncgrind --dump=call'
	# (after a Tab that inserted something, readline lists on the second Tab)
	tmux -L "$SOCK" send-keys Tab Tab
	wait_pane '$ ncgrind --dump=call' 'callees  callers  calls'
	tmux -L "$SOCK" send-keys 's c' Tab
	wait_pane '$ ncgrind --dump=calls callgrind.out.42'
}

@test "zsh completion: a compdef of ncgrind that asks the program, with no list of its own" {
	head -n 1 "$ZSH_COMPLETION" | grep -qx '#compdef ncgrind'
	grep -q -- '--list-options' "$ZSH_COMPLETION"
	# none of the options (but the one it asks) or of their words is written
	# in its code: a copy would fall behind the program
	"$NCGRIND" --list-options | tr '\t ' '\n\n' | sed 's/=$//; s/^-*//' |
		grep -vxE '<dir>|<file>|list-options|.?' | sort -u >"$BATS_TEST_TMPDIR/words"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/words")" -ge 50 ]
	sed 's/#.*//; s/<dir>//g; s/<file>//g' "$ZSH_COMPLETION" |
		grep -owFf "$BATS_TEST_TMPDIR/words" >"$BATS_TEST_TMPDIR/found" || true
	diff -u /dev/null "$BATS_TEST_TMPDIR/found"
	# the profiles first, then the other files (_files -g falls back to all)
	grep -qF '_files -g "(callgrind|cachegrind).out.*' "$ZSH_COMPLETION"
	# zsh is not in DEB_PKGS; where a machine has it, the file must parse
	if command -v zsh >/dev/null; then
		zsh -n "$ZSH_COMPLETION"
	fi
}
