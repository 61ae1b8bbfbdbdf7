// SPDX-License-Identifier: GPL-2.0
/* The names of the directories a replay looks into (replay.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/replay.h"

int dirset_init(struct dirset *ds, int rootfd)
{
	ds->rootfd = rootfd;
	return pathset_init(&ds->ps, 64);
}

void dirset_free(struct dirset *ds)
{
	pathset_free(&ds->ps);
}

static struct pathset_item *item(struct dirset *ds, const char *p, size_t n)
{
	return (struct pathset_item *)pathset_lookup_n(&ds->ps, p, n);
}

/* set p's record (added if new) */
static int put(struct dirset *ds, const char *p, int type, uint64_t flags)
{
	const struct pathset_item *old;
	int rc = pathset_add(&ds->ps, p, flags, type, &old);

	if (rc == -EEXIST) {
		struct pathset_item *it = (struct pathset_item *)old;

		it->type = type;
		it->idx = flags;
		rc = 0;
	}
	return rc;
}

/* every name of the directory dir (len bytes of it) */
static int list(struct dirset *ds, const char *dir, size_t len)
{
	char d[4096], p[4096 + 256];
	char buf[32768];
	struct stat st;
	int fd, rc = 0;
	ssize_t n;

	if (len >= sizeof(d))
		return -ENAMETOOLONG;
	memcpy(d, dir, len);
	d[len] = '\0';
	fd = dirset_open_beneath(ds->rootfd, d, len, DIRSET_DIR);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out;
	}
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(buf + off);
			const char *nm = de->d_name;

			off += de->d_reclen;
			if (nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2])))
				continue;
			if (len)
				memcpy(p, d, len);
			p[len] = '/';
			strcpy(p + len + !!len, nm);
			/* DT_UNKNOWN: -1, "look with lstat" */
			rc = put(ds, p, de->d_type == DT_UNKNOWN ? -1 : de->d_type, 0);
			if (rc)
				goto out;
		}
	}
	if (n < 0) {
		rc = -errno;
		goto out;
	}
	rc = put(ds, d, DT_DIR, DIRSET_LISTED |
		 (st.st_mode & S_ISGID ? DIRSET_SGID : 0));
out:
	close(fd);
	return rc;
}

int dirset_type(struct dirset *ds, const char *rel, size_t len, bool *sgid)
{
	const char *slash = memrchr(rel, '/', len);
	size_t dl = slash ? (size_t)(slash - rel) : 0;
	const struct pathset_item *d = item(ds, rel, dl), *it;
	int rc;

	if (!d || !(d->idx & DIRSET_LISTED)) {
		rc = list(ds, rel, dl);
		if (rc)
			return rc;
		d = item(ds, rel, dl);
	}
	*sgid = d->idx & DIRSET_SGID;
	it = item(ds, rel, len);
	return it ? it->type : 0;
}

void dirset_note(struct dirset *ds, const char *rel, unsigned type,
		 bool empty, bool sgid)
{
	/* out of memory: the name is looked up with lstat next time */
	put(ds, rel, (int)type, empty ? DIRSET_LISTED | (sgid ? DIRSET_SGID : 0) : 0);
}
