/*
 * srcview: where a function's cost lies, as plain data (no curses): self
 * cost per source line (or per instruction address), and the calls made on
 * each line, read lazily from the function's blocks (parse_block): nothing
 * per line is kept for a function never opened. Also the files its cost
 * falls in (inlined code, fi=/fe=), each with its share.
 */
#ifndef NCGRIND_SRCVIEW_H
#define NCGRIND_SRCVIEW_H

#include "ncgrind/model/disasm.h"
#include "ncgrind/model/nav.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/profile.h"
#include "ncgrind/model/source.h"

struct src_cost {
	uint32_t file;   /* name id, NCG_NONE if unknown */
	uint64_t line;   /* 0: no line information */
	uint64_t addr;   /* 0 unless aggregated by instruction */
	uint32_t callee; /* NCG_NONE: self cost; else a call to this function */
	uint64_t count;  /* calls */
	uint64_t *costs; /* nev values */
};

struct src_file_share {
	uint32_t file;
	uint64_t *self; /* nev values: the function's self cost in this file */
};

struct srcfn {
	const struct profile *p;
	uint32_t fn;
	bool by_addr;          /* rows per instruction address, not per line */
	struct src_cost *rows; /* sorted by file, line (or addr), self before calls */
	size_t nrows;
	/* the function's own file first, then by self cost of event 0, largest first */
	struct src_file_share *files;
	size_t nfiles;
	uint64_t *pool;            /* the cost arrays */
	bool has_lines, has_addrs; /* what the profile's positions give */
};

/*
 * Read function fn's blocks; by_addr aggregates per instruction address.
 * The call rows carry the costs the file records.
 */
void srcfn_load(struct srcfn *s, const struct profile *p, uint32_t fn, bool by_addr);
/*
 * The call rows' costs scaled to their share of the function, as every
 * screen shows a call (graph.h): under recursion the recorded costs count
 * nested calls again. The same number where nothing recurses.
 */
void srcfn_share_calls(struct srcfn *s, struct call_shares *shares);
void srcfn_release(struct srcfn *s);
/*
 * The first line (the lowest number) of the cost lines of file i of
 * s->files (0: the function's own file, as the source screen opens it):
 * where the editor opens on the function. 0 when they give no line.
 */
uint64_t srcfn_first_line(const struct srcfn *s, size_t i);

/*
 * The line numbers shown of a file of nlines lines (0 without the source),
 * in order, each once: all of its lines when all is set, and those within
 * ctx lines of a cost row's line (rows[0, n), sorted by line), none past
 * the file's last line or the last row's; line 0 first when a row has no
 * line. The time is that of the rows and of the lines shown, not of the
 * largest line number, which the profile sets (a cost at line 2^64 - 1).
 */
struct srcfn_walk {
	const struct src_cost *rows;
	size_t i, n;              /* the rows not yet passed: [i, n) */
	uint64_t whole, ctx, end; /* lines 1 .. whole are all shown; end: the last one */
	uint64_t next;            /* the next candidate */
	bool done;
};

void srcfn_walk_init(struct srcfn_walk *w, const struct src_cost *rows, size_t n, uint64_t nlines,
		     bool all, uint64_t ctx);
/* The next line to show in *line; false when there is none. */
bool srcfn_walk_next(struct srcfn_walk *w, uint64_t *line);

/*
 * One row of the source screen: a source line, a call made on it, or an
 * instruction. When the file is not found, the rows start with the paths
 * tried (SROW_TRIED), so that the screen says where to put it.
 */
enum src_row_kind { SROW_LINE, SROW_CALL, SROW_INSN, SROW_GAP, SROW_TRIED };

struct src_row {
	enum src_row_kind kind;
	uint64_t where;              /* line number, address, or index into text.tried */
	const struct src_cost *cost; /* self cost (LINE, INSN) or the call (CALL); may be NULL */
};

/* The source screen of one function: one of its files, or its instructions. */
struct srcview {
	struct srcfn fn;
	bool instr; /* the instruction view */
	uint32_t event;
	size_t file; /* index into fn.files */
	struct source_text text;
	bool found; /* text holds the file */
	struct disasm dis;
	char note[300];   /* why there is no source or no disassembly */
	bool only_costly; /* lines with cost and CONTEXT lines around them */
	struct src_row *rows;
	size_t rows_alloc;
	struct nav nav;
	int hscroll; /* columns the text is scrolled left */
};

#define SRCVIEW_CONTEXT 3

/*
 * Open fn's source (or instructions), its calls at their shares (shares:
 * graph.h); the cursor starts on the hottest row. watch (may be NULL) can
 * stop the disassembly (disasm.h).
 */
void srcview_open(struct srcview *v, const struct profile *p, struct call_shares *shares,
		  uint32_t fn, const struct source_paths *paths, bool instr, uint32_t event,
		  int page, const struct disasm_watch *watch);
void srcview_close(struct srcview *v);
/* Show file number i of the function (inlined code lives in other files). */
void srcview_set_file(struct srcview *v, const struct source_paths *paths, size_t i, int page);
void srcview_toggle_costly(struct srcview *v, int page);
/* Move to the next (dir +1) or previous (-1) row with cost; false if none. */
bool srcview_next_costly(struct srcview *v, int dir, int page);
/* The function called on the selected row, or NCG_NONE. */
uint32_t srcview_callee(const struct srcview *v);

#endif
