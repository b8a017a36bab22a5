/*
 * term: curses setup and teardown, colour (none with NO_COLOR or on a
 * monochrome terminal), painting a grid cell by cell, and signals: SIGINT
 * and SIGTERM restore the terminal before the process ends; ncurses itself
 * handles SIGTSTP (Ctrl-Z) and SIGWINCH (KEY_RESIZE).
 */
#define _XOPEN_SOURCE_EXTENDED 1
#define _XOPEN_SOURCE 700
#include "ncgrind/term.h"
#include "ncgrind/keys.h"
#include "ncgrind/util.h"

#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static bool term_active;
static attr_t attrs[ATTR_COUNT];

void term_close(void)
{
	if (!term_active)
		return;
	term_active = false;
	endwin();
}

static void on_signal(int sig)
{
	term_close();
	signal(sig, SIG_DFL);
	raise(sig);
}

static bool colour_wanted = true;

/* Colour pairs where the terminal has colour and the user did not say NO_COLOR. */
static void setup_attrs(void)
{
	const char *nc = getenv("NO_COLOR");
	bool color = term_active && has_colors() && !(nc && *nc) && colour_wanted;

	attrs[ATTR_NORMAL] = A_NORMAL;
	attrs[ATTR_TITLE] = A_BOLD;
	attrs[ATTR_HEAD] = A_BOLD | A_UNDERLINE;
	attrs[ATTR_CURSOR] = A_REVERSE;
	attrs[ATTR_STATUS] = A_REVERSE;
	attrs[ATTR_DIM] = A_DIM;
	attrs[ATTR_HOT] = A_BOLD;
	attrs[ATTR_ERROR] = A_BOLD | A_REVERSE;
	if (!color)
		return;
	start_color();
	use_default_colors();
	init_pair(1, COLOR_CYAN, -1);
	init_pair(2, COLOR_BLACK, COLOR_CYAN);
	init_pair(3, COLOR_YELLOW, -1);
	init_pair(4, COLOR_WHITE, COLOR_RED);
	init_pair(5, COLOR_BLUE, -1);
	attrs[ATTR_TITLE] = A_BOLD | COLOR_PAIR(1);
	attrs[ATTR_HEAD] = A_BOLD | COLOR_PAIR(5);
	attrs[ATTR_CURSOR] = COLOR_PAIR(2);
	attrs[ATTR_STATUS] = COLOR_PAIR(2);
	attrs[ATTR_HOT] = A_BOLD | COLOR_PAIR(3);
	attrs[ATTR_ERROR] = A_BOLD | COLOR_PAIR(4);
}

void term_set_colour(bool on)
{
	colour_wanted = on;
	if (term_active)
		setup_attrs();
}

int term_open(char *err, size_t errsize)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errsize, "the browser needs a terminal (use --dump=... for reports)");
		return -1;
	}
	if (!newterm(NULL, stdout, stdin)) {
		snprintf(err, errsize, "cannot use the terminal '%s'", getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	term_active = true;
	util_set_die_hook(term_close);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	setup_attrs();
	return 0;
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
			setcchar(&cc, wc, attrs[cell->attr], 0, NULL);
			mvadd_wch(r, c, &cc);
		}
	}
	refresh();
}

int term_read_key(void)
{
	wint_t wc;
	int r = get_wch(&wc);

	if (r == ERR)
		return -1;
	if (r == KEY_CODE_YES)
		return (int)wc;
	if (wc == '\r')
		return '\n';
	return KEYS_CHAR(wc);
}
