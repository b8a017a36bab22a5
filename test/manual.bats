#!/usr/bin/env bats
# The manual page lists the browser's keys; they must be the keys that the
# binding table really has (ncgrind --list-keys prints it), and say the same.

load test_helper

@test "manual: every key of the binding table is in doc/ncgrind.1, with its help" {
	local man="$BATS_TEST_DIRNAME/../doc/ncgrind.1" keys help n=0
	"$NCGRIND" --list-keys >"$OUT"
	while IFS=$'\t' read -r keys help; do
		n=$((n + 1))
		grep -qF ".It Li \"$keys\"" "$man" || { echo "keys '$keys' missing from the manual"; return 1; }
		grep -qiF "$help." "$man" || { echo "help '$help' missing from the manual"; return 1; }
	done <"$OUT"
	# not vacuous: the table has the keys the issue asks for
	[ "$n" -ge 20 ]
	grep -q $'^q\tquit$' "$OUT"
	grep -q $'^?, F1\t' "$OUT"
}

@test "manual: no key in the manual's Keys list that the binding table lacks" {
	local man="$BATS_TEST_DIRNAME/../doc/ncgrind.1"
	"$NCGRIND" --list-keys | cut -f1 | sort >"$BATS_TEST_TMPDIR/table"
	sed -n '/^\.Ss Keys/,/^\.El/s/^\.It Li "\(.*\)"$/\1/p' "$man" | sort >"$BATS_TEST_TMPDIR/man"
	diff -u "$BATS_TEST_TMPDIR/table" "$BATS_TEST_TMPDIR/man"
}
