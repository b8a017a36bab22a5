/*
 * history: the screens the user went through (the table, a function's
 * callers and callees, call trees), each with its cursor and scroll and, for
 * a tree, what is expanded. Back and forward move through them, as a web
 * browser's history does; opening a screen drops the ones ahead.
 */
#ifndef NCGRIND_HISTORY_H
#define NCGRIND_HISTORY_H

#include "ncgrind/calltree.h"
#include "ncgrind/detail.h"
#include "ncgrind/nav.h"
#include "ncgrind/srcview.h"

/* The first four kinds keep their state here; a later kind is SCREEN_OWN. */
enum screen_kind { SCREEN_TABLE, SCREEN_DETAIL, SCREEN_TREE, SCREEN_SOURCE, SCREEN_OWN };

struct screen {
	enum screen_kind kind;
	struct detail detail; /* SCREEN_DETAIL */
	struct calltree tree; /* SCREEN_TREE */
	struct srcview src;   /* SCREEN_SOURCE */
	struct nav nav;       /* SCREEN_TREE: over tree.visible */
	/* SCREEN_OWN: the kind's own state and operations (opaque here), and its release */
	void *state;
	const void *ops;
	void (*release)(void *state);
};

struct history {
	struct screen *screens;
	size_t n, alloc, cur;
};

/* Starts with the table screen, which is never dropped. */
void hist_init(struct history *h);
void hist_release(struct history *h);
/* A new, zeroed screen after the current one; those ahead are released. */
struct screen *hist_push(struct history *h, enum screen_kind kind);
bool hist_back(struct history *h);
/* Drop the current screen (and those ahead of it) and go back; false on the first. */
bool hist_close(struct history *h);
bool hist_forward(struct history *h);

static inline struct screen *hist_current(struct history *h)
{
	return &h->screens[h->cur];
}

#endif
