// SPDX-License-Identifier: GPL-2.0
/* famfs devadd: add a member device to a mounted file system (master). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "famfs.h"

const struct cli_doc cli_doc_devadd = {
	.page = "famfs-devadd", .prog = "famfs devadd",
	.summary = "add a member device to a mounted famfs (master only)",
	.synopsis = { "famfs devadd [-f] MPT DEVICE" },
	.description =
		"Make DEVICE (/dev/pmemN or /dev/daxX.Y, bound to famfs) the next\n"
		"member of the famfs file system mounted at MPT, online, on the master:\n"
		"its member superblock is written (a new device uuid), the device is\n"
		"attached to this mount (a /dev/daxX.Y is bound to famfs for it, as\n"
		"famfs bind does), then a device entry is appended to the log.\n"
		"Clients attach it when they replay that entry (famfs logplay, a\n"
		"following mount), finding it by its uuid whatever its name there.\n"
		"\n"
		"DEVICE must not be the primary device nor already a member, must hold\n"
		"at least 4 MiB, and -- without -f -- nothing famfs mkfs would refuse\n"
		"to overwrite (a famfs file system, a member of another one, a known\n"
		"signature).  A member superblock of this file system that no log entry\n"
		"names (a devadd that crashed before its log entry) is not a member:\n"
		"devadd overwrites it.  If the append fails after the attach, the\n"
		"device stays attached to this mount (until it is unmounted) but is\n"
		"not a member: famfs devadd of the same device again finishes it (no\n"
		"other device can be added before).  The first member of a file\n"
		"system made without any sets its multi-device feature: tools that\n"
		"predate it refuse the file system from then on.  A file system with\n"
		"a v1 log cannot have members.\n",
	.opts = (const struct cli_opt[]){
		{ 'f', "force", NULL, "overwrite whatever DEVICE holds" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("MPT is no famfs mount, this host is a client or\n"
			       "does not hold the master role, the log is v1 or\n"
			       "full, FAMFS_MAX_DEVS members exist, a log entry\n"
			       "does not read whole (it may be a device entry: the\n"
			       "next index is not known; its log index is said),\n"
			       "DEVICE is refused (above), or it cannot be attached"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mkfs(8), famfs-mount(8), famfs-devices(8), famfs-bind(8)",
};

/* 1 if path holds a member superblock of fs that its log names already */
static int already_member(struct famfs_fs *fs, const char *path)
{
	struct famfs_member_sb m;
	uint64_t size;

	if (famfs_dev_read_head(path, &m, sizeof(m), &size) ||
	    famfs_member_check(&m, fs->sb->fs_uuid, 0, NULL))
		return 0;
	for (unsigned i = 1; i < fs->devs.ndevs; i++) {
		const struct famfs_logdev *d = famfs_logdevs_get(&fs->devs, i);

		if (d && !memcmp(d->dev_uuid, m.dev_uuid, 16))
			return (int)i;
	}
	return 0;
}

/*
 * A devadd of this mount whose append failed after its attach left a
 * device attached at index with no DEVADD naming it.  0: nothing there.
 * 1: it is path, holding the member superblock that devadd wrote: its
 * device uuid and the attached size to u and *size, only the append is
 * left to do.  -EBUSY: another device is there (said, with what to do).
 */
static int unfinished(struct famfs_fs *fs, const char *path, unsigned index,
		      uint8_t u[16], uint64_t *size)
{
	struct famfs_ioc_dev_info i;
	struct famfs_member_sb m;
	char why[FAMFS_REASON_LEN] = "";
	struct stat st;
	uint64_t dsize;
	int rc;

	rc = famfs_mount_dev_get(fs->mpt, index, &i);
	if (rc == -ENXIO || rc == -ENOTTY)
		return 0;
	if (rc) {
		famfs_err("%s: cannot ask famfs.ko about member %u: %s",
			  fs->mpt, index, strerror(-rc));
		return rc;
	}
	if (stat(path, &st) || !(S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) ||
	    st.st_rdev != makedev(i.major, i.minor)) {
		famfs_err("%s: member index %u of this mount holds device %u:%u, left by a devadd whose log entry was not written; run famfs devadd %s on that device again to finish it, or unmount and mount again",
			  fs->mpt, index, i.major, i.minor, fs->mpt);
		return -EBUSY;
	}
	rc = famfs_dev_read_head(path, &m, sizeof(m), &dsize);
	if (!rc)
		rc = famfs_member_check(&m, fs->sb->fs_uuid, dsize, why);
	if (!rc && (le32toh(m.index) != index ||
		    le64toh(m.device_size) != i.size)) {
		snprintf(why, sizeof(why), "its member superblock says index %u, %llu bytes",
			 le32toh(m.index),
			 (unsigned long long)le64toh(m.device_size));
		rc = -EINVAL;
	}
	if (rc) {
		famfs_err("%s: attached to this mount as member %u (%llu bytes) by a devadd whose log entry was not written, but %s; unmount and mount again",
			  path, index, (unsigned long long)i.size,
			  why[0] ? why : strerror(-rc));
		return -EBUSY;
	}
	memcpy(u, m.dev_uuid, 16);
	*size = i.size;
	famfs_warn("%s: attached as member %u by an earlier devadd whose log entry was not written: finishing it",
		   path, index);
	return 1;
}

