/*
 * lex: the rare paths of the tokenizer (hex, 20-digit numbers, names).
 */
#include "ncgrind/core/lex.h"

#define B LEX_BLANK
#define D (LEX_DIGIT | LEX_COST)
const unsigned char lex_class[256] = {
    ['\t'] = B, ['\r'] = B, [' '] = B,        ['\n'] = LEX_EOL, ['0'] = D,        ['1'] = D,
    ['2'] = D,  ['3'] = D,  ['4'] = D,        ['5'] = D,        ['6'] = D,        ['7'] = D,
    ['8'] = D,  ['9'] = D,  ['+'] = LEX_COST, ['-'] = LEX_COST, ['*'] = LEX_COST,
};
#undef B
#undef D

/* A hex digit's value plus one, 0 for any other byte: one load instead of three tests. */
#define H(c, v) [c] = (v) + 1
const unsigned char lex_hex_plus1[256] = {
    H('0', 0),  H('1', 1),  H('2', 2),  H('3', 3),  H('4', 4),  H('5', 5),  H('6', 6),  H('7', 7),
    H('8', 8),  H('9', 9),  H('a', 10), H('b', 11), H('c', 12), H('d', 13), H('e', 14), H('f', 15),
    H('A', 10), H('B', 11), H('C', 12), H('D', 13), H('E', 14), H('F', 15),
};
#undef H

static unsigned hex_value(unsigned char c)
{
	return (unsigned)lex_hex_plus1[c] - 1u; /* UINT_MAX past the digits */
}

/* Hex ("0x1f") and long decimal numbers, with exact overflow detection. */
int lex_number_slow(const char **pp, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	bool overflow = false;

	if (*p < '0' || *p > '9')
		return LEX_NONE;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		unsigned d;

		p += 2;
		if (hex_value((unsigned char)*p) > 15)
			return LEX_BAD;
		for (; (d = hex_value((unsigned char)*p)) <= 15; p++) {
			overflow |= v >> 60 != 0;
			v = v << 4 | d;
		}
	} else {
		for (; *p >= '0' && *p <= '9'; p++)
			if (__builtin_mul_overflow(v, 10, &v) ||
			    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v))
				overflow = true;
	}
	if (!lex_is_delim(*p))
		return LEX_BAD;
	if (overflow)
		return LEX_OVERFLOW;
	*pp = p;
	*out = v;
	return LEX_OK;
}

int lex_number_to(const char **pp, uint64_t *out, char stop)
{
	const char *p = *pp;
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return LEX_NONE;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v))
			return LEX_OVERFLOW;
	if (*p != stop && !lex_is_delim(*p))
		return LEX_BAD;
	*pp = p;
	*out = v;
	return LEX_OK;
}

static struct span trim_name(const char *p, const char *end)
{
	/* "(id)" alone, most name lines, ends here; a name's end by memchr */
	const char *e = *p == '\n' ? p : lex_eol(p, end);

	if (!e) /* (a range ends in '\n': cannot happen) */
		e = end;
	/* CRLF: the '\r' belongs to the line end, not to the name. */
	if (e > p && e[-1] == '\r')
		e--;
	return span_make(p, (size_t)(e - p));
}

int lex_name(const char *p, const char *end, struct lex_name *out)
{
	p = lex_skip_blanks(p);
	if (p[0] == '(' && p[1] >= '0' && p[1] <= '9') {
		uint64_t id = 0;
		unsigned d;

		/* one compare a digit, the digit kept: a name line's id is most of its bytes */
		for (p++; (d = (unsigned)(unsigned char)*p - '0') <= 9; p++) {
			if (id > UINT32_MAX)
				return LEX_OVERFLOW;
			id = id * 10 + d;
		}
		if (*p != ')')
			return LEX_BAD;
		out->id = id;
		out->name = trim_name(lex_skip_blanks(p + 1), end);
		out->kind = out->name.len ? LEX_NAME_DEFINE : LEX_NAME_REF;
		return LEX_OK;
	}
	out->kind = LEX_NAME_PLAIN;
	out->id = 0;
	out->name = trim_name(p, end);
	return LEX_OK;
}
