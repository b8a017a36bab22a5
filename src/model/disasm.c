/*
 * disasm: objdump -d on a range, read through a pipe. posix_spawnp, not
 * system() or popen(): the object's path goes to objdump as one argument,
 * whatever characters it holds, after "--", whatever it starts with.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/model/disasm.h"
#include "ncgrind/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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

static int run_objdump(struct disasm *d, const char *object, uint64_t lo, uint64_t hi, char *err,
		       size_t errsize)
{
	char start[40], stop[40], prog[] = "objdump", dis[] = "-d", raw[] = "--no-show-raw-insn";
	char end[] = "--"; /* the path comes from the profile: "-x" is a file, not an option */
	char *path = xstrdup(object); /* posix_spawn's argv is not const */
	char *argv[] = {prog, dis, raw, start, stop, end, path, NULL};
	posix_spawn_file_actions_t fa;
	int pipefd[2], status, r;
	pid_t pid;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;

	snprintf(start, sizeof(start), "--start-address=0x%" PRIx64, lo);
	snprintf(stop, sizeof(stop), "--stop-address=0x%" PRIx64, hi < UINT64_MAX ? hi + 1 : hi);
	if (pipe(pipefd) < 0) {
		snprintf(err, errsize, "pipe: %s", strerror(errno));
		free(path);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	r = posix_spawnp(&pid, "objdump", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(path);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		snprintf(err, errsize, "objdump is not available (%s)", strerror(r));
		return -1;
	}
	f = fdopen(pipefd[0], "r");
	while (f && getline(&line, &cap, f) >= 0)
		parse_line(d, line);
	free(line);
	if (f)
		fclose(f);
	else
		close(pipefd[0]);
	waitpid(pid, &status, 0);
	if (!d->n) {
		snprintf(err, errsize, "objdump found no instructions there");
		return -1;
	}
	return 0;
}

int disasm_load(struct disasm *d, const char *object, uint64_t lo, uint64_t hi, char *err,
		size_t errsize)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	if (!object || !*object || stat(object, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errsize, "the object file '%s' is not here", object ? object : "");
		return -1;
	}
	return run_objdump(d, object, lo, hi, err, errsize);
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
