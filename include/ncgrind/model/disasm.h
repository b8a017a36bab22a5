/*
 * disasm: the instructions of a few address ranges of an object file, from
 * objdump (binutils), run without a shell, the path passed as one argument.
 */
#ifndef NCGRIND_DISASM_H
#define NCGRIND_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most instructions a load keeps: objdump is stopped past them. */
#define DISASM_MAX_INSNS 100000

struct disasm_insn {
	uint64_t addr;
	char *text; /* "mov %rdi,%rax" */
};

struct disasm {
	struct disasm_insn *insns; /* by address */
	size_t n, alloc;
	bool cut;     /* stopped at DISASM_MAX_INSNS */
	bool stopped; /* the watch stopped it */
};

/* [lo, hi], both included. */
struct disasm_range {
	uint64_t lo, hi;
};

/*
 * Asked while objdump runs, a few times a second, with the instructions read
 * so far: true stops it (the user's key). NULL stop: it runs to its end.
 */
struct disasm_watch {
	bool (*stop)(void *ctx, size_t ninsns);
	void *ctx;
};

/*
 * Disassemble the ranges r[0..n) (ascending, apart) of object. Returns 0 (d
 * may be cut or stopped, with what was read before), or -1 with the reason
 * in err (no objdump, no such file, nothing there).
 */
int disasm_load(struct disasm *d, const char *object, const struct disasm_range *r, size_t n,
		const struct disasm_watch *w, char *err, size_t errsize);
void disasm_release(struct disasm *d);
/* The instruction at addr, or NULL. */
const char *disasm_at(const struct disasm *d, uint64_t addr);

#endif
