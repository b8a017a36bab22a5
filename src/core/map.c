/*
 * map: fstat first, then mmap a regular file; a pipe or standard input is
 * read into a growing buffer, up to a bound; devices and directories are
 * refused. The data is never copied after that: every name in the index is
 * a span into it.
 *
 * A mapping is laid out in an address range one byte longer than the file,
 * so that an unterminated last line gets its '\n' in place (in the zero
 * tail of the last page, or in one anonymous page after it) instead of
 * being copied: a 5 GB "last line" costs nothing.
 *
 * A file that shrinks under its mapping (another program truncates or
 * rewrites it) makes the next read past its new end raise SIGBUS. The
 * handler replaces the pages from there on with zeros, marks the map
 * changed and returns: the read goes on, sees NUL bytes ending in '\n', and
 * the program can say so and reload instead of dying.
 */
#define _DEFAULT_SOURCE
#include "ncgrind/core/map.h"
#include "ncgrind/core/decompress.h"
#include "ncgrind/core/sniff.h"
#include "ncgrind/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the guard ---------------------------------------------------------- */

#define MAX_GUARDED 1024 /* files open at once: every file of a run of many dumps */

/* The mapped ranges the SIGBUS handler may repair (the struct map itself may move). */
static struct guarded {
	char *volatile base;
	volatile size_t len, file_size;
	volatile sig_atomic_t changed;
} guarded[MAX_GUARDED];
static size_t page_size;
static struct sigaction previous_bus;
static bool bus_caught;

/* Async-signal-safe: only mmap and plain stores. */
bool map_fault(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	for (size_t i = 0; i < MAX_GUARDED; i++) {
		struct guarded *g = &guarded[i];
		uintptr_t base = (uintptr_t)g->base, page;

		if (!g->base || a < base || a >= base + g->len)
			continue;
		page = a & ~(uintptr_t)(page_size - 1);
		if (mmap((void *)page, base + g->len - page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			return false;
		/* the lines still end: the last byte of the range is a '\n' again */
		if (base + g->file_size >= page)
			g->base[g->file_size] = '\n';
		g->changed = 1;
		return true;
	}
	return false;
}

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	if (si->si_code > 0 && map_fault(si->si_addr))
		return; /* the read is done again, on zeros */
	/* not ours: whoever caught it before (the terminal's guard), or the default */
	if (previous_bus.sa_flags & SA_SIGINFO) {
		previous_bus.sa_sigaction(sig, si, uctx);
	} else if (previous_bus.sa_handler != SIG_DFL && previous_bus.sa_handler != SIG_IGN) {
		previous_bus.sa_handler(sig);
	} else {
		signal(sig, SIG_DFL);
		if (si->si_code <= 0)
			raise(sig);
	}
}

static void catch_bus(void)
{
	struct sigaction sa;

	if (bus_caught)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &previous_bus);
	bus_caught = true;
}

static int guard_add(char *base, size_t len, size_t file_size)
{
	catch_bus();
	for (int i = 0; i < MAX_GUARDED; i++)
		if (!guarded[i].base) {
			guarded[i].len = len;
			guarded[i].file_size = file_size;
			guarded[i].changed = 0;
			guarded[i].base = base; /* last: the handler reads base first */
			return i;
		}
	return -1; /* unguarded: a shrinking file ends the program, as before */
}

bool map_changed(const struct map *m)
{
	return m->mapped && m->guard >= 0 && guarded[m->guard].changed;
}

bool map_outdated(const struct map *m, const char *path)
{
	struct stat st;

	if (map_changed(m))
		return true;
	if (!m->regular)
		return false;
	if (stat(path, &st) < 0)
		return true; /* removed or renamed away */
	return (uint64_t)st.st_dev != m->dev || (uint64_t)st.st_ino != m->ino ||
	       (int64_t)st.st_size != m->st_size || (int64_t)st.st_mtim.tv_sec != m->mtime_s ||
	       (int64_t)st.st_mtim.tv_nsec != m->mtime_ns;
}

/* What map_outdated() compares with, from the stat of the file opened. */
static void remember_stat(struct map *m, const struct stat *st)
{
	m->regular = true;
	m->dev = (uint64_t)st->st_dev, m->ino = (uint64_t)st->st_ino;
	m->st_size = (int64_t)st->st_size;
	m->mtime_s = (int64_t)st->st_mtim.tv_sec, m->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
}

