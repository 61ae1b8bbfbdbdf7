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
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/base.h"

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
	size_t la = strlen(a), lb = strlen(b);

	/* no snprintf: logplay joins every entry's path (issue 17) */
	if (la + 1 + lb >= n) {
		famfs_err("%s/%s: path too long", a, b);
		return -ENAMETOOLONG;
	}
	memmove(out, a, la);
	out[la] = '/';
	memmove(out + la + 1, b, lb + 1);
	return 0;
}

/* mountinfo's octal escapes (\040 for a space...) undone in place */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

int famfs_mountinfo_root(FILE *f, const char *mpt, dev_t dev, char *reason)
{
	char *line = NULL, root[PATH_MAX] = "";
	unsigned int maj = 0, min = 0;
	size_t cap = 0;
	bool found = false;

	while (getline(&line, &cap, f) > 0) {
		char *sv, *tok[5];
		int n = 0;

		for (char *t = strtok_r(line, " \n", &sv); t && n < 5;
		     t = strtok_r(NULL, " \n", &sv))
			tok[n++] = t;
		if (n < 5)
			continue;
		unescape(tok[4]);
		if (strcmp(tok[4], mpt))
			continue;
		/* the last mount at mpt is the one on top */
		found = sscanf(tok[2], "%u:%u", &maj, &min) == 2;
		unescape(tok[3]);
		snprintf(root, sizeof(root), "%s", tok[3]);
	}
	free(line);
	if (!found) {
		REASON("%.100s: not a mount point (not in /proc/self/mountinfo)", mpt);
		return -ENOENT;
	}
	if (makedev(maj, min) != dev) {
		REASON("%.100s: another file system is mounted over it", mpt);
		return -ENOENT;
	}
	if (strcmp(root, "/")) {
		REASON("%.50s: a bind mount of '%.50s' in a famfs, not a famfs root",
		       mpt, root);
		return -ENOENT;
	}
	return 0;
}

int famfs_is_mount_root(const char *dir, char *reason)
{
	char parent[PATH_MAX];
	struct statfs sf;
	struct stat st, pst;
	FILE *mi;
	int rc;

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
	/* a bind mount of a famfs directory passes both checks above */
	mi = fopen("/proc/self/mountinfo", "re");
	if (!mi && errno == ENOENT)
		return 0;	/* no /proc (early boot): the checks above only */
	if (!mi) {
		REASON("/proc/self/mountinfo: %s", strerror(errno));
		return -errno;
	}
	rc = famfs_mountinfo_root(mi, dir, st.st_dev, reason);
	fclose(mi);
	return rc;
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
