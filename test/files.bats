#!/usr/bin/env bats
# Many profiles (issue 15): several files read as one profile, the other files
# of a Valgrind run found beside the one named, gzip/xz/zstd files read by their
# magic bytes. Expected values are worked out by hand in each test.

load test_helper

T() { echo "$BATS_TEST_TMPDIR/$1"; }

# a.callgrind: main (self 10) calls f twice (6); b.callgrind: the same main (self
# Ir 3, Dr 1) calls g once (Ir 7, Dr 2). a has no Dr: its Dr costs are 0.
two_files() {
	printf '%s\n' 'events: Ir' 'fl=a.c' 'fn=main' '1 10' 'cfn=f' 'calls=2 5' '2 6' \
		'fn=f' '5 6' >"$(T a.callgrind)"
	printf '%s\n' 'events: Ir Dr' 'fl=a.c' 'fn=main' '1 3 1' 'cfn=g' 'calls=1 7' '2 7 2' \
		'fn=g' '7 7 2' >"$(T b.callgrind)"
}

@test "files: two profiles read as one: the costs of the same function add up" {
	two_files
	# main: self Ir 10 + 3 = 13, Dr 0 + 1 = 1; inclusive Ir 13 + 6 (f) + 7 (g) = 26,
	# Dr 1 + 2 = 3. f: called twice, 6/0. g: called once, 7/2.
	ncg --dump=functions --format=tsv "$(T a.callgrind)" "$(T b.callgrind)"
	expect_status 0
	expect_no_err
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
main | a.c |  | 0 | 13 | 1 | 26 | 3
g | a.c |  | 1 | 7 | 2 | 7 | 2
f | a.c |  | 2 | 6 | 0 | 6 | 0
EOF
}

@test "files: several files by threads cut at every fn= line give the one pass's result" {
	two_files
	cp "$FIX/example.callgrind" "$(T c.callgrind)"
	local args=("$(T a.callgrind)" "$(T b.callgrind)" "$(T c.callgrind)")
	ncg --jobs=1 --dump=calls --format=tsv "${args[@]}"
	cp "$OUT" "$(T one.out)"
	cp "$ERR" "$(T one.err)"
	NCGRIND_CHUNK_SIZE=1 ncg --jobs=3 --dump=calls --format=tsv "${args[@]}"
	diff -u "$(T one.out)" "$OUT"
	diff -u "$(T one.err)" "$ERR"
	NCGRIND_CHUNK_SIZE=1 ncg --jobs=3 --stats --dump=calls --format=tsv "${args[@]}"
	refute_grep '(one pass)' "$ERR"
}

@test "files: a message names the file and the line it is about" {
	two_files
	printf '%s\n' 'events: Ir' 'fn=h' '1 2 3' '2 4' >"$(T bad.callgrind)"
	cd "$BATS_TEST_TMPDIR"
	ncg --dump=functions --format=tsv a.callgrind bad.callgrind
	expect_status 1
	expect_err <<'EOF'
bad.callgrind:3: more costs than the 1 event; line ignored
EOF
}

@test "files: the same file named twice is read once" {
	two_files
	cd "$BATS_TEST_TMPDIR"
	ncg --dump=functions --format=tsv a.callgrind ./a.callgrind
	expect_status 0
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 10 | 16
f | a.c |  | 2 | 6 | 6
EOF
}

# run_files DIR PID SUFFIX... : callgrind.out.PID<SUFFIX> in DIR, each with one
# function named after its suffix, of self cost 1
run_files() {
	local dir=$1 pid=$2 sfx
	shift 2
	mkdir -p "$dir"
	for sfx in "$@"; do
		printf '%s\n' 'events: Ir' "fn=f$pid$sfx" '1 1' >"$dir/callgrind.out.$pid$sfx"
	done
}

functions_of() {
	cut -f1 "$OUT" | tail -n +2 | LC_ALL=C sort | tr '\n' ' '
}

