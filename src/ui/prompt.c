/*
 * prompt: libedit on a pseudo-terminal of our own (see prompt.h for why).
 * Keys go into a small queue that EL_GETCFN reads; after each key
 * el_wgets() returns (EL_UNBUFFERED), libedit's output to the pty is read
 * back and dropped, and the browser draws el_line() itself.
 */
#define _DEFAULT_SOURCE
#include "ncgrind/ui/prompt.h"
#include "ncgrind/core/util.h"

#include <curses.h> /* KEY_* codes only: term.c is the curses user */
#include <errno.h>
#include <fcntl.h>
#include <histedit.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#define HISTORY_SIZE 1000
#define QUEUE 16

struct prompt {
	EditLine *el;
	History *hist;
	int master, slave;
	FILE *in, *out;
	wchar_t queue[QUEUE]; /* the key being fed, as libedit reads it */
	size_t qhead, qlen;
	char *history;
	prompt_complete_fn complete;
	void *ctx;
	char *text; /* the line, UTF-8 */
	size_t text_alloc;
	char hint[512];
	int history_steps; /* Up minus Down since the line began (0: not in the history) */
};

static int read_key(EditLine *el, wchar_t *c)
{
	struct prompt *p;

	el_get(el, EL_CLIENTDATA, &p);
	if (!p->qlen)
		return 0; /* nothing more now: el_wgets() returns */
	*c = p->queue[p->qhead++];
	p->qlen--;
	return 1;
}

static char *no_prompt(EditLine *el)
{
	static char empty[] = "";

	(void)el;
	return empty; /* the browser draws its own ":" */
}

/* Tab: complete through the browser's callback, which finds the word itself. */
static unsigned char complete(EditLine *el, int ch)
{
	struct prompt *p;
	const LineInfo *li = el_line(el);
	char *line, insert[1024];

	(void)ch;
	el_get(el, EL_CLIENTDATA, &p);
	line = xmemdup0(li->buffer, (size_t)(li->cursor - li->buffer));
	insert[0] = p->hint[0] = '\0';
	if (p->complete)
		p->complete(p->ctx, line, insert, sizeof(insert), p->hint, sizeof(p->hint));
	free(line);
	if (insert[0] && el_insertstr(el, insert) < 0)
		return CC_ERROR;
	return CC_REFRESH;
}

/* Drop what libedit wrote to its terminal: nobody reads it, and it must not fill up. */
static void drain(struct prompt *p)
{
	char buf[4096];

	fflush(p->out);
	while (read(p->master, buf, sizeof(buf)) > 0)
		;
}

static int open_pty(struct prompt *p, char *err, size_t errsize)
{
	if (openpty(&p->master, &p->slave, NULL, NULL, NULL) < 0) {
		snprintf(err, errsize, "cannot open a pseudo-terminal for the prompt: %s",
			 strerror(errno));
		return -1;
	}
	fcntl(p->master, F_SETFL, fcntl(p->master, F_GETFL) | O_NONBLOCK);
	fcntl(p->master, F_SETFD, FD_CLOEXEC);
	fcntl(p->slave, F_SETFD, FD_CLOEXEC);
	p->in = fdopen(p->slave, "r");
	p->out = fdopen(dup(p->slave), "w");
	if (!p->in || !p->out) {
		snprintf(err, errsize, "cannot use the prompt's pseudo-terminal");
		return -1;
	}
	return 0;
}

static void load_history(struct prompt *p)
{
	HistEvent ev;

	p->hist = history_init();
	history(p->hist, &ev, H_SETSIZE, HISTORY_SIZE);
	history(p->hist, &ev, H_SETUNIQUE, 1);
	if (p->history)
		history(p->hist, &ev, H_LOAD, p->history);
}

