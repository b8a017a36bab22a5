/*
 * term: curses setup and teardown, colour (none with NO_COLOR or on a
 * monochrome terminal), painting a grid cell by cell, and signals. ncurses
 * handles SIGTSTP (Ctrl-Z) and SIGWINCH (KEY_RESIZE) itself. Every signal
 * that ends the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, and the crashes:
 * SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL) first gives the terminal back, as
 * less and tig do: a handler may not call endwin(), so it writes the reset
 * sequence worked out at start-up and restores the saved tty settings, two
 * async-signal-safe calls, then lets the signal take its course.
 * The mouse (set mouse on) is curses' events and SGR reports read here
 * (the comment before SGR_PREFIX says why), told to ui.c as KEYS_MOUSE
 * and a struct mouse_event.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#define _XOPEN_SOURCE 700
#include "ncgrind/ui/term.h"
#include "ncgrind/ui/keys.h"
#include "ncgrind/core/config.h"
#include "ncgrind/core/util.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static bool term_active;
static bool term_suspended; /* the terminal lent to another program (term_suspend) */
static attr_t attrs[ATTR_COUNT];

/* What a signal handler needs: filled in before curses starts, never freed. */
static volatile sig_atomic_t tty_saved;
static struct termios saved_tio;
/*
 * Where the keys come from: standard input, or /dev/tty when the profile
 * comes down a pipe (zcat x.gz | ncgrind -), as less reads them.
 */
static int in_fd = STDIN_FILENO;
static FILE *in_file;
static char reset_seq[256];
static size_t reset_len;

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV,
				    SIGBUS, SIGABRT, SIGFPE, SIGILL};
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction old_actions[NFATAL];

/*
 * The mouse. ncurses reads the terminal's reports and keeps its reporting
 * mode across endwin() and Ctrl-Z: mousemask() sends the terminfo entry's
 * XM (else ESC [?1000h), endwin() undoes it, the first refresh after a
 * suspension sends it again. The reports' format is what XM names: the
 * xterm entries ask for SGR 1006 (ESC [<b;x;yM, numbers without a limit),
 * but screen's and tmux's entries (the TERM inside tmux) and many more have
 * no XM, and ncurses then speaks X10 (ESC [M and three bytes, each 32 + 1 +
 * the number), whose columns end at 223. So where ncurses reads X10 (its
 * key_mouse is ESC [M and ESC [< is no key of the entry's), SGR is ours:
 * we ask for it (ESC [?1006h, beside ncurses' 1000), make its prefix ESC [<
 * a key with define_key(), and read the rest of the report (b;x;y, then M
 * for a press or m for a release) as the characters that follow the key.
 * A terminal that knows no 1006 keeps sending X10, which ncurses decodes.
 * Ours to undo is 1006 alone, on every way out: term_close(), a fatal
 * signal (the reset string), and Ctrl-Z (undone, then asked again).
 */
#define SGR_PREFIX "\033[<"
/* the prefix's key: past the codes ncurses gives an entry's own keys (KEY_MAX + their index) */
#define SGR_KEY (KEY_MAX + 0x400)
#define SGR_ON "\033[?1006h"
#define SGR_OFF "\033[?1006l"
#define MOUSE_OFF "\033[?1000l\033[?1006l" /* a fatal signal's: no reports, of either kind */
#define SGR_WAIT_MS 500    /* the rest of a report: with its prefix, or soon after on a slow line */
#define DOUBLE_CLICK_S 0.4 /* a second press at the same cell sooner: a double click */

static bool mouse_wanted;
static volatile sig_atomic_t mouse_on; /* the terminal reports (the handlers read it) */
static volatile sig_atomic_t sgr_on;   /* we asked for SGR: ours to undo */
static bool sgr_key;                   /* the prefix is our key */
static struct mouse_event mouse_last;
/* events read and not yet returned: ncurses gives a burst of reports at once */
#define MOUSE_QUEUE 8
static struct mouse_event mouse_queue[MOUSE_QUEUE];
static int mouse_queued;
static struct {
	double at;
	int row, col;
} last_press;
static int key_wait = -1;            /* the wait of the read under way: timeout()'s */
static struct sigaction curses_tstp; /* ncurses' Ctrl-Z handler, which ours calls */

