// SPDX-License-Identifier: GPL-2.0
/*
 * mount.famfs: the helper mount(8) runs for "mount -t famfs" and fstab
 * lines, as  /sbin/mount.famfs DEV MPT [-sfnv] [-N NS] [-o OPTS] [-t TYPE].
 * It does what famfs mount does, through mount(2) (never mount(8), which
 * would run it again).  Exit codes are mount(8)'s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "famfs.h"

/* mount(8)'s exit codes */
enum { MNT_EX_SUCCESS = 0, MNT_EX_USAGE = 1, MNT_EX_FAIL = 32 };

const struct cli_doc cli_doc_mount_helper = {
	.page = "mount.famfs", .prog = "mount.famfs",
	.summary = "mount helper for famfs: mount -t famfs and fstab",
	.synopsis = { "mount.famfs DEV MPT [-sfnv] [-N NS] [-o OPTS] [-t famfs]" },
	.description =
		"mount(8) runs /sbin/mount.famfs for mount -t famfs DEV MPT and for\n"
		"fstab lines of type famfs.  It does what famfs mount does: it checks\n"
		"the superblock and log of DEV, mounts famfs.ko's file system at MPT\n"
		"with mount(2), creates the meta files .meta/.superblock and .meta/.log\n"
		"and replays the log, so every file the log holds is there.  umount MPT\n"
		"unmounts as usual; nothing needs to be undone.\n"
		"\n"
		"busybox mount is not enough: it calls mount(2) first and runs a helper\n"
		"only when that fails, so with famfs.ko loaded it would mount famfs\n"
		"without the meta files and the log replay.  Use util-linux mount(8),\n"
		"famfs mount, or run mount.famfs DEV MPT directly.\n"
		"\n"
		"The mount is nosuid,nodev unless suid or dev is given (-o suid,dev):\n"
		"files and device nodes come from another host's log.\n",
	.opts = (const struct cli_opt[]){
		{ 'o', "options", "OPTS",
		  "mount options as in fstab, comma-separated:\n"
		  "ro: the log read-only, and the mount read-only\n"
		  "once the log is replayed; rw; nosuid, nodev\n"
		  "(both the default: suid and dev turn them off),\n"
		  "noexec, noatime and the other generic flags;\n"
		  "famfs.ko's mode=OCTAL (root directory) and\n"
		  "dax=always; remount (mount -o remount,ro MPT):\n"
		  "only change the flags of the mount; follow:\n"
		  "keep the mount up to date with the log until it\n"
		  "is unmounted (famfs logplay --follow in the\n"
		  "background, messages in the kernel log); protect\n"
		  "(the default: only famfs commands may create,\n"
		  "remove, rename, chmod or chown there, see\n"
		  "famfs(8)) or noprotect (any program may).  defaults,\n"
		  "auto, noauto, user, nofail, _netdev, x-* and\n"
		  "comment= are for mount(8) and ignored here" },
		{ 's', "sloppy", NULL, "ignore unknown options instead of failing" },
		{ 'f', "fake", NULL, "check DEV's superblock and log, mount nothing" },
		{ 'n', "no-mtab", NULL, "accepted for mount(8); famfs writes no mtab" },
		{ 'v', "verbose", NULL, "print what is done" },
		{ 'N', "namespace", "NS",
		  "mount in another mount namespace: a PID or\n"
		  "a path like /proc/PID/ns/mnt" },
		{ 't', "type", "TYPE", "accepted for mount(8); must be famfs" },
		{ 0 } },
	.sections = (const struct cli_section[]){
		{ "FSTAB",
		  "A line like this mounts /dev/pmem0 at /mnt/famfs on mount /mnt/famfs\n"
		  "(noauto: not at boot, where famfs.ko may not be loaded yet):\n"
		  "  /dev/pmem0  /mnt/famfs  famfs  defaults,noauto  0 0\n"
		  "Then:  mount /mnt/famfs;  umount /mnt/famfs\n", false },
		{ "FILES",
		  "/sbin/mount.famfs is a link to famfs-cli; mount(8) looks for helpers\n"
		  "in /sbin only.\n", true },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ MNT_EX_SUCCESS, "success" },
		{ MNT_EX_USAGE, "incorrect invocation (a bad option or argument)" },
		{ MNT_EX_FAIL, "mount failure: MPT is not a directory, DEV holds no valid\n"
			       "famfs, mount(2) failed (is famfs.ko loaded?), or the meta\n"
			       "files could not be created, or (the host table armed)\n"
			       "this host's slot could not be written; the message says\n"
			       "which" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mount(8), mount(8), umount(8), fstab(5)",
};

static int enter_ns(const char *ns)
{
	char path[PATH_MAX];
	char *end;
	int fd;

	strtol(ns, &end, 10);
	if (*ns && !*end)
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", ns);
	else
		snprintf(path, sizeof(path), "%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNS)) {
		famfs_err("%s: cannot enter the mount namespace: %s", path,
			  strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int mount_usage(int misuse)
{
	return cli_helper_usage(&cli_doc_mount_helper, misuse, MNT_EX_SUCCESS,
				MNT_EX_USAGE);
}

int cmd_mount_helper(int argc, char **argv)
{
	char reason[FAMFS_REASON_LEN];
	struct famfs_mount_opts o;
	const char *mopts = NULL, *ns = NULL, *dev, *mpt;
	bool sloppy = false, fake = false;
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_mount_helper)) != -1) {
		switch (c) {
		case 'o': mopts = optarg; break;
		case 's': sloppy = true; break;
		case 'f': fake = true; break;
		case 'n': break;
		case 'v': famfs_verbose++; break;
		case 'N': ns = optarg; break;
		case 't':
			if (strcmp(optarg, "famfs")) {
				famfs_err("-t %s: mount.famfs mounts famfs only", optarg);
				return MNT_EX_USAGE;
			}
			break;
		case 'h': return mount_usage(0);
		default: return mount_usage(1);
		}
	}
	if (argc - optind != 2)
		return mount_usage(1);
	dev = argv[optind];
	mpt = argv[optind + 1];
	if (famfs_mount_opts_parse(mopts, sloppy, &o, reason)) {
		famfs_err("%s: -o %s: %s", dev, mopts, reason);
		return MNT_EX_USAGE;
	}
	if (ns && enter_ns(ns))
		return MNT_EX_FAIL;
	if (fake) {
		struct famfs_fs fs;

		if (famfs_fs_open_dev(dev, false, &fs))
			return MNT_EX_FAIL;
		famfs_fs_close(&fs);
		if (famfs_verbose)
			printf("mount.famfs: %s: valid famfs; not mounted on %s (-f)\n",
			       dev, mpt);
		return MNT_EX_SUCCESS;
	}
	rc = cli_mount(dev, mpt, &o, false, NULL, 0);
	if (rc == FAMFS_EXIT_USAGE)
		return MNT_EX_USAGE;
	return rc ? MNT_EX_FAIL : MNT_EX_SUCCESS;
}