struct prompt *prompt_new(const char *history_path, prompt_complete_fn complete_fn, void *ctx,
			  char *err, size_t errsize)
{
	struct prompt *p = xcalloc(1, sizeof(*p));

	p->master = p->slave = -1;
	p->complete = complete_fn;
	p->ctx = ctx;
	p->history = history_path ? xstrdup(history_path) : NULL;
	if (open_pty(p, err, errsize) < 0) {
		prompt_free(p);
		return NULL;
	}
	load_history(p);
	p->el = el_init("ncgrind", p->in, p->out, p->out);
	if (!p->el) {
		snprintf(err, errsize, "libedit would not start");
		prompt_free(p);
		return NULL;
	}
	el_set(p->el, EL_CLIENTDATA, p);
	el_set(p->el, EL_EDITOR, "emacs");
	el_set(p->el, EL_PROMPT, no_prompt);
	el_set(p->el, EL_HIST, history, p->hist);
	el_set(p->el, EL_GETCFN, read_key);
	el_set(p->el, EL_ADDFN, "ncgrind-complete", "complete a command, event or function",
	       complete);
	el_set(p->el, EL_BIND, "^I", "ncgrind-complete", NULL);
	/*
	 * The sequences queue_key() sends, bound whatever TERM says: libedit binds
	 * the arrows from the terminal's description, which may have none (dumb).
	 */
	el_set(p->el, EL_BIND, "\033[A", "ed-prev-history", NULL);
	el_set(p->el, EL_BIND, "\033[B", "ed-next-history", NULL);
	el_set(p->el, EL_BIND, "\033[C", "ed-next-char", NULL);
	el_set(p->el, EL_BIND, "\033[D", "ed-prev-char", NULL);
	el_set(p->el, EL_BIND, "\033[H", "ed-move-to-beg", NULL);
	el_set(p->el, EL_BIND, "\033[F", "ed-move-to-end", NULL);
	el_set(p->el, EL_BIND, "\033[3~", "ed-delete-next-char", NULL);
	/* C-r: the last line of the history that starts with what is typed */
	el_set(p->el, EL_BIND, "^R", "ed-search-prev-history", NULL);
	el_set(p->el, EL_UNBUFFERED, 1);
	el_source(p->el, NULL); /* ~/.editrc, as every libedit program reads it */
	drain(p);
	return p;
}

static void save_history(struct prompt *p)
{
	HistEvent ev;
	char *dir, *tmp;
	FILE *f;
	int fd;
	bool saved;

	if (!p->history || !p->hist)
		return;
	/* mkdir -p of the history's directory */
	dir = xstrdup(p->history);
	for (char *s = dir + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(dir, 0700);
			*s = '/';
		}
	free(dir);
	/*
	 * A new file beside it, renamed over it: a symbolic link put at the
	 * history's path is replaced, not followed (H_SAVE would write through
	 * it, to whatever it points at), and a crash leaves the old history.
	 */
	tmp = xmalloc(strlen(p->history) + 8);
	sprintf(tmp, "%s.XXXXXX", p->history);
	fd = mkstemp(tmp);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return;
	}
	saved = history(p->hist, &ev, H_SAVE_FP, f) >= 0;
	if (fclose(f) != 0 || !saved || rename(tmp, p->history) < 0)
		unlink(tmp);
	free(tmp);
}

void prompt_free(struct prompt *p)
{
	if (!p)
		return;
	save_history(p);
	if (p->el)
		el_end(p->el);
	if (p->hist)
		history_end(p->hist);
	if (p->in)
		fclose(p->in);
	else if (p->slave >= 0)
		close(p->slave);
	if (p->out)
		fclose(p->out);
	if (p->master >= 0)
		close(p->master);
	free(p->history);
	free(p->text);
	free(p);
}

void prompt_begin(struct prompt *p)
{
	const LineInfoW *li = el_wline(p->el);

	p->hint[0] = '\0';
	p->history_steps = 0;
	/*
	 * An empty line: kill what the last edit left. Counted in characters
	 * (el_wline), not bytes: el_deletestr() deletes nothing when asked for
	 * more characters than the line has, and "数据" is 2 but 6 bytes.
	 */
	el_cursor(p->el, (int)(li->lastchar - li->cursor));
	li = el_wline(p->el);
	el_deletestr(p->el, (int)(li->cursor - li->buffer));
	drain(p);
}

