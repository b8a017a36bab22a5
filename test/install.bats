#!/usr/bin/env bats
# make install and make uninstall in a DESTDIR, make deps when it must only
# check (the Debian build), make clean and .gitignore against the package's
# build outputs, and the Debian package's files (debian/): its Build-Depends
# against the Makefile's DEB_PKGS, its changelog against --version. make deb
# itself (dpkg-buildpackage, minutes with the suite) is not run here.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."

# mk ARGS...: make in the source tree, quietly, with the binary under test
# (INSTALL_BIN: make never builds, the ASan build is installed as it is)
mk() {
	make -s --no-print-directory -C "$ROOT" INSTALL_BIN="$NCGRIND" "$@"
}

# make_var NAME: the value of the Makefile's variable NAME, one word a line
make_var() {
	make -s --no-print-directory -C "$ROOT" --eval 'print-%: ; @echo $($*)' "print-$1" |
		tr ' ' '\n' | grep .
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

@test "install: the places can be chosen one by one (debian/rules' zsh folder)" {
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

@test "deps: DEPS_INSTALL=no names the missing packages and installs nothing" {
	local bin="$BATS_TEST_TMPDIR/bin" c
	mkdir -p "$bin"
	# an apt-get and a sudo that only say they were called
	for c in apt-get sudo; do
		printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$c" "$BATS_TEST_TMPDIR/called" >"$bin/$c"
		chmod +x "$bin/$c"
	done
	status=0
	PATH="$bin:$PATH" make -s --no-print-directory -C "$ROOT" deps DEPS_INSTALL=no \
		DEB_PKGS="make no-such-package-ncgrind" >"$OUT" 2>"$ERR" || status=$?
	expect_status 2
	grep -qx 'ncgrind: missing packages: no-such-package-ncgrind' "$OUT"
	[ ! -e "$BATS_TEST_TMPDIR/called" ]
	# nothing missing: nothing to say
	PATH="$bin:$PATH" make -s --no-print-directory -C "$ROOT" deps DEPS_INSTALL=no \
		DEB_PKGS=make >"$OUT"
	diff -u /dev/null "$OUT"
	[ ! -e "$BATS_TEST_TMPDIR/called" ]
}

# the package names of debian/control's Build-Depends, one a line, with
# " nocheck" after those marked <!nocheck>
build_depends() {
	sed -n '/^Build-Depends:/,/^[A-Z]/p' "$ROOT/debian/control" | sed '1s/^Build-Depends://; $d' |
		tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep . |
		sed -E 's/^([a-z0-9.+-]+)( \([^)]*\))?( <!nocheck>)?$/\1\3/; s/ <!nocheck>$/ nocheck/'
}

@test "debian: Build-Depends is DEB_PKGS, less what every build has, the tests' marked <!nocheck>" {
	local p
	build_depends >"$BATS_TEST_TMPDIR/control"
	# debhelper's compat level, then the Makefile's packages
	[ "$(head -n 1 "$BATS_TEST_TMPDIR/control")" = debhelper-compat ]
	grep -qx ' debhelper-compat (= 13),' "$ROOT/debian/control"
	make_var DEB_IMPLIED_PKGS >"$BATS_TEST_TMPDIR/implied"
	make_var DEB_TEST_PKGS >"$BATS_TEST_TMPDIR/test"
	make_var DEB_PKGS | while read -r p; do
		grep -qxF "$p" "$BATS_TEST_TMPDIR/implied" && continue
		if grep -qxF "$p" "$BATS_TEST_TMPDIR/test"; then echo "$p nocheck"; else echo "$p"; fi
	done | sort >"$BATS_TEST_TMPDIR/make"
	tail -n +2 "$BATS_TEST_TMPDIR/control" | sort | diff -u "$BATS_TEST_TMPDIR/make" -
	# not vacuous: the lists were read
	grep -qx 'libedit-dev' "$BATS_TEST_TMPDIR/make"
	grep -qx 'bats nocheck' "$BATS_TEST_TMPDIR/make"
	# the lists are of DEB_PKGS' packages
	sort -u "$BATS_TEST_TMPDIR/implied" "$BATS_TEST_TMPDIR/test" | comm -23 - <(make_var DEB_PKGS | sort -u) |
		diff -u /dev/null -
}

@test "debian: the changelog's version is --version's, the maintainer is control's" {
	local version maint
	ncg --version
	expect_status 0
	version=$(sed -n 's/^ncgrind \([0-9][0-9.]*\)$/\1/p' "$OUT")
	[ -n "$version" ]
	head -n 1 "$ROOT/debian/changelog" | grep -qxF "ncgrind ($version) unstable; urgency=medium"
	maint=$(sed -n 's/^Maintainer: //p' "$ROOT/debian/control")
	[ "$maint" = "ncgrind developers <${maint#*<}" ]
	grep -q "^ -- $maint  [A-Z][a-z][a-z], [0-9]" "$ROOT/debian/changelog"
	grep -qx 'Upstream-Contact: '"$maint" "$ROOT/debian/copyright"
	grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
		"$ROOT/debian/copyright"
	grep -qx '3.0 (native)' "$ROOT/debian/source/format"
	[ -x "$ROOT/debian/rules" ]
	grep -q 'PREFIX=/usr' "$ROOT/debian/rules"
	grep -q 'DEPS_INSTALL=no' "$ROOT/debian/rules"
}

@test "debian: make clean and .gitignore know the package's build outputs" {
	local t="$BATS_TEST_TMPDIR/tree" f
	local outputs="build-deb/ncgrind_0.1_amd64.deb debian/ncgrind/usr/bin/ncgrind
		debian/.debhelper/generated/x debian/tmp/x debian/files debian/ncgrind.substvars
		debian/ncgrind.debhelper.log debian/debhelper-build-stamp"
	# a copy of the Makefile beside the outputs and the package's own files
	mkdir -p "$t/debian/source"
	cp "$ROOT/Makefile" "$t/"
	cp "$ROOT/debian/control" "$ROOT/debian/rules" "$t/debian/"
	cp "$ROOT/debian/source/format" "$t/debian/source/"
	for f in $outputs; do
		mkdir -p "$t/$(dirname "$f")" && touch "$t/$f"
	done
	make -s --no-print-directory -C "$t" clean >"$OUT"
	(cd "$t" && find . -type f | LC_ALL=C sort) | diff -u - <(printf '%s\n' ./Makefile ./debian/control \
		./debian/rules ./debian/source/format)
	# the lines of .gitignore that cover them (git itself may not be there: a package build)
	for f in /build-deb/ /debian/ncgrind/ /debian/.debhelper/ /debian/tmp/ /debian/files \
		/debian/*.substvars /debian/*.debhelper.log /debian/debhelper-build-stamp; do
		grep -qxF -- "$f" "$ROOT/.gitignore" || { echo "not in .gitignore: $f"; false; }
	done
}