@test "files: callgrind.out.PID brings the dumps and threads of the same PID, not of PID 12" {
	local d=$BATS_TEST_TMPDIR/run
	run_files "$d" 1 "" .2 .10 -01 .2-02
	run_files "$d" 12 "" -01
	printf 'events: Ir\nfn=other\n1 1\n' >"$d/callgrind.out.1x"
	cd "$d"
	ncg --dump=functions --format=tsv callgrind.out.1
	expect_status 0
	[ "$(functions_of)" = "f1 f1-01 f1.10 f1.2 f1.2-02 " ]
	ncg --dump=functions --format=tsv callgrind.out.1.10
	[ "$(functions_of)" = "f1 f1-01 f1.10 f1.2 f1.2-02 " ]
	ncg --dump=functions --format=tsv callgrind.out.12
	[ "$(functions_of)" = "f12 f12-01 " ]
	ncg --no-siblings --dump=functions --format=tsv callgrind.out.1
	[ "$(functions_of)" = "f1 " ]
	# in another directory, named with it
	cd "$BATS_TEST_TMPDIR"
	ncg --dump=functions --format=tsv run/callgrind.out.1-01
	[ "$(functions_of)" = "f1 f1-01 f1.10 f1.2 f1.2-02 " ]
}

@test "files: the empty file --separate-threads=yes leaves beside the threads is skipped" {
	local d=$BATS_TEST_TMPDIR/run
	run_files "$d" 5 -01 -02
	: >"$d/callgrind.out.5"
	cd "$d"
	ncg --dump=functions --format=tsv callgrind.out.5
	expect_status 0
	expect_no_err
	[ "$(functions_of)" = "f5-01 f5-02 " ]
	ncg --no-siblings --dump=functions --format=tsv callgrind.out.5
	expect_status 1
	assert_grep 'callgrind.out.5: empty file, no profile data' "$ERR"
}

@test "files: a junk file named as a dump of the run is skipped, named, with --no-siblings" {
	# before: callgrind.out.9.4 (no profile) failed the whole run, with no hint
	local d=$BATS_TEST_TMPDIR/run
	run_files "$d" 9 "" .2
	echo 'junk, not a profile' >"$d/callgrind.out.9.4"
	cd "$d"
	ncg --dump=functions --format=tsv callgrind.out.9
	expect_status 0
	[ "$(functions_of)" = "f9 f9.2 " ]
	assert_grep 'callgrind.out.9.4: warning: not a callgrind or cachegrind profile: skipped, the other files read (--no-siblings' "$ERR"
	[ "$(wc -l <"$ERR")" = 1 ]
	# named alone, the file named is refused as before
	ncg --no-siblings --dump=functions callgrind.out.9.4
	expect_status 1
	assert_grep 'callgrind.out.9.4:1: not a callgrind or cachegrind profile' "$ERR"
	# nothing but junk: the first file's reading says why, nothing is skipped
	echo 'junk' >"$d/callgrind.out.9"
	echo 'junk' >"$d/callgrind.out.9.2"
	ncg --dump=functions callgrind.out.9
	expect_status 1
	assert_grep 'callgrind.out.9:1: not a callgrind or cachegrind profile' "$ERR"
	refute_grep 'skipped' "$ERR"
}

@test "files: without a file, the newest run here, all its files" {
	local d=$BATS_TEST_TMPDIR/run
	run_files "$d" 6 ""
	run_files "$d" 7 -01 -02
	touch -d '2020-01-01' "$d/callgrind.out.6"
	touch -d '2021-01-01' "$d/callgrind.out.7-01"
	touch -d '2022-01-01' "$d/callgrind.out.7-02"
	cd "$d"
	ncg --dump=functions --format=tsv
	expect_status 0
	[ "$(functions_of)" = "f7-01 f7-02 " ]
	ncg --no-siblings --dump=functions --format=tsv
	[ "$(functions_of)" = "f7-02 " ]
}

@test "files: gzip, xz and zstd copies read as the plain file, messages and all" {
	local f=$FIX/malformed/too-many-costs.callgrind c
	[ -f "$f" ]
	cd "$BATS_TEST_TMPDIR"
	cp "$f" plain.callgrind
	ncg --dump=calls --format=tsv plain.callgrind
	cp "$OUT" plain.out
	sed 's/^plain\.callgrind:/X:/' "$ERR" >plain.err
	[ -s plain.err ]
	gzip -c plain.callgrind >z.gz
	xz -c plain.callgrind >z.xz
	zstd -q -c plain.callgrind >z.zst
	for c in z.gz z.xz z.zst; do
		ncg --dump=calls --format=tsv "$c"
		expect_status 1
		diff -u plain.out "$OUT"
		sed "s/^$c:/X:/" "$ERR" | diff -u plain.err -
	done
}

