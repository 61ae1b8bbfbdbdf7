// SPDX-License-Identifier: GPL-2.0
/* famfs tune: change a property of a famfs file system in its superblock
 * (master only): today, whether its memory is cache-coherent (issue 18). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#include "famfs.h"

const struct cli_doc cli_doc_tune = {
	.page = "famfs-tune", .prog = "famfs tune",
	.summary = "change a property of a file system (master only)",
	.synopsis = { "famfs tune --noncoherent|--coherent MPT|DEV",
		      "famfs tune MPT|DEV" },
	.description =
		"Record in the superblock of the famfs file system mounted at MPT or\n"
		"on DEV whether its memory is cache-coherent between hosts.  Only the\n"
		"master can change it.  Every famfs mount reads it: a non-coherent\n"
		"file system is mounted with famfs.ko's noncoherent option unless\n"
		"the mount says -o coherent.  When MPT (or a mounted DEV) is given,\n"
		"this host's mount is remounted in the new mode at once; other hosts\n"
		"see it at their next mount (or mount -o remount,noncoherent).\n"
		"Without an option, print the recorded mode.  A clone of the master\n"
		"(the same host uuid, but not the instance that holds the master\n"
		"record, see famfs-master(8)) is refused like a client, naming the\n"
		"instance that holds the role; nothing is written.\n",
	.opts = (const struct cli_opt[]){
		{ 0, "noncoherent", NULL, "the memory is not cache-coherent between hosts" },
		{ 0, "coherent", NULL, "the memory is cache-coherent (the mkfs default)" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("the device or mount cannot be read or written, its\n"
			       "superblock is invalid, this host is a client or\n"
			       "a clone that does not hold the master role, or\n"
			       "the remount failed"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mkfs(8), famfs-mount(8), famfs-flush(8), famfs-df(8), famfs-master(8)",
};

#define OPT_NONCOHERENT	(256 + 0)	/* cli_getopt: 256 + option index */
#define OPT_COHERENT	(256 + 1)

/* this host's mount at mpt, in the new mode, keeping its flags */
static int remount(const char *mpt, bool nc)
{
	static const struct { unsigned long st, ms; } fl[] = {
		{ ST_RDONLY, MS_RDONLY }, { ST_NOSUID, MS_NOSUID },
		{ ST_NODEV, MS_NODEV }, { ST_NOEXEC, MS_NOEXEC },
		{ ST_NOATIME, MS_NOATIME }, { ST_NODIRATIME, MS_NODIRATIME },
		{ ST_RELATIME, MS_RELATIME },
	};
	char dev[PATH_MAX];
	unsigned long flags = MS_REMOUNT;
	struct statvfs v;
	int rc;

	if (cli_mount_source(mpt, dev, sizeof(dev)) || statvfs(mpt, &v)) {
		famfs_err("%s: cannot find the mount to remount", mpt);
		return -ENOENT;
	}
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (v.f_flag & fl[i].st)
			flags |= fl[i].ms;
	rc = famfs_kernel->mount(dev, mpt, flags, nc ? "noncoherent" : "coherent");
	if (rc)
		famfs_err("%s: remount %s: %s", mpt, nc ? "noncoherent" : "coherent",
			  strerror(-rc));
	return rc;
}

int cmd_tune(int argc, char **argv)
{
	char mpt[PATH_MAX], host[37], master[37];
	const char *target;
	struct famfs_fs fs;
	int c, want = -1, rc;
	bool nc;

	while ((c = cli_getopt(argc, argv, &cli_doc_tune)) != -1) {
		switch (c) {
		case OPT_NONCOHERENT: want = 1; break;
		case OPT_COHERENT: want = 0; break;
		case 'h': return cli_usage(&cli_doc_tune, 0);
		default: return cli_usage(&cli_doc_tune, 1);
		}
	}
	if (argc - optind != 1)
		return cli_usage(&cli_doc_tune, 1);
	target = argv[optind];
	if (cli_open_target(target, &fs, mpt, sizeof(mpt)))
		return FAMFS_EXIT_ERROR;
	nc = le32toh(fs.sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_NONCOHERENT;
	if (want < 0) {
		printf("famfs tune: %s: %s\n", target,
		       nc ? "noncoherent" : "coherent");
		famfs_fs_close(&fs);
		return FAMFS_EXIT_OK;
	}
	if (!fs.host_id_ok || !fs.master) {
		famfs_uuid_str(fs.host_uuid, host);
		famfs_uuid_str(fs.sb->master_uuid, master);
		famfs_err("%s: this host (uuid %s) is a client; only the master (uuid %s) can change the superblock",
			  target, fs.host_id_ok ? host : "unknown", master);
		famfs_fs_close(&fs);
		return FAMFS_EXIT_ERROR;
	}
	if (!*mpt && fs.dev.fd >= 0 && !fs.sbm.rw) {
		/* an unmounted device, opened read-only: again, writable */
		famfs_fs_close(&fs);
		if (famfs_fs_open_dev(target, true, &fs))
			return FAMFS_EXIT_ERROR;
	}
	rc = 0;
	if ((bool)want != nc)
		rc = famfs_fs_change_feature(&fs, FAMFS_FEAT_INCOMPAT,
			want ? FAMFS_FEATURE_INCOMPAT_NONCOHERENT : 0,
			want ? 0 : FAMFS_FEATURE_INCOMPAT_NONCOHERENT);
	/* a claim in the change (the role back from another host) dropped the
	 * lines of the segments mapped so far: the others too (label.c) */
	if (!rc && fs.lines_forgotten)
		(void)famfs_log_discover(&fs);
	famfs_fs_close(&fs);
	if (rc)
		return FAMFS_EXIT_ERROR;
	if (*mpt && remount(mpt, want))
		return FAMFS_EXIT_ERROR;
	printf("famfs tune: %s: %s%s%s\n", target, want ? "noncoherent" : "coherent",
	       (bool)want == nc ? " (unchanged)" : "",
	       *mpt ? ", remounted here" : "");
	return FAMFS_EXIT_OK;
}
