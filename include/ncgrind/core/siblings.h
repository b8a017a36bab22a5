/*
 * siblings: the files of one Valgrind run. Callgrind names its output
 * callgrind.out.PID, and with dumps (--dump-every-bb, callgrind_control -d)
 * or threads (--separate-threads=yes) callgrind.out.PID.N, callgrind.out.PID-TT
 * and callgrind.out.PID.N-TT. Given one of them, the others of the same PID
 * in the same directory belong to the same run: exactly those (given
 * callgrind.out.1, not callgrind.out.12).
 */
#ifndef NCGRIND_SIBLINGS_H
#define NCGRIND_SIBLINGS_H

#include <stdbool.h>
#include <stddef.h>

struct file_key;

struct file_list {
	char **v; /* owned */
	size_t n, alloc;
	struct file_key *keys; /* what each is on disk, to find one named twice */
	size_t keys_alloc;
};

void files_release(struct file_list *l);
/* Adds path as given (no siblings); a file already in the list is not added twice. */
void files_add(struct file_list *l, const char *path);
/*
 * Adds path and, when its name is a Callgrind output name, the other
 * non-empty files of the same run beside it: dumps in their order, the
 * final one (no .N) last; threads in order within each. An empty file of
 * the run is left out (--separate-threads=yes leaves one), unless it is
 * all there is.
 */
void files_add_with_siblings(struct file_list *l, const char *path);
/*
 * The run of the newest non-empty callgrind.out.* in dir (with its
 * siblings, unless alone): false when there is none.
 */
bool files_add_newest(struct file_list *l, const char *dir, bool siblings);
/*
 * The files of one side of a diff: path with the other files of its run
 * (when siblings), unless that run is the other side's too (two threads of
 * one run compared): then path alone.
 */
void files_add_diff_side(struct file_list *files, const char *path, const char *other,
			 bool siblings);

#endif