/* Async-signal-safe: n bytes of s to the terminal. */
static void put_seq(const char *s, size_t n)
{
	if (write(STDOUT_FILENO, s, n) < 0)
		(void)0; /* nothing better to do: the terminal is gone */
}
#define PUT_SEQ(lit) put_seq(lit, sizeof(lit) - 1)

void term_close(void)
{
	if (!term_active)
		return;
	term_active = false;
	endwin(); /* (ncurses' mouse mode with it) */
	if (sgr_on)
		PUT_SEQ(SGR_OFF);
	mouse_on = sgr_on = 0;
}

/* Append a capability of the terminal to the reset sequence, if it has it. */
static void reset_add(const char *cap)
{
	char *s = tigetstr(cap);
	size_t n;

	if (!s || s == (char *)-1)
		return;
	n = strlen(s);
	if (reset_len + n < sizeof(reset_seq)) {
		memcpy(reset_seq + reset_len, s, n);
		reset_len += n;
	}
}

/* Async-signal-safe: the terminal as it was before curses. */
static void term_restore_from_signal(void)
{
	if (!term_active)
		return;
	term_active = false;
	if (reset_len)
		put_seq(reset_seq, reset_len);
	if (mouse_on)
		PUT_SEQ(MOUSE_OFF);
	if (tty_saved)
		tcsetattr(in_fd, TCSAFLUSH, &saved_tio);
}

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>

/* A sanitizer's report ends the process by its own path: give the terminal back first. */
static void on_sanitizer_death(void)
{
	term_restore_from_signal();
}
#endif

static void on_fatal_signal(int sig, siginfo_t *si, void *uctx)
{
	(void)uctx;
	term_restore_from_signal();
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &old_actions[i], NULL);
	/*
	 * A real fault (si_code > 0: the kernel's) happens again when the handler
	 * returns, now under the previous disposition (the default, or a
	 * sanitizer's, which then reports the right place); a signal sent by
	 * kill() or raise() must be sent again.
	 */
	if (si->si_code <= 0 || sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT)
		raise(sig);
}

/*
 * The dispositions before curses: newterm() puts its own handlers on SIGINT
 * and SIGTERM (which exit(1)), and ours must hand the signal on to the
 * process's own default, not to those.
 */
static void save_signal_actions(void)
{
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal_signals[i], NULL, &old_actions[i]);
}

/* Handlers for the signals that end the process, except those ignored (nohup). */
void term_child(void)
{
	/* the terminal is the parent's: a signal here must not restore it, nor Ctrl-Z stop it */
	for (size_t i = 0; i < NFATAL; i++)
		signal(fatal_signals[i], SIG_DFL);
	signal(SIGTSTP, SIG_DFL);
	signal(SIGWINCH, SIG_IGN);
	term_active = false;
}

static void catch_fatal_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		if (old_actions[i].sa_handler != SIG_IGN)
			sigaction(fatal_signals[i], &sa, NULL);
}

static bool colour_wanted = true;
static bool no_color_overridden; /* --color=always */

static void setup_attrs(void);

/* The areas a configuration file coloured (pairs 16 + area, above the defaults'). */
#define AREA_PAIRS 32
#define EDGE_PAIRS 16
static struct area_colour {
	bool set;
	int fg, bg;
	unsigned attrs; /* config.h's bits */
} areas[ATTR_COUNT];

