// SPDX-License-Identifier: GPL-2.0
/* Paths relative to a famfs mount: normal form and locating the mount. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "libfamfs.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

int famfs_relpath_normalize(const char *in, char *out, char *reason)
{
	size_t o = 0;
	const char *p = in;

	while (*p) {
		const char *s;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		s = p;
		while (*p && *p != '/')
			p++;
		n = (size_t)(p - s);
		if (n == 1 && s[0] == '.')
			continue;
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			REASON("path '%s': '..' is not allowed", in);
			return -EINVAL;
		}
		/* no host could create it: a log entry with one is corrupt */
		if (n > NAME_MAX) {
			REASON("path '%.40s...': a name is longer than %d bytes",
			       in, NAME_MAX);
			return -ENAMETOOLONG;
		}
		if (o + (o ? 1 : 0) + n >= FAMFS_LOG_PATH_MAX) {
			REASON("path '%.40s...' is longer than %d bytes", in,
			       FAMFS_LOG_PATH_MAX - 1);
			return -ENAMETOOLONG;
		}
		if (o)
			out[o++] = '/';
		memcpy(out + o, s, n);
		o += n;
	}
	out[o] = '\0';
	if (!o) {
		REASON("path '%s' names the mount root", in);
		return -EINVAL;
	}
	if (!strcmp(out, FAMFS_META_DIR) ||
	    !strncmp(out, FAMFS_META_DIR "/", sizeof(FAMFS_META_DIR))) {
		REASON("path '%s' is inside the reserved %s directory", in,
		       FAMFS_META_DIR);
		return -EINVAL;
	}
	return 0;
}

int famfs_join(char *out, size_t n, const char *a, const char *b)
{
	int k = snprintf(out, n, "%s/%s", a, b);

	if (k < 0 || (size_t)k >= n) {
		famfs_err("%s/%s: path too long", a, b);
		return -ENAMETOOLONG;
	}
	return 0;
}

int famfs_is_mount_root(const char *dir, char *reason)
{
	char parent[PATH_MAX];
	struct statfs sf;
	struct stat st, pst;

	if (statfs(dir, &sf) || stat(dir, &st)) {
		REASON("%s: %s", dir, strerror(errno));
		return -errno;
	}
	if ((uint32_t)sf.f_type != FAMFS_SUPER_MAGIC) {
		REASON("%s: not a famfs mount (file system type 0x%llx, famfs is 0x%x)",
		       dir, (unsigned long long)sf.f_type, FAMFS_SUPER_MAGIC);
		return -ENOENT;
	}
	/* the root of a mount: its parent is on another device (or it is
	 * "/" itself) */
	if (snprintf(parent, sizeof(parent), "%s/..", dir) >= (int)sizeof(parent)) {
		REASON("%.60s: path too long", dir);
		return -ENAMETOOLONG;
	}
	if (stat(parent, &pst)) {
		REASON("%.100s: %s", parent, strerror(errno));
		return -errno;
	}
	if (pst.st_dev == st.st_dev && pst.st_ino != st.st_ino) {
		REASON("%s: a directory inside a famfs mount, not its root", dir);
		return -ENOENT;
	}
	return 0;
}

int (*famfs_mount_root_check)(const char *dir, char *reason) =
	famfs_is_mount_root;

/* dir holds .meta/.log: 1 if it is a famfs mount root, 0 if not a
 * candidate, -1 if it holds one but is no mount root (reason filled) */
static int is_famfs_root(const char *dir, char *reason)
{
	char p[PATH_MAX];
	struct stat st;

	int k = snprintf(p, sizeof(p), "%s/%s", dir, FAMFS_META_LOG);

	if (k < 0 || k >= (int)sizeof(p))
		return 0;
	if (stat(p, &st) || !S_ISREG(st.st_mode))
		return 0;
	return famfs_mount_root_check(dir, reason) ? -1 : 1;
}

int famfs_locate(const char *path, bool allow_root, char *mpt, char *rel)
{
	char cur[PATH_MAX], res[PATH_MAX], full[PATH_MAX * 2];
	char tail[PATH_MAX] = "", reason[FAMFS_REASON_LEN];
	char why[FAMFS_REASON_LEN] = "";
	struct stat st;
	size_t len;
	int rc;

	if (!*path || strlen(path) >= sizeof(cur)) {
		famfs_err("%.60s: bad path", path);
		return -EINVAL;
	}
	strcpy(cur, path);
	/* resolve the longest existing prefix; keep the rest as a tail */
	while (!realpath(cur, res)) {
		char *s, t[PATH_MAX];
		int k;

		if (errno != ENOENT) {
			rc = -errno;
			famfs_err("%s: %s", path, strerror(errno));
			return rc;
		}
		len = strlen(cur);
		while (len > 1 && cur[len - 1] == '/')
			cur[--len] = '\0';
		s = strrchr(cur, '/');
		k = snprintf(t, sizeof(t), "%s%s%s", s ? s + 1 : cur,
			     *tail ? "/" : "", tail);
		if (k < 0 || k >= (int)sizeof(t)) {
			famfs_err("%.60s: path too long", path);
			return -ENAMETOOLONG;
		}
		memcpy(tail, t, sizeof(tail));
		if (!s)
			strcpy(cur, ".");
		else if (s == cur)
			strcpy(cur, "/");
		else
			*s = '\0';
	}
	if (famfs_join(full, sizeof(full), strcmp(res, "/") ? res : "", tail))
		return -ENAMETOOLONG;
	/* walk up from the deepest existing directory to the famfs root */
	strcpy(mpt, res);
	if (stat(mpt, &st) == 0 && !S_ISDIR(st.st_mode))
		*strrchr(mpt, '/') = '\0';
	for (;;) {
		char *d;

		if (!*mpt)
			strcpy(mpt, "/");
		/* a .meta/.log elsewhere (a copy, one made inside a famfs
		 * directory) is not a file system: keep looking above it */
		rc = is_famfs_root(mpt, why[0] ? NULL : why);
		if (rc > 0)
			break;
		d = strrchr(mpt, '/');
		if (!d || mpt[1] == '\0') {
			famfs_err("%s: not in a famfs file system (no famfs mount with %s above it%s%s)",
				  path, FAMFS_META_LOG, why[0] ? "; " : "", why);
			return -ENOENT;
		}
		if (d == mpt)
			d[1] = '\0';
		else
			*d = '\0';
	}
	len = strcmp(mpt, "/") ? strlen(mpt) : 0;
	if (allow_root && (full[len] == '\0' || !strcmp(full + len, "/"))) {
		rel[0] = '\0';
		return 0;
	}
	rc = famfs_relpath_normalize(full + len, rel, reason);
	if (rc) {
		famfs_err("%s: %s", path, reason);
		return rc;
	}
	return 0;
}

bool famfs_path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}
