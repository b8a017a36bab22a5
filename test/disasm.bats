#!/usr/bin/env bats
# run-suite: alone (its tests wait on what a tmux pane shows: test/tools/run-suite)
# The instruction view (V) asks objdump for bounded ranges (issue 28): the cost
# addresses with the bytes of their last instruction, addresses far apart in ranges
# of their own, never the span from the lowest to the highest (0 .. 2^64 - 1 made
# the browser read a whole libLLVM). A fake objdump first on PATH logs the
# ranges it is asked for and prints an instruction "nop A" at each address A of a
# small range; another never ends its output, another says nothing for a long time.

load test_helper

# fake_objdump MODE: objdump in $BATS_TEST_TMPDIR/bin, logging "START STOP" per run
# to $BATS_TEST_TMPDIR/log. MODE: ranges (an instruction per byte of a range of at
# most 64 bytes), endless (instructions without end), silent (nothing, for 30 s).
fake_objdump() {
	local t=$BATS_TEST_TMPDIR
	mkdir -p "$t/bin"
	cat >"$t/bin/objdump" <<EOF2
#!/bin/sh
for a; do
	case \$a in
	--start-address=*) s=\${a#*=} ;;
	--stop-address=*) e=\${a#*=} ;;
	esac
done
echo "\$s \$e" >>"$t/log"
echo \$\$ >"$t/pid"
case $1 in
endless) exec awk 'BEGIN { for (a = 0; ; a++) printf "  %x:\tnop\n", a }' ;;
silent) exec sleep 30 ;;
esac
[ \$((e - s)) -le 64 ] || exit 0
a=\$((s))
while [ \$a -lt \$((e)) ]; do
	printf '  %x:\tnop %x\n' \$a \$a
	a=\$((a + 1))
done
EOF2
	chmod +x "$t/bin/objdump"
	: >"$t/lib.so"
	cd "$t" || return
}

# profile ADDR...: prof.callgrind, main in lib.so with 1 Ir at each address
profile() {
	{
		printf 'positions: instr line\nevents: Ir\nob=%s/lib.so\nfl=a.c\nfn=main\n' \
			"$BATS_TEST_TMPDIR"
		for a; do printf '%s 1 1\n' "$a"; done
	} >prof.callgrind
}

instructions() {
	printf '%s\n' V ':save-screen insn' >keys
	status=0
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" timeout 10 "$NCGRIND" --script=keys --size=80x30 \
		prof.callgrind >"$OUT" 2>"$ERR" || status=$?
}

@test "disasm: the ranges around the costs, not from the lowest to the highest" {
	fake_objdump ranges
	# 0x0 and 0x10 share a range (16 apart): [0x0, 0x10 + 16], stop one past it;
	# 0x2000 is 8,176 bytes past 0x10 (4,096 or more: its own range); 2^64 - 1 has no
	# byte after it: objdump is not asked (it takes a stop at the start as no stop)
	profile 0x0 0x10 0x2000 0xffffffffffffffff
	instructions
	expect_status 0
	expect_out <"/dev/null"
	diff -u - log <<'EOF2'
0x0 0x21
0x2000 0x2011
EOF2
	sed -n '3,8p' insn >"$OUT"
	expect_out <<'EOF2'

 Self  %total  Address  Instruction
    1  25.00%        0  nop 0
    1  25.00%       10  nop 10
    1  25.00%     2000  nop 2000
    1  25.00% ffffffffffffffff
EOF2
}

@test "disasm: past 16 ranges far apart, the others are addresses alone, and the note says so" {
	fake_objdump ranges
	# 17 addresses 64 KiB apart: 17 ranges; objdump is asked for the first 16
	profile $(for k in $(seq 17); do printf '0x%x ' $((k * 65536)); done)
	instructions
	expect_status 0
	[ "$(wc -l <log)" = 16 ]
	head -1 log >"$OUT"
	expect_out <<<'0x10000 0x10011'
	tail -1 log >"$OUT"
	expect_out <<<'0x100000 0x100011'
	sed -n '3p' insn >"$OUT"
	expect_out <<<'the costs lie in 17 address ranges far apart: instructions of the first 16 only'
	# the 16th range's instruction, and the 17th address without one
	grep -E '^ +1 +5\.88% +(100000|110000)' insn | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
    1   5.88%   100000  nop 100000
    1   5.88%   110000
EOF2
}

@test "disasm: objdump is stopped at 100,000 instructions, and the note says so" {
	fake_objdump endless
	profile 0x0 0x10
	mem_limit 400000 # (the instructions kept, 100,000 of them, take a few MB)
	instructions
	expect_status 0
	sed -n '3,6p' insn >"$OUT"
	expect_out <<'EOF2'
disassembly cut at 100000 instructions: the later addresses alone
 Self  %total  Address  Instruction
    1  50.00%        0  nop
    1  50.00%       10  nop
EOF2
}

SOCK="ncgrind-disasm-$$-${BATS_TEST_NUMBER:-0}"

teardown() {
	tmux_kill_server "$SOCK"
}

# pane_waits TEXT: wait (5 s at most) until the tmux pane shows TEXT
pane_waits() {
	local i
	for i in $(seq 100); do
		tmux -L "$SOCK" capture-pane -p | grep -qF -- "$1" && return 0
		sleep 0.05
	done
	echo "the pane never showed: $1"
	tmux -L "$SOCK" capture-pane -p
	return 1
}

@test "disasm: on a terminal, a slow objdump gets a waiting screen, and q stops it" {
	command -v tmux >/dev/null || { echo "tmux is needed for this test"; return 1; }
	fake_objdump silent
	profile 0x10
	unset TMUX LINES COLUMNS
	tmux -L "$SOCK" -f /dev/null new-session -d -x 80 -y 24 -c "$BATS_TEST_TMPDIR" \
		env PATH="$BATS_TEST_TMPDIR/bin:$PATH" TERM=screen "$NCGRIND" prof.callgrind
	pane_waits 'main'
	tmux -L "$SOCK" send-keys V
	pane_waits 'ncgrind: disassembling with objdump'
	pane_waits "$BATS_TEST_TMPDIR/lib.so"
	pane_waits '0 instructions so far'
	tmux -L "$SOCK" send-keys q
	pane_waits 'disassembly stopped: 0 instructions read, the other addresses alone'
	# objdump (the fake's sleep) was ended and reaped, not left to run its 30 s
	! kill -0 "$(cat pid)" 2>/dev/null
}