static attr_t curses_attrs(unsigned bits)
{
	attr_t a = A_NORMAL;

	a |= bits & CONFIG_ATTR_BOLD ? A_BOLD : 0;
	a |= bits & CONFIG_ATTR_DIM ? A_DIM : 0;
	a |= bits & CONFIG_ATTR_UNDERLINE ? A_UNDERLINE : 0;
	a |= bits & CONFIG_ATTR_REVERSE ? A_REVERSE : 0;
	a |= bits & CONFIG_ATTR_BLINK ? A_BLINK : 0;
	a |= bits & CONFIG_ATTR_STANDOUT ? A_STANDOUT : 0;
#ifdef A_ITALIC
	a |= bits & CONFIG_ATTR_ITALIC ? A_ITALIC : 0;
#endif
	return a;
}

/* A colour the terminal has, or its default (a 256-colour number on an 8-colour one). */
static short usable(int c)
{
	return c >= 0 && c < COLORS ? (short)c : -1;
}

/* The configuration's colours over the defaults (colour: with pairs; else attributes). */
static void apply_areas(bool colour)
{
	for (int a = 0; a < ATTR_AREAS; a++) {
		const struct area_colour *c = &areas[a];

		if (!c->set)
			continue;
		if (!colour) {
			if (c->attrs)
				attrs[a] = curses_attrs(c->attrs);
			continue;
		}
		if (AREA_PAIRS + a >= COLOR_PAIRS)
			continue;
		init_pair((short)(AREA_PAIRS + a), usable(c->fg), usable(c->bg));
		attrs[a] = COLOR_PAIR(AREA_PAIRS + a) | curses_attrs(c->attrs);
	}
}

/* A flame frame's end: the area's background as the foreground (config.h's default -1). */
static const struct {
	enum grid_attr of, edge;
	short bg; /* the area's background by default */
} edges[] = {
    {ATTR_CURSOR, ATTR_EDGE_CURSOR, COLOR_CYAN},    {ATTR_MATCH, ATTR_EDGE_MATCH, COLOR_GREEN},
    {ATTR_FRAME1, ATTR_EDGE_FRAME1, COLOR_RED},     {ATTR_FRAME2, ATTR_EDGE_FRAME2, COLOR_YELLOW},
    {ATTR_FRAME3, ATTR_EDGE_FRAME3, COLOR_MAGENTA},
};

static void setup_edges(bool colour)
{
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		const struct area_colour *c = &areas[edges[i].of];
		short bg = c->set ? usable(c->bg) : edges[i].bg;

		if (!colour || bg < 0) { /* no colour to continue: the text's own */
			attrs[edges[i].edge] = A_NORMAL;
			continue;
		}
		init_pair((short)(EDGE_PAIRS + i), bg, -1);
		attrs[edges[i].edge] = COLOR_PAIR(EDGE_PAIRS + i);
	}
}

void term_set_area(enum grid_attr a, int fg, int bg, unsigned bits)
{
	if ((int)a < 0 || a >= ATTR_AREAS)
		return;
	areas[a] = (struct area_colour){true, fg, bg, bits};
	if (term_active)
		setup_attrs();
}

bool term_area(enum grid_attr a, int *fg, int *bg, unsigned *bits)
{
	if ((int)a < 0 || a >= ATTR_AREAS || !areas[a].set)
		return false;
	*fg = areas[a].fg, *bg = areas[a].bg, *bits = areas[a].attrs;
	return true;
}

bool term_colour_wanted(void)
{
	return colour_wanted;
}

void term_override_no_color(void)
{
	no_color_overridden = true;
}

bool term_no_color(void)
{
	const char *nc = getenv("NO_COLOR");

	return nc && *nc && !no_color_overridden;
}

