#!/usr/bin/env bats
# run-suite: alone (its tests wait on what a tmux pane shows: test/tools/run-suite)
# The kept index (cache.h): after a read of a big profile its index goes to
# $XDG_CACHE_HOME/ncgrind/, and the next open of the same file uses it. Every report
# and screen from it must equal a cold read's; a changed profile, and a cache file that
# is damaged, cut, of another version, another user's or a link, must be read afresh
# with the same results. --stats says "kept index: hit" when the cache was used.
# NCGRIND_CACHE_MIN=0 keeps the index of any profile (the default is 4 MiB and up).

load test_helper

# gen PATH N: a profile of N functions in two parts, two events, compressed ids,
# calls (a chain, and a back call every tenth: cycles), an inlined file (fi=/fe=),
# and a self cost past 2^32 (a cost cell's big list).
gen() {
	awk -v n="$2" 'BEGIN {
		print "# callgrind format"; print "version: 1"; print "creator: gen"
		print "pid: 7"; print "cmd: ./gen a b"; print "positions: line"
		print "events: Ir Dr"
		for (part = 1; part <= 2; part++) {
			print "part: " part
			print "ob=(1) /bin/gen"
			split("", fl) # each part names its ids again
			split("", fn)
			for (i = 1; i <= n; i++) {
				f = i % 7 + 1
				print (fl[f]++ ? "fl=(" f ")" : "fl=(" f ") src" f ".c")
				print (fn[i]++ ? "fn=(" i ")" : "fn=(" i ") func_" i)
				print (i * 10 + part) " " (i == 3 ? "5000000000" : i * 1000 + part) " " i
				if (i % 5 == 0) {
					print (fl[8]++ ? "fi=(8)" : "fi=(8) inline.h")
					print "4 " i " 1"
					print "fe=(" f ")"
				}
				if (i < n) {
					c = i + 1
					print (fn[c]++ ? "cfn=(" c ")" : "cfn=(" c ") func_" c)
					print "calls=" part " " (c * 10)
					print (i * 10 + 2) " 1 0"
				}
				if (i % 10 == 0) {
					print "cfn=(" (i - 3) ")"
					print "calls=1 " ((i - 3) * 10)
					print (i * 10 + 3) " 1 0"
				}
			}
		}
	}' >"$1"
}

# the helper's setup (a HOME and an XDG_CACHE_HOME of the test's own), then a profile
eval "helper_$(declare -f setup)"
setup() {
	helper_setup
	export NCGRIND_CACHE_MIN=0
	P="$BATS_TEST_TMPDIR/big.callgrind"
	gen "$P" 300
}

# kept: the cache files there are, one a line
kept() {
	local f n=0
	for f in "$XDG_CACHE_HOME"/ncgrind/*.ncgidx; do
		[ -e "$f" ] && n=$((n + 1))
	done
	echo "$n"
}

# reports NAME: the reports of $P into $BATS_TEST_TMPDIR/NAME.*, each run's --stats line
# about the cache into NAME.cache
reports() {
	local n=$BATS_TEST_TMPDIR/$1 d
	: >"$n.cache"
	for d in "functions --format=tsv" "calls" "tree" "callers --function=func_7" \
		"callees --function=func_10" "functions --group=file" "functions --parts=2" \
		"lines --format=tsv" "source --function=func_5"; do
		# shellcheck disable=SC2086 # d is several words
		"$NCGRIND" --stats --dump=$d "$P" >"$n.${d%% *}${d##*=}" 2>"$n.err"
		grep 'kept index' "$n.err" >>"$n.cache"
		grep -v '^ncgrind: ' "$n.err" >>"$n.msgs" || true
	done
}

same_reports() {
	local f
	for f in "$BATS_TEST_TMPDIR/$1".*; do
		case $f in *.cache | *.err) continue ;; esac
		_expect_diff "$f" "$BATS_TEST_TMPDIR/$2.${f##*/"$1".}" "${f##*/}"
	done
}

@test "cache: the second open uses the kept index, and every report is the same" {
	reports cold
	[ "$(kept)" = 1 ]
	reports warm
	same_reports cold warm
	assert_grep "kept index: miss" "$BATS_TEST_TMPDIR/cold.cache"
	# every warm run, --parts included, read the index kept by the first; the lines
	# and the source read the blocks of the profile again, through the kept index
	[ "$(grep -c 'kept index: hit' "$BATS_TEST_TMPDIR/warm.cache")" = 9 ]
	# the numbers are the file's: func_3's self Ir is 5000000000 + 5000000000 + 2
	"$NCGRIND" --dump=functions --format=tsv "$P" >"$OUT"
	assert_grep "10000000002" "$OUT"
}

