#!/usr/bin/env bats
# Demangled names (issue 17): names as valgrind --demangle=no writes them (C++
# _Z..., Rust legacy _ZN...17h<hash>E and v0 _R...) shown as C++ and Rust names,
# by libiberty as Valgrind and c++filt do; M, :set demangle on|off and
# --no-demangle show them as written. test/fixtures/names: test/fixtures/src/names.cc
# (g++ -O1 -g) recorded by callgrind with --demangle=no and with demangling on.

load test_helper

N="$BATS_TEST_DIRNAME/fixtures/names"

@test "demangle: a profile recorded with --demangle=no shows the names of one recorded demangled, function by function" {
	local t=$BATS_TEST_TMPDIR
	ncg --dump=functions --format=tsv "$N/names-mangled.callgrind"
	expect_status 0
	cut -f1,2 "$OUT" | LC_ALL=C sort >"$t/mangled"
	ncg --dump=functions --format=tsv "$N/names-demangled.callgrind"
	cut -f1,2 "$OUT" | LC_ALL=C sort >"$t/demangled"
	diff -u "$t/demangled" "$t/mangled"
	# the program's own: overloads kept apart, a template, a const method; the
	# names Valgrind wrote in the demangled recording, with their self costs
	ncg --dump=functions --format=tsv "$N/names-mangled.callgrind"
	awk -F'\t' '$2 ~ /names\.cc$/ { print $1 "|" $5 }' "$OUT" | LC_ALL=C sort >"$OUT.own"
	cat >"$t/want" <<'EOF'
double twice<double>(double)|2000
long twice<long>(long)|2000
main|27027
shapes::Square::area() const|3000
shapes::scale(double)|2000
shapes::scale(long)|2000
EOF
	diff -u "$t/want" "$OUT.own"
	grep -q '^cfn=(544) shapes::scale(double)$' "$N/names-demangled.callgrind"
}

@test "demangle: Rust legacy and v0 symbols, a recursion level kept; names that only look mangled stay" {
	# by hand: legacy _ZN + length-prefixed parts, the h<16 hex> hash left out;
	# v0 (RFC 2603's example) _RNvCs<disambiguator>_7mycrate7example -> mycrate::example
	ncg --dump=functions --format=tsv "$N/rust.callgrind"
	expect_status 0
	cut -f1,5 "$OUT" >"$OUT.names"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF'
function	self:Ir
core::fmt::Formatter::pad	100
mycrate::example	30
foo::bar()'2	7
_Z_not_mangled	5
_Rnope	3
EOF
	diff -u "$BATS_TEST_TMPDIR/want" "$OUT.names"
	# the calls report too
	ncg --dump=calls "$N/rust.callgrind"
	assert_grep 'mycrate::example' "$OUT"
}

@test "demangle: --no-demangle, M and :set demangle off show the names as written; a filter matches what is shown" {
	ncg --no-demangle --dump=functions --format=tsv "$N/names-mangled.callgrind"
	assert_grep '_ZN6shapes5scaleEd' "$OUT"
	refute_grep 'shapes::scale' "$OUT"
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':filter scale' ':save-screen s0' 'M' ':save-screen s1' ':filter _ZN6shapes' \
		':save-screen s2' ':set demangle on' ':save-screen s3' >keys
	"$NCGRIND" --script=keys --size=100x12 "$N/names-mangled.callgrind"
	assert_grep 'shapes::scale(double)' s0
	assert_grep 'shapes::scale(long)' s0
	# M: as written; the filter "scale" still matches the mangled names (they hold it)
	assert_grep '_ZN6shapes5scaleEd' s1
	assert_grep 'names as the profile writes them (mangled)' s1
	# a filter on the mangled form; demangled again, it matches what is shown: nothing
	assert_grep '_ZN6shapes5scaleEl' s2
	refute_grep 'shapes::Square' s2
	assert_grep '(no functions)' s3
	assert_grep 'names demangled (C++, Rust)' s3
}