/* Colour pairs where the terminal has colour and the user did not say NO_COLOR. */
static void setup_attrs(void)
{
	bool color = term_active && has_colors() && !term_no_color() && colour_wanted;

	attrs[ATTR_NORMAL] = A_NORMAL;
	attrs[ATTR_TITLE] = A_BOLD;
	attrs[ATTR_HEAD] = A_BOLD | A_UNDERLINE;
	attrs[ATTR_CURSOR] = A_REVERSE;
	attrs[ATTR_STATUS] = A_REVERSE;
	attrs[ATTR_DIM] = A_DIM;
	attrs[ATTR_HOT] = A_BOLD;
	attrs[ATTR_ERROR] = A_BOLD | A_REVERSE;
	/* without colour, frames alternate plain and underlined; a match is bold */
	attrs[ATTR_FRAME1] = A_NORMAL;
	attrs[ATTR_FRAME2] = A_UNDERLINE;
	attrs[ATTR_FRAME3] = A_NORMAL;
	attrs[ATTR_MATCH] = A_BOLD | A_UNDERLINE;
	attrs[ATTR_GROWN] = A_BOLD; /* the change's sign says which */
	attrs[ATTR_SHRUNK] = A_NORMAL;
	if (!color) {
		apply_areas(false);
		setup_edges(false);
		return;
	}
	start_color();
	use_default_colors();
	init_pair(1, COLOR_CYAN, -1);
	init_pair(2, COLOR_BLACK, COLOR_CYAN);
	init_pair(3, COLOR_YELLOW, -1);
	init_pair(4, COLOR_WHITE, COLOR_RED);
	init_pair(5, COLOR_BLUE, -1);
	init_pair(6, COLOR_BLACK, COLOR_RED);
	init_pair(7, COLOR_BLACK, COLOR_YELLOW);
	init_pair(8, COLOR_BLACK, COLOR_MAGENTA);
	init_pair(9, COLOR_BLACK, COLOR_GREEN);
	init_pair(10, COLOR_RED, -1);
	init_pair(11, COLOR_GREEN, -1);
	attrs[ATTR_TITLE] = A_BOLD | COLOR_PAIR(1);
	attrs[ATTR_HEAD] = A_BOLD | COLOR_PAIR(5);
	attrs[ATTR_CURSOR] = COLOR_PAIR(2);
	attrs[ATTR_STATUS] = COLOR_PAIR(2);
	attrs[ATTR_HOT] = A_BOLD | COLOR_PAIR(3);
	attrs[ATTR_ERROR] = A_BOLD | COLOR_PAIR(4);
	attrs[ATTR_FRAME1] = COLOR_PAIR(6);
	attrs[ATTR_FRAME2] = COLOR_PAIR(7);
	attrs[ATTR_FRAME3] = COLOR_PAIR(8);
	attrs[ATTR_MATCH] = A_BOLD | COLOR_PAIR(9);
	attrs[ATTR_GROWN] = COLOR_PAIR(10); /* more cost: red, as perf diff and tig's deletions */
	attrs[ATTR_SHRUNK] = COLOR_PAIR(11);
	apply_areas(true);
	setup_edges(true);
}

void term_set_colour(bool on)
{
	colour_wanted = on;
	if (term_active)
		setup_attrs();
}

/* Reports of presses of the left button and of the wheel: curses', and SGR's where ours. */
static bool mouse_start(void)
{
	if (!mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL))
		return false; /* (no mouse in the entry: vt100, dumb) */
	mouseinterval(0);     /* each press at once: a double click is told here */
	if (!sgr_key && key_defined("\033[M") == KEY_MOUSE && key_defined(SGR_PREFIX) == 0)
		sgr_key = define_key(SGR_PREFIX, SGR_KEY) == OK;
	if (sgr_key) {
		PUT_SEQ(SGR_ON);
		sgr_on = 1;
	}
	mouse_on = 1;
	return true;
}

static void mouse_stop(void)
{
	mousemask(0, NULL);
	if (sgr_on)
		PUT_SEQ(SGR_OFF);
	mouse_on = sgr_on = 0;
}

bool term_set_mouse(bool on)
{
	if (term_active && on && !mouse_on && !mouse_start())
		return false;
	if (term_active && !on && mouse_on)
		mouse_stop();
	mouse_wanted = on;
	return true;
}

bool term_mouse_wanted(void)
{
	return mouse_wanted;
}

struct mouse_event term_mouse(void)
{
	return mouse_last;
}

