// SPDX-License-Identifier: GPL-2.0
/*
 * runas: run a command as another user (the guests' busybox has no
 * setpriv --reuid, and no users to su to).
 *
 *   runas UID CMD [ARG...]
 *	drop every supplementary group, then gid and uid UID (real,
 *	effective and saved), and exec CMD; exit 127 if that fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	unsigned long id;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID CMD [ARG...]\n");
		return 2;
	}
	id = strtoul(argv[1], &end, 10);
	if (*end || !*argv[1]) {
		fprintf(stderr, "runas: %s: not a uid\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setresgid((gid_t)id, (gid_t)id, (gid_t)id) ||
	    setresuid((uid_t)id, (uid_t)id, (uid_t)id)) {
		fprintf(stderr, "runas: %lu: %s\n", id, strerror(errno));
		return 127;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "runas: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
