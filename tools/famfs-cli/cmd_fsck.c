// SPDX-License-Identifier: GPL-2.0
/* famfs fsck: check a famfs file system on a device or at a mount point. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "famfs.h"

static const char usage[] =
	"usage: famfs fsck [-v] DEV|MPT\n"
	"\n"
	"Check the superblock (magic, CRC, version, features, geometry), the log\n"
	"header, and every log entry: CRC, sequence number, fs uuid, path, every\n"
	"extent inside the device and outside the superblock and log, no two\n"
	"files sharing memory, no path logged twice, no file where a directory\n"
	"belongs.  DEV may be mounted: its mount's meta files are read then.\n"
	"\n"
	"  -v, --verbose   list every entry\n"
	"  -h, --help      this text\n"
	"\n"
	"Exit codes: 0 clean, 1 usage, 2 error (cannot read), 3 problems found\n";

/* the mount point of a mounted device, from /proc/self/mounts */
static int find_mount(const char *dev, char *mpt, size_t n)
{
	char rdev[PATH_MAX], rsrc[PATH_MAX];
	struct mntent *m;
	FILE *f;
	int rc = -ENOENT;

	if (!realpath(dev, rdev))
		return -errno;
	f = setmntent("/proc/self/mounts", "r");
	if (!f)
		return -errno;
	while ((m = getmntent(f))) {
		if (strcmp(m->mnt_type, "famfs") || !realpath(m->mnt_fsname, rsrc) ||
		    strcmp(rsrc, rdev))
			continue;
		snprintf(mpt, n, "%s", m->mnt_dir);
		rc = 0;
		break;
	}
	endmntent(f);
	return rc;
}

int cmd_fsck(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct famfs_fsck_result r;
	struct famfs_fs fs;
	char mpt[PATH_MAX];
	const char *target;
	struct stat st;
	int c, rc;

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'v': famfs_verbose++; break;
		case 'h': return cmd_usage(usage, 0);
		default: return cmd_usage(usage, 1);
		}
	}
	if (argc - optind != 1)
		return cmd_usage(usage, 1);
	target = argv[optind];
	if (stat(target, &st)) {
		famfs_err("%s: %s", target, strerror(errno));
		return FAMFS_EXIT_ERROR;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = famfs_fs_open_mount(target, false, &fs);
	} else {
		int q = famfs_quiet;

		famfs_quiet = S_ISBLK(st.st_mode);	/* EBUSY: try the mount */
		rc = famfs_fs_open_dev(target, false, &fs);
		famfs_quiet = q;
		if (rc == -EBUSY && find_mount(target, mpt, sizeof(mpt)) == 0)
			rc = famfs_fs_open_mount(mpt, false, &fs);
		else if (rc && S_ISBLK(st.st_mode))
			rc = famfs_fs_open_dev(target, false, &fs);
	}
	if (rc == -EBADMSG) {
		printf("famfs fsck: %s: superblock or log header invalid\n", target);
		return FAMFS_EXIT_PROBLEM;
	}
	if (rc)
		return FAMFS_EXIT_ERROR;
	rc = famfs_fsck(&fs, &r);
	famfs_fs_close(&fs);
	if (rc)
		return FAMFS_EXIT_ERROR;
	printf("famfs fsck: %s: %lu log entries (%lu files, %lu directories, %lu corrupt), %lu problems; %llu bytes used, %llu free\n",
	       target, r.entries, r.files, r.dirs, r.bad_entries, r.problems,
	       (unsigned long long)r.used_bytes, (unsigned long long)r.free_bytes);
	return r.problems ? FAMFS_EXIT_PROBLEM : FAMFS_EXIT_OK;
}