/*
 * Ctrl-Z: ncurses' handler ends curses (its mouse mode too), stops the
 * process and, once it goes on, takes the terminal again. SGR is ours to
 * undo before and to ask again after, for the shell's programs may have
 * changed the terminal's modes in between.
 */
static void on_suspend(int sig)
{
	int saved = errno;
	bool sgr = sgr_on;

	if (sgr)
		PUT_SEQ(SGR_OFF);
	curses_tstp.sa_handler(sig);
	if (sgr)
		PUT_SEQ(SGR_ON);
	errno = saved;
}

/* Ours around ncurses' Ctrl-Z handler, where it has one (SIGTSTP not ignored). */
static void wrap_suspend(void)
{
	struct sigaction sa;

	if (sigaction(SIGTSTP, NULL, &curses_tstp) != 0 || (curses_tstp.sa_flags & SA_SIGINFO) ||
	    curses_tstp.sa_handler == SIG_DFL || curses_tstp.sa_handler == SIG_IGN)
		return;
	sa = curses_tstp;
	sa.sa_handler = on_suspend;
	sigaction(SIGTSTP, &sa, NULL);
}

/*
 * Sequences that terminals send whatever their terminfo entry says: tmux and
 * screen send ESC [1~ for Home under TERM=xterm-256color, whose entry says
 * ESC OH. Unknown, the sequence would arrive as Esc, '[', '1', '~': Esc
 * closes a prompt and the rest are keys of their own.
 */
static void define_keys(void)
{
	static const struct {
		const char *seq;
		int key;
	} keys[] = {
	    {"\033[1~", KEY_HOME}, {"\033[7~", KEY_HOME},  {"\033[H", KEY_HOME},
	    {"\033OH", KEY_HOME},  {"\033[4~", KEY_END},   {"\033[8~", KEY_END},
	    {"\033[F", KEY_END},   {"\033OF", KEY_END},    {"\033[3~", KEY_DC},
	    {"\033[2~", KEY_IC},   {"\033[5~", KEY_PPAGE}, {"\033[6~", KEY_NPAGE},
	    {"\033[A", KEY_UP},    {"\033[B", KEY_DOWN},   {"\033[C", KEY_RIGHT},
	    {"\033[D", KEY_LEFT},  {"\033OA", KEY_UP},     {"\033OB", KEY_DOWN},
	    {"\033OC", KEY_RIGHT}, {"\033OD", KEY_LEFT},   {"\033[Z", KEY_BTAB},
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (key_defined(keys[i].seq) == 0)
			define_key(keys[i].seq, keys[i].key);
}

/*
 * Esc alone is told from the start of a key's escape sequence by the pause
 * after it, ncurses' ESCDELAY: a second by default, so Esc, which goes back
 * and closes prompts, seemed to do nothing for a second. A terminal sends a
 * sequence's bytes at once, so 25 ms is enough, as vim and tig set it. A
 * number in the ESCDELAY environment variable (ncurses reads it) still wins.
 */
static void set_esc_delay(void)
{
	const char *env = getenv("ESCDELAY");
	char *end;

	if (env && *env) {
		strtol(env, &end, 10);
		if (!*end)
			return;
	}
	set_escdelay(25);
}

/*
 * A terminal that cannot move its cursor (TERM=dumb, an emacs shell buffer)
 * cannot show a full-screen browser: say so before curses touches it.
 */
static int check_terminal(char *err, size_t errsize)
{
	const char *name = getenv("TERM");
	int rc = 0;
	char *cup;

	if (setupterm(NULL, STDOUT_FILENO, &rc) != OK) {
		snprintf(err, errsize, "the terminal '%s' is unknown to terminfo",
			 name ? name : "");
		return -1;
	}
	cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		snprintf(err, errsize, "the terminal '%s' cannot move its cursor",
			 name ? name : "");
		del_curterm(cur_term);
		return -1;
	}
	del_curterm(cur_term);
	return 0;
}

