#!/usr/bin/env bats
# Rules of the code that a script can keep (the layers are in manual.bats).

load test_helper

@test "sorts: no file that sorts keeps a static variable; the check sees one at file scope, in a function, through a pointer" {
	# before: 20 variables in 10 files carried qsort's context (a profile,
	# an event, a direction) between the caller and its comparison
	run "$BATS_TEST_DIRNAME/tools/check-sort-context"
	[ "$status" -eq 0 ]
	mkdir "$BATS_TEST_TMPDIR/t"
	cp -r "$BATS_TEST_DIRNAME/../src" "$BATS_TEST_TMPDIR/t/"
	cat >"$BATS_TEST_TMPDIR/t/src/model/bad.c" <<'C'
static const char *const names[] = {"a", "b"};
static const struct screen_ops ops;
static void (*const hook)(const char *msg) = 0;
static int dir;
static const struct profile *sort_p; /* the comparison's profile */
static void (*cb)(void);
static void
sort_them(int *v, size_t n, int (*cmp)(const void *, const void *))
{
	static bool by_addr;

	qsort(v, n, sizeof(*v), cmp);
}
C
	printf 'static int counter;\nint f(void) { return counter++; }\n' >"$BATS_TEST_TMPDIR/t/src/model/nosort.c"
	run "$BATS_TEST_DIRNAME/tools/check-sort-context" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	printf '%s\n' "${lines[@]}" >"$OUT"
	assert_grep "check-sort-context: src/model/bad.c:4: a static variable in a file that sorts: static int dir;" "$OUT"
	assert_grep "src/model/bad.c:5: a static variable in a file that sorts: static const struct profile *sort_p;" "$OUT"
	assert_grep "src/model/bad.c:6: a static variable in a file that sorts: static void (*cb)(void);" "$OUT"
	assert_grep "src/model/bad.c:10: a static variable in a file that sorts: 	static bool by_addr;" "$OUT"
	[ "${#lines[@]}" -eq 4 ]
}