@test "files: compression is told by the first bytes, not the name; a pipe too" {
	cd "$BATS_TEST_TMPDIR"
	cp "$FIX/example.callgrind" plain.gz
	gzip -c "$FIX/example.callgrind" >packed.callgrind
	ncg --dump=functions --format=tsv "$FIX/example.callgrind"
	cp "$OUT" want
	ncg --dump=functions --format=tsv plain.gz
	expect_status 0
	diff -u want "$OUT"
	ncg --dump=functions --format=tsv packed.callgrind
	expect_status 0
	diff -u want "$OUT"
	ncg_stdin packed.callgrind --dump=functions --format=tsv -
	expect_status 0
	expect_no_err
	diff -u want "$OUT"
}

@test "files: a gzip file of several members (cat a.gz b.gz) is read whole" {
	cd "$BATS_TEST_TMPDIR"
	local f=$FIX/example.callgrind n
	n=$(($(wc -l <"$f") / 2))
	head -n "$n" "$f" | gzip -c >both.gz
	tail -n +"$((n + 1))" "$f" | gzip -c >>both.gz
	ncg --dump=calls --format=tsv "$f"
	cp "$OUT" want
	ncg --dump=calls --format=tsv both.gz
	expect_status 0
	expect_no_err
	diff -u want "$OUT"
}

@test "files: a cut gzip file: an error naming it, and what came before the cut is shown" {
	cd "$BATS_TEST_TMPDIR"
	# 2,000 functions of 40 lines (about 400 KB), then cut at a third of the gzip
	awk 'BEGIN { print "events: Ir"; for (f = 1; f <= 2000; f++) {
		print "fn=f" f; for (l = 1; l <= 40; l++) print l, f } }' >big.callgrind
	gzip -c big.callgrind >big.gz
	head -c "$(($(stat -c %s big.gz) / 3))" big.gz >cut.gz
	ncg --dump=functions --format=tsv cut.gz
	expect_status 1
	assert_grep 'cut.gz: gzip: the gzip data ends early (a cut file?) at byte' "$ERR"
	# f1 (cost 40) came before the cut; f2000 did not
	assert_grep "$(printf 'f1\t\t\t0\t40\t40')" "$OUT"
	refute_grep '^f2000	' "$OUT"
}

@test "files: a damaged gzip keeps only what its checks vouch for; a zstd cut in its first block says why it gives nothing" {
	cd "$BATS_TEST_TMPDIR"
	# about 400 KB: several deflate blocks; a byte flipped half way decodes into
	# nonsense lines until the member's CRC fails. Before: all of it was parsed.
	awk 'BEGIN { print "events: Ir"; for (f = 1; f <= 2000; f++) {
		print "fn=f" f; for (l = 1; l <= 40; l++) print l, f } }' >big.callgrind
	gzip -c big.callgrind >big.gz
	local n
	n=$(stat -c %s big.gz)
	{ head -c $((n / 2)) big.gz; printf '\377'; tail -c +$((n / 2 + 2)) big.gz; } >flip.gz
	ncg --dump=functions --format=tsv flip.gz
	expect_status 1
	assert_grep 'flip.gz: cannot read: gzip: gzip data that fails its check (CRC) in the member that starts at byte 0 of the compressed file' "$ERR"
	refute_grep 'more costs|unrecognized' "$ERR"
	# a first member that checks, then the damaged one: the first is read
	printf '%s\n' 'events: Ir' 'fn=first' '1 7' | gzip -c >one.gz
	cat one.gz flip.gz >two.gz
	ncg --dump=functions --format=tsv two.gz
	expect_status 1
	assert_grep "two.gz: gzip: gzip data that fails its check (CRC) in the member that starts at byte $(stat -c %s one.gz) of the compressed file; the 24 bytes before it are read" "$ERR"
	[ "$(cut -f1 "$OUT" | tail -n +2)" = first ]
	# a zstd block is decoded whole or not at all: cut inside the first, nothing
	head -c 40000 big.callgrind | zstd -q -c >small.zst
	head -c $(($(stat -c %s small.zst) / 2)) small.zst >half.zst
	ncg --dump=functions half.zst
	expect_status 1
	assert_grep 'half.zst: cannot read: zstd: the zstd data ends early (a cut file?) inside its first block, which zstd reads whole or not at all (up to 128 KB)' "$ERR"
	# cut past its first block: the blocks before the cut are read
	zstd -q -c big.callgrind >big.zst
	head -c $(($(stat -c %s big.zst) / 2)) big.zst >cut.zst
	ncg --dump=functions --format=tsv cut.zst
	expect_status 1
	assert_grep 'cut.zst: zstd: the zstd data ends early (a cut file?) at byte' "$ERR"
	assert_grep "$(printf 'f1\t\t\t0\t40\t40')" "$OUT"
}

