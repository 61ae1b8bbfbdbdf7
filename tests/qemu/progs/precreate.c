// SPDX-License-Identifier: GPL-2.0
/*
 * precreate: an unprivileged user who can write a directory creates a file
 * at a path the log holds but this host has not replayed yet, and keeps it
 * open for reading and writing (issue 15.5).  After root's famfs logplay,
 * that descriptor must not reach the logged file's memory.
 *
 *   precreate FILE READY GO
 *	as uid/gid 65534: open FILE (O_RDWR | O_CREAT | O_EXCL), create
 *	READY (as root did not: READY's directory is the caller's), wait
 *	until GO exists, then through the same descriptor: the size fstat
 *	reports and the first 4 KiB pread returns.  PASS precreated-fd-no-size
 *	if the file still has no size (it got no memory), PASS
 *	precreated-fd-reads-nothing if pread returns no bytes; FAIL with what
 *	it saw otherwise.
 */
#include "module_test.h"

int main(int argc, char **argv)
{
	char buf[4096];
	struct stat st;
	ssize_t n;
	int fd, rfd;

	if (argc != 4) {
		fprintf(stderr, "usage: precreate FILE READY GO\n");
		return 2;
	}
	rfd = open(argv[2], O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (rfd < 0 || setgid(65534) || setuid(65534)) {
		t_fail("precreated-setup", "READY %s / setuid: %s", argv[2],
		       strerror(errno));
		return 1;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		t_fail("precreated-setup", "%s: %s", argv[1], strerror(errno));
		return 1;
	}
	close(rfd);		/* READY exists: the file is created and open */
	while (access(argv[3], F_OK))
		usleep(20000);
	if (fstat(fd, &st))
		t_fail("precreated-fd-no-size", "fstat: %s", strerror(errno));
	else if (st.st_size)
		t_fail("precreated-fd-no-size", "the pre-created file got %lld bytes",
		       (long long)st.st_size);
	else
		t_pass("precreated-fd-no-size");
	n = pread(fd, buf, sizeof(buf), 0);
	if (n)
		t_fail("precreated-fd-reads-nothing",
		       "pread returned %zd (first byte 0x%02x): the logged file's memory",
		       n, n > 0 ? (unsigned char)buf[0] : 0);
	else
		t_pass("precreated-fd-reads-nothing");
	close(fd);
	return t_done(0);
}
