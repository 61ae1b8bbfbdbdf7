// SPDX-License-Identifier: GPL-2.0
/* Shared by commands: the mount of a path (one or a batch), a device or a
 * mount point, /proc/self/mounts, JSON, the layout options. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The famfs mount of dev (by_dev) or the device of the famfs mount at
 * path, from /proc/self/mounts. */
static int mounts_lookup(const char *path, bool by_dev, char *out, size_t n)
{
	char want[PATH_MAX], have[PATH_MAX];
	struct mntent *m;
	FILE *f;
	int rc = -ENOENT;

	if (!realpath(path, want))
		return -errno;
	f = setmntent("/proc/self/mounts", "r");
	if (!f)
		return -errno;
	while ((m = getmntent(f))) {
		const char *key = by_dev ? m->mnt_fsname : m->mnt_dir;

		if (strcmp(m->mnt_type, "famfs") || !realpath(key, have) ||
		    strcmp(have, want))
			continue;
		snprintf(out, n, "%s", by_dev ? m->mnt_dir : m->mnt_fsname);
		rc = 0;
		break;
	}
	endmntent(f);
	return rc;
}

int cli_mount_source(const char *mpt, char *dev, size_t n)
{
	return mounts_lookup(mpt, false, dev, n);
}

int cli_open_target(const char *target, struct famfs_fs *fs, char *mpt,
		    size_t n)
{
	struct stat st;
	int rc;

	mpt[0] = '\0';
	if (stat(target, &st)) {
		rc = -errno;
		famfs_err("%s: %s", target, strerror(errno));
		return rc;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = famfs_fs_open_mount(target, false, fs);
		if (!rc)
			snprintf(mpt, n, "%s", fs->mpt);
		return rc;
	}
	if (S_ISBLK(st.st_mode)) {
		int q = famfs_quiet;

		famfs_quiet = 1;	/* EBUSY: mounted, read it through the mount */
		rc = famfs_fs_open_dev(target, false, fs);
		famfs_quiet = q;
		if (rc == -EBUSY && mounts_lookup(target, true, mpt, n) == 0) {
			rc = famfs_fs_open_mount(mpt, false, fs);
			if (rc)
				mpt[0] = '\0';
			return rc;
		}
		if (!rc)
			return 0;
	}
	return famfs_fs_open_dev(target, false, fs);	/* reports why */
}

int cli_open_for(const char *path, bool allow_root, bool want_rw,
		 struct famfs_fs *fs, char *rel)
{
	char mpt[PATH_MAX];
	int rc = famfs_locate(path, allow_root, mpt, rel);

	if (rc)
		return rc;
	return famfs_fs_open_mount(mpt, want_rw, fs);
}

int cli_batch_open(struct cli_batch *b, const char *path, char *rel)
{
	char mpt[PATH_MAX];
	int rc = famfs_locate(path, false, mpt, rel);

	if (rc)
		return rc;
	if (b->open && !strcmp(b->fs.mpt, mpt))
		return 0;
	cli_batch_close(b);
	rc = famfs_fs_open_mount(mpt, true, &b->fs);
	if (rc)
		return rc;
	b->open = true;
	/* a client or a read-only mount: no lock, each path is refused
	 * (famfs_fs_writable says why) */
	if (b->fs.master && b->fs.rw && b->fs.host_id_ok)
		return famfs_fs_hold(&b->fs);
	return 0;
}

void cli_batch_close(struct cli_batch *b)
{
	if (!b->open)
		return;
	famfs_reclaim_finish(&b->fs);	/* famfs rm's, once for its paths */
	famfs_fs_close(&b->fs);
	b->open = false;
}

void cli_say_failed_devs(const char *target)
{
	char mpt[PATH_MAX], sys[96], real[PATH_MAX];
	struct stat st;
	int fd;

	if (!famfs_kernel->dev_get || stat(target, &st))
		return;
	if (S_ISDIR(st.st_mode))
		snprintf(mpt, sizeof(mpt), "%s", target);
	else if (!S_ISBLK(st.st_mode) ||
		 mounts_lookup(target, true, mpt, sizeof(mpt)))
		return;
	fd = open(mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (unsigned int i = 0; i < FAMFS_MAX_DEVS; i++) {
		struct famfs_ioc_dev_info info = { .index = i };
		int rc = famfs_kernel->dev_get(fd, &info);

		if (rc == -ENXIO)
			continue;
		if (rc)
			break;		/* not famfs, or an older module */
		if (!(info.flags & FAMFS_DEV_CAUSE))
			continue;
		snprintf(sys, sizeof(sys), "/sys/dev/%s/%u:%u",
			 info.flags & FAMFS_DEV_DEVDAX ? "char" : "block",
			 info.major, info.minor);
		famfs_err("%s: device %u (%s, %s) failed: removed or poisoned; every file of this mount fails with EIO until it is unmounted",
			  mpt, i, i ? "member" : "primary",
			  realpath(sys, real) ? strrchr(real, '/') + 1 : "gone");
	}
	close(fd);
}

int cli_json_print(struct json_object *o)
{
	const char *s;
	int rc = 0;

	if (!o) {
		famfs_err("out of memory building JSON");
		return -ENOMEM;
	}
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s || printf("%s\n", s) < 0 || fflush(stdout)) {
		famfs_err("stdout: cannot write JSON: %s", strerror(errno));
		rc = -EIO;
	}
	json_object_put(o);
	return rc;
}

static void nsjson_err(void *arg, const char *msg)
{
	struct cli_nsjson *j = arg;

	if (j->errors)
		json_object_array_add(j->errors, famfs_json_string(msg));
}