@test "files: damaged compressed data that gives nothing is a clear error" {
	cd "$BATS_TEST_TMPDIR"
	printf '\037\213\010\000garbage' >bad.gz
	printf '\375\067\172\130\132\000garbage' >bad.xz
	ncg --dump=functions bad.gz
	expect_status 1
	assert_grep 'bad.gz: cannot read: gzip:' "$ERR"
	ncg --dump=functions bad.xz
	expect_status 1
	assert_grep 'bad.xz: cannot read: xz:' "$ERR"
}

# ---- runs made by valgrind (test/fixtures/src/threads.c: main and two threads)
RUNS=$FIX/runs
# self_sum: the sum of the self cost column of a --dump=functions tsv
self_sum() {
	awk -F'\t' 'NR > 1 { s += $5 } END { print s + 0 }' "$OUT"
}

# sum_by_function FILE: lines "function file object cost" with the costs of the same
# function added up, sorted
sum_by_function() {
	awk -F'\t' '{ s[$1 "\t" $2 "\t" $3] += $4 } END { for (k in s) print k "\t" s[k] }' "$1" |
		LC_ALL=C sort
}

@test "files: a --separate-threads=yes run: the empty base file brings its 3 threads" {
	# each file's summary: line (valgrind's) 281,879 + 300,283 + 600,283 = 1,182,445
	cd "$RUNS/threads-sep"
	ncg --dump=functions --format=tsv callgrind.out.26197
	expect_status 0
	expect_no_err
	[ "$(self_sum)" = 1182445 ]
	ncg --stats --dump=functions --format=tsv callgrind.out.26197-02
	assert_grep '3 parts, 1 events' "$ERR"
}

@test "files: a --dump-every-bb run: the final file brings its dump .1" {
	# summary: 153,748 (final) + 1,028,805 (dump 1) = 1,182,553
	cd "$RUNS/threads-dumps"
	ncg --dump=functions --format=tsv callgrind.out.26570
	expect_status 0
	expect_no_err
	[ "$(self_sum)" = 1182553 ]
}

@test "files: --parts: one part of a combined run reads as that part alone" {
	# --combine-dumps=yes wrote 2 parts: summary 281,807 and 900,571
	local f=$RUNS/threads-combined/callgrind.out.26252
	ncg --parts=1 --dump=functions --format=tsv "$f"
	expect_status 0
	[ "$(self_sum)" = 281807 ]
	ncg --parts=2 --dump=functions --format=tsv "$f"
	[ "$(self_sum)" = 900571 ]
	ncg --parts=1-2 --dump=functions --format=tsv "$f"
	[ "$(self_sum)" = 1182378 ]
	ncg --parts=t1 --dump=functions --format=tsv "$f"
	[ "$(self_sum)" = 281807 ]
}

@test "files: --parts: a part counted alone gives the reports of its file read alone" {
	cd "$RUNS/threads-sep"
	local r t=$BATS_TEST_TMPDIR
	# (a tree's siblings of equal cost come in the order of the function ids,
	# which differ between the files: its lines are compared sorted)
	for r in functions calls "tree --threshold=0"; do
		# shellcheck disable=SC2086
		ncg --parts=2 --dump=$r --format=tsv callgrind.out.26197
		expect_status 0
		LC_ALL=C sort "$OUT" >"$t/part"
		# shellcheck disable=SC2086
		ncg --no-siblings --dump=$r --format=tsv callgrind.out.26197-02
		LC_ALL=C sort "$OUT" | diff -u - "$t/part"
		# the same part named by its file
		# shellcheck disable=SC2086
		ncg --parts=callgrind.out.26197-02: --dump=$r --format=tsv callgrind.out.26197
		LC_ALL=C sort "$OUT" | diff -u - "$t/part"
	done
}