@test "cache: the directory is 0700, the files 0600" {
	ncg --dump=functions "$P"
	expect_status 0
	[ "$(stat -c %a "$XDG_CACHE_HOME/ncgrind")" = 700 ]
	[ "$(stat -c %a "$XDG_CACHE_HOME/ncgrind/"*.ncgidx)" = 600 ]
}

@test "cache: the browser's screens are the same from the kept index" {
	local keys=$BATS_TEST_TMPDIR/keys
	printf '%s\n' ':save-screen t' 'j' 'j' ':save-screen t2' '\r' ':save-screen c' \
		':set cycles off' ':save-screen nc' >"$keys"
	cd "$BATS_TEST_TMPDIR"
	ncg --script=keys --size=100x30 "$P"
	expect_status 0
	for s in t t2 c nc; do mv "$s" "$s.cold"; done
	[ "$(kept)" = 1 ]
	ncg --script=keys --size=100x30 "$P"
	expect_status 0
	for s in t t2 c nc; do _expect_diff "$s.cold" "$s" "screen $s"; done
	ncg --stats --dump=functions "$P"
	assert_grep "kept index: hit" "$ERR"
	# nothing was finished: the kept index has its inclusive costs
	refute_grep "^ncgrind: finish" "$ERR"
	assert_grep "ncgrind: report " "$ERR"
}

@test "cache: the names and their order come from the kept index, not the profile's bytes" {
	gen "$P" 3000
	"$NCGRIND" --dump=functions --format=tsv "$P" >"$BATS_TEST_TMPDIR/cold.tsv"
	"$NCGRIND" --dump=functions --format=tsv --sort=name "$P" >"$BATS_TEST_TMPDIR/cold.name"
	[ "$(kept)" = 1 ]
	# func_1500's name, first written on a cfn= line past the first and before
	# the last 64 KiB (which the key hashes), is changed in place, the time kept
	cp -p "$P" "$BATS_TEST_TMPDIR/ref"
	local off
	off=$(grep -b '^cfn=(1500) func_1500$' "$P" | head -n 1 | cut -d: -f1)
	[ "$off" -gt 65536 ]
	[ "$off" -lt $(($(stat -c %s "$P") - 65536)) ]
	printf g | dd of="$P" bs=1 seek=$((off + 11)) conv=notrunc 2>/dev/null
	touch -r "$BATS_TEST_TMPDIR/ref" "$P"
	assert_grep "gunc_1500" "$P"
	"$NCGRIND" --stats --dump=functions --format=tsv "$P" >"$OUT" 2>"$ERR"
	assert_grep "kept index: hit" "$ERR"
	_expect_diff "$BATS_TEST_TMPDIR/cold.tsv" "$OUT" "functions"
	refute_grep "gunc_1500" "$OUT"
	"$NCGRIND" --dump=functions --format=tsv --sort=name "$P" >"$OUT"
	_expect_diff "$BATS_TEST_TMPDIR/cold.name" "$OUT" "functions by name"
}

@test "cache: a changed profile is read afresh: a new time, a new size" {
	"$NCGRIND" --dump=functions --format=tsv "$P" >"$BATS_TEST_TMPDIR/a"
	# the same size, another time and other bytes: the key differs
	sed -i 's/^cmd: .\/gen a b$/cmd: .\/gen a c/' "$P"
	touch -d '2001-02-03 04:05:06' "$P"
	ncg --stats --dump=functions --format=tsv "$P"
	assert_grep "kept index: miss" "$ERR"
	# a new size: 301 functions, two more rows than before: func_301 in src7.c, where
	# func_300 (300 % 7 + 1 = 7) calls it without a cfi=, and in its own src1.c (301 % 7 + 1)
	gen "$P" 301
	ncg --stats --dump=functions --format=tsv "$P"
	assert_grep "kept index: miss" "$ERR"
	assert_grep "func_301" "$OUT"
	[ "$(wc -l <"$OUT")" = $(($(wc -l <"$BATS_TEST_TMPDIR/a") + 2)) ]
	[ "$(grep -c "^func_301	src[17].c	" "$OUT")" = 2 ]
	ncg --stats --dump=functions --format=tsv "$P"
	assert_grep "kept index: hit" "$ERR"
	assert_grep "func_301" "$OUT"
}

