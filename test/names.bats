#!/usr/bin/env bats
# run-suite: first (it takes long: test/tools/run-suite)
# Names that stay distinct (issue 26): the rows shown together are shortened
# together (model/shorten.c), so that no two read the same unless their whole
# names are the same, and every cut shows "…".
#   - the shortening alone, by test/tools/shorten (rows on stdin: NAME, TAB,
#     FILE, TAB, SUFFIX), on the cases of the issue, worked out by hand;
#   - the property on the list screens of every fixture, of diffs of
#     fixtures (and of ../shared/corpus when it is there): each screen is
#     saved at the width under test and at 1000 columns (in exact and short
#     units), and test/tools/name-cells.awk compares their rows: the name
#     cells, and every number outside them, which must be one of the wide
#     row's, whole and in order (no number is cut, at the edge or with …).
#     The corpus part (about 60 seconds) skips without ../shared.

load test_helper

SHORTEN="${SHORTEN:-$BATS_TEST_DIRNAME/tools/shorten}"
CELLS="$BATS_TEST_DIRNAME/tools/name-cells.awk"

need_shorten() {
	[ -x "$SHORTEN" ] || skip "test/tools/shorten is not built (make test/tools/shorten)"
}

# shorten WIDTH: the rows of the here-document, through the tool, into $OUT
shorten() {
	status=0
	"$SHORTEN" "$1" >"$OUT" 2>"$ERR" || status=$?
}

@test "shorten: is_even'2 and is_odd'2 in a cycle at 30 columns read apart" {
	need_shorten
	# The table at 30 columns leaves 30 - 2 * (5 + 2) = 16 columns for the name;
	# " <cycle 2>" takes 10, the name 6. Alone, each keeps its start and its 'N:
	# "is_" "…" "'2": both "is_…'2". They collide; then each keeps its 'N
	# ("…'2", 3 columns), then the text from its first difference (byte 3,
	# "e" / "o") on: "ev" and a "…" fill the 6 columns; "od" takes 5, and
	# the next "d" closes the gap before the 'N: "…odd'2".
	printf "is_even'2\tr.c\t <cycle 2>\nis_odd'2\tr.c\t <cycle 2>\n" | shorten 16
	expect_out <<'EOF2'
…ev…'2 <cycle 2>
…odd'2 <cycle 2>
EOF2
}

@test "shorten: walk_tree_1 and walk_tree_1'2 keep the 'N" {
	need_shorten
	# 24 columns, 10 for " <cycle 1>": 14 for the name. The parameters fold:
	# "walk_tree_1(…)" is 14 and fits; "walk_tree_1(…)'2" is 16: it keeps its
	# 'N, the start of its own name ("walk", 4), "…", its parameters "(…)",
	# then the end of its own name in what is left: 14 - 2 - 4 - 1 - 3 = 4,
	# "ee_1".
	printf "walk_tree_1(tree_node**, int)\tt.c\t <cycle 1>\nwalk_tree_1(tree_node**, int)'2\tt.c\t <cycle 1>\n" |
		shorten 24
	expect_out <<'EOF2'
walk_tree_1(…) <cycle 1>
walk…ee_1(…)'2 <cycle 1>
EOF2
}

