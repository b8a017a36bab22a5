#!/usr/bin/env bats
# The cost lines that the parser reads by words (8 bytes at a time) and those it
# leaves to its byte readers: the numbers, the separators and the file ends where
# one gives way to the other. Every sum is worked out by hand next to its file.

load test_helper

# header POSITIONS EVENTS: the start of a callgrind file, then fn=f in a.c
header() {
	printf '# callgrind format\nversion: 1\npositions: %s\nevents: %s\n\nfl=(1) a.c\nfn=(1) f\n' "$1" "$2"
}

@test "parse-words: values of 7, 8, 9, 16, 19 and 20 digits, leading zeros, a tab" {
	f="$BATS_TEST_TMPDIR/digits.callgrind"
	{
		header line 'A B'
		printf '1 1234567 12345678\n'
		printf '2 123456789 1234567890123456\n'
		printf '3 1234567890123456789 0\n'
		printf '4 12345678901234567890 1\n'
		printf '5 00000000000000000001 2\n'
		printf '6 1\t2\n'
	} >"$f"
	# A: 1234567 + 123456789 + 1234567890123456789 + 12345678901234567890 + 1 + 1
	#    = 13580246791358024679 + 123456789 + 1234567 + 2 = 13580246791482716037
	# B: 12345678 + 1234567890123456 + 0 + 1 + 2 + 2 = 1234567902469139
	for jobs in 1 2; do
		tsv_ok --no-cache --jobs=$jobs "$f"
		expect_tsv <<'EOF'
function | file | object | calls | self:A | self:B | incl:A | incl:B
f | a.c |  | 0 | 13580246791482716037 | 1234567902469139 | 13580246791482716037 | 1234567902469139
EOF
	done
	# 20 digits that do not fit: the line is left out
	printf '7 99999999999999999999 3\n' >>"$f"
	ncg --no-cache --format=tsv "$f"
	expect_status 1
	assert_grep "digits.callgrind:14: cost '99999999999999999999' does not fit in 64 bits; line ignored" "$ERR"
	assert_grep $'f\ta.c\t\t0\t13580246791482716037\t1234567902469139' "$OUT"
}

@test "parse-words: a call's costs of 7 to 20 digits, read by words and at the file's end" {
	calls() {
		printf 'cfn=(2) g\ncalls=1 10\n2 12345678 123456789012345\n'
		printf 'cfn=(2)\ncalls=1 10\n3 1234567890123456 00000000000000000001\n'
		printf 'cfn=(2)\ncalls=1 10\n4 9999999 1234567890123456789\n'
	}
	# the calls with lines after them (read by words), and last in the file
	{
		header line 'A B'
		printf '1 1 1\n'
		calls
		printf 'fn=(2)\n10 1234567912469133 1234691346912469135\n'
	} >"$BATS_TEST_TMPDIR/mid.callgrind"
	{
		header line 'A B'
		printf '1 1 1\nfn=(2) g\n10 1234567912469133 1234691346912469135\nfn=(1)\n'
		calls
	} >"$BATS_TEST_TMPDIR/end.callgrind"
	# calls A: 12345678 + 1234567890123456 + 9999999 = 1234567912469133
	#       B: 123456789012345 + 1 + 1234567890123456789 = 1234691346912469135
	# g: those costs as its self, called 3 times; f: its self (1 1) and the calls
	# (the rows by self cost)
	for f in mid end; do
		for jobs in 1 2; do
			tsv_ok --no-cache --jobs=$jobs "$BATS_TEST_TMPDIR/$f.callgrind"
			expect_tsv <<'EOF'
function | file | object | calls | self:A | self:B | incl:A | incl:B
g | a.c |  | 3 | 1234567912469133 | 1234691346912469135 | 1234567912469133 | 1234691346912469135
f | a.c |  | 0 | 1 | 1 | 1234567912469134 | 1234691346912469136
EOF
		done
	done
	# 20 digits that do not fit: the call's line is left out
	printf 'fn=(1)\ncfn=(2)\ncalls=1 10\n5 99999999999999999999 3\nfn=(2)\n10 1 1\n' \
		>>"$BATS_TEST_TMPDIR/mid.callgrind"
	ncg --no-cache --format=tsv "$BATS_TEST_TMPDIR/mid.callgrind"
	expect_status 1
	assert_grep "mid.callgrind:23: cost '99999999999999999999' does not fit in 64 bits; line ignored" "$ERR"
	assert_grep $'f\ta.c\t\t0\t1\t1\t1234567912469134\t1234691346912469136' "$OUT"
}