# spoil HOW: the one cache file damaged as HOW says, then the reports must be a cold
# read's, the file not used, and kept afresh for the open after
spoil_and_check() {
	reports cold
	local c
	c=$(ls "$XDG_CACHE_HOME/ncgrind/"*.ncgidx)
	"$@" "$c"
	reports spoiled
	same_reports cold spoiled
	# the first run read afresh (and kept it again: the runs after it hit)
	head -n 1 "$BATS_TEST_TMPDIR/spoiled.cache" >"$OUT"
	refute_grep "hit" "$OUT"
	reports again
	same_reports cold again
	[ "$(grep -c 'kept index: hit' "$BATS_TEST_TMPDIR/again.cache")" = 9 ]
}

flip_middle() {
	local size b
	size=$(stat -c %s "$1")
	b=$(od -An -tu1 -j $((size / 2)) -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059 # an octal escape made here
	printf "\\$(printf %o $((b ^ 255)))" | dd of="$1" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
}

cut_half() {
	truncate -s $(($(stat -c %s "$1") / 2)) "$1"
}

# the version is the 32-bit word after the 8-byte magic
other_version() {
	printf '\143' | dd of="$1" bs=1 seek=8 conv=notrunc 2>/dev/null
}

as_link() {
	mv "$1" "$1.real"
	ln -s "$1.real" "$1"
}

@test "cache: a damaged cache file (a byte flipped in the middle) is not used" {
	spoil_and_check flip_middle
}

@test "cache: a truncated cache file is not used" {
	spoil_and_check cut_half
}

@test "cache: a cache file of another version is not used" {
	spoil_and_check other_version
}

@test "cache: a cache file that is a symbolic link is not used" {
	spoil_and_check as_link
}

@test "cache: a cache file of another user is not used" {
	if [ "$(id -u)" != 0 ]; then
		skip "needs root to give the file away (run as root in the shared CI)"
	fi
	spoil_and_check chown nobody
}

@test "cache: --no-cache neither keeps nor reads the index" {
	ncg --no-cache --stats --dump=functions "$P"
	expect_status 0
	assert_grep "kept index: not used" "$ERR"
	[ "$(kept)" = 0 ]
	"$NCGRIND" --dump=functions "$P" >/dev/null
	[ "$(kept)" = 1 ]
	ncg --no-cache --stats --dump=functions "$P"
	assert_grep "kept index: not used" "$ERR"
}

@test "cache: a profile under NCGRIND_CACHE_MIN is not kept; nothing under the default" {
	NCGRIND_CACHE_MIN=10M ncg --dump=functions "$P"
	expect_status 0
	[ "$(kept)" = 0 ]
	unset NCGRIND_CACHE_MIN # the default threshold: 4 MiB, and the profile is less
	ncg --dump=functions "$P"
	[ "$(kept)" = 0 ]
	[ ! -e "$HOME/.cache/ncgrind" ]
}

@test "cache: without XDG_CACHE_HOME the index goes to ~/.cache/ncgrind" {
	unset XDG_CACHE_HOME
	ncg --dump=functions "$P"
	expect_status 0
	ls "$HOME/.cache/ncgrind/"*.ncgidx
}

@test "cache: a pipe and a compressed profile are not kept" {
	ncg_stdin "$P" --dump=functions -
	expect_status 0
	gzip -c "$P" >"$P.gz"
	ncg --dump=functions "$P.gz"
	expect_status 0
	[ "$(kept)" = 0 ]
}

@test "cache: a full cache drops its oldest file; set cache and cache-size" {
	local q=$BATS_TEST_TMPDIR/other.callgrind size first
	gen "$q" 280
	"$NCGRIND" --dump=functions "$P" >/dev/null
	first=$(ls "$XDG_CACHE_HOME/ncgrind/")
	size=$(stat -c %s "$XDG_CACHE_HOME/ncgrind/$first")
	touch -d '2001-01-01' "$XDG_CACHE_HOME/ncgrind/$first"
	# room for one of them, not two: the browser's configuration sets it
	echo "set cache-size $((size * 3 / 2))" >"$BATS_TEST_TMPDIR/config"
	echo ':write-config written' >"$BATS_TEST_TMPDIR/keys"
	cd "$BATS_TEST_TMPDIR"
	ncg --config=config --script=keys "$q"
	expect_status 0
	[ "$(kept)" = 1 ]
	[ ! -e "$XDG_CACHE_HOME/ncgrind/$first" ]
	assert_grep "set cache on" written
	assert_grep "set cache-size $((size * 3 / 2))" written
	# set cache off: nothing kept
	rm -r "$XDG_CACHE_HOME"
	echo "set cache off" >config
	ncg --config=config --script=keys "$q"
	expect_status 0
	[ "$(kept)" = 0 ]
}

SOCK="ncgrind-cache-$$-${BATS_TEST_NUMBER:-0}"

teardown() {
	tmux -L "$SOCK" kill-server 2>/dev/null || true
}

# pane_has TEXT: wait up to 6 s for TEXT on the browser's pane
pane_has() {
	for _ in $(seq 120); do
		tmux -L "$SOCK" capture-pane -p >"$BATS_TEST_TMPDIR/pane"
		grep -qF -- "$1" "$BATS_TEST_TMPDIR/pane" && return 0
		sleep 0.05
	done
	echo "not on the pane: $1"
	cat "$BATS_TEST_TMPDIR/pane"
	return 1
}

@test "cache: R after the profile changed reads it afresh, not the kept index" {
	if ! command -v tmux >/dev/null; then
		skip "tmux is not installed (the shared CI machine has it)"
	fi
	"$NCGRIND" --dump=functions "$P" >/dev/null
	[ "$(kept)" = 1 ]
	unset TMUX LINES COLUMNS
	tmux -L "$SOCK" -f /dev/null new-session -d -x 100 -y 30 -c "$BATS_TEST_TMPDIR" \
		env TERM=xterm "$NCGRIND" big.callgrind
	# 300 functions in their own files, and 329 made as callees in their caller's
	# file (no cfi=): 299 of the chain and 30 back calls; 301 + 300 + 30 after
	pane_has "1/629  sort: self Ir"
	# written again by a new run, of 301 functions
	gen "$P" 301
	tmux -L "$SOCK" send-keys R
	pane_has "reloaded big.callgrind: 631 functions"
	tmux -L "$SOCK" send-keys q
	# the reload kept the new index: the next open uses it
	ncg --stats --dump=functions "$P"
	assert_grep "kept index: hit" "$ERR"
	[ "$(kept)" = 2 ]
}

@test "cache: --event formulas are in the key: each set of them has its own index" {
	# Both = Ir + Dr; func_1's self: (1001 + 1) + (1002 + 1) = 2005
	ncg --stats --event=Both=Ir+Dr --events=Both --dump=functions --format=tsv "$P"
	assert_grep "kept index: miss" "$ERR"
	grep -P '^func_1\tsrc2.c\t' "$OUT" | cut -f5 >"$BATS_TEST_TMPDIR/both"
	[ "$(cat "$BATS_TEST_TMPDIR/both")" = 2005 ]
	ncg --stats --dump=functions --format=tsv "$P"
	assert_grep "kept index: miss" "$ERR"
	refute_grep "Both" "$OUT"
	ncg --stats --event=Both=Ir+Dr --events=Both --dump=functions --format=tsv "$P"
	assert_grep "kept index: hit" "$ERR"
	grep -P '^func_1\tsrc2.c\t' "$OUT" | cut -f5 >"$BATS_TEST_TMPDIR/both"
	[ "$(cat "$BATS_TEST_TMPDIR/both")" = 2005 ]
	[ "$(kept)" = 2 ]
}

@test "cache: set cache off and set cache-size in the configuration hold for the reports too" {
	"$NCGRIND" --dump=functions "$P" >/dev/null
	[ "$(kept)" = 1 ]
	mkdir -p "$HOME/.config/ncgrind"
	echo "set cache off" >"$HOME/.config/ncgrind/config"
	ncg --stats --dump=functions "$P"
	expect_status 0
	assert_grep "kept index: not used" "$ERR"
	rm -r "$XDG_CACHE_HOME"
	ncg --dump=functions "$P"
	[ "$(kept)" = 0 ]
	# a cache-size under the index's size: nothing kept, by a report either
	printf '%s\n' "set cache on" "set cache-size 1K" >"$HOME/.config/ncgrind/config"
	ncg --dump=functions "$P"
	[ "$(kept)" = 0 ]
	# --config names another file: its settings, not the default one's
	echo "set cache on" >"$BATS_TEST_TMPDIR/mine"
	ncg --config="$BATS_TEST_TMPDIR/mine" --dump=functions "$P"
	[ "$(kept)" = 1 ]
}