@test "shorten: three _M_realloc_insert instances show their own template arguments" {
	need_shorten
	local v='std::vector<std::unique_ptr<S, std::default_delete<S> >, std::allocator<std::unique_ptr<S, std::default_delete<S> > > >'
	# Alone, all three fold to "void std::vector<…>::_M_realloc_insert<…>(…)"
	# (44 columns). Then each keeps the arguments of its own name open:
	#   "void std::vector<…>::_M_realloc_insert<double const&>(…)": 5 + 14 + 2 +
	#   17 + 15 + 3 = 56, fits in 60;
	#   with "<geo::Circle*>" (14): 55 fits; with "<geo::Rect*>": 53 fits.
	{
		printf 'void std::vector<double, std::allocator<double> >::_M_realloc_insert<double const&>(__gnu_cxx::__normal_iterator<double*, std::vector<double, std::allocator<double> > >, double const&)\n'
		printf 'void %s::_M_realloc_insert<geo::Circle*>(__gnu_cxx::__normal_iterator<%s*>, geo::Circle*&&)\n' "$v" "$v"
		printf 'void %s::_M_realloc_insert<geo::Rect*>(__gnu_cxx::__normal_iterator<%s*>, geo::Rect*&&)\n' "$v" "$v"
	} >"$BATS_TEST_TMPDIR/names"
	shorten 60 <"$BATS_TEST_TMPDIR/names"
	expect_out <<'EOF2'
void std::vector<…>::_M_realloc_insert<double const&>(…)
void std::vector<…>::_M_realloc_insert<geo::Circle*>(…)
void std::vector<…>::_M_realloc_insert<geo::Rect*>(…)
EOF2
	# 40 columns: the own names are 17 + 15 + 3 = 35, 34 and 32 columns: a
	# start of 40 - 1 - 35 = 4 columns, then "…" ("void…"), 5 ("void "), 7
	shorten 40 <"$BATS_TEST_TMPDIR/names"
	expect_out <<'EOF2'
void…_M_realloc_insert<double const&>(…)
void …_M_realloc_insert<geo::Circle*>(…)
void st…_M_realloc_insert<geo::Rect*>(…)
EOF2
}

@test "shorten: a --separate-callers name keeps its function, its start" {
	need_shorten
	# Callgrind writes fn'N'caller'caller: the function comes first. At 12
	# columns each alone keeps its first 11 and "…", and they differ there.
	printf "msort'3'qsort_r'qsort\nmsort'qsort_r'qsort\nmsort'2'qsort_r'qsort\n" | shorten 12
	expect_out <<'EOF2'
msort'3'qso…
msort'qsort…
msort'2'qso…
EOF2
	# msort'qsort_r'qsort: the function, the link, then the first caller's
	# own name "qsort_r" does not fit (14 columns): the chain's start.
	# the same function called from two chains that differ at their end: alone
	# both read "cmp'msort_wit…"; then the function and its link "cmp'", the
	# text from the difference ("_r"; for the other, its end) with 3 columns
	# before it ("ort"), "…", and the chain's start in what is left
	printf "cmp'msort_with_tmp'qsort_r\ncmp'msort_with_tmp'qsort\n" | shorten 14
	expect_out <<'EOF2'
cmp'msor…ort_r
cmp'msort_…ort
EOF2
}

@test "shorten: one name in two files shows the file; the same row twice stays the same" {
	need_shorten
	# "helper (a.c)" is 12 columns: it fits in 20 whole
	printf "helper\tsrc/a.c\nhelper\tlib/b.c\nmain\tm.c\nmain\tm.c\n" | shorten 20
	expect_out <<'EOF2'
helper (a.c)
helper (b.c)
main
main
EOF2
}

@test "shorten: (below main) in two files: no file dropped without a mark" {
	need_shorten
	# Alone both fit (12 columns in 15): the same name, so each shows its file.
	# " (libc_start_call_main.h)" is 25 columns: it leaves no 4 for the name,
	# and the name whole leaves 3, less than " (…)": "…" says a file is cut.
	# " (???)" is 6: 9 columns for the name; "(below main)" is no parameter
	# list to fold: its start (4 columns), "…" and its end (4).
	printf "(below main)\tlibc_start_call_main.h\n(below main)\t???\n" | shorten 15
	expect_out <<'EOF2'
(below main)…
(bel…ain) (???)
EOF2
	# 20 columns: the name whole, " (", then the file's end in 20 - 12 - 3 = 5
	# columns ("…in.h") and ")"
	printf "(below main)\tlibc_start_call_main.h\n(below main)\t???\n" | shorten 20
	expect_out <<'EOF2'
(below main) (…in.h)
(below main) (???)
EOF2
}

@test "shorten: two names in two files read apart with their files" {
	need_shorten
	# At 24 each name (18) fits alone, and reads like itself in the other file:
	# each shows its file (" (genops.c)", 11), the name in 13: "_IO_default_…"
	# for both names. Then each keeps the start of its name (4 columns), and
	# from where they differ (byte 12) to the end, with 3 columns before it:
	# "t_xsputn" (8), and "…" between.
	printf "_IO_default_xsputn\tgenops.c\n_IO_default_setbuf\tgenops.c\n_IO_default_xsputn\tlibioP.h\n_IO_default_setbuf\tlibioP.h\n" |
		shorten 24
	expect_out <<'EOF2'
_IO_…t_xsputn (genops.c)
_IO_…t_setbuf (genops.c)
_IO_…t_xsputn (libioP.h)
_IO_…t_setbuf (libioP.h)
EOF2
}