@test "parse-words: hex positions of 1 to 8 digits, either case, a call's target, at the file's end" {
	local t=$BATS_TEST_TMPDIR
	# the lines read by words (lines after them), and last in the file, by bytes
	{
		header line A
		printf '0x1 1\n0xA 2\n0xabcdef1 3\n0x12345678 4\n0Xff\t5\n0xFfF 6\n+1 7\n'
		printf 'cfn=(2) g\ncalls=1 0x1b\n0x1c 8\nfn=(2) g\n0x1b 8\n0x1b 1\n'
	} >"$t/mid.callgrind"
	{
		header line A
		printf 'fn=(2) g\n0x1b 8\nfn=(1)\n0x1 1\n0xA 2\n0xabcdef1 3\n0x12345678 4\n0Xff\t5\n'
		printf '0xFfF 6\n+1 7\ncfn=(2)\ncalls=1 0x1b\n0x1c 8\nfn=(2)\n0x1b 1\n'
	} >"$t/end.callgrind"
	# 0xabcdef1 = 180150001, 0x12345678 = 305419896, 0xff = 255, 0xfff = 4095;
	# line 27 (0x1b): g's 8 + 1; the call's line (28) counts no self cost
	for f in mid end; do
		for jobs in 1 2; do
			tsv_ok --no-cache --jobs=$jobs --dump=lines "$t/$f.callgrind"
			expect_tsv <<'EOF'
file | line | self:A
a.c | 1 | 1
a.c | 10 | 2
a.c | 27 | 9
a.c | 255 | 5
a.c | 4095 | 6
a.c | 4096 | 7
a.c | 180150001 | 3
a.c | 305419896 | 4
EOF
		done
	done
}

@test "parse-words: a cell past 2^63 keeps its exact sum; past 2^64 it saturates" {
	f="$BATS_TEST_TMPDIR/top.callgrind"
	{
		header line A
		printf '1 9223372036854775800\n2 5\n3 3\n4 10\n5 1000000000\n6 7\n'
		printf 'fn=(2) g\n1 18446744073709551615\n2 1\n3 2\n'
	} >"$f"
	# f: 9223372036854775800 + 5 + 3 (= 2^63) + 10 + 1000000000 + 7 = 9223372037854775825
	# g: 2^64 - 1, then + 1 (line 16) and + 2 (line 17) saturate it
	ncg --no-cache --format=tsv "$f"
	expect_status 1
	expect_tsv <<'EOF'
function | file | object | calls | self:A | incl:A
g | a.c |  | 0 | 18446744073709551615 | 18446744073709551615
f | a.c |  | 0 | 9223372037854775825 | 9223372037854775825
EOF
	assert_grep 'top.callgrind:16: a cost sum exceeds 64 bits; it is shown as 18446744073709551615' "$ERR"
	assert_grep 'top.callgrind:17: a cost sum exceeds 64 bits; it is shown as 18446744073709551615' "$ERR"
}

