#!/usr/bin/env bats
# run-suite: first (it takes long: test/tools/run-suite)
# The index built by several threads (issue 14): the file is cut into chunks at
# fn= lines, threads index them, the chunks are merged in file order, and the
# result must be exactly the one pass's (--jobs=1), reports and messages alike.
# NCGRIND_CHUNK_SIZE=1 cuts a fixture at every fn= line, which puts every
# name, id, part and call across a chunk boundary somewhere.

load test_helper

# the reads compared are real ones, never a kept index of the run before (cache.h)
export NCGRIND_CACHE_MIN=off

PROBE="${PROBE:-$BATS_TEST_DIRNAME/tools/probe}"
COMPARE="$BATS_TEST_DIRNAME/tools/jobs-compare"

all_fixtures() {
	find "$FIX" -type f -size +0 | LC_ALL=C sort
}

# multipart FILE: 3 parts (as --combine-dumps writes them) of 700 functions with
# compressed names, each calling the next two, with fi= lines; ids are defined
# once per part, at first use, as Callgrind does; about 6 MB.
multipart() {
	awk 'BEGIN {
		for (part = 1; part <= 3; part++) {
			print "# callgrind format"; print "version: 1"; print "part: " part
			print "positions: line"; print "events: Ir Dr"
			split("", seen)
			print "ob=(1) /bin/app"; print "fl=(1) app.c"
			for (r = 0; r < 6; r++)
				for (f = 1; f <= 700; f++) {
					printf "fn=(%d)%s\n", f, (f in seen) ? "" : " fn" f
					seen[f] = 1
					for (l = 1; l <= 40; l++) printf "%d %d %d\n", l, f + l, l % 3
					print "fi=(2) inl.h"
					print "7 5 1"
					print "fe=(1)"
					for (k = 1; k <= 2; k++) {
						c = (f + k) % 700 + 1
						printf "cfn=(%d)%s\n", c, (c in seen) ? "" : " fn" c
						seen[c] = 1
						printf "calls=%d 3\n", k
						printf "%d %d %d\n", 50 + k, 100 * k + f, k
					}
				}
		}
	}' >"$1"
}

@test "jobs: every fixture, by 3 threads cut at every fn= line and in 4 KB chunks, gives the one pass's reports and messages" {
	local files
	files=$(all_fixtures)
	[ "$(echo "$files" | wc -l)" -gt 100 ]
	# shellcheck disable=SC2086 # one path a word
	run "$COMPARE" "$NCGRIND" $files
	echo "$output" | tail -20
	[ "$status" -eq 0 ]
}

@test "jobs: the chunks of a valid profile are merged, not read again in one pass" {
	local f=$FIX/recursion/mutual.callgrind cuts
	[ -f "$f" ] || f=$FIX/example.callgrind
	# a chunk starts at each fn= line that does not follow calls=, jump= or jcnd=
	# (the file's first line starts the first chunk)
	cuts=$(awk 'NR > 1 && /^fn=/ && prev !~ /^(calls|jump|jcnd)=/ { n++ } { prev = $0 } END { print n + 0 }' "$f")
	[ "$cuts" -gt 2 ]
	NCGRIND_CHUNK_SIZE=1 "$NCGRIND" --jobs=3 --stats --dump=functions "$f" >/dev/null 2>"$OUT"
	# 2 workers, and the merging thread when it found a chunk still to read (on a
	# busy machine the workers may have taken them all)
	grep -Eq "^ncgrind: jobs [23];" "$OUT"
	assert_grep "; $((cuts + 1)) chunks" "$OUT"
	refute_grep "one pass" "$OUT"
}

@test "jobs: --stats says what the index took to finish after its last chunk, and the report" {
	local f=$FIX/recursion/mutual.callgrind
	[ -f "$f" ] || f=$FIX/example.callgrind
	NCGRIND_CHUNK_SIZE=1 "$NCGRIND" --jobs=2 --stats --dump=functions "$f" >/dev/null 2>"$OUT"
	grep -Eq "^ncgrind: finish [0-9]+\.[0-9]{3} s after the index: inclusive costs [0-9]+\.[0-9]{3} s, names ranked in [0-9]+\.[0-9]{3} s beside them$" "$OUT"
	# in order: the index's lines, the finish, the report, the peak
	[ "$(grep -Eo "^ncgrind: (jobs|finish|report|RssAnon peak)" "$OUT" | cut -d' ' -f2 | tr '\n' ' ')" = "jobs finish report RssAnon " ]
	grep -Eq "^ncgrind: report [0-9]+\.[0-9]{3} s$" "$OUT"
}

