/*
 * map: fstat first, then mmap a regular file; anything else (a pipe, a
 * terminal, "-") is read into a growing buffer. The data is never copied
 * after that: every name in the index is a span into it.
 */
#define _DEFAULT_SOURCE
#include "ncgrind/core/map.h"
#include "ncgrind/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_all(int fd, char **out, size_t *outsize, char *err, size_t errsize)
{
	char *buf = NULL;
	size_t nr = 0, alloc = 0;

	for (;;) {
		ssize_t n;

		ALLOC_GROW(buf, nr + 65536, alloc);
		n = read(fd, buf + nr, alloc - nr);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errsize, "%s", strerror(errno));
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		nr += (size_t)n;
	}
	*out = buf;
	*outsize = nr;
	return 0;
}

/* Split off an unterminated last line into m->tail, with '\n' appended. */
static void split_tail(struct map *m)
{
	size_t end = m->size;

	if (end == 0 || m->data[end - 1] == '\n')
		return;
	while (end > 0 && m->data[end - 1] != '\n')
		end--;
	m->tail_size = m->size - end + 1;
	m->tail = xmalloc(m->tail_size);
	memcpy(m->tail, m->data + end, m->tail_size - 1);
	m->tail[m->tail_size - 1] = '\n';
	m->size = end;
}

static int map_fd(struct map *m, int fd, const struct stat *st, char *err, size_t errsize)
{
	if (S_ISREG(st->st_mode)) {
		void *p;

		if (st->st_size == 0)
			return 0;
		p = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			snprintf(err, errsize, "cannot map: %s", strerror(errno));
			return -1;
		}
		m->data = p;
		m->size = (size_t)st->st_size;
		m->mapped = true;
	} else if (S_ISDIR(st->st_mode)) {
		snprintf(err, errsize, "is a directory");
		return -1;
	} else {
		char *buf;
		size_t n;

		if (read_all(fd, &buf, &n, err, errsize) < 0)
			return -1;
		m->data = buf;
		m->size = n;
	}
	m->file_size = m->size;
	split_tail(m);
	return 0;
}

int map_open(struct map *m, const char *path, char *err, size_t errsize)
{
	struct stat st;
	int fd, ret;
	bool is_stdin = strcmp(path, "-") == 0;

	memset(m, 0, sizeof(*m));
	fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsize, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errsize, "%s", strerror(errno));
		ret = -1;
	} else {
		ret = map_fd(m, fd, &st, err, errsize);
	}
	if (!is_stdin)
		close(fd);
	return ret;
}

void map_advise_sequential(const struct map *m, bool on)
{
	if (m->mapped && m->size)
		madvise((void *)m->data, m->size, on ? MADV_SEQUENTIAL : MADV_NORMAL);
}

void map_release(struct map *m)
{
	if (m->mapped)
		munmap((void *)m->data, m->size + (m->tail ? m->tail_size - 1 : 0));
	else
		free((void *)m->data);
	free(m->tail);
	memset(m, 0, sizeof(*m));
}
