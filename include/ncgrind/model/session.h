/*
 * session: what one profile (of one or several files) brings, loaded once by the same code for the
 * batch reports and the browser: the index, the messages about the file, the
 * call graph, and the filters with their verdict per function. The browser's
 * :open loads a new session and, if that works, puts it in the old one's
 * place (the filters the user gave go with it).
 */
#ifndef NCGRIND_SESSION_H
#define NCGRIND_SESSION_H

#include "ncgrind/model/filter.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/parse.h"

struct session {
	struct profile prof;
	struct diag diag; /* what reading the file said */
	struct callgraph graph;
	struct filters filters; /* filter, focus, ignore, hide */
	bool *keep;             /* the filters' verdict per function (nfuncs + 1) */
	bool loaded;            /* keep is there, and the graph or session_graph() */
	bool graph_made;        /* graph is there */
};

/*
 * Read the n files (standard input for "-") into s, as one profile; o may
 * be NULL, as for parse_profile() (its defaults, no --event formulas).
 * Returns -1 when nothing could be read: s->diag says why; release s
 * either way.
 */
int session_load(struct session *s, char *const *paths, size_t n, const struct parse_opts *o);
/*
 * session_load() less the call graph, which session_graph() makes when it
 * is first asked for: a report of the functions wants none, and on a
 * 5 GiB profile it took 0.03 s and 13,000 page faults.
 */
int session_load_lean(struct session *s, char *const *paths, size_t n, const struct parse_opts *o);
struct callgraph *session_graph(struct session *s);
/*
 * The same in two steps, for a profile read while the browser shows it:
 * an empty session to read into (session_begin), then, once the profile is
 * finished, its filters (session_ready); its graph is made when a screen
 * first asks for it (session_graph).
 */
void session_begin(struct session *s, char *const *paths, size_t n);
/*
 * Between the two: the profile from its kept index (cache.h), when there
 * is one; true when it is read (then session_ready(), no parse).
 */
bool session_load_kept(struct session *s);
/* Keep the index of a profile just read, for the next open (cache_save). */
void session_keep(struct session *s);
void session_ready(struct session *s);
/*
 * Only the parts with sel[part] count (profile_select_parts, on jobs
 * threads, telling progress); the graph follows. False when progress
 * stopped it: nothing changed.
 */
bool session_select_parts(struct session *s, const bool *sel, unsigned jobs,
			  const struct profile_progress *progress);
void session_release(struct session *s);

#endif