@test "shorten: cc1plus functions keep their own names and their 'N at 80 columns" {
	need_shorten
	# The table at 80 columns leaves 26 for the name, 16 after " <cycle 1>".
	# Each alone: its 'N, the first 4 columns of its own name, "…", its
	# parameters "(…)", then the end of its own name in what is left:
	# 16 - 4 - 1 - 3 = 8 ("defer_fn", "fer_fn_1"), 6 with a 'N ("inding",
	# "direct", "e_args"), 8 ("late_arg"). Before, the start alone was kept
	# (expand_or_defer_… twice) or the end ("…int, tree_node*)": no function).
	{
		printf 'expand_or_defer_fn(tree_node*)\t\t <cycle 1>\n'
		printf 'expand_or_defer_fn_1(tree_node*)\t\t <cycle 1>\n'
		printf "get_class_binding(tree_node*, tree_node*, bool)'2\t\t <cycle 1>\n"
		printf "get_class_binding_direct(tree_node*, tree_node*, bool)'2\t\t <cycle 1>\n"
		printf "tsubst_template_args(tree_node*, tree_node*, int, tree_node*)'2\t\t <cycle 1>\n"
		printf 'tsubst_template_arg(tree_node*, tree_node*, int, tree_node*)\t\t <cycle 1>\n'
	} | shorten 26
	expect_out <<'EOF2'
expa…defer_fn(…) <cycle 1>
expa…fer_fn_1(…) <cycle 1>
get_…inding(…)'2 <cycle 1>
get_…direct(…)'2 <cycle 1>
tsub…e_args(…)'2 <cycle 1>
tsub…late_arg(…) <cycle 1>
EOF2
}

@test "shorten: overloads that differ in their parameters show them, not their end alone" {
	need_shorten
	# Alone all three read "gene…implify(…)". Then the parameter list over
	# the difference opens with each parameter folded: the first,
	# "(…, …, …, …)" (12), fits after "gene…" with "y"; so does the second's
	# (15) after "ge…". The third's (18) does not fit with "g…": it keeps the
	# text from where it differs from the second (the second's ")", its
	# ","), 3 columns before it, to its end "…, …, …)", then the own name's
	# end in what is left: the function stays, and the ends differ.
	{
		printf 'generic_simplify(unsigned int, tree_code, tree_node*, tree_node*)\n'
		printf 'generic_simplify(unsigned int, tree_code, tree_node*, tree_node*, tree_node*)\n'
		printf 'generic_simplify(unsigned int, tree_code, tree_node*, tree_node*, tree_node*, tree_node*)\n'
	} | shorten 18
	expect_out <<'EOF2'
gene…y(…, …, …, …)
ge…(…, …, …, …, …)
gene…plify…, …, …)
EOF2
}

@test "shorten: hash_table constructors show their differing template argument" {
	need_shorten
	# Alone both read "hash_table<…>::hash_table(…)". The template group over
	# their difference opens, its other arguments fold ("…, …"); the own name
	# "hash_table(…)" stays whole, then the text from the difference on
	# (" const*>" / "*>") with 3 columns before it ("ode"), then the start.
	printf 'hash_table<default_hash_traits<tree_node const*>, false, xcallocator>::hash_table(unsigned long, bool, bool, bool, mem_alloc_origin)\nhash_table<default_hash_traits<tree_node*>, false, xcallocator>::hash_table(unsigned long, bool, bool, bool, mem_alloc_origin)\n' |
		shorten 40
	expect_out <<'EOF2'
hash_t…ode const*>, …, …>::hash_table(…)
hash_table<d…ode*>, …, …>::hash_table(…)
EOF2
}