@test "files: --parts: the parts counted one at a time add up to the whole, function by function" {
	cd "$RUNS/threads-sep"
	local k
	: >"$BATS_TEST_TMPDIR/each"
	for k in 1 2 3; do
		ncg --parts=$k --dump=functions --format=tsv callgrind.out.26197
		tail -n +2 "$OUT" | cut -f1-3,5 >>"$BATS_TEST_TMPDIR/each"
	done
	sum_by_function "$BATS_TEST_TMPDIR/each" >"$BATS_TEST_TMPDIR/sum"
	ncg --dump=functions --format=tsv callgrind.out.26197
	tail -n +2 "$OUT" | cut -f1-3,5 | LC_ALL=C sort >"$BATS_TEST_TMPDIR/whole"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/whole")" -gt 50 ]
	diff -u "$BATS_TEST_TMPDIR/whole" "$BATS_TEST_TMPDIR/sum"
}

@test "files: the parts screen lists every part of every file; Space, Enter and a choose which count" {
	local t=$BATS_TEST_TMPDIR
	cd "$t"
	cp "$RUNS"/threads-sep/callgrind.out.* .
	printf '%s\n' 'P' ':save-screen all' 'j' 'Enter' ':save-screen only2' 'q' ':save-screen table2' \
		'P' 'a' 'Space' ':save-screen not1' 'q' 'R' ':save-screen reloaded' >keys
	"$NCGRIND" --script=keys --size=140x20 callgrind.out.26197
	assert_grep '3 parts in 3 files; 3 count (marked *)' all
	# shares of 1,182,445: 281,879 = 23.84%, 600,283 = 50.77%
	assert_grep '1 callgrind.out.26197-01     1    t1          281,879  23.84%  Program termination' all
	assert_grep '3 callgrind.out.26197-03     1    t3          600,283  50.77%' all
	assert_grep '3 parts in 3 files; 1 counts (marked *)' only2
	assert_grep '1 of 3 parts counts: 2' only2
	# the table: thread 2's total (300,283) is 100%
	assert_grep 'Total Ir: 300,283   Parts: 1 of 3' table2
	assert_grep '2 of 3 parts count: 2-3' not1
	# R reads the files again; the same parts count: 300,283 + 600,283 = 900,566
	assert_grep 'Total Ir: 900,566   Parts: 2 of 3' reloaded
}

@test "files: / on the parts screen of 3,000 parts finds the part, with the match count" {
	local t=$BATS_TEST_TMPDIR
	cd "$t"
	{
		printf '# callgrind format\nversion: 1\ncmd: ./app\n'
		for i in $(seq 1 3000); do
			printf 'part: %d\ndesc: Trigger: dump %d\npositions: line\nevents: Ir\n\n' "$i" "$i"
			printf 'fl=(1) a.c\nfn=(1) main\n1 %d\n\n' "$i"
		done
	} >many.callgrind
	# (each row's text had its columns worked out over every row: minutes)
	printf '%s\n' 'P' '/ "dump 2999" Enter' ':save-screen s1' '/ "dump 29" Enter' ':save-screen s2' \
		'n' ':save-screen s3' 'N' 'N' ':save-screen s4' >keys
	"$NCGRIND" --script=keys --size=100x12 many.callgrind
	assert_grep '2999/3000   1 of 1 match' s1
	assert_grep '2999 many.callgrind  2999' s1
	# dump 29, 290-299, 2900-2999: 1 + 10 + 100 matches; 2999 is the last
	assert_grep '2999/3000   111 of 111 matches' s2
	assert_grep '29/3000   1 of 111 matches (search wrapped)' s3
	assert_grep '2998/3000   110 of 111 matches' s4
}

