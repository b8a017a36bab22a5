/*
 * disasm: objdump -d on a few ranges, read through a pipe. posix_spawnp, not
 * system() or popen(): the object's path goes to objdump as one argument,
 * whatever characters it holds, after "--", whatever it starts with. The
 * pipe is polled, so that a watch can stop objdump while it thinks (it reads
 * a large object's symbols before its first line), and the instructions kept
 * are bounded.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/model/disasm.h"
#include "ncgrind/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* "  401126:\tmov    %rdi,%rax" -> address and text. */
static void parse_line(struct disasm *d, char *line)
{
	char *end, *text;
	uint64_t addr;

	while (*line == ' ')
		line++;
	addr = strtoull(line, &end, 16);
	if (end == line || *end != ':' || end[1] != '\t')
		return;
	text = end + 2;
	text[strcspn(text, "\n")] = '\0';
	while (*text == ' ' || *text == '\t')
		text++;
	if (!*text)
		return;
	ALLOC_GROW(d->insns, d->n + 1, d->alloc);
	d->insns[d->n].addr = addr;
	d->insns[d->n].text = xstrdup(text);
	d->n++;
}

/* One objdump at work on one range, its output read as it comes. */
struct objdump {
	pid_t pid;
	int fd;
	size_t len;     /* bytes of an unfinished line in buf */
	bool skipping;  /* a line longer than buf: its rest is dropped */
	char buf[4096]; /* (an instruction's line is far shorter) */
};

/*
 * objdump's stop address, one past the range. objdump takes a stop not
 * above the start as no stop at all (to the end of the object): the range
 * that cannot have one, [2^64 - 1, 2^64 - 1], is not asked.
 */
static uint64_t range_stop(const struct disasm_range *r)
{
	return r->hi < UINT64_MAX ? r->hi + 1 : r->hi;
}

static int objdump_start(struct objdump *o, const char *object, const struct disasm_range *r,
			 char *err, size_t errsize)
{
	char start[40], stop[40], prog[] = "objdump", dis[] = "-d", raw[] = "--no-show-raw-insn";
	char end[] = "--"; /* the path comes from the profile: "-x" is a file, not an option */
	char *path = xstrdup(object); /* posix_spawn's argv is not const */
	char *argv[] = {prog, dis, raw, start, stop, end, path, NULL};
	posix_spawn_file_actions_t fa;
	int pipefd[2], ret;

	snprintf(start, sizeof(start), "--start-address=0x%" PRIx64, r->lo);
	snprintf(stop, sizeof(stop), "--stop-address=0x%" PRIx64, range_stop(r));
	if (pipe(pipefd) < 0) {
		snprintf(err, errsize, "pipe: %s", strerror(errno));
		free(path);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	ret = posix_spawnp(&o->pid, "objdump", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(path);
	close(pipefd[1]);
	if (ret != 0) {
		close(pipefd[0]);
		snprintf(err, errsize, "objdump is not available (%s)", strerror(ret));
		return -1;
	}
	o->fd = pipefd[0];
	o->len = 0;
	o->skipping = false;
	return 0;
}

/* The whole lines in o->buf into d (up to DISASM_MAX_INSNS: then d->cut). */
static void objdump_lines(struct objdump *o, struct disasm *d)
{
	char *at = o->buf, *nl;

	while (!d->cut && (nl = memchr(at, '\n', o->len - (size_t)(at - o->buf)))) {
		*nl = '\0';
		if (!o->skipping)
			parse_line(d, at);
		o->skipping = false;
		at = nl + 1;
		d->cut = d->n >= DISASM_MAX_INSNS;
	}
	o->len -= (size_t)(at - o->buf);
	memmove(o->buf, at, o->len);
	if (o->len == sizeof(o->buf) - 1) {
		o->skipping = true;
		o->len = 0;
	}
}

/*
 * What objdump has written within a tenth of a second (so that the watch is
 * asked even while it thinks): false at its end or at the limit.
 */
static bool objdump_read(struct objdump *o, struct disasm *d)
{
	struct pollfd pfd = {.fd = o->fd, .events = POLLIN};
	ssize_t got;

	if (poll(&pfd, 1, 100) == 0)
		return true;
	got = read(o->fd, o->buf + o->len, sizeof(o->buf) - 1 - o->len);
	if (got < 0)
		return errno == EINTR || errno == EAGAIN;
	if (got == 0)
		return false;
	o->len += (size_t)got;
	objdump_lines(o, d);
	return !d->cut;
}

/* objdump's end: killed when what it has left to say is not wanted. */
static void objdump_end(struct objdump *o, bool kill_it)
{
	int status;

	if (kill_it)
		kill(o->pid, SIGTERM);
	close(o->fd);
	while (waitpid(o->pid, &status, 0) < 0 && errno == EINTR)
		;
}

int disasm_load(struct disasm *d, const char *object, const struct disasm_range *r, size_t n,
		const struct disasm_watch *w, char *err, size_t errsize)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	if (!object || !*object || stat(object, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errsize, "the object file '%s' is not here", object ? object : "");
		return -1;
	}
	for (size_t i = 0; i < n && !d->cut && !d->stopped; i++) {
		struct objdump o;

		if (range_stop(&r[i]) <= r[i].lo)
			continue;
		if (objdump_start(&o, object, &r[i], err, errsize) < 0)
			return -1;
		while (objdump_read(&o, d))
			if (w && w->stop && w->stop(w->ctx, d->n)) {
				d->stopped = true;
				break;
			}
		objdump_end(&o, d->cut || d->stopped);
	}
	if (!d->n && !d->stopped) {
		snprintf(err, errsize, "objdump found no instructions there");
		return -1;
	}
	return 0;
}

void disasm_release(struct disasm *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->insns[i].text);
	free(d->insns);
	memset(d, 0, sizeof(*d));
}

const char *disasm_at(const struct disasm *d, uint64_t addr)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d->insns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->n && d->insns[lo].addr == addr ? d->insns[lo].text : NULL;
}