@test "jobs: the table's first rows while the file is read are the whole sort's first rows" {
	# the browser sorts only the first rows of the partial table (its screen):
	# those must be the whole sort's, ties and all, by every sort and with a
	# filter, the names ranked (a report) or not (while the file is read): 4
	# sorts x 2 events x (all, a third) x (ranked, not); k = 0: the whole sort
	local P="$BATS_TEST_TMPDIR/tied.callgrind" k
	tied_profile "$P"
	for k in 0 1 40 300 512 2000; do
		run "$PROBE" first "$P" "$k"
		echo "k $k: $output"
		[ "$status" -eq 0 ]
		[ "$output" = "ok: 32 orders" ]
	done
}

@test "jobs: a caller in three chunks: its calls found again across them, summed once" {
	# main in three blocks, each its own chunk (cut at every fn= line): work
	# called 1 + 2 + 1 = 4 times at 25 + 50 + 25 = 100, other once at 7; main
	# itself 3, so 110 in all (the merge finds main's calls in its list)
	local P="$BATS_TEST_TMPDIR/rep.callgrind"
	printf '%s\n' "events: Ir" "fl=a.c" "fn=main" "1 1" "cfn=work" "calls=1 10" "2 25" \
		"fn=work" "10 100" "fn=main" "3 1" "cfn=work" "calls=2 10" "4 50" "cfn=other" \
		"calls=1 20" "5 7" "fn=other" "20 7" "fn=main" "6 1" "cfn=work" "calls=1 10" \
		"7 25" >"$P"
	NCGRIND_CHUNK_SIZE=1 "$NCGRIND" --jobs=3 --stats --dump=calls --format=tsv "$P" \
		>"$BATS_TEST_TMPDIR/calls" 2>"$OUT"
	assert_grep "; 6 chunks" "$OUT"
	refute_grep "one pass" "$OUT"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/calls")" -eq 3 ]
	grep -qxF "main	a.c	work	a.c	4	100	100	" "$BATS_TEST_TMPDIR/calls"
	grep -qxF "main	a.c	other	a.c	1	7	7	" "$BATS_TEST_TMPDIR/calls"
	NCGRIND_CHUNK_SIZE=1 "$NCGRIND" --jobs=3 --dump=functions --format=tsv "$P" >"$OUT"
	grep -qxF "main	a.c		0	3	110" "$OUT"
}

@test "jobs: two files whose call rows have no width (no value yet) merge as one pass reads them" {
	# the second file's chunk is merged into the first's: a call with no
	# values adds no cells (under make asan, a copy to no row was caught)
	local F="$FIX/hostile/check-mismatch-cob-before-fn.callgrind" one two
	cp "$F" "$BATS_TEST_TMPDIR/copy.callgrind"
	one=$("$NCGRIND" --jobs=1 --no-siblings --dump=calls "$F" "$BATS_TEST_TMPDIR/copy.callgrind")
	"$NCGRIND" --jobs=2 --no-siblings --dump=calls "$F" "$BATS_TEST_TMPDIR/copy.callgrind" >"$OUT"
	assert_grep "Parts:       2" "$OUT"
	[ "$one" = "$(cat "$OUT")" ]
}

@test "jobs: a chunk with a problem: the file is read again in one pass, with its messages" {
	local f=$FIX/malformed/calls-without-costline.callgrind
	NCGRIND_CHUNK_SIZE=1 "$NCGRIND" --jobs=2 --stats --dump=functions "$f" >/dev/null 2>"$OUT" || true
	assert_grep "(one pass)" "$OUT"
	grep -v '^ncgrind: [0-9]\|^ncgrind: jobs\|^ncgrind: index\|^ncgrind: kept index\|^ncgrind: RssAnon peak\|^ncgrind: finish\|^ncgrind: report\|parts,' "$OUT" >"$BATS_TEST_TMPDIR/many"
	"$NCGRIND" --jobs=1 --dump=functions "$f" >/dev/null 2>"$BATS_TEST_TMPDIR/one" || true
	[ -s "$BATS_TEST_TMPDIR/one" ]
	cmp "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/many"
}

@test "jobs: the lazy re-read of each function agrees with the index built from chunks, on every fixture" {
	local f n=0
	for f in $(find "$FIX" -name '*.callgrind' ! -path '*/malformed*' | LC_ALL=C sort); do
		NCGRIND_CHUNK_SIZE=1 run "$PROBE" check "$f"
		[ "$status" -eq 0 ] || { echo "$f: $output" | head -5; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 40 ]
}

