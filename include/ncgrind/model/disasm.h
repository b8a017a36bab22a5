/*
 * disasm: the instructions of an address range of an object file, from
 * objdump (binutils), run without a shell, the path passed as one argument.
 */
#ifndef NCGRIND_DISASM_H
#define NCGRIND_DISASM_H

#include <stddef.h>
#include <stdint.h>

struct disasm_insn {
	uint64_t addr;
	char *text; /* "mov %rdi,%rax" */
};

struct disasm {
	struct disasm_insn *insns; /* by address */
	size_t n, alloc;
};

/*
 * Disassemble [lo, hi] of object. Returns 0, or -1 with the reason in err
 * (no objdump, no such file, nothing there).
 */
int disasm_load(struct disasm *d, const char *object, uint64_t lo, uint64_t hi, char *err,
		size_t errsize);
void disasm_release(struct disasm *d);
/* The instruction at addr, or NULL. */
const char *disasm_at(const struct disasm *d, uint64_t addr);

#endif