/* The sequence libedit binds for a key (its vt100 arrows), or the key itself. */
static void queue_key(struct prompt *p, int key)
{
	static const struct {
		int key;
		const char *seq;
	} seqs[] = {
	    {KEY_LEFT, "\033[D"}, {KEY_RIGHT, "\033[C"},   {KEY_UP, "\033[A"},
	    {KEY_DOWN, "\033[B"}, {KEY_HOME, "\033[H"},    {KEY_END, "\033[F"},
	    {KEY_DC, "\033[3~"},  {KEY_BACKSPACE, "\177"}, {KEY_ENTER, "\n"},
	};

	p->qhead = p->qlen = 0;
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		if (seqs[i].key == key) {
			for (const char *s = seqs[i].seq; *s && p->qlen < QUEUE; s++)
				p->queue[p->qlen++] = (wchar_t)*s;
			return;
		}
	p->queue[p->qlen++] = (wchar_t)(key >= 0x1000000 ? key - 0x1000000 : key);
}

/*
 * Up and Down (C-p, C-n) walk the history. libedit's Down below the newest
 * entry empties the line; readline and the shells keep it, and so do we:
 * false for a Down that would leave the history.
 */
static bool history_step(struct prompt *p, int key)
{
	HistEvent ev;

	if (key == KEY_UP || key == 0x10) {
		if (history(p->hist, &ev, H_GETSIZE) == 0 && p->history_steps < ev.num)
			p->history_steps++;
	} else if (key == KEY_DOWN || key == 0x0e) {
		if (p->history_steps == 0)
			return false;
		p->history_steps--;
	}
	return true;
}

static bool line_empty(struct prompt *p)
{
	const LineInfo *li = el_line(p->el);

	return li->lastchar == li->buffer;
}

enum prompt_result prompt_key(struct prompt *p, int key, const char **line)
{
	const wchar_t *got;
	int count = 0;

	if (key == 27 || key == 7) /* Esc, C-g */
		return PROMPT_CANCEL;
	if ((key == KEY_BACKSPACE || key == 127 || key == 8) && line_empty(p))
		return PROMPT_CANCEL; /* as in vi and less: not a key for the screen below */
	if (!history_step(p, key))
		return PROMPT_EDITING;
	if (key > 0xff && key < 0x1000000 && key != KEY_LEFT && key != KEY_RIGHT && key != KEY_UP &&
	    key != KEY_DOWN && key != KEY_HOME && key != KEY_END && key != KEY_DC &&
	    key != KEY_BACKSPACE && key != KEY_ENTER)
		return PROMPT_EDITING; /* a key libedit has no use for */
	queue_key(p, key == '\r' ? '\n' : key);
	got = el_wgets(p->el, &count);
	drain(p);
	if (got && count > 0 && got[count - 1] == L'\n') {
		HistEvent ev;
		size_t n = wcstombs(NULL, got, 0);

		if (n == (size_t)-1)
			n = 0;
		ALLOC_GROW(p->text, n + 1, p->text_alloc);
		wcstombs(p->text, got, n + 1);
		p->text[n && p->text[n - 1] == '\n' ? n - 1 : n] = '\0';
		if (p->text[0])
			history(p->hist, &ev, H_ENTER, p->text);
		p->history_steps = 0;
		*line = p->text;
		return PROMPT_DONE;
	}
	return PROMPT_EDITING;
}

const char *prompt_text(struct prompt *p, size_t *cursor)
{
	const LineInfo *li = el_line(p->el);
	size_t len = (size_t)(li->lastchar - li->buffer);

	ALLOC_GROW(p->text, len + 1, p->text_alloc);
	memcpy(p->text, li->buffer, len);
	p->text[len] = '\0';
	*cursor = (size_t)(li->cursor - li->buffer);
	return p->text;
}

const char *prompt_hint(const struct prompt *p)
{
	return p->hint;
}

char *prompt_history_path(const char *name)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char *path;

	if (state && *state) {
		path = xmalloc(strlen(state) + strlen(name) + 32);
		sprintf(path, "%s/ncgrind/%s", state, name);
	} else if (home && *home) {
		path = xmalloc(strlen(home) + strlen(name) + 48);
		sprintf(path, "%s/.local/state/ncgrind/%s", home, name);
	} else {
		return NULL;
	}
	return path;
}
