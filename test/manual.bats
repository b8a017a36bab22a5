#!/usr/bin/env bats
# The manual page and the README describe the program: its keys (the binding
# table, which ncgrind --list-keys prints), its options (what --help prints and
# what parse_args accepts), its reports and the commands of its prompt. Each
# list is taken from the program, never from a copy written here, so that a key,
# an option or a command added without its documentation fails a test.

load test_helper

MAN="$BATS_TEST_DIRNAME/../doc/ncgrind.1"
SRC="$BATS_TEST_DIRNAME/../src"

# man_plain: the manual without mdoc's zero-width escapes (`\&:` is `:`).
man_plain() {
	sed 's/\\&//g' "$MAN"
}

# man_section TITLE: the lines of one section (.Sh TITLE up to the next .Sh).
man_section() {
	man_plain | sed -n "/^\.Sh $1\$/,/^\.Sh /p"
}

# man_has_option OPT FILE: FILE has an entry (.It line) for OPT, written
# `Fl \-word` for --word and `Fl X` for -X.
man_has_option() {
	local re
	case $1 in
	--*) re="^\.It (.* )?Fl \\\\-${1#--}( |\$)" ;;
	-?) re="^\.It (.* )?Fl ${1#-}( |\$)" ;;
	*) echo "not an option: '$1'"; return 1 ;;
	esac
	grep -qE -- "$re" "$2" || { echo "option $1 has no entry in the manual's OPTIONS ($re)"; return 1; }
}

@test "manual: every key of the binding table is in doc/ncgrind.1, with its help" {
	local keys help n=0
	man_plain >"$BATS_TEST_TMPDIR/man"
	"$NCGRIND" --list-keys >"$OUT"
	while IFS=$'\t' read -r keys help; do
		n=$((n + 1))
		grep -qF ".It Li \"$keys\"" "$BATS_TEST_TMPDIR/man" || { echo "keys '$keys' missing from the manual"; return 1; }
		grep -qiF "$help." "$BATS_TEST_TMPDIR/man" || { echo "help '$help' missing from the manual"; return 1; }
	done <"$OUT"
	# not vacuous: the table has the keys the issue asks for
	[ "$n" -ge 20 ]
	grep -q $'^q\tclose the screen and go back (on the first screen: quit)$' "$OUT"
	grep -q $'^Q\tquit, from any screen$' "$OUT"
	grep -q $'^?, F1\t' "$OUT"
}

@test "manual: no key in the manual's Keys list that the binding table lacks" {
	"$NCGRIND" --list-keys | cut -f1 | sort >"$BATS_TEST_TMPDIR/table"
	man_plain | sed -n '/^\.Ss Keys/,/^\.El/s/^\.It Li "\(.*\)"$/\1/p' | sort >"$BATS_TEST_TMPDIR/man"
	diff -u "$BATS_TEST_TMPDIR/table" "$BATS_TEST_TMPDIR/man"
}

@test "manual: every option that --help prints has an entry in OPTIONS" {
	local opt n=0
	"$NCGRIND" --help >"$OUT"
	man_section OPTIONS >"$BATS_TEST_TMPDIR/options"
	# every --word and -X token of the usage (not the "-" of FILE|-)
	grep -oE -- '(^|[^A-Za-z0-9-])--?[A-Za-z][A-Za-z0-9-]*' "$OUT" | sed 's/^[^-]*//' |
		sort -u >"$BATS_TEST_TMPDIR/help-options"
	while read -r opt; do
		n=$((n + 1))
		man_has_option "$opt" "$BATS_TEST_TMPDIR/options"
	done <"$BATS_TEST_TMPDIR/help-options"
	# not vacuous: the usage was read, long and short options alike
	[ "$n" -ge 15 ]
	grep -qx -- --inverted "$BATS_TEST_TMPDIR/help-options"
	grep -qx -- -I "$BATS_TEST_TMPDIR/help-options"
}

