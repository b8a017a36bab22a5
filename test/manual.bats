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

# man_keys: the manual's key lists as "SCOPE<TAB>KEYS<TAB>HELP" lines, the scope
# from each list's heading (".Ss Keys of ... (SCOPE)"), the help its first sentence.
man_keys() {
	man_plain | awk '
		/^\.Ss Keys of .*\(.*\)$/ { s = $0; sub(/.*\(/, "", s); sub(/\)$/, "", s); next }
		/^\.Ss / { s = "" }
		s != "" && /^\.It Li "/ { k = $0; sub(/^\.It Li "/, "", k); sub(/"$/, "", k); getline h
			sub(/\.$/, "", h); print s "\t" k "\t" tolower(substr(h, 1, 1)) substr(h, 2) }'
}

@test "manual: every key of every screen's keymap is in doc/ncgrind.1, with its scope and help" {
	"$NCGRIND" --list-keys | cut -f1,2,4 | sed 's/\.$//' | sort >"$BATS_TEST_TMPDIR/table"
	man_keys | sort >"$BATS_TEST_TMPDIR/man"
	diff -u "$BATS_TEST_TMPDIR/table" "$BATS_TEST_TMPDIR/man"
	# not vacuous: the table has the keys the issue asks for, each in its scope
	[ "$(wc -l <"$BATS_TEST_TMPDIR/table")" -ge 60 ]
	grep -q $'^generic\tq\tclose the screen and go back (on the first screen: quit)$' "$BATS_TEST_TMPDIR/table"
	grep -q $'^generic\tQ\tquit, from any screen$' "$BATS_TEST_TMPDIR/table"
	grep -q $'^generic\t?, F1\t' "$BATS_TEST_TMPDIR/table"
	grep -q $'^flame\tEnter\tzoom in' "$BATS_TEST_TMPDIR/table"
}

@test "keys: --list-keys names each key once per scope, and every scope has a heading in help" {
	"$NCGRIND" --list-keys >"$OUT"
	# a key twice in one scope would be two meanings with no way to tell them apart
	awk -F'\t' '{ n = split($2, k, /, /); for (i = 1; i <= n; i++) print $1 " " k[i] }' "$OUT" |
		sort | uniq -d >"$BATS_TEST_TMPDIR/twice"
	diff -u /dev/null "$BATS_TEST_TMPDIR/twice"
	# four fields: scope, keys, request, help
	awk -F'\t' 'NF != 4 { print; bad = 1 } END { exit bad }' "$OUT"
	# Tab is the next event in general, the next line with cost in the source
	grep -q $'^generic\tTab\tevent-next\t' "$OUT"
	grep -q $'^source\tTab\tnext-costly\t' "$OUT"
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
		# the short ones: the letters of getopt_long's option string (shortopts[])
		sed -n 's/.*shortopts\[\] = "\([^"]*\)".*/\1/p' "$SRC/main.c" | tr -d ':' |
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
	"$NCGRIND" --list-settings | cut -f1 >"$BATS_TEST_TMPDIR/names"
	while read -r name; do
		n=$((n + 1))
		grep -qE "Ic set Cm $name( |\$)" "$BATS_TEST_TMPDIR/commands" ||
			{ echo "'set $name' is not in the manual's Commands"; return 1; }
	done <"$BATS_TEST_TMPDIR/names"
	[ "$n" -ge 5 ]
	grep -qx units "$BATS_TEST_TMPDIR/names"
	grep -qx threshold "$BATS_TEST_TMPDIR/names"
}

@test "settings: :set, its usage, its completion and the batch read one list" {
	# every setting of --list-settings is taken by :set (no "usage" message);
	# an unknown one lists them all; the batch takes only the batch ones
	"$NCGRIND" --list-settings >"$BATS_TEST_TMPDIR/list"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/list")" -ge 9 ]
	grep -q $'^cycles\ton|off\t.*\tbatch$' "$BATS_TEST_TMPDIR/list"
	printf '%s\n' ':set bogus 1' ':save-screen bogus' >"$BATS_TEST_TMPDIR/keys"
	cd "$BATS_TEST_TMPDIR"
	"$NCGRIND" --script=keys --size=400x24 "$FIX/spec/spec-extended.callgrind"
	while IFS=$'\t' read -r name values help batch; do
		grep -qF "set $name $values" bogus || { echo "usage lacks set $name"; return 1; }
	done <list
	ncg --dump=functions --command='set units short' "$FIX/spec/spec-extended.callgrind"
	expect_status 2
	assert_grep "the reports take set cycles on|off" "$ERR"
	ncg --dump=functions --command='set cycles off' "$FIX/spec/spec-extended.callgrind"
	expect_status 0
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
	"$NCGRIND" --list-keys | cut -f2 | sort -u >"$OUT"
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