void cli_nsjson_begin(struct cli_nsjson *j)
{
	if (!j->on)
		return;
	if (!j->paths)
		j->paths = json_object_new_array();
	j->errors = json_object_new_array();
	j->marked = false;
	famfs_err_hook = nsjson_err;
	famfs_err_hook_arg = j;
}

void cli_nsjson_mark(struct cli_nsjson *j, struct cli_batch *b)
{
	if (!j->on || !b->open)
		return;
	j->start = famfs_log_refresh_next(&b->fs);
	j->marked = true;
}

void cli_nsjson_end(struct cli_nsjson *j, struct cli_batch *b,
		    const char *path, const char *dest, bool ok)
{
	struct json_object *o;

	if (!j->on)
		return;
	famfs_err_hook = NULL;
	o = json_object_new_object();
	if (!o || !j->paths) {
		json_object_put(o);
		json_object_put(j->errors);
		j->errors = NULL;
		return;
	}
	json_object_object_add(o, "path", famfs_json_string(path));
	if (dest)
		json_object_object_add(o, "destination", famfs_json_string(dest));
	json_object_object_add(o, "ok", json_object_new_boolean(ok));
	json_object_object_add(o, "errors", j->errors);
	j->errors = NULL;
	json_object_object_add(o, "entries", j->marked && b->open ?
			       famfs_json_ns_entries(&b->fs, j->start,
						     famfs_log_refresh_next(&b->fs)) :
			       json_object_new_array());
	json_object_array_add(j->paths, o);
}

int cli_nsjson_print(struct cli_nsjson *j)
{
	struct json_object *o;
	bool ok = true;

	if (!j->on)
		return 0;
	o = json_object_new_object();
	if (!o || !j->paths) {
		json_object_put(o);
		json_object_put(j->paths);
		return cli_json_print(NULL);
	}
	for (size_t i = 0; i < json_object_array_length(j->paths); i++) {
		struct json_object *v;

		if (json_object_object_get_ex(json_object_array_get_idx(j->paths, i),
					      "ok", &v) && !json_object_get_boolean(v))
			ok = false;
	}
	json_object_object_add(o, "ok", json_object_new_boolean(ok));
	json_object_object_add(o, "paths", j->paths);
	j->paths = NULL;
	return cli_json_print(o);
}

int cli_layout_opt(int c, const char *arg, struct cli_layout *l)
{
	uint64_t v;

	if (c == 'A') {
		if (!strcasecmp(arg, "1g") || !strcasecmp(arg, "1gib"))
			l->lay.align = FAMFS_ALIGN_1G;
		else if (!strcmp(arg, "none") || !strcmp(arg, "off"))
			l->lay.align = FAMFS_ALIGN_NONE;
		else if (!strcmp(arg, "auto"))
			l->lay.align = FAMFS_ALIGN_AUTO;
		else {
			famfs_err("-A (--align) %s: say 1g (1 GiB-aligned or fail), none (never) or auto (1 GiB-aligned for files of 1 GiB or more when there is room)",
				  arg);
			return FAMFS_EXIT_USAGE;
		}
		return FAMFS_EXIT_OK;
	}
	if (c == 'T') {
		if (famfs_parse_size(arg, &v) || v > FAMFS_SMALL_MAX) {
			famfs_err("-T (--small-max) %s: a size up to 2M (files below it take 4 KiB pages in shared 2 MiB units), or 0 for none",
				  arg);
			return FAMFS_EXIT_USAGE;
		}
		l->lay.small_max = v ? v : FAMFS_SMALL_NONE;
		return FAMFS_EXIT_OK;
	}
	if (c == 'D') {
		uint32_t n;

		if (famfs_parse_u32(arg, 10, &n) || n >= FAMFS_MAX_DEVS) {
			famfs_err("-D (--device) %s: the device index must be a number from 0 to %u",
				  arg, FAMFS_MAX_DEVS - 1);
			return FAMFS_EXIT_USAGE;
		}
		l->lay.place.has_dev = true;
		l->lay.place.dev = n;
		return FAMFS_EXIT_OK;
	}
	if (c == 'N') {
		uint32_t n;

		if (famfs_parse_u32(arg, 10, &n) || n < 1 ||
		    n > FAMFS_LOG_MAX_STRIPS) {
			famfs_err("-N (--nstrips) %s: the strip count must be a number from 1 to %u",
				  arg, FAMFS_LOG_MAX_STRIPS);
			return FAMFS_EXIT_USAGE;
		}
		l->lay.nstrips = n;
		l->have_n = true;
		return FAMFS_EXIT_OK;
	}
	if (famfs_parse_size(arg, &v) || !v || v % FAMFS_ALLOC_UNIT) {
		famfs_err("-C (--chunksize) %s: the chunk size must be a non-zero multiple of 2 MiB (2M, 4M, 6M, ..., 1G)",
			  arg);
		return FAMFS_EXIT_USAGE;
	}
	l->lay.chunk = v;
	l->have_c = true;
	return FAMFS_EXIT_OK;
}

int cli_layout_done(struct cli_layout *l)
{
	if (l->have_c && !l->have_n) {
		famfs_err("-C (--chunksize) needs -N (--nstrips): only interleaved files have chunks");
		return FAMFS_EXIT_USAGE;
	}
	if (l->have_n && !l->have_c)
		l->lay.chunk = CLI_CHUNK_DEFAULT;
	if (l->have_n && l->lay.align == FAMFS_ALIGN_1G &&
	    l->lay.chunk % FAMFS_ALIGN_BYTES) {
		famfs_err("-A (--align) 1g with -N needs a chunk (-C) that is a multiple of 1 GiB: each chunk then starts on a 1 GiB boundary and is mapped with 1 GiB pages (chunk %llu bytes)",
			  (unsigned long long)l->lay.chunk);
		return FAMFS_EXIT_USAGE;
	}
	return FAMFS_EXIT_OK;
}