/* ---- opening ------------------------------------------------------------ */

/*
 * What the bytes read so far from a pipe say: a compressed stream is
 * decompressed (and sniffed) whole; a plain one is read no further than a
 * first line that is no profile's.
 */
static enum sniff pipe_sniff(const char *buf, size_t n)
{
	if (n < 6)
		return SNIFF_MORE; /* (xz's magic is 6 bytes) */
	if (decompress_detect(buf, n) != COMP_NONE)
		return SNIFF_PROFILE;
	return sniff_profile(buf, n);
}

#define WATCH_MS 100 /* between two questions to w->reading while a pipe is silent */

/*
 * Until fd has bytes (or its end, or an error, for read() to say), asking
 * w whether to stop: false when it says so. Without w, read() just blocks.
 */
static bool wait_readable(int fd, const struct map_watch *w, size_t nr)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	if (!w || !w->reading)
		return true;
	for (;;) {
		int r = poll(&p, 1, WATCH_MS);

		if (w->reading(w->ctx, nr))
			return false;
		/* EINTR (a resize): ask again, a read() now could block for good */
		if (r > 0 || (r < 0 && errno != EINTR))
			return true;
	}
}

static int read_all(int fd, size_t max, const struct map_watch *w, struct map *m, char *err,
		    size_t errsize)
{
	char *buf = NULL;
	size_t nr = 0, alloc = 0;
	enum sniff sniffed = SNIFF_MORE;

	while (sniffed == SNIFF_MORE || sniffed == SNIFF_PROFILE) {
		ssize_t n;

		if (!wait_readable(fd, w, nr)) {
			snprintf(err, errsize, "stopped after %zu bytes, before the end", nr);
			free(buf);
			return MAP_STOPPED;
		}
		if (nr > max) {
			snprintf(err, errsize,
				 "more than %zu MiB from a pipe: save it to a file and open that "
				 "(a file is mapped, not read into memory)",
				 max >> 20);
			free(buf);
			return -1;
		}
		ALLOC_GROW(buf, nr + 65536, alloc);
		n = read(fd, buf + nr, alloc - nr - 1); /* room for a final '\n' */
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
		if (sniffed == SNIFF_MORE)
			sniffed = pipe_sniff(buf, nr);
	}
	if (sniffed == SNIFF_NO_LINE)
		snprintf(m->warn, sizeof(m->warn),
			 "no profile line in the first %zu MiB: read no further", SNIFF_MAX >> 20);
	m->size = m->file_size = nr;
	if (nr && buf[nr - 1] != '\n')
		buf[m->size++] = '\n';
	m->data = buf;
	return 0;
}

/* Half the memory of the machine: a profile read from a pipe is held whole. */
static size_t pipe_max(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || size <= 0)
		return (size_t)4 << 30;
	return (size_t)pages / 2 * (size_t)size;
}

