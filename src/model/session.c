/*
 * session: one profile, its messages, its call graph and its filters.
 */
#include "ncgrind/model/session.h"

#include <stdlib.h>

int session_load(struct session *s, const char *path, const struct parse_progress *progress)
{
	memset(s, 0, sizeof(*s));
	profile_init(&s->prof, path);
	diag_init(&s->diag, path);
	filters_init(&s->filters);
	if (parse_profile(&s->prof, path, &s->diag, progress) < 0)
		return -1;
	callgraph_init(&s->graph, &s->prof);
	s->keep = xcalloc(s->prof.nfuncs + 1, sizeof(bool));
	s->loaded = true;
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
