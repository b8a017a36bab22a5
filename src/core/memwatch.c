/*
 * memwatch: a thread reads /proc/self/statm every millisecond. Resident
 * less shared pages (the mapped files) is the anonymous memory, RssAnon of
 * /proc/self/status; statm is one short line, read with pread on a file
 * kept open: a few microseconds a sample, well below what is measured.
 */
#define _GNU_SOURCE /* pread, O_CLOEXEC under -std=c11 */
#include "ncgrind/core/memwatch.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static struct {
	pthread_t thread;
	int fd;
	bool running;
	atomic_bool stop;
	atomic_long peak_kb;
} watch = {.fd = -1};

/* Anonymous memory now, in kB, or -1. */
static long anon_kb(int fd)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	unsigned long size, resident, shared;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%lu %lu %lu", &size, &resident, &shared) != 3 || shared > resident)
		return -1;
	return (long)((resident - shared) * (unsigned long)sysconf(_SC_PAGESIZE) / 1024);
}

static void note(long kb)
{
	if (kb > atomic_load(&watch.peak_kb))
		atomic_store(&watch.peak_kb, kb); /* one writer: this thread, then the stopper */
}

static void *watch_main(void *arg)
{
	const struct timespec ms = {0, 1000000};
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the main thread's */
	while (!atomic_load(&watch.stop)) {
		note(anon_kb(watch.fd));
		nanosleep(&ms, NULL);
	}
	return NULL;
}

bool memwatch_start(void)
{
	if (watch.running)
		return true;
	watch.fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (watch.fd < 0)
		return false;
	atomic_store(&watch.stop, false);
	atomic_store(&watch.peak_kb, anon_kb(watch.fd));
	if (pthread_create(&watch.thread, NULL, watch_main, NULL) != 0) {
		close(watch.fd);
		watch.fd = -1;
		return false;
	}
	watch.running = true;
	return true;
}

long memwatch_stop(void)
{
	if (!watch.running)
		return -1;
	atomic_store(&watch.stop, true);
	pthread_join(watch.thread, NULL);
	note(anon_kb(watch.fd)); /* the last moment too */
	close(watch.fd);
	watch.fd = -1;
	watch.running = false;
	return atomic_load(&watch.peak_kb);
}

long memwatch_anon_kb(void)
{
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	long kb;

	if (fd < 0)
		return -1;
	kb = anon_kb(fd);
	close(fd);
	return kb;
}