@test "jobs: blocks whose end and line pass 32 bits (kept in their block_ctx) re-read the same" {
	local f n=0
	# a file of more than 4 GiB makes them; here every block of every fixture is made one
	for f in $(find "$FIX" -name '*.callgrind' ! -path '*/malformed*' | LC_ALL=C sort); do
		run "$PROBE" long "$f"
		[ "$status" -eq 0 ] || { echo "$f: $output" | head -5; return 1; }
		NCGRIND_CHUNK_SIZE=1 run "$PROBE" long "$f"
		[ "$status" -eq 0 ] || { echo "$f (chunked): $output" | head -5; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 40 ]
}

@test "jobs: a 6 MB profile of 3 parts with compressed names, chunked by size, as one pass" {
	multipart "$BATS_TEST_TMPDIR/m.callgrind"
	"$NCGRIND" --jobs=2 --stats --dump=functions --format=tsv "$BATS_TEST_TMPDIR/m.callgrind" \
		>"$BATS_TEST_TMPDIR/two" 2>"$OUT"
	assert_grep "3 parts, 2 events, 700 functions, 1400 call edges" "$OUT"
	refute_grep "one pass" "$OUT"
	grep -q " [2-9][0-9]* chunks$" "$OUT"
	"$NCGRIND" --jobs=1 --dump=functions --format=tsv "$BATS_TEST_TMPDIR/m.callgrind" >"$BATS_TEST_TMPDIR/one"
	cmp "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/two"
	# fn1: 3 parts x 6 rounds x (Ir (1+1)+..+(1+40) = 860, and 5 in inl.h) self;
	# called by fn699 (calls=1) and fn698 (calls=2): 3 x 6 x 3 = 54 times
	grep -P '^fn1\tapp.c\t/bin/app\t' "$BATS_TEST_TMPDIR/one" | cut -f4,5 >"$OUT"
	expect_out <<<"54	15570"
	run "$COMPARE" "$NCGRIND" "$BATS_TEST_TMPDIR/m.callgrind"
	[ "$status" -eq 0 ]
}

@test "jobs: parts a chunk holds whole give their ids to the shared table as the one pass does" {
	# 8 parts, each defining its names again (as Callgrind does in a file of
	# combined dumps): parts 2 and 6 define a new id, (3) h; part 4 gives
	# (1) and (2) other names, other and k, and keeps a table of its own,
	# which its call line "cfn=(2)" is read again through (the callers
	# report says where the call is); the other parts agree. Chunks of 150
	# bytes hold parts 1 3 5 7 whole, whose ids go to the shared table as
	# they are merged; chunks of 200 and 400 hold part 4 whole; cut at
	# every fn= line, no part is whole.
	# By hand: f self 10 in parts 1 2 3 5 6 7 8 = 70, with its 3 calls to g
	# (parts 1 3 7, 5 each) 85; g 5 + 5 + 2 + 5 = 17, called 3 times; h
	# 7 + 7 = 14; other 3, with its call to k (4) 7; k 1, called once: 4.
	local P="$BATS_TEST_TMPDIR/parts.callgrind" c
	python3 - "$P" <<'EOF'
import sys
p1 = ["fn=(1) f", "1 10", "cfn=(2) g", "calls=1 1", "1 5", "fn=(2) g", "1 5"]
p2 = ["fn=(1) f", "1 10", "fn=(3) h", "2 7"]
p4 = ["fn=(2) k", "1 1", "fn=(1) other", "1 3", "cfn=(2)", "calls=1 1", "1 4"]
p5 = ["fn=(2) g", "1 2", "fn=(1) f", "1 10"]
p8 = ["fn=(1) f", "1 10"]
out = ["# callgrind format", "version: 1", "events: Ir", ""]
for i, p in enumerate([p1, p2, p1, p4, p5, p2, p1, p8]):
    out += ["part: %d" % (i + 1), "ob=(1) /lib/a.so", "fl=(1) a.c"] + p + [""]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF
	for c in 150 200 400; do
		NCGRIND_CHUNK_SIZE=$c "$NCGRIND" --jobs=3 --stats --dump=functions --format=tsv "$P" \
			>"$BATS_TEST_TMPDIR/t.$c" 2>"$BATS_TEST_TMPDIR/e.$c"
		refute_grep "one pass" "$BATS_TEST_TMPDIR/e.$c"
		grep -q " [2-9][0-9]* chunks$" "$BATS_TEST_TMPDIR/e.$c"
	done
	cp "$BATS_TEST_TMPDIR/t.150" "$OUT"
	expect_out <<'EOF'
function	file	object	calls	self:Ir	incl:Ir
f	a.c	/lib/a.so	0	70	85
g	a.c	/lib/a.so	3	17	17
h	a.c	/lib/a.so	0	14	14
other	a.c	/lib/a.so	0	3	7
k	a.c	/lib/a.so	1	1	4
EOF
	JOBS_COMPARE_CHUNKS="1 150 200 400" run "$COMPARE" "$NCGRIND" "$P"
	[ "$status" -eq 0 ]
}