/* Under the log lock, as the master: index, superblock, attach, append */
static int devadd(struct famfs_fs *fs, const char *primary, const char *path,
		  bool force)
{
	struct famfs_log_entry e;
	struct stat st;
	uint8_t u[16];
	char us[37];
	uint64_t size;
	unsigned index;
	int rc;

	rc = famfs_master_check(fs);
	if (rc)
		return rc;
	/* (refused while an entry that may be a DEVADD does not read
	 * whole here: its index may be taken) */
	rc = famfs_fs_devs_next_index(fs, &index);
	if (rc)
		return rc;
	if (index >= FAMFS_MAX_DEVS) {
		famfs_err("%s: has %u devices already, the most a file system can have",
			  fs->mpt, index);
		return -E2BIG;
	}
	rc = already_member(fs, path);
	if (rc) {
		famfs_err("%s: is member %d of this file system already", path, rc);
		return -EEXIST;
	}
	rc = unfinished(fs, path, index, u, &size);
	if (rc < 0)
		return rc;
	if (rc)
		goto append;
	/* a member superblock of this fs that the log does not name is an
	 * interrupted devadd's: not a member, overwritten */
	{
		struct famfs_member_sb m;

		if (!famfs_dev_read_head(path, &m, sizeof(m), &size) &&
		    !famfs_member_check(&m, fs->sb->fs_uuid, 0, NULL))
			force = true;
	}
	rc = famfs_member_vet(path, primary, force, &size);
	if (rc)
		return rc;
	/* 1. its superblock: without a log entry, no member */
	rc = famfs_member_make(path, fs->sb, index, size, u);
	if (rc)
		return rc;
	/* 2. the master's own mount has it before any file can use it (a
	 * /dev/daxX.Y written through device_dax goes to famfs's driver) */
	if (!stat(path, &st) && S_ISCHR(st.st_mode)) {
		rc = cli_dax_bind_famfs(path);
		if (rc)
			return rc;
	}
	rc = famfs_mount_dev_add(fs->mpt, path, index, size);
	if (rc)
		return rc;
append:
	/* 3. the log: from now on it is a member */
	if (!(le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_MULTIDEV)) {
		rc = famfs_fs_change_feature(fs, FAMFS_FEAT_INCOMPAT,
					     FAMFS_FEATURE_INCOMPAT_MULTIDEV, 0);
		if (rc)
			return rc;
	}
	famfs_entry_build_devadd(&e, index, u, size);
	rc = famfs_log_append(fs, &e);
	if (rc) {
		famfs_err("%s: %s is attached to this mount until it is unmounted, but it is not a member (no log entry); famfs devadd %s %s again finishes it",
			  fs->mpt, path, fs->mpt, path);
		return rc;
	}
	famfs_uuid_str(u, us);
	printf("famfs devadd: %s: member %u is %s, %llu bytes, device uuid %s\n",
	       fs->mpt, index, path, (unsigned long long)size, us);
	return 0;
}

int cmd_devadd(int argc, char **argv)
{
	char src[PATH_MAX];
	struct famfs_fs fs;
	bool force = false;
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_devadd)) != -1) {
		switch (c) {
		case 'f': force = true; break;
		case 'h': return cli_usage(&cli_doc_devadd, 0);
		default: return cli_usage(&cli_doc_devadd, 1);
		}
	}
	if (argc - optind != 2)
		return cli_usage(&cli_doc_devadd, 1);
	if (cli_mount_source(argv[optind], src, sizeof(src))) {
		famfs_err("%s: not a famfs mount point", argv[optind]);
		return FAMFS_EXIT_ERROR;
	}
	if (famfs_fs_open_mount(argv[optind], true, &fs))
		return FAMFS_EXIT_ERROR;
	rc = famfs_fs_writable(&fs);
	if (!rc && !famfs_fs_compact(&fs)) {
		famfs_err("%s: has a v1 log: only a compact log can name member devices (make the file system again with famfs mkfs)",
			  argv[optind]);
		rc = -EINVAL;
	}
	if (!rc)
		rc = famfs_fs_lock(&fs);
	if (!rc) {
		rc = devadd(&fs, src, argv[optind + 1], force);
		famfs_fs_unlock(&fs);
	}
	famfs_fs_close(&fs);
	return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
}