@test "manual: every option that parse_args accepts has an entry in OPTIONS" {
	local opt n=0
	man_section OPTIONS >"$BATS_TEST_TMPDIR/options"
	{
		# the long options: the names of longopts[] in src/main.c
		sed -n '/longopts\[\] = {/,/};/p' "$SRC/main.c" | grep -oE '\{"[a-z][a-z0-9-]*"' |
			tr -d '{"' | sed 's/^/--/'
		# the short ones: the letters of getopt_long's option string
		sed -n 's/.*getopt_long([^"]*"\([^"]*\)".*/\1/p' "$SRC/main.c" | tr -d ':' |
			grep -oE '[A-Za-z]' | sed 's/^/-/'
	} | sort -u >"$BATS_TEST_TMPDIR/parsed"
	while read -r opt; do
		n=$((n + 1))
		man_has_option "$opt" "$BATS_TEST_TMPDIR/options"
	done <"$BATS_TEST_TMPDIR/parsed"
	[ "$n" -ge 20 ]
	grep -qx -- --command "$BATS_TEST_TMPDIR/parsed"
	grep -qx -- -h "$BATS_TEST_TMPDIR/parsed"
}

@test "manual: every report of --dump has an entry under --dump in OPTIONS" {
	local kind n=0
	man_section OPTIONS >"$BATS_TEST_TMPDIR/options"
	"$NCGRIND" --help >"$OUT"
	ncg --dump=no-such-report "$FIX/spec/spec-simple.callgrind"
	expect_status 2
	{
		grep -oE -- '--dump=[a-z|]+' "$OUT" | cut -d= -f2 | tr '|' '\n'
		# the list that the error message gives
		sed -n "s/^ncgrind: unknown report 'no-such-report' (\(.*\))\$/\1/p" "$ERR" | tr -d ' ' |
			tr ',' '\n'
	} | sort -u >"$BATS_TEST_TMPDIR/kinds"
	while read -r kind; do
		n=$((n + 1))
		grep -qE "^\.It Cm $kind( |\$)" "$BATS_TEST_TMPDIR/options" ||
			{ echo "report '$kind' has no entry under --dump in OPTIONS"; return 1; }
	done <"$BATS_TEST_TMPDIR/kinds"
	[ "$n" -ge 7 ]
	grep -qx lines "$BATS_TEST_TMPDIR/kinds"
}

@test "manual: every command of the prompt has an entry under Commands or Script mode" {
	local cmd n=0
	man_plain | sed -n '/^\.Ss Commands$/,/^\.Sh /p' >"$BATS_TEST_TMPDIR/commands"
	# the command table (commands.h): what the prompt runs, Tab completes and :help lists
	"$NCGRIND" --list-commands | cut -f1 | sort -u >"$BATS_TEST_TMPDIR/names"
	while read -r cmd; do
		n=$((n + 1))
		grep -qE "^\.It (.* )?Ic $cmd( |\$)" "$BATS_TEST_TMPDIR/commands" ||
			{ echo "command '$cmd' has no entry under Commands or Script mode"; return 1; }
	done <"$BATS_TEST_TMPDIR/names"
	# not vacuous: both lists were read
	[ "$n" -ge 16 ]
	grep -qx threshold "$BATS_TEST_TMPDIR/names"
	grep -qx save-screen "$BATS_TEST_TMPDIR/names"
}

@test "manual: every setting of the set command is in the manual" {
	local name n=0
	man_plain | sed -n '/^\.Ss Commands$/,/^\.Sh /p' >"$BATS_TEST_TMPDIR/commands"
	grep -oE 'strcmp\(name, "[a-z][a-z-]*"\)' "$SRC/ui/ui_commands.c" | grep -oE '"[^"]*"' | tr -d '"' |
		sort -u >"$BATS_TEST_TMPDIR/names"
	while read -r name; do
		n=$((n + 1))
		grep -qE "Ic set Cm $name( |\$)" "$BATS_TEST_TMPDIR/commands" ||
			{ echo "'set $name' is not in the manual's Commands"; return 1; }
	done <"$BATS_TEST_TMPDIR/names"
	[ "$n" -ge 5 ]
	grep -qx units "$BATS_TEST_TMPDIR/names"
}

@test "manual: the manual no longer says that the browser is missing" {
	refute_grep 'not written yet|until it exists|batch reports only' "$MAN"
}

