/*
 * escape: the text of a profile made safe to show on a terminal. Names,
 * paths and source lines are bytes that a profile may set to anything; a
 * terminal acts on some of them instead of showing them: C0 controls (ESC
 * starts OSC 52, which sets the clipboard), DEL, C1 controls (U+009B is an
 * 8-bit CSI), the bidirectional overrides and isolates (which reorder what
 * follows them), and bytes that are not UTF-8 (0x9b alone is a CSI to a
 * terminal that is not in UTF-8). Each such unit is written as a visible
 * escape, as the browser's grid shows them: a byte as \xNN (C0, DEL, a byte
 * that is not part of valid UTF-8), a code point as \uXXXX (C1, bidi).
 */
#ifndef NCGRIND_ESCAPE_H
#define NCGRIND_ESCAPE_H

#include "ncgrind/core/util.h"

#include <stdarg.h>
#include <stdio.h>

#define ESCAPE_MAX 12 /* room for an escape ("\x9b", "\u202e") and its NUL */

/*
 * Length of the valid UTF-8 sequence at s (n > 0 bytes left), with its code
 * point in *cp; 0 when the byte at s does not start one (overlong forms and
 * surrogates are not valid).
 */
size_t escape_utf8(const char *s, size_t n, uint32_t *cp);

/* Whether a terminal would act on code point cp rather than show it (see above). */
bool escape_wanted(uint32_t cp);

/*
 * The next unit of s (n > 0 bytes): returns the bytes it takes, and writes
 * its visible escape to esc, or "" when the bytes are shown as they are.
 */
size_t escape_next(const char *s, size_t n, char esc[ESCAPE_MAX]);

/* s, every unit that a terminal would act on escaped. */
void escape_write(FILE *out, struct span s);

/*
 * s escaped into buf (size > 0 bytes, NUL-terminated, cut before a unit
 * that does not fit); returns the length.
 */
size_t escape_copy(char *buf, size_t size, struct span s);

/*
 * One message, as every message reaches standard error: fmt's text with
 * every unit escaped (a newline that a path holds too: one message is one
 * line), then a newline. The format's own text is plain ASCII; escaping the
 * whole of it means no argument (a name, a path, an option's value, a
 * message built elsewhere) can get past the rule.
 */
void escape_message(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void escape_vmessage(FILE *out, const char *fmt, va_list ap);

#endif
