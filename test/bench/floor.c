/*
 * floor: the least any reader of a profile must do. mmap the file and count
 * its lines with one memchr per line. `make bench` runs it beside ncgrind so
 * that ncgrind's time is read as a ratio to this floor on the same machine.
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct stat st;
	const char *p, *end;
	unsigned long lines = 0;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: floor FILE\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	if (st.st_size == 0) { /* mmap rejects a zero length */
		printf("0\n");
		return 0;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (end = p + st.st_size; p < end; lines++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		p = nl ? nl + 1 : end;
	}
	printf("%lu\n", lines);
	return 0;
}