@test "README: every key of the binding table is in the README's key summary" {
	local keys key
	# the summary: from the browser's section to the paragraph after the keys
	sed -n '/^The browser$/,/^Sources are looked for/p' "$BATS_TEST_DIRNAME/../README" \
		>"$BATS_TEST_TMPDIR/summary"
	[ -s "$BATS_TEST_TMPDIR/summary" ]
	"$NCGRIND" --list-keys | cut -f1 >"$OUT"
	while read -r keys; do
		while read -r key; do
			grep -qFw -- "$key" "$BATS_TEST_TMPDIR/summary" ||
				{ echo "key '$key' ($keys) is not in the README's key summary"; return 1; }
		done <<<"${keys//, /$'\n'}"
	done <"$OUT"
	grep -qx U "$OUT"
}

@test "packages: one list, the Makefile's DEB_PKGS: .ci/run installs make, then make deps; the README adds none" {
	# Before, .ci/run installed its own copy of the list, and the README named a
	# third one, without libiberty-dev.
	local top="$BATS_TEST_DIRNAME/.." pkgs p
	pkgs=" $(make -s -C "$top" -f Makefile -f - print-deps <<<'print-deps: ; @echo $(DEB_PKGS)') "
	[ "${#pkgs}" -gt 20 ] || { echo "no DEB_PKGS in the Makefile: '$pkgs'"; return 1; }
	# .ci/run: apt-get installs make alone; make deps does the rest
	grep -E 'apt-get install' "$top/.ci/run" | grep -vE 'apt-get install -y -qq make >/dev/null$' \
		>"$OUT" || true
	refute_grep . "$OUT"
	grep -q '^make deps' "$top/.ci/run" || { echo '.ci/run does not run make deps'; return 1; }
	# the README's set-up says make deps; every package it names is in the list
	assert_grep 'make deps' "$top/README"
	grep -oE '\b[a-z0-9.+-]+-dev\b' "$top/README" | sort -u >"$BATS_TEST_TMPDIR/named" || true
	while read -r p; do
		case "$pkgs" in *" $p "*) ;; *) echo "README names $p, not in DEB_PKGS"; return 1 ;; esac
	done <"$BATS_TEST_TMPDIR/named"
}

@test "layers: check-layers passes on the tree and fails on a core file that includes a view-model, on curses in the model, on a header outside the layers" {
	run "$BATS_TEST_DIRNAME/tools/check-layers"
	[ "$status" -eq 0 ]
	mkdir "$BATS_TEST_TMPDIR/t"
	cp -r "$BATS_TEST_DIRNAME/../src" "$BATS_TEST_DIRNAME/../include" "$BATS_TEST_TMPDIR/t/"
	printf '#include "ncgrind/model/table.h"\n' >"$BATS_TEST_TMPDIR/t/src/core/bad.c"
	printf '#include <curses.h>\n' >"$BATS_TEST_TMPDIR/t/src/model/bad.c"
	printf '#include "ncgrind/ui/view.h"\n' >"$BATS_TEST_TMPDIR/t/include/ncgrind/report/bad.h"
	printf '#include "ncgrind/table.h"\n' >"$BATS_TEST_TMPDIR/t/src/ui/old.c"
	printf '/* no layer */\n' >"$BATS_TEST_TMPDIR/t/include/ncgrind/loose.h"
	run "$BATS_TEST_DIRNAME/tools/check-layers" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	printf '%s\n' "${lines[@]}" >"$OUT"
	assert_grep "check-layers: src/core/bad.c (core) includes ncgrind/model/table.h (model)" "$OUT"
	assert_grep "check-layers: src/model/bad.c (model) includes curses or libedit" "$OUT"
	assert_grep "check-layers: include/ncgrind/report/bad.h (report) includes ncgrind/ui/view.h (ui)" "$OUT"
	assert_grep "check-layers: src/ui/old.c includes ncgrind/table.h, which is in no layer's folder" "$OUT"
	assert_grep "check-layers: include/ncgrind/loose.h is in no layer's folder" "$OUT"
}