# manynames FILE: 12,000 functions (enough for profile_finish() to rank their
# names on a thread of its own) in two files, defined in an order that is not
# their names'; the names share long prefixes, some are prefixes of others,
# some have bytes over 0x7f. Each calls the next.
manynames() {
	awk 'BEGIN {
		print "# callgrind format"; print "version: 1"
		print "positions: line"; print "events: Ir"; print "ob=(1) /bin/app"
		n = 6000
		for (i = 0; i < n; i++) {
			k = (i * 7919) % n
			# m1 is a prefix of m10, m100; every third ends in UTF-8
			nm[i] = "ns::Widget<std::pair<long, char>>::m" (k % 3 ? k : k "_\xc3\xa9")
		}
		for (f = 0; f < 2; f++) {
			printf "fl=(%d) src/%s.c\n", f + 1, f ? "a" : "b"
			for (i = 0; i < n; i++) {
				printf "fn=%s\n", nm[i]
				printf "%d %d\n", i + 1, i + f + 1
				printf "cfn=%s\ncalls=1 1\n1 %d\n", nm[(i + 1) % n], i + 2
			}
		}
	}' >"$1"
}

@test "jobs: names ranked on a thread of their own order the reports as their bytes do" {
	local P="$BATS_TEST_TMPDIR/many.callgrind" one two kept
	manynames "$P"
	"$NCGRIND" --stats --jobs=2 --dump=functions --sort=name --format=tsv "$P" \
		>"$BATS_TEST_TMPDIR/two" 2>"$OUT"
	assert_grep "12000 functions" "$OUT"
	# by name, file, object as bytes: what sort(1) does in the C locale
	tail -n +2 "$BATS_TEST_TMPDIR/two" >"$BATS_TEST_TMPDIR/body"
	LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 -k2,2 -k3,3 "$BATS_TEST_TMPDIR/body" \
		>"$BATS_TEST_TMPDIR/sorted"
	cmp "$BATS_TEST_TMPDIR/sorted" "$BATS_TEST_TMPDIR/body"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/body")" -eq 12000 ]
	for r in "functions --sort=name" "functions --sort=incl" "calls --sort=name" "calls"; do
		# one job ranks them inline; a kept index has no ranks and ranks as it sorts
		one=$("$NCGRIND" --jobs=1 --dump=$r --format=tsv "$P" | cksum)
		two=$("$NCGRIND" --jobs=2 --dump=$r --format=tsv "$P" | cksum)
		XDG_CACHE_HOME="$BATS_TEST_TMPDIR/c" NCGRIND_CACHE_MIN=0 \
			"$NCGRIND" --jobs=2 --dump=$r --format=tsv "$P" >/dev/null
		kept=$(XDG_CACHE_HOME="$BATS_TEST_TMPDIR/c" NCGRIND_CACHE_MIN=0 \
			"$NCGRIND" --stats --jobs=2 --dump=$r --format=tsv "$P" 2>"$OUT" | cksum)
		assert_grep "kept index: hit" "$OUT"
		[ "$one" = "$two" ] || { echo "$r: 1 job != 2 jobs"; return 1; }
		[ "$one" = "$kept" ] || { echo "$r: read != kept index"; return 1; }
	done
}