@test "shorten: a --separate-callers C++ chain keeps the function, not its caller" {
	need_shorten
	local b='std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >'
	# The function is the chain's first part: its own name "_M_create(…)"
	# whole (after "…": its qualifiers go), the link "'", then what is left
	# (30 - 13 - 1 = 16) for the first caller's own name "_M_mutate" (9,
	# with a "…" before and after it) and the chain's start after the link.
	{
		printf "%s::_M_create(unsigned long&, unsigned long)'%s::_M_mutate(unsigned long, unsigned long, char const*, unsigned long)'%s::_M_append(char const*, unsigned long)'corpus::geometry::Rect::name[abi:cxx11]() const\n" "$b" "$b" "$b"
		printf "%s::_M_mutate(unsigned long, unsigned long, char const*, unsigned long)'%s::_M_append(char const*, unsigned long)'corpus::geometry::Rect::name[abi:cxx11]() const'main\n" "$b" "$b"
	} | shorten 30
	expect_out <<'EOF2'
…_M_create(…)'std::…_M_mutate…
…_M_mutate(…)'std::…_M_append…
EOF2
}

@test "shorten: a file keeps its kind and its end; a 'N goes last" {
	need_shorten
	# include::PATH: the kind whole, "…", and as much of the path's end as fits
	printf 'include::/var/www/app/src/Controller/UserController.php\n' | shorten 44
	expect_out <<'EOF2'
include::…/src/Controller/UserController.php
EOF2
	# " <cycle 2> [self]" (17) leaves 5: the 'N, "is", "…" between
	printf "is_even'2\t\t <cycle 2> [self]\n" | shorten 22
	expect_out <<'EOF2'
is…'2 <cycle 2> [self]
EOF2
}

# ---- the property on the screens --------------------------------------------

# the list screens of a profile: the table, the callers and callees of its
# first function, its call tree expanded, the groups by object and by file, a
# group's functions, the parts
SCRIPT=':save-screen table
Enter
:save-screen detail
Backspace
t
E
:save-screen tree
Backspace
O
:save-screen objects
:group file
:save-screen groups
Enter
:save-screen members
Backspace
Backspace
P
:save-screen parts
q'

# the screens of a diff: the functions, the calls of the first (the biggest
# change), its call tree expanded
DIFF_SCRIPT=':save-screen diff
Enter
:save-screen dcalls
Backspace
t
E
:save-screen dtree
q'

# Each screen: its header row, the title of its name column, its first and
# last rows of the list.
SCREENS='table 3 Function 4 21
detail 4 Function 5 23
tree 4 Function 5 23
objects 4 object 5 23
groups 4 file 5 23
members 4 Function 5 23
parts 4 File 5 23
diff 4 Function 5 21
dcalls 4 Function 5 21
dtree 4 Function 5 21'

# run_screens DIR SCRIPT WIDTH ARGS...: the screens of SCRIPT saved in DIR
run_screens() {
	local d=$1 script=$2 w=$3
	shift 3
	printf '%s\n' "$script" >"$d/keys"
	(cd "$d" && "$NCGRIND" --script=keys --size="${w}x24" "$@" >/dev/null 2>&1) || true
}

# check_screens LABEL SCRIPT ARGS...: the property at $WIDTHS (30, 80, 120 and
# 200) columns against 1000 columns (in exact and in short units); failures on
# stdout
check_screens() {
	local label=$1 script=$2 w d="$BATS_TEST_TMPDIR/s" s head title first last
	shift 2
	rm -rf "$d" && mkdir -p "$d/short" "$d/wide"
	# the runs at once, each in a directory of its own (under ASan each one's
	# start is most of its time); a profile the browser refuses, or a screen
	# it has not: no screen to check
	run_screens "$d/short" "U
$script" 1000 "$@" &
	run_screens "$d/wide" "$script" 1000 "$@" &
	for w in ${WIDTHS:-30 80 120 200}; do
		mkdir "$d/$w"
		run_screens "$d/$w" "$script" "$w" "$@" &
	done
	wait
	for w in ${WIDTHS:-30 80 120 200}; do
		while read -r s head title first last; do
			[ -f "$d/$w/$s" ] || continue
			awk -v head="$head" -v title="$title" -v first="$first" -v last="$last" -f "$CELLS" \
				"$d/$w/$s" "$d/wide/$s" "$d/short/$s" 2>&1 | sed "s|^|$label $w $s: |"
		done <<<"$SCREENS"
	done
	true # (the last screen may be missing)
}

