#!/usr/bin/env bats
# make install and make uninstall in a DESTDIR.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."

# mk ARGS...: make in the source tree, quietly, with the binary under test
# (INSTALL_BIN: make never builds, the ASan build is installed as it is)
mk() {
	make -s --no-print-directory -C "$ROOT" INSTALL_BIN="$NCGRIND" "$@"
}

# the files under DIR, with their modes, relative to DIR, sorted
files_under() {
	(cd "$1" && find . -type f -printf '%m %P\n' | LC_ALL=C sort -k2)
}

@test "install: make install DESTDIR PREFIX=/usr lays every file out, uninstall removes them" {
	local d="$BATS_TEST_TMPDIR/dest" m
	mk install DESTDIR="$d" PREFIX=/usr >"$OUT"
	{
		echo "755 usr/bin/ncgrind"
		echo "644 usr/share/bash-completion/completions/ncgrind"
		# the configuration file's example and other manual pages, when the tree has them
		[ ! -e "$ROOT/doc/ncgrind-config.example" ] ||
			echo "644 usr/share/doc/ncgrind/examples/config"
		for m in "$ROOT"/doc/*.[1-9]; do
			echo "644 usr/share/man/man${m##*.}/${m##*/}"
		done
		echo "644 usr/share/zsh/site-functions/_ncgrind"
	} | LC_ALL=C sort -k2 >"$BATS_TEST_TMPDIR/expected"
	files_under "$d" | diff -u "$BATS_TEST_TMPDIR/expected" -
	grep -qx '644 usr/share/man/man1/ncgrind.1' "$BATS_TEST_TMPDIR/expected"
	# the files themselves
	cmp "$NCGRIND" "$d/usr/bin/ncgrind"
	cmp "$ROOT/doc/ncgrind.1" "$d/usr/share/man/man1/ncgrind.1"
	cmp "$ROOT/contrib/completion/ncgrind.bash" "$d/usr/share/bash-completion/completions/ncgrind"
	cmp "$ROOT/contrib/completion/_ncgrind" "$d/usr/share/zsh/site-functions/_ncgrind"
	"$d/usr/bin/ncgrind" --list-options | grep -q '^--dump='

	mk uninstall DESTDIR="$d" PREFIX=/usr >"$OUT"
	files_under "$d" | diff -u /dev/null -
	[ ! -e "$d/usr/share/doc/ncgrind" ]
}

@test "install: the places can be chosen one by one" {
	local d="$BATS_TEST_TMPDIR/dest"
	mk install DESTDIR="$d" PREFIX=/opt/n ZSHCOMPDIR=/usr/share/zsh/vendor-completions \
		BASHCOMPDIR=/etc/bash_completion.d >"$OUT"
	[ -x "$d/opt/n/bin/ncgrind" ]
	[ -f "$d/opt/n/share/man/man1/ncgrind.1" ]
	[ -f "$d/etc/bash_completion.d/ncgrind" ]
	[ -f "$d/usr/share/zsh/vendor-completions/_ncgrind" ]
	mk uninstall DESTDIR="$d" PREFIX=/opt/n ZSHCOMPDIR=/usr/share/zsh/vendor-completions \
		BASHCOMPDIR=/etc/bash_completion.d >"$OUT"
	files_under "$d" | diff -u /dev/null -
}