@test "files: Xdebug's Time_(10ns) in short units (U) is a time; other events keep 1.2K" {
	# a: 12,345 x 10 ns = 123.45 us (3 digits: 123us); b: 250,000,000 x 10 ns = 2.5 s;
	# total 2.50012345 s: 2.5s. Memory_(bytes) is no time: 2,000,000 = 2.0M
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'version: 1' 'creator: xdebug 3.2.2 (PHP 8.2.7)' 'cmd: /x/index.php' \
		'events: Time_(10ns) Memory_(bytes)' 'fl=(1) /x/index.php' 'fn=(1) a' '3 12345 1000000' \
		'fn=(2) b' '5 250000000 1000000' >x.cachegrind
	printf '%s\n' 'U' ':save-screen time' 'Tab' ':save-screen mem' >keys
	"$NCGRIND" --script=keys --size=80x8 x.cachegrind
	assert_grep 'Total Time_(10ns): 2.5s   Parts: 1' time
	assert_grep '  2.5s 100.0%    2.5s 100.0%      0  b' time
	assert_grep ' 123us  0.00%   123us  0.00%      0  a' time
	assert_grep 'Total Memory_(bytes): 2.0M' mem
}

@test "files: the files of a run read together add up to each read alone, function by function" {
	cd "$RUNS/threads-sep"
	local f t=$BATS_TEST_TMPDIR
	: >"$t/each"
	for f in callgrind.out.26197-01 callgrind.out.26197-02 callgrind.out.26197-03; do
		ncg --no-siblings --dump=functions --format=tsv "$f"
		expect_status 0
		tail -n +2 "$OUT" | cut -f1-3,5 >>"$t/each"
	done
	sum_by_function "$t/each" >"$t/sum"
	ncg --dump=functions --format=tsv callgrind.out.26197-01 callgrind.out.26197-02 \
		callgrind.out.26197-03
	tail -n +2 "$OUT" | cut -f1-3,5 | LC_ALL=C sort >"$t/together"
	[ "$(wc -l <"$t/together")" -gt 50 ]
	diff -u "$t/together" "$t/sum"
}

@test "files: :add FILE reads the profile again with the file: its costs add up" {
	# a.callgrind alone: main 10 (incl 16), f 6; with b.callgrind added: the total
	# 10 + 6 + 3 + 7 = 26, main 13
	# (incl 26), g 7 (see the first test)
	two_files
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':add b.callgrind' ':save-screen added' ':add nothere.callgrind' \
		':save-screen failed' >keys
	"$NCGRIND" --script=keys --size=80x10 a.callgrind
	assert_grep 'ncgrind: a.callgrind (+1 more file)' added
	assert_grep 'Total Ir: 26   Parts: 2' added
	assert_grep 'added b.callgrind: 2 files, 2 parts, 3 functions (were 2)' added
	# a file that cannot be read: a message, the profile stays as it was
	assert_grep 'nothere.callgrind: cannot read: No such file or directory' failed
	assert_grep 'Total Ir: 26   Parts: 2' failed
}

@test "files: a combined run cut into a file per part (as without --combine-dumps) reads the same" {
	# each part: from its 'part:' line on, with the file's header before it
	local t=$BATS_TEST_TMPDIR f=$RUNS/threads-combined/callgrind.out.26252
	mkdir "$t/cut"
	awk -v d="$t/cut" 'NR == 1 { hdr = 1 } /^part: / { n++; hdr = 0
		out = d "/callgrind.out.77." n; print "# callgrind format" > out }
		hdr { next } { print > out }' "$f"
	[ "$(find "$t/cut" -type f | wc -l)" -eq 2 ]
	ncg --dump=calls --format=tsv "$f"
	cp "$OUT" "$t/combined"
	ncg --dump=calls --format=tsv "$t/cut/callgrind.out.77.1"
	expect_status 0
	diff -u "$t/combined" "$OUT"
}

@test "files: all the parts counting again gives back the whole profile, exactly (cycles on and off)" {
	local t=$BATS_TEST_TMPDIR
	cd "$t"
	cp "$RUNS"/threads-sep/callgrind.out.* .
	printf '%s\n' ':write w0' 'T' 'E' ':write t0' >keys0
	printf '%s\n' ':parts 2' 'T' 'E' 'q' ':parts all' ':write w1' 'T' 'E' ':write t1' 'q' \
		':set cycles off' ':parts 1,3' ':set cycles on' ':parts all' ':write w2' >keys1
	"$NCGRIND" --script=keys0 --size=100x20 callgrind.out.26197
	"$NCGRIND" --script=keys1 --size=100x20 callgrind.out.26197
	[ -s w0 ] && [ -s t0 ]
	cmp w0 w1
	cmp t0 t1
	cmp w0 w2
}