/* The keyboard: standard input if it is the terminal, else the process's terminal. */
static int open_keys(void)
{
	int fd;

	if (isatty(STDIN_FILENO)) {
		in_fd = STDIN_FILENO;
		in_file = stdin;
		return 0;
	}
	fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!isatty(fd) || !(in_file = fdopen(fd, "r"))) {
		close(fd);
		return -1;
	}
	in_fd = fd;
	return 0;
}

int term_open(char *err, size_t errsize)
{
	if (!isatty(STDOUT_FILENO) || open_keys() < 0) {
		snprintf(err, errsize, "the browser needs a terminal (use --dump=... for reports)");
		return TERM_NO_TTY;
	}
	if (check_terminal(err, errsize) < 0)
		return TERM_UNFIT;
	if (tcgetattr(in_fd, &saved_tio) == 0)
		tty_saved = 1;
	save_signal_actions();
	if (!newterm(NULL, stdout, in_file)) {
		snprintf(err, errsize, "cannot use the terminal '%s'",
			 getenv("TERM") ? getenv("TERM") : "");
		return TERM_UNFIT;
	}
	/* what endwin() would send, for a signal handler that may not call it */
	reset_len = 0;
	reset_add("sgr0");
	reset_add("rmkx");
	reset_add("cnorm");
	reset_add("rmcup");
	term_active = true;
	util_set_die_hook(term_close);
	catch_fatal_signals();
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_set_death_callback(on_sanitizer_death);
#endif
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	define_keys();
	set_esc_delay();
	curs_set(0);
	setup_attrs();
	wrap_suspend();
	if (mouse_wanted && !mouse_start())
		mouse_wanted = false;
	return 0;
}

int term_suspend(void)
{
	if (!term_active)
		return -1;
	def_prog_mode();
	endwin();   /* (ncurses' mouse mode with it: refresh() asks for it again) */
	if (sgr_on) /* ours to undo, as on Ctrl-Z: the editor must get no reports */
		PUT_SEQ(SGR_OFF);
	/* the terminal is the other program's: a signal that ends us leaves it alone */
	term_active = false;
	term_suspended = true;
	return in_fd;
}

void term_resume(void)
{
	if (!term_suspended)
		return;
	term_suspended = false;
	term_active = true;
	reset_prog_mode();
	/* the other program drew over every cell: forget what curses thinks is there */
	clearok(curscr, TRUE);
	refresh();
	if (sgr_on)
		PUT_SEQ(SGR_ON);
}

void term_size(int *rows, int *cols)
{
	getmaxyx(stdscr, *rows, *cols);
}

void term_paint(const struct grid *g)
{
	for (int r = 0; r < g->rows; r++) {
		for (int c = 0; c < g->cols; c++) {
			const struct grid_cell *cell = &g->cells[r * g->cols + c];
			wchar_t wc[2] = {cell->ch, 0};
			cchar_t cc;

			if (!cell->ch)
				continue; /* the right half of a wide character */
			/*
			 * setcchar's pair argument wins over the COLOR_PAIR bits of the
			 * attributes: give it the pair, or every cell is drawn in pair 0
			 * and the cursor row and status line lose their background.
			 */
			setcchar(&cc, wc, attrs[cell->attr] & ~A_COLOR,
				 (short)PAIR_NUMBER(attrs[cell->attr]), NULL);
			mvadd_wch(r, c, &cc);
		}
	}
	refresh();
}

int term_read_key_within(int ms)
{
	int key;

	timeout(ms);
	key_wait = ms;
	key = term_read_key();
	timeout(-1);
	key_wait = -1;
	return key;
}

static void mouse_push(enum mouse_kind kind, int row, int col)
{
	if (mouse_queued < MOUSE_QUEUE)
		mouse_queue[mouse_queued++] = (struct mouse_event){kind, row, col};
}