# page_file FILE SIZE LAST: a file of exactly SIZE bytes that ends with LAST,
# after "0x10 1 1 1" and a comment that pads it
page_file() {
	local head pad
	head=$(
		header 'instr line' 'Ir Dr'
		printf '0x10 1 1 1\n_'
	)
	head=${head%_}
	pad=$(($2 - ${#head} - ${#3} - 2))
	{
		printf '%s' "$head"
		printf '#%*s\n' "$pad" ''
		printf '%s' "$3"
	} >"$1"
	[ "$(wc -c <"$1")" = "$2" ]
}

@test "parse-words: the last line of a file of 4096 or 8192 bytes, with or without its newline" {
	for size in 4096 8192; do
		for jobs in 1 2; do
			f="$BATS_TEST_TMPDIR/page-$size.callgrind"
			# Ir: 1 + 1234567 = 1234568, Dr: 1 + 7 = 8
			page_file "$f" $size $'+1 * 1234567 7\n'
			tsv_ok --no-cache --jobs=$jobs "$f"
			expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
f | a.c |  | 0 | 1234568 | 8 | 1234568 | 8
EOF
			# Ir: 1 + 5, Dr: 1 + 6
			page_file "$f" $size '+1 * 5 6'
			tsv_ok --no-cache --jobs=$jobs "$f"
			expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
f | a.c |  | 0 | 6 | 7 | 6 | 7
EOF
			# a jump line, then the last cost line: Ir 1 + 9, Dr 1 + 99999999
			page_file "$f" $size $'jcnd=5/6 +1 +1\n+1 * 9 99999999\n'
			tsv_ok --no-cache --jobs=$jobs "$f"
			expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
f | a.c |  | 0 | 10 | 100000000 | 10 | 100000000
EOF
		done
	done
}

@test "parse-words: values of 1 to 7 digits before a space, the line's end, a tab, \\r, two spaces" {
	f="$BATS_TEST_TMPDIR/lengths.callgrind"
	{
		header line 'A B'
		for pair in '7 1234567' '42 123456' '123 12345' '4567 1234' '89012 123' \
			'345678 12' '9012345 1'; do
			set -- $pair
			printf '1 %s %s\n1 %s\t%s\n1 %s %s\r\n1 %s  %s\n1 %s %s \n1\t%s %s\n' \
				"$1" "$2" "$1" "$2" "$1" "$2" "$1" "$2" "$1" "$2" "$1" "$2"
		done
		printf 'fn=(2) g\n1 1 1\n'
	} >"$f"
	# A: 6 * (7 + 42 + 123 + 4567 + 89012 + 345678 + 9012345) = 6 * 9451774 = 56710644
	# B: 6 * (1234567 + 123456 + 12345 + 1234 + 123 + 12 + 1) = 6 * 1371738 = 8230428
	for jobs in 1 2; do
		tsv_ok --no-cache --jobs=$jobs "$f"
		expect_tsv <<'EOF'
function | file | object | calls | self:A | self:B | incl:A | incl:B
f | a.c |  | 0 | 56710644 | 8230428 | 56710644 | 8230428
g | a.c |  | 0 | 1 | 1 | 1 | 1
EOF
	done
}

@test "parse-words: a tab, a \\r or two spaces after a token change no sum" {
	f="$BATS_TEST_TMPDIR/blanks.callgrind"
	{
		header 'instr line' 'A B'
		printf '0x10 1 1 1\n'
		printf '+1\t* 5 6\n+1 *\t5 6\n+1 * 5\t6\n+1 * 5  6\n+1 * 5 6\r\n+1 * 5 6 \n+1  * 5 6\n'
	} >"$f"
	# A: 1 + 7 * 5 = 36, B: 1 + 7 * 6 = 43
	tsv_ok --no-cache "$f"
	expect_tsv <<'EOF'
function | file | object | calls | self:A | self:B | incl:A | incl:B
f | a.c |  | 0 | 36 | 43 | 36 | 43
EOF
}

@test "parse-words: jump lines between cost lines, as Callgrind writes them and not" {
	f="$BATS_TEST_TMPDIR/jumps.callgrind"
	{
		header 'instr line' Ir
		printf '0x10 5 100\njcnd=1/2 +4 +1 \n+4 +1 7\njump=3 +8 *\n+8 * 9\n'
		printf 'jcnd=5/6\t+1 +1\n+1 +1 10\njcnd=123/45 +2 -1\n* * \n+2 -3 1000\n'
		printf 'jcnd=12345678901234567890/1 +1 +1\n+1 * 20000\n'
	} >"$f"
	# Ir: 100 + 7 + 9 + 10 + 1000 + 20000 = 21126 (a taken count of 20 digits fits)
	tsv_ok --no-cache "$f"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
f | a.c |  | 0 | 21126 | 21126
EOF
}