/* The file in a range of file_size + 1 bytes, the last one for a '\n'. */
static int map_file(struct map *m, int fd, size_t file_size, char *err, size_t errsize)
{
	size_t len = (file_size + 1 + page_size - 1) & ~(page_size - 1);
	char *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (base == MAP_FAILED || mmap(base, file_size, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
		snprintf(err, errsize, "cannot map: %s", strerror(errno));
		if (base != MAP_FAILED)
			munmap(base, len);
		return -1;
	}
	m->data = base;
	m->size = file_size;
	m->map_len = len;
	m->mapped = true;
	if (base[file_size - 1] != '\n')
		base[m->size++] = '\n'; /* copies one page, at most */
	mprotect(base, len, PROT_READ);
	m->guard = guard_add(base, len, file_size);
	return 0;
}

static int map_fd(struct map *m, int fd, const struct stat *st, bool is_stdin,
		  const struct map_watch *w, char *err, size_t errsize)
{
	if (S_ISREG(st->st_mode)) {
		m->file_size = (size_t)st->st_size;
		return st->st_size ? map_file(m, fd, (size_t)st->st_size, err, errsize) : 0;
	}
	if (S_ISDIR(st->st_mode)) {
		snprintf(err, errsize, "is a directory");
		return -1;
	}
	/* a device by name is refused (/dev/zero never ends); as standard input, read */
	if ((S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) && (!is_stdin || isatty(fd))) {
		snprintf(err, errsize, "%s",
			 is_stdin
			     ? "standard input is a terminal: give a profile file, or pipe one in"
			     : "is a device, not a profile");
		return -1;
	}
	return read_all(fd, pipe_max(), w, m, err, errsize);
}

/*
 * A compressed file (told by its first bytes) is replaced by what it
 * decompresses to, in memory: the parser and the lazy re-read see plain
 * lines. Line numbers in messages are those of the decompressed text, as
 * zcat FILE | less -N shows them.
 */
static int map_decompress(struct map *m, decompress_progress_fn progress, void *ctx, char *err,
			  size_t errsize)
{
	enum compression c = decompress_detect(m->data, m->file_size);
	struct decompressed d;
	size_t packed = m->file_size;
	char why[200];
	int ret;

	if (c == COMP_NONE)
		return 0;
	ret = decompress(c, m->data, packed, pipe_max(), progress, ctx, &d, why, sizeof(why));
	if (ret < 0) {
		snprintf(err, errsize, "%s: %s", decompress_name(c), why);
		return ret == DECOMPRESS_STOPPED ? MAP_STOPPED : -1;
	}
	map_release(m);
	m->data = d.data;
	m->size = m->file_size = d.size;
	if (d.size && d.data[d.size - 1] != '\n')
		d.data[m->size++] = '\n'; /* decompress() left room for it */
	m->compression = (int)c;
	m->packed_size = packed;
	if (d.warn[0])
		snprintf(m->warn, sizeof(m->warn), "%s: %s", decompress_name(c), d.warn);
	return 0;
}

int map_open_progress(struct map *m, const char *path, const struct map_watch *w, char *err,
		      size_t errsize)
{
	struct stat st;
	int fd, ret;
	bool is_stdin = strcmp(path, "-") == 0;

	memset(m, 0, sizeof(*m));
	m->guard = -1;
	if (!page_size)
		page_size = (size_t)sysconf(_SC_PAGESIZE);
	/* O_NONBLOCK: a FIFO with no writer must not hang open(); reads block again below */
	fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errsize, "%s", strerror(errno));
		return -1;
	}
	if (!is_stdin)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (fstat(fd, &st) < 0) {
		snprintf(err, errsize, "%s", strerror(errno));
		ret = -1;
	} else {
		ret = map_fd(m, fd, &st, is_stdin, w, err, errsize);
	}
	if (!is_stdin)
		close(fd);
	if (ret == 0 && m->file_size)
		ret = map_decompress(m, w ? w->unpacking : NULL, w ? w->ctx : NULL, err, errsize);
	if (ret < 0)
		map_release(m);
	else if (!is_stdin && S_ISREG(st.st_mode))
		remember_stat(m, &st);
	return ret;
}

void map_advise_sequential(const struct map *m, bool on)
{
	if (m->mapped && m->size)
		madvise((void *)m->data, m->size, on ? MADV_SEQUENTIAL : MADV_NORMAL);
}

#define UNMAP_SPLIT (512u << 20) /* a mapping this long is let go of by two threads */

struct unmap_half {
	char *base;
	size_t len;
};

static void drop_pages(void *arg)
{
	struct unmap_half *h = arg;

	madvise(h->base, h->len, MADV_DONTNEED);
}

/*
 * Unmapping a file's pages takes one thread a while (0.12 - 0.17 s for
 * 5 GB, in every exit and reload), and munmap() holds the mapping lock
 * for writing: no two can share the work. MADV_DONTNEED drops a mapping's
 * pages under the lock for reading, so two threads drop a half each, and
 * the unmap is left with nothing to do (0.07 - 0.09 s).
 */
static void unmap_file(char *base, size_t len)
{
	struct unmap_half h = {base + len / 2 / page_size * page_size, 0};
	struct side_work second;

	if (len >= UNMAP_SPLIT) {
		h.len = (size_t)(base + len - h.base);
		side_work_start(&second, drop_pages, &h, true);
		madvise(base, (size_t)(h.base - base), MADV_DONTNEED);
		side_work_join(&second);
	}
	munmap(base, len);
}

void map_release(struct map *m)
{
	if (m->mapped) {
		if (m->guard >= 0)
			guarded[m->guard].base = NULL;
		unmap_file((char *)m->data, m->map_len);
	} else {
		free((void *)m->data);
	}
	memset(m, 0, sizeof(*m));
	m->guard = -1;
}
