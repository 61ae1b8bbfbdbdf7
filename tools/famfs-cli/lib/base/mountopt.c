// SPDX-License-Identifier: GPL-2.0
/* mount -o options: MS_* flags, fstab-only options, famfs.ko's options. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "base/base.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

static const struct {
	const char *name;
	unsigned long set, clear;
} flag_opts[] = {
	{ "nosuid", MS_NOSUID, 0 },	{ "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 },	{ "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 },	{ "exec", 0, MS_NOEXEC },
	{ "sync", MS_SYNCHRONOUS, 0 },	{ "async", 0, MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC, 0 },
	{ "noatime", MS_NOATIME, 0 },	{ "atime", 0, MS_NOATIME },
	{ "nodiratime", MS_NODIRATIME, 0 }, { "diratime", 0, MS_NODIRATIME },
	{ "relatime", MS_RELATIME, 0 },	{ "norelatime", 0, MS_RELATIME },
	{ "strictatime", MS_STRICTATIME, 0 },
	{ "lazytime", MS_LAZYTIME, 0 },	{ "nolazytime", 0, MS_LAZYTIME },
	{ "silent", MS_SILENT, 0 },	{ "loud", 0, MS_SILENT },
};

/* options only fstab and mount(8) care about */
static const char *const fstab_opts[] = {
	"defaults", "auto", "noauto", "user", "nouser", "users", "owner",
	"group", "nofail", "_netdev", NULL,
};

/* famfs.ko's options (fs/famfs/super.c), all name=value */
static const char *const kernel_opts[] = { "mode", "dax", NULL };

static bool in_list(const char *const *l, const char *s, size_t n)
{
	for (; *l; l++)
		if (strlen(*l) == n && !strncmp(*l, s, n))
			return true;
	return false;
}

static int add_data(struct famfs_mount_opts *o, const char *s, size_t n,
		    char *reason)
{
	size_t have = strlen(o->data);

	if (have + !!have + n >= sizeof(o->data)) {
		REASON("options for famfs.ko longer than %zu bytes",
		       sizeof(o->data) - 1);
		return -E2BIG;
	}
	if (have)
		o->data[have++] = ',';
	memcpy(o->data + have, s, n);
	o->data[have + n] = '\0';
	return 0;
}

static int one(const char *s, size_t n, bool sloppy, struct famfs_mount_opts *o,
	       char *reason)
{
	size_t key = strcspn(s, "=");

	if (key > n)
		key = n;
	if (n == 2 && !strncmp(s, "ro", 2)) {
		o->ro = true;
		return 0;
	}
	if (n == 2 && !strncmp(s, "rw", 2)) {
		o->ro = false;
		return 0;
	}
	for (size_t i = 0; i < sizeof(flag_opts) / sizeof(flag_opts[0]); i++) {
		if (strlen(flag_opts[i].name) == n && !strncmp(flag_opts[i].name, s, n)) {
			o->flags = (o->flags & ~flag_opts[i].clear) | flag_opts[i].set;
			return 0;
		}
	}
	if (in_list(fstab_opts, s, n) || !strncmp(s, "x-", 2) ||
	    (key == 7 && !strncmp(s, "comment", 7)))
		return 0;
	if (in_list(kernel_opts, s, key) && key < n)
		return add_data(o, s, n, reason);
	if (n == 7 && !strncmp(s, "remount", 7)) {
		o->remount = true;
		return 0;
	}
	if (n == 8 && !strncmp(s, "coherent", 8)) {
		o->coherency = FAMFS_COHERENCY_COHERENT;
		return 0;
	}
	if (n == 11 && !strncmp(s, "noncoherent", 11)) {
		o->coherency = FAMFS_COHERENCY_NONCOHERENT;
		return 0;
	}
	if (n == 7 && !strncmp(s, "protect", 7)) {
		o->protect = FAMFS_PROTECT_ON;
		return 0;
	}
	if (n == 9 && !strncmp(s, "noprotect", 9)) {
		o->protect = FAMFS_PROTECT_OFF;
		return 0;
	}
	if (n == 6 && !strncmp(s, "follow", 6)) {
		o->follow = true;
		return 0;
	}
	if (sloppy) {
		famfs_warn("mount option '%.*s' ignored (sloppy)", (int)n, s);
		return 0;
	}
	REASON("unknown mount option '%.*s' (famfs.ko takes mode=OCTAL, dax=always, coherent, noncoherent, protect and noprotect)",
	       (int)n, s);
	return -EINVAL;
}

static int check(struct famfs_mount_opts *o, char *reason)
{
	if (o->follow && o->remount) {
		REASON("follow is for a new mount, not with remount");
		return -EINVAL;
	}
	if (o->follow && o->ro) {
		REASON("follow creates files: not with ro");
		return -EINVAL;
	}
	return 0;
}

int famfs_mount_opts_parse(const char *in, bool sloppy,
			   struct famfs_mount_opts *o, char *reason)
{
	const char *p = in ? in : "";

	memset(o, 0, sizeof(*o));
	/* set-uid files and device nodes come from another host's log: they
	 * count only with suid / dev (and the last of nosuid/suid wins) */
	o->flags = MS_NOSUID | MS_NODEV;
	while (*p) {
		size_t n = strcspn(p, ",");
		int rc = n ? one(p, n, sloppy, o, reason) : 0;

		if (rc)
			return rc;
		p += n + (p[n] == ',');
	}
	return check(o, reason);
}

int famfs_mount_opts_coherency(struct famfs_mount_opts *o,
			       const struct famfs_superblock *sb, char *note)
{
	char *reason = note;
	bool sb_nc = sb && (le32toh(sb->feature_incompat) &
			    FAMFS_FEATURE_INCOMPAT_NONCOHERENT);
	bool want_nc = o->coherency == FAMFS_COHERENCY_UNSET ? sb_nc :
		       o->coherency == FAMFS_COHERENCY_NONCOHERENT;
	const char *opt = want_nc ? "noncoherent" : "coherent";
	int rc;

	if (note)
		note[0] = '\0';
	if (o->coherency == FAMFS_COHERENCY_UNSET && !want_nc)
		return 0;	/* famfs.ko's default */
	rc = add_data(o, opt, strlen(opt), note);
	if (rc)
		return rc;
	if (!sb || o->coherency == FAMFS_COHERENCY_UNSET || want_nc == sb_nc)
		return 0;
	REASON("the superblock says the memory is %s; -o %s overrides it for this mount",
	       sb_nc ? "not cache-coherent" : "cache-coherent", opt);
	return 1;
}

int famfs_mount_opts_protect(struct famfs_mount_opts *o, bool remount,
			     char *reason)
{
	const char *opt = NULL;

	if (o->protect == FAMFS_PROTECT_ON ||
	    (o->protect == FAMFS_PROTECT_UNSET && !remount))
		opt = "protect";
	else if (o->protect == FAMFS_PROTECT_OFF && remount)
		opt = "noprotect";	/* a new mount: famfs.ko's default */
	return opt ? add_data(o, opt, strlen(opt), reason) : 0;
}
