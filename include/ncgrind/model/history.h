/*
 * history: the screens the user went through (the table, a function's
 * callers and callees, call trees, ...), each with its own state: cursor,
 * scroll, what is expanded. Back and forward move through them, as a web
 * browser's history does; opening a screen drops the ones ahead. The
 * history knows no kind of screen: each brings its operations (opaque here)
 * and the function that releases its state.
 */
#ifndef NCGRIND_HISTORY_H
#define NCGRIND_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

struct screen {
	const void *ops; /* the kind's operations (the ui's struct screen_ops) */
	void *state;     /* the kind's own state, or NULL */
	void (*release)(void *state);
};

struct history {
	struct screen *screens;
	size_t n, alloc, cur;
};

/* Starts with the first screen (the table), which is never dropped. */
void hist_init(struct history *h, const void *ops, void *state, void (*release)(void *state));
/* Release every screen's state, then the history. */
void hist_release(struct history *h);
/* A new screen after the current one; those ahead are released. */
struct screen *hist_push(struct history *h, const void *ops, void *state,
			 void (*release)(void *state));
bool hist_back(struct history *h);
/* Drop the current screen (and those ahead of it) and go back; false on the first. */
bool hist_close(struct history *h);
bool hist_forward(struct history *h);

static inline struct screen *hist_current(struct history *h)
{
	return &h->screens[h->cur];
}

#endif
