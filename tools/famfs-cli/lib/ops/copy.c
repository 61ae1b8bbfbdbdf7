// SPDX-License-Identifier: GPL-2.0
/*
 * famfs cp's copy of one source into a new famfs file.  A famfs file gets
 * its size at creation and cannot grow, so a source whose size is not
 * known up front -- a regular file that says 0 bytes but has data (/proc,
 * /sys, some FUSE files), a FIFO, a character device -- is read into
 * memory first, up to famfs_copy_unsized_max bytes, and the file is made
 * as large as what was read.  More than that is refused, naming the
 * source and the limit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ops/ops.h"

#define CP_CHUNK (1U << 20)

uint64_t famfs_copy_unsized_max = FAMFS_COPY_UNSIZED_MAX;

static const char *kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       "a file that reports 0 bytes";
}

/* Read in to EOF; more than max bytes: -EFBIG (message printed) */
static int slurp(int in, const char *src, mode_t m, uint64_t max,
		 char **out, uint64_t *len)
{
	uint64_t cap = 0, n = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t r;

		if (n == cap) {
			uint64_t ncap = cap ? cap * 2 : 64 * 1024;
			char *nb;

			if (ncap > max + 1)
				ncap = max + 1;
			if (ncap <= cap) {	/* n == max + 1 */
				famfs_err("%s: %s with more than %llu bytes: a famfs file cannot grow after it is created, so such a source is read into memory first, up to %llu bytes; not copied",
					  src, kind(m), (unsigned long long)max,
					  (unsigned long long)max);
				free(buf);
				return -EFBIG;
			}
			nb = realloc(buf, ncap);
			if (!nb) {
				famfs_err("%s: out of memory reading %s", src,
					  kind(m));
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		r = read(in, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int rc = -errno;

			famfs_err("%s: read: %s", src, strerror(errno));
			free(buf);
			return rc;
		}
		if (!r)
			break;
		n += (uint64_t)r;
	}
	*out = buf;
	*len = n;
	return 0;
}

struct copy_src {
	int in;
	const char *src;
	const char *data;	/* read already (slurp), or NULL */
};

/* famfs_fill's fn: the source's bytes into the new file's mapping a */
static int fill(void *arg, char *a, uint64_t size)
{
	const struct copy_src *cs = arg;
	char *buf;
	int rc = 0;

	if (cs->data || !size) {
		memcpy(a, cs->data ? cs->data : "", size);
		return 0;
	}
	/*
	 * read() into a bounce buffer, then memcpy into the mapping: a read()
	 * straight into DAX pages lets the source file system pin them
	 * (get_user_pages, e.g. 9p's zero-copy path), which depends on the
	 * device's struct pages being sane -- it oopsed when two hosts shared
	 * them (fsdax --map=dev).  The copy should not depend on that.
	 */
	buf = malloc(size < CP_CHUNK ? (size_t)size : CP_CHUNK);
	if (!buf) {
		famfs_err("%s: out of memory", cs->src);
		return -ENOMEM;
	}
	for (uint64_t off = 0; off < size;) {
		size_t chunk = size - off > CP_CHUNK ? CP_CHUNK :
						       (size_t)(size - off);
		ssize_t n = read(cs->in, buf, chunk);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			famfs_err("%s: read: %s", cs->src,
				  n ? strerror(errno) : "file shrank while copying");
			rc = -EIO;
			break;
		}
		memcpy(a + off, buf, (size_t)n);
		off += (uint64_t)n;
	}
	free(buf);
	return rc;
}

int famfs_copy_fd(struct famfs_fs *fs, int in, const char *src,
		  const char *rel, int64_t mode, uint32_t uid, uint32_t gid,
		  const struct famfs_layout *lay)
{
	struct copy_src cs;
	struct famfs_fill f = { .fn = fill, .arg = &cs };
	char *data = NULL;
	struct stat st;
	uint64_t size = 0;
	int out, rc;

	if (fstat(in, &st)) {
		rc = -errno;
		famfs_err("%s: %s", src, strerror(errno));
		return rc;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		size = (uint64_t)st.st_size;
	} else if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) ||
		   S_ISCHR(st.st_mode)) {
		bool held = fs->held;

		/* the size is what a read to EOF gets; a batch (famfs cp of
		 * many) does not keep the log lock while a FIFO blocks */
		famfs_fs_release(fs);
		rc = slurp(in, src, st.st_mode, famfs_copy_unsized_max, &data,
			   &size);
		/* held again whatever the read did: the rest of the batch
		 * runs under the lock as it began (a source that failed is
		 * no reason to let other creators in between its files) */
		if (held) {
			int hr = famfs_fs_hold(fs);

			if (!rc)
				rc = hr;
		}
		if (rc) {
			free(data);
			return rc;
		}
	} else {
		famfs_err("%s: %s: not copied (famfs cp copies regular files, and FIFOs and character devices of up to %llu bytes)",
			  src, S_ISBLK(st.st_mode) ? "a block device" :
			  S_ISSOCK(st.st_mode) ? "a socket" :
			  S_ISDIR(st.st_mode) ? "a directory" : "not a regular file",
			  (unsigned long long)famfs_copy_unsized_max);
		return -EINVAL;
	}
	/* the bytes go in before the file is logged: no host ever sees the
	 * memory's old contents (the rest of its memory is zeroed: fill.c) */
	cs.in = in;
	cs.src = src;
	cs.data = data;
	out = famfs_file_create_fill(fs, rel, size,
				     mode >= 0 ? (uint32_t)mode :
						 st.st_mode & 07777,
				     uid, gid, lay, &f);
	free(data);
	if (out < 0)
		return out;
	close(out);
	return 0;
}