@test "jobs: a file cut while the report's threads write it: every row, a message, no crash" {
	local P="$BATS_TEST_TMPDIR/cut.callgrind" d="$BATS_TEST_TMPDIR"
	manynames "$P"
	# Nothing is read until the file is cut, but one byte: the report has begun
	# (the index is whole). The pipe fills, the report's threads stop two
	# blocks ahead, then go on over names whose pages are gone: they read
	# zeros, as the main thread does (a thread that blocked SIGBUS was killed).
	{
		rc=0
		"$NCGRIND" --jobs=2 --dump=functions --format=tsv "$P" 2>"$d/err" || rc=$?
		echo "$rc" >"$d/rc"
	} | {
		dd bs=1 count=1 of="$d/first" 2>/dev/null
		truncate -s 100 "$P"
		cat >"$d/rest"
	}
	cat "$d/first" "$d/rest" >"$OUT"
	[ "$(cat "$d/rc")" -eq 1 ]
	assert_grep "changed or was truncated while open; the report is incomplete" "$d/err"
	[ "$(wc -l <"$OUT")" -eq 12001 ]
}

@test "jobs: choosing a part reads its blocks again on every core: as on one thread, as the part alone" {
	# --parts re-reads the chosen parts' blocks, the functions shared out over the
	# threads by bytes (before: on one thread, whatever --jobs said). Part 2 of
	# the 6 MB profile alone (its lines, as their own file) is the oracle; fn1
	# there: 6 rounds x 865 = 5,190 Ir self, called 6 x 3 = 18 times.
	local m="$BATS_TEST_TMPDIR/m.callgrind" d="$BATS_TEST_TMPDIR" r j
	multipart "$m"
	awk '/^# callgrind format/ { n++ } n == 2' "$m" >"$d/p2.callgrind"
	for r in functions calls; do
		"$NCGRIND" --dump=$r --format=tsv "$d/p2.callgrind" >"$d/alone.$r"
		for j in 1 2 3; do
			"$NCGRIND" --jobs=$j --parts=2 --dump=$r --format=tsv "$m" >"$d/j$j.$r"
			cmp "$d/alone.$r" "$d/j$j.$r"
		done
	done
	"$NCGRIND" --jobs=3 --parts=2 --stats --dump=tree --threshold=0 --format=tsv "$m" \
		>"$d/j3.tree" 2>"$OUT"
	# part 2 is 1.8 MB: two shares of at least 1 MiB (a third would cost more than it saves)
	assert_grep "the chosen parts counted again by 2 threads" "$OUT"
	"$NCGRIND" --jobs=1 --parts=2 --dump=tree --threshold=0 --format=tsv "$m" >"$d/j1.tree"
	cmp "$d/j1.tree" "$d/j3.tree"
	grep -P '^fn1\tapp.c\t/bin/app\t' "$d/j2.functions" | cut -f4,5 >"$OUT"
	expect_out <<<"18	5190"
}

@test "jobs: --jobs wants a number of threads from 1 to 1024" {
	ncg --jobs=0 --dump=functions "$FIX/example.callgrind"
	expect_status 2
	assert_grep "--jobs wants a number of threads from 1 to 1024, not '0'" "$ERR"
	ncg --jobs=2x --dump=functions "$FIX/example.callgrind"
	expect_status 2
}

@test "jobs: the last chunks of a file cut by size are smaller, so that no thread waits long for another" {
	# 100000 functions of 40 lines, 23,977,847 bytes: at 2 jobs, chunks of a 16th of
	# the file (1,498,615 bytes) after a first one of 2 MiB, 16 chunks if all were
	# alike; with the last ones a quarter of what is left (1 MiB at least), 17 or more
	awk 'BEGIN {
		print "# callgrind format"; print "version: 1"; print "positions: line"
		print "events: Ir"
		for (l = 1; l <= 40; l++) b = b l " " l "\n"
		for (f = 1; f <= 100000; f++) { printf "fn=(%d) f%d\n", f, f; printf "%s", b }
	}' >"$BATS_TEST_TMPDIR/t.callgrind"
	[ "$(wc -c <"$BATS_TEST_TMPDIR/t.callgrind")" -eq 23977847 ]
	"$NCGRIND" --jobs=2 --stats --dump=functions --format=tsv "$BATS_TEST_TMPDIR/t.callgrind" \
		>"$BATS_TEST_TMPDIR/two" 2>"$OUT"
	n=$(sed -n 's/.*; \([0-9]*\) chunks$/\1/p' "$OUT")
	[ "$n" -ge 17 ]
	[ "$n" -le 20 ]
	# each function: Ir 1 + 2 + ... + 40 = 820
	grep -P '^f77777\t' "$BATS_TEST_TMPDIR/two" | cut -f5 >"$OUT"
	expect_out <<<"820"
	"$NCGRIND" --jobs=1 --dump=functions --format=tsv "$BATS_TEST_TMPDIR/t.callgrind" >"$BATS_TEST_TMPDIR/one"
	cmp "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/two"
}
