/*
 * ui_edit: e, the user's editor ($VISUAL, else $EDITOR, else vi) on a
 * source file at a line, started as tig's open_editor and git's
 * launch_editor start it: /bin/sh -c '$EDITOR "$@"' sh +LINE FILE. The
 * editor's value may carry arguments ("code --wait", "emacs -nw"), and the
 * file's name reaches it as one argument that no shell reads. The file is
 * found as the source screen finds it (source.h: --substitute-path, the
 * name, the profile's directory, -I); one not found is said, with where it
 * was looked for, rather than opened as an empty buffer. The terminal is
 * lent to the editor meanwhile (term_suspend), and taken back after it.
 */
#define _POSIX_C_SOURCE 200809L
#include "ui_internal.h"
#include "ncgrind/model/srcview.h"
#include "ncgrind/ui/term.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* $VISUAL, else $EDITOR, else vi; one set but empty counts as not set. */
static const char *editor_command(void)
{
	const char *e = getenv("VISUAL");

	if (!e || !*e)
		e = getenv("EDITOR");
	return e && *e ? e : "vi";
}

struct saved_signals {
	struct sigaction intr, quit, tstp;
};

/*
 * While the editor runs, as system() has it: Ctrl-C and C-\ are the
 * editor's (the terminal sends them to us too, and they would end the
 * browser); Ctrl-Z stops us with it (not curses' handler, which would
 * draw the browser over the editor), so that the shell's fg resumes both.
 */
static void signals_for_editor(struct saved_signals *old)
{
	struct sigaction ign, dfl;

	memset(&ign, 0, sizeof(ign));
	memset(&dfl, 0, sizeof(dfl));
	ign.sa_handler = SIG_IGN;
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&ign.sa_mask);
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGINT, &ign, &old->intr);
	sigaction(SIGQUIT, &ign, &old->quit);
	sigaction(SIGTSTP, &dfl, &old->tstp);
}

static void signals_restore(const struct saved_signals *old)
{
	sigaction(SIGINT, &old->intr, NULL);
	sigaction(SIGQUIT, &old->quit, NULL);
	sigaction(SIGTSTP, &old->tstp, NULL);
}

/*
 * Run editor on path at line, its standard input the keyboard (-1: ours as
 * it is); its wait status, or -1 with errno.
 */
static int run_editor(const char *editor, uint64_t line, const char *path, int keyboard)
{
	char *script = xmalloc(strlen(editor) + sizeof(" \"$@\""));
	char at[32];
	struct saved_signals old;
	int status = -1, err = 0;
	pid_t pid;

	sprintf(script, "%s \"$@\"", editor);
	snprintf(at, sizeof(at), "+%" PRIu64, line);
	fflush(stdout);
	fflush(stderr);
	signals_for_editor(&old);
	pid = fork();
	if (pid == 0) {
		/* our handlers become the default at exec; what was ignored stays so */
		signals_restore(&old);
		if (keyboard > STDIN_FILENO && dup2(keyboard, STDIN_FILENO) < 0)
			_exit(126);
		execl("/bin/sh", "sh", "-c", script, "sh", at, path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		err = errno;
	while (pid > 0 && waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			err = errno;
			status = -1;
			break;
		}
	}
	signals_restore(&old);
	free(script);
	errno = err;
	return status;
}

/* A failure of the editor, on the status line; nothing when it went well. */
static void tell_status(struct ui *u, const char *editor, int status, int err)
{
	if (status < 0)
		ui_message(u, true, "cannot run the editor '%s': %s", editor, strerror(err));
	else if (WIFSIGNALED(status))
		ui_message(u, true, "the editor '%s' was killed by signal %d", editor,
			   WTERMSIG(status));
	else if (WEXITSTATUS(status) == 127) /* the shell's: no such command */
		ui_message(u, true, "the editor '%s' was not found (exit status 127)", editor);
	else if (WEXITSTATUS(status) == 126)
		ui_message(u, true, "the editor '%s' could not be run (exit status 126)", editor);
	else if (WEXITSTATUS(status))
		ui_message(u, true, "the editor '%s' exited with status %d", editor,
			   WEXITSTATUS(status));
}

void ui_edit_path(struct ui *u, const char *path, uint64_t line)
{
	const char *editor = editor_command();
	char *safe = NULL;
	int keyboard, status, err;

	/* a relative name that starts with - or + would be an option to the editor */
	if (path[0] == '-' || path[0] == '+') {
		safe = xmalloc(strlen(path) + 3);
		sprintf(safe, "./%s", path);
		path = safe;
	}
	keyboard = term_suspend();
	status = run_editor(editor, line, path, keyboard);
	err = errno;
	term_resume();
	tell_status(u, editor, status, err);
	free(safe);
}

/* "a, b, c" (as many of the paths tried as fit, then …) into buf. */
static const char *tried_list(const struct source_text *t, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->ntried; i++) {
		size_t n = strlen(t->tried[i].path) + 2;

		if (len + n + sizeof("…") > size) {
			snprintf(buf + len, size - len, "%s…", i ? ", " : "");
			break;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
					t->tried[i].path);
	}
	return buf;
}

void ui_edit_text(struct ui *u, const char *name, const struct source_text *t, uint64_t line)
{
	char tried[140];

	if (t->path && line)
		ui_edit_path(u, t->path, line);
	else if (t->path)
		ui_message(u, false, "no line information here (the profile gives none)");
	else if (t->no_debug_info)
		ui_message(u, false,
			   "no source file: the code has no debug information "
			   "(compiled without -g?)");
	else if (source_refused(t))
		ui_message(u, false, "source not read: %s", source_refused(t));
	else
		ui_message(u, false, "%.60s not found (tried %s): -I DIR or --substitute-path",
			   name, tried_list(t, tried, sizeof(tried)));
}

void ui_edit_source(struct ui *u, const struct profile *p, uint32_t file, uint64_t line)
{
	struct source_text t;
	struct span name;
	char *n;

	if (file == NCG_NONE) {
		ui_message(u, false, "the profile names no source file here");
		return;
	}
	name = profile_name(p, file);
	n = xmemdup0(name.ptr, name.len);
	source_load(&t, u->sources, name);
	ui_edit_text(u, n, &t, line);
	source_release(&t);
	free(n);
}

void ui_edit_function(struct ui *u, uint32_t fn)
{
	struct srcfn s;

	srcfn_load(&s, &u->ses.prof, fn, false);
	if (!s.nfiles)
		ui_message(u, false, "the function has no cost lines: no line to open");
	else
		ui_edit_source(u, &u->ses.prof, s.files[0].file, srcfn_first_line(&s, 0));
	srcfn_release(&s);
}
