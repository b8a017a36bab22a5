#!/usr/bin/env bats
# test/tools/train.c: the profiles the profile-guided build is trained on (the
# Makefile's PGO). Each kind must read without a single message (a training on
# the error paths would lay the program out for them), at one job and in chunks
# alike, and come out the same bytes every time (so that a build's counts do).

load test_helper

export NCGRIND_CACHE_MIN=off

# train KIND SIZE: the generator, built once per test (cc, as make builds it)
train() {
	local bin="$BATS_TEST_TMPDIR/train"

	[ -x "$bin" ] || cc -std=c11 -O2 -o "$bin" "$BATS_TEST_DIRNAME/tools/train.c"
	"$bin" "$@"
}

@test "train: each kind reads with no message, the same at one job and in chunks" {
	local kind f

	for kind in sim dumps line; do
		f="$BATS_TEST_TMPDIR/$kind.callgrind"
		train "$kind" 6000000 >"$f"
		ncg --jobs=1 --dump=functions --format=tsv "$f"
		expect_status 0
		expect_no_err
		cp "$OUT" "$BATS_TEST_TMPDIR/one.tsv"
		# 6 MB: over the size a file is cut in chunks at (SMALL_FILE, 4 MiB)
		NCGRIND_CHUNK_SIZE=1000000 ncg --jobs=2 --dump=functions --format=tsv "$f"
		expect_status 0
		expect_no_err
		cmp "$BATS_TEST_TMPDIR/one.tsv" "$OUT"
		ncg --jobs=1 --dump=calls --format=tsv "$f"
		expect_status 0
		expect_no_err
	done
}

@test "train: the same bytes every time, of the size asked and the shape said" {
	local f="$BATS_TEST_TMPDIR/a" g="$BATS_TEST_TMPDIR/b" size

	train sim 3000000 >"$f"
	train sim 3000000 >"$g"
	cmp "$f" "$g"
	# it stops at the first function that ends past the size
	size=$(wc -c <"$f")
	[ "$size" -ge 3000000 ] && [ "$size" -lt 3100000 ]
	grep -qx 'positions: instr line' "$f"
	grep -qx 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim' "$f"
	grep -q '^jcnd=' "$f"
	grep -q '^jump=' "$f"

	train dumps 3000000 >"$f"
	[ "$(grep -c '^part: ' "$f")" = 8 ]
	grep -qx 'events: Ir' "$f"
	grep -q '^fi=' "$f"
	grep -q '^fe=' "$f"
	grep -q "^calls=[0-9]* 0x" "$f"
	# a dump names a function again at its first use there, as Callgrind does
	[ "$(grep -c '^fn=(1) ' "$f")" -gt 1 ]

	train line 3000000 >"$f"
	grep -qx 'positions: line' "$f"
	refute_grep '^0x' "$f"
}

@test "train: a wrong kind or no size is refused with its usage" {
	local rc=0

	train nothing 100 >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
	[ "$rc" = 2 ]
	grep -q '^usage: train sim|dumps|line SIZE$' "$BATS_TEST_TMPDIR/err"
	[ ! -s "$BATS_TEST_TMPDIR/out" ]
}
