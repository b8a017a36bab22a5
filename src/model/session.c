/*
 * session: one profile, its messages, its call graph and its filters.
 */
#include "ncgrind/model/session.h"

#include <stdlib.h>

void session_begin(struct session *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	profile_init(&s->prof, path);
	diag_init(&s->diag, path);
	filters_init(&s->filters);
}

void session_ready(struct session *s)
{
	callgraph_init(&s->graph, &s->prof);
	s->keep = xcalloc(s->prof.nfuncs + 1, sizeof(bool));
	s->loaded = true;
}

int session_load(struct session *s, const char *path, const struct parse_opts *o)
{
	session_begin(s, path);
	if (parse_profile(&s->prof, path, &s->diag, o) < 0)
		return -1;
	session_ready(s);
	return 0;
}

void session_release(struct session *s)
{
	if (s->loaded) {
		callgraph_release(&s->graph);
		free(s->keep);
	}
	filters_release(&s->filters);
	diag_release(&s->diag);
	profile_release(&s->prof);
	memset(s, 0, sizeof(*s));
}
