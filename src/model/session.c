/*
 * session: one profile, its messages, its call graph and its filters.
 */
#include "ncgrind/model/session.h"
#include "ncgrind/core/cache.h"

#include <stdlib.h>

void session_begin(struct session *s, char *const *paths, size_t n)
{
	memset(s, 0, sizeof(*s));
	profile_init(&s->prof, NULL);
	for (size_t i = 0; i < n; i++)
		profile_add_source(&s->prof, paths[i]);
	diag_init(&s->diag, s->prof.path); /* the profile's copy: it lives as long */
	filters_init(&s->filters);
}

/*
 * The call graph is made when a screen first asks for it (session_graph()):
 * the table needs none, and made here it was 0.08 s of each open of a
 * profile of 1 million functions, before its first screen.
 */
void session_ready(struct session *s)
{
	s->keep = xcalloc(s->prof.nfuncs + 1, sizeof(bool));
	s->loaded = true;
}

struct callgraph *session_graph(struct session *s)
{
	if (!s->graph_made) {
		callgraph_init(&s->graph, &s->prof);
		s->graph_made = true;
	}
	return &s->graph;
}

int session_load_lean(struct session *s, char *const *paths, size_t n, const struct parse_opts *o)
{
	session_begin(s, paths, n);
	if (o) { /* NULL: parse_profile's defaults, and no events of the user's */
		s->prof.user_events = o->events;
		s->prof.nuser_events = o->nevents;
	}
	if (!session_load_kept(s) && parse_profile(&s->prof, &s->diag, o) < 0)
		return -1;
	session_ready(s);
	return 0;
}

int session_load(struct session *s, char *const *paths, size_t n, const struct parse_opts *o)
{
	int ret = session_load_lean(s, paths, n, o);

	if (!ret)
		session_graph(s);
	return ret;
}

bool session_load_kept(struct session *s)
{
	return cache_load(&s->prof);
}

void session_keep(struct session *s)
{
	if (s->loaded)
		cache_save(&s->prof, &s->diag);
}

bool session_select_parts(struct session *s, const bool *sel, unsigned jobs,
			  const struct profile_progress *progress)
{
	if (!profile_select_parts(&s->prof, sel, jobs, progress))
		return false; /* (stopped: the graph holds) */
	if (s->graph_made) {  /* the calls of the parts that count, no others */
		callgraph_release(&s->graph);
		callgraph_init(&s->graph, &s->prof);
	}
	return true;
}

void session_release(struct session *s)
{
	if (s->graph_made)
		callgraph_release(&s->graph);
	if (s->loaded)
		free(s->keep);
	filters_release(&s->filters);
	diag_release(&s->diag);
	profile_release(&s->prof);
	memset(s, 0, sizeof(*s));
}