check_profile() {
	check_screens "$1" "$SCRIPT" "$1"
}

check_diff() {
	check_screens "$1 -> $2" "$DIFF_SCRIPT" --diff "$1" "$2"
}

@test "names property: the fixtures' list screens at 30 to 200 columns" {
	local f
	for f in $(find "$FIX" -name '*.callgrind' ! -path '*/malformed*' ! -path '*/hostile*' | LC_ALL=C sort); do
		check_profile "$f"
	done >"$OUT"
	expect_out </dev/null
}

@test "names property: the fixtures' diff screens at 30 to 200 columns" {
	local D="$FIX/diff"
	{
		check_diff "$D/version1.callgrind" "$D/version2.callgrind"
		# (not at 30 columns: the name has 15 there, too few for the three _IO_
		# functions of genops.c and libioP.h to read apart with their files)
		WIDTHS="80 120 200" check_diff "$D/version1.cachegrind" "$D/version2.cachegrind"
		check_diff "$FIX/names/names-demangled.callgrind" "$FIX/names/names-mangled.callgrind"
		check_diff "$FIX/recursion/threads-default.callgrind" "$FIX/oracle/recur-default.callgrind"
	} >"$OUT"
	expect_out </dev/null
}

@test "names property: the shared corpus" {
	local shared="${SHARED_DIR:-$BATS_TEST_DIRNAME/../../shared}"
	[ -d "$shared/corpus" ] || skip "no ../shared/corpus here"
	local f
	for f in $(find "$shared/corpus" -type f \( -name '*.callgrind' -o -name 'cachegrind.out.*' \
		-o -name '*.cachegrind' -o -name '*.xt' \) ! -path '*/malformed/*' ! -path '*/hostile/*' |
		LC_ALL=C sort); do
		check_profile "$f"
	done >"$OUT"
	expect_out </dev/null
}

@test "names property: diffs of the shared corpus's real profiles" {
	local shared="${SHARED_DIR:-$BATS_TEST_DIRNAME/../../shared}"
	[ -d "$shared/corpus/real" ] || skip "no ../shared/corpus here"
	local R="$shared/corpus/real"
	{
		check_diff "$R/tmpl-default.callgrind" "$R/tmpl-sepcallers3.callgrind"
		check_diff "$R/recur-default.callgrind" "$R/recur-cachesim-full.callgrind"
		check_diff "$R/inl-default.callgrind" "$R/inl-instr-jumps-cache.callgrind"
		check_diff "$R/gxx-tpl.cc1plus.callgrind" "$R/gxx-tpl.cc1plus.callgrind"
		check_diff "$R/python3-json-re.callgrind" "$R/recur-default.callgrind"
	} >"$OUT"
	expect_out </dev/null
}

# The screens above show the biggest functions, unfiltered: few of them are
# overloads, 'N copies or chains of one function, so the real profiles'
# look-alike rows (a review found ten pairs at 80 columns) never met there.
@test "names property: filtered views of the real C++ profiles" {
	local shared="${SHARED_DIR:-$BATS_TEST_DIRNAME/../../shared}"
	[ -d "$shared/corpus/real" ] || skip "no ../shared/corpus here"
	local R="$shared/corpus/real" g
	g="$R/gxx-tpl.cc1plus.callgrind"
	# (not at 30 columns: 6 columns for a name before " <cycle 1>" leave
	# tsubst'2 and tsubst_template_arg'2 reading the same)
	export WIDTHS="80 120 200"
	{
		check_screens "$g filtered" ':filter ^(tsubst_template_args|strip_typedefs_expr|get_class_binding|generic_simplify|infer_nonnull|expand_or_defer)
a
'"$SCRIPT" "$g"
		check_screens "$g walk_tree" ":filter walk_tree|tsubst|vector
$SCRIPT" "$g"
		check_screens "$g hash_table" ":goto ^hash_table_higher_prime_index
$SCRIPT" "$g"
		check_screens "sepcallers3 basic_string" ':filter ^std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_(mutate|create)
'"$SCRIPT" "$R/tmpl-sepcallers3.callgrind"
	} >"$OUT"
	expect_out </dev/null
}
