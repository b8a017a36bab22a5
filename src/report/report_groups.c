/*
 * report_groups: --dump=functions --group=object|file|class|cycle, one row
 * per group (model/groups.c): its functions, and its self and inclusive
 * cost in each event shown, sorted as --sort says; only the functions the
 * filters keep count, and the head says which filters those are.
 */
#include "ncgrind/report/views.h"
#include "ncgrind/core/escape.h"
#include "ncgrind/model/fmt.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static bool filtered(const struct report_opts *o)
{
	return o->filtered_by && *o->filtered_by;
}

static void put_group_name(FILE *out, const struct group *g, const struct report_opts *o)
{
	struct span s = span_make(g->name, strlen(g->name));

	if (o->format == REPORT_JSON)
		report_put_json_string(out, s);
	else
		report_put_name(out, s, o->format == REPORT_TSV, o->terminal);
}

/* A value of event e: a count, or a ratio's decimal (its millionths). */
static void put_value(FILE *out, const struct profile *p, uint32_t e, uint64_t v)
{
	char buf[32];

	if (p->events[e].ratio)
		fputs(report_ratio(buf, sizeof(buf), v) > 0 ? buf : "", out);
	else
		fprintf(out, "%" PRIu64, v);
}

static void tsv_group(FILE *out, const struct profile *p, const struct group *g,
		      const struct report_opts *o)
{
	put_group_name(out, g, o);
	fprintf(out, "\t%" PRIu32, g->nfuncs);
	for (int incl = 0; incl < 2; incl++)
		for (uint32_t i = 0; i < o->nevents; i++) {
			fputc('\t', out);
			put_value(out, p, o->events[i], (incl ? g->incl : g->self)[o->events[i]]);
		}
	fputc('\n', out);
}

static void json_group(FILE *out, const struct profile *p, const struct group *g,
		       const struct report_opts *o)
{
	fputs("{\"name\":", out);
	put_group_name(out, g, o);
	fprintf(out, ",\"functions\":%" PRIu32 ",\"self\":", g->nfuncs);
	report_put_json_costs(out, p, o, g->self);
	fputs(",\"incl\":", out);
	report_put_json_costs(out, p, o, g->incl);
	fputc('}', out);
}

static void text_group(FILE *out, const struct profile *p, const struct group *g,
		       const struct report_opts *o)
{
	char num[FMT_NUM];

	for (int incl = 1; incl >= 0; incl--)
		for (uint32_t i = 0; i < o->nevents; i++) {
			uint32_t e = o->events[i];
			uint64_t v = (incl ? g->incl : g->self)[e];

			if (p->events[e].ratio)
				fprintf(out, "%15s %9s  ", fmt_value(num, v, false, FMT_RATIO), "");
			else
				fprintf(out, "%15s (%6.2f%%)  ", fmt_commas(num, v),
					p->totals[e] ? 100.0 * (double)v / (double)p->totals[e]
						     : 0.0);
		}
	fprintf(out, "%9" PRIu32 "  ", g->nfuncs);
	put_group_name(out, g, o);
	fputc('\n', out);
}

int report_groups(FILE *out, const struct profile *p, const struct report_opts *o,
		  enum group_kind kind)
{
	struct groups g;
	size_t *order;

	groups_build(&g, p, kind, o->keep);
	order = groups_order(&g, o->sort_event, o->sort == SORT_INCL, o->sort == SORT_NAME);
	if (o->format == REPORT_TSV) {
		fputs("group\tfunctions", out);
		for (int incl = 0; incl < 2; incl++)
			for (uint32_t i = 0; i < o->nevents; i++) {
				fputs(incl ? "\tincl:" : "\tself:", out);
				report_put_name(out, p->events[o->events[i]].name, true,
						o->terminal);
			}
		fputc('\n', out);
	} else if (o->format == REPORT_JSON) {
		/* the head of the other json reports: the profile, its events, its totals */
		report_put_json_head(out, p, o);
		fprintf(out, ",\"group\":\"%s\",\"filters\":", groups_kind_name(kind));
		if (filtered(o))
			report_put_json_string(out,
					       span_make(o->filtered_by, strlen(o->filtered_by)));
		else
			fputs("null", out);
		fputs(",\"groups\":[", out);
	} else {
		fprintf(out,
			"Functions grouped by %s: self cost and the calls out of the group "
			"(inclusive)\n",
			groups_kind_name(kind));
		if (filtered(o)) {
			fputs("Filters:     ", out);
			report_put_text(out, span_make(o->filtered_by, strlen(o->filtered_by)));
			fputc('\n', out);
		}
		for (int incl = 1; incl >= 0; incl--)
			for (uint32_t i = 0; i < o->nevents; i++) {
				char ev[64]; /* (escaped: the profile's bytes never reach the output
						raw) */

				escape_copy(ev, 16, p->events[o->events[i]].name);
				fprintf(out, "%15s %-5s   ", ev, incl ? "incl" : "self");
			}
		fprintf(out, "%9s  %s\n", "functions", groups_kind_name(kind));
	}
	for (size_t i = 0; i < g.n; i++) {
		const struct group *gr = &g.v[order[i]];

		if (o->format == REPORT_TSV) {
			tsv_group(out, p, gr, o);
		} else if (o->format == REPORT_JSON) {
			fputs(i ? ",\n" : "\n", out);
			json_group(out, p, gr, o);
		} else {
			text_group(out, p, gr, o);
		}
	}
	if (o->format == REPORT_JSON)
		fputs("]}\n", out);
	free(order);
	groups_release(&g);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