/* A press of the left button at (row, col): a click, or the second of a double click. */
static void mouse_press(int row, int col)
{
	double t = seconds_monotonic();
	bool twice =
	    t - last_press.at < DOUBLE_CLICK_S && row == last_press.row && col == last_press.col;

	mouse_push(twice ? MOUSE_DOUBLE_CLICK : MOUSE_CLICK, row, col);
	last_press.at = twice ? 0 : t; /* a third press is a click again */
	last_press.row = row, last_press.col = col;
}

/*
 * KEY_MOUSE: curses' events (X10, or SGR where the entry asks for it).
 * Reports that came together (a quick double click over a slow line) are
 * one KEY_MOUSE, and getmouse() gives them the newest first: taken all,
 * they are queued the oldest first.
 */
static void curses_events(void)
{
	MEVENT me[MOUSE_QUEUE];
	int n = 0;

	while (n < MOUSE_QUEUE && getmouse(&me[n]) == OK)
		n++;
	while (n-- > 0) {
		if (me[n].bstate & BUTTON4_PRESSED)
			mouse_push(MOUSE_WHEEL_UP, me[n].y, me[n].x);
		else if (me[n].bstate & BUTTON5_PRESSED)
			mouse_push(MOUSE_WHEEL_DOWN, me[n].y, me[n].x);
		else if (me[n].bstate & BUTTON1_PRESSED)
			mouse_press(me[n].y, me[n].x);
	}
}

/*
 * After our SGR prefix: b;x;y (x, y from 1), then M for a press or m for
 * a release. b: the button in its low two bits, +4 Shift, +8 Meta, +16
 * Ctrl, +32 a drag, +64 the wheel (64 up, 65 down). Only the left
 * button's presses and the wheel's are events.
 */
static void sgr_event(void)
{
	int v[3] = {0, 0, 0}, n = 0, digits = 0, b;
	wint_t wc, fin = 0;
	bool bad = false;

	timeout(SGR_WAIT_MS);
	for (int i = 0; i < 32 && get_wch(&wc) == OK; i++) { /* (a special key: no report) */
		if (wc >= '0' && wc <= '9') {
			bad |= ++digits > 6;
			v[n] = bad ? 0 : v[n] * 10 + (int)(wc - '0');
		} else if (wc == ';') {
			bad |= !digits || n == 2;
			n += n < 2;
			digits = 0;
		} else {
			fin = wc; /* the end of the report, whatever it is */
			break;
		}
	}
	timeout(key_wait);
	b = v[0] & ~(4 | 8 | 16); /* (Shift, Meta, Ctrl held: the same) */
	if (bad || fin != 'M' || n != 2 || !v[1] || !v[2])
		return; /* a release (m), or no report */
	if (b == 64 || b == 65)
		mouse_push(b == 65 ? MOUSE_WHEEL_DOWN : MOUSE_WHEEL_UP, v[2] - 1, v[1] - 1);
	else if (b == 0)
		mouse_press(v[2] - 1, v[1] - 1);
}

/* The oldest event queued, as term_mouse() gives it: KEYS_MOUSE; -1 when none is. */
static int mouse_pop(void)
{
	if (!mouse_queued)
		return -1;
	mouse_last = mouse_queue[0];
	memmove(mouse_queue, mouse_queue + 1, (size_t)--mouse_queued * sizeof(mouse_queue[0]));
	return KEYS_MOUSE;
}

int term_read_key(void)
{
	for (;;) {
		wint_t wc;
		int r;

		if (mouse_queued)
			return mouse_pop();
		r = get_wch(&wc);
		if (r == ERR)
			return -1;
		if (r == KEY_CODE_YES && wc == KEY_MOUSE) {
			curses_events();
			continue; /* (a release, another button: no event, the next key) */
		}
		if (r == KEY_CODE_YES && wc == SGR_KEY) {
			sgr_event();
			continue;
		}
		if (r == KEY_CODE_YES)
			return (int)wc;
		if (wc == '\r')
			return '\n';
		return KEYS_CHAR(wc);
	}
}
