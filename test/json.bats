#!/usr/bin/env bats
# Every report with --format=json is JSON a parser reads, or it is refused with
# exit status 2 and a message that says so: never another format in its place.
# The kinds come from the program's own list (the error of --dump=bogus), so a new
# report is checked as soon as it exists.

load test_helper

# The reports --dump takes, one a line.
report_kinds() {
	"$NCGRIND" --dump=bogus "$FIX/example.callgrind" 2>&1 |
		sed -n 's/.*unknown report .bogus. (\(.*\))$/\1/p' | tr -d ' ' | tr ',' '\n'
}

# json_or_refused WHAT ARGS...: ncgrind ARGS --format=json either exits 0 with
# JSON on stdout, or exits 2 with nothing on stdout and a message (a report a
# diff does not make is refused for every format alike).
json_or_refused() {
	local what=$1
	shift
	ncg "$@" --format=json
	case $status in
	0)
		if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT" 2>"$BATS_TEST_TMPDIR/py"; then
			echo "$what: exit 0 but not JSON:"
			head -c 600 "$OUT"
			cat "$BATS_TEST_TMPDIR/py"
			return 1
		fi
		;;
	2)
		if [ -s "$OUT" ] || [ ! -s "$ERR" ]; then
			echo "$what: exit 2 but output or message wrong:"
			head -c 300 "$OUT"
			cat "$ERR"
			return 1
		fi
		;;
	*)
		echo "$what: exit status $status"
		cat "$ERR"
		return 1
		;;
	esac
}

# The options a kind needs to make a report of FILE's main.
kind_args() {
	case $1 in
	callers | callees | source) echo "--function=^main$" ;;
	*) echo "" ;;
	esac
}

@test "json: the list of reports is read from the program (nine or so, folded among them)" {
	run report_kinds
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 8 ]
	printf '%s\n' "${lines[@]}" | grep -qx folded
	printf '%s\n' "${lines[@]}" | grep -qx functions
}

@test "json: every report of one profile is JSON or refused with exit 2" {
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	local n=0
	for f in "$FIX/example.callgrind" "$FIX/oracle/recur-default.callgrind" \
		"$FIX/oracle/tmpl-default.callgrind" "$FIX/recursion/mutual.callgrind"; do
		for k in $(report_kinds); do
			# shellcheck disable=SC2046 # kind_args is a list of words
			json_or_refused "$k of $f" --dump="$k" $(kind_args "$k") -I "$FIX/src" "$f"
			n=$((n + 1))
		done
	done
	[ "$n" -ge 32 ]
}

@test "json: every groups report is JSON" {
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	for g in object file class cycle; do
		json_or_refused "group $g" --group="$g" "$FIX/oracle/recur-default.callgrind"
		expect_status 0
	done
}

@test "json: every report of a diff is JSON or refused with exit 2" {
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	for k in $(report_kinds); do
		# shellcheck disable=SC2046
		json_or_refused "diff $k" --diff --dump="$k" $(kind_args "$k") \
			"$FIX/diff/version1.callgrind" "$FIX/diff/version2.callgrind"
	done
}

@test "json: folded stacks have no JSON: exit 2, nothing on stdout, one line on why" {
	ncg --dump=folded --format=json "$FIX/example.callgrind"
	expect_status 2
	[ ! -s "$OUT" ]
	grep -q 'json' "$ERR"
	ncg --diff --dump=folded --format=json "$FIX/diff/version1.callgrind" "$FIX/diff/version2.callgrind"
	expect_status 2
	[ ! -s "$OUT" ]
}
