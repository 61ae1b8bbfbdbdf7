// SPDX-License-Identifier: GPL-2.0
/* famfs mount: mount -t famfs, create .meta/.superblock and .meta/.log,
 * replay the log. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_mount = {
	.page = "famfs-mount", .prog = "famfs mount",
	.summary = "mount famfs, create the meta files, replay the log",
	.synopsis = { "famfs mount [-r] [-v] [-o OPTS] [-d MEMBER]... DEV MPT" },
	.description =
		"Mount the famfs file system on DEV at MPT (mount -t famfs), create the\n"
		"meta files .meta/.superblock and .meta/.log and replay the log.  On the\n"
		"master the log is writable; on a client (or with -r) the log and every\n"
		"replayed file are read-only.  A superblock or log header that fails its\n"
		"checks (magic, CRC, version, unknown incompatible features) is refused\n"
		"before anything is mounted.  Corrupt log entries and conflicts are\n"
		"reported and skipped; run famfs fsck then.  umount MPT unmounts.\n"
		"\n"
		"On the master host the mount claims the master record (see\n"
		"famfs-master(8)).  If another instance holds it (a clone of this\n"
		"host, or this host's role was taken over), the mount still succeeds\n"
		"with a warning, but this instance creates nothing.  After a reboot\n"
		"the claim first waits the lease (10 s) watching the previous boot's\n"
		"beat, and is refused if it moves or is younger than the lease (a\n"
		"clone of this host's disk that still runs).\n"
		"\n"
		"mount -t famfs DEV MPT and fstab lines do the same through the helper\n"
		"mount.famfs(8).\n"
		"\n"
		"Several devices: before the replay every member the log names\n"
		"(famfs mkfs DEV MEMBER..., famfs devadd) is found on this host by its\n"
		"member superblock -- by device uuid, whatever its name here -- among\n"
		"the -d hints, /dev/pmem* and /dev/dax*.*, and attached to the mount\n"
		"(a /dev/daxX.Y must be bound to famfs: famfs bind).  If one is\n"
		"missing, the mount is undone and the message names its index and\n"
		"device uuid (exit 4).\n"
		"\n"
		"With a host table (famfs-hosts(8)) the mount registers this host in\n"
		"its slot before the replay and writes the slot again after it.  If\n"
		"the first write fails, nothing is mounted.  If the second fails and\n"
		"the table is armed, the mount is undone (exit 5): the master frees a\n"
		"deleted file's memory once no registered host holds it, so no host\n"
		"maps the file system without its slot.  Not armed, the mount stays\n"
		"and says so; the next famfs logplay writes the slot.\n"
		"\n"
		"The mount is nosuid,nodev unless -o suid or -o dev asks otherwise:\n"
		"files and device nodes come from another host's log.\n",
	.opts = (const struct cli_opt[]){
		{ 'r', "read-only", NULL, "map the log read-only even on the master" },
		{ 'o', "options", "OPTS",
		  "mount options, comma-separated: ro (the log\n"
		  "read-only, and the mount read-only once the log\n"
		  "is replayed), rw, nosuid, nodev (both the\n"
		  "default: suid and dev turn them off), noexec,\n"
		  "noatime and the other generic flags of mount(8),\n"
		  "and\n"
		  "famfs.ko's mode=OCTAL (of the root directory)\n"
		  "and dax=always; coherent or noncoherent: the\n"
		  "memory's cache coherence for this mount,\n"
		  "overriding the superblock's (set by famfs\n"
		  "mkfs --noncoherent or famfs tune; the override is\n"
		  "logged on stderr and in the kernel log);\n"
		  "remount: only change the flags\n"
		  "of the famfs mount at MPT (ro: read-only;\n"
		  "coherent/noncoherent: switch the mode);\n"
		  "follow: keep the mount up to date with the log\n"
		  "until it is unmounted (famfs logplay --follow in\n"
		  "the background, messages in the kernel log);\n"
		  "protect (the default): only famfs commands may\n"
		  "create, remove, rename, chmod or chown on the\n"
		  "mount, other programs get EPERM (famfs(8));\n"
		  "noprotect: any program may, as with mount(2)\n"
		  "without options (the 2024 famfs user space);\n"
		  "with remount, either switches the mount" },
		{ 'v', "verbose", NULL, "print what logplay does and a summary" },
		{ 'd', "device", "MEMBER", "look at MEMBER first when finding the\n"
		  "members (repeatable; they are found by uuid anyway)" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("MPT is not a directory, DEV holds no valid famfs,\n"
			       "the mount failed (is famfs.ko loaded?), or the meta\n"
			       "files could not be created, or a member could not\n"
			       "be attached"),
		{ CLI_EXIT_NOMEMBER, "a member device of the file system is not on\n"
		  "this host (its index and device uuid are named)" },
		{ CLI_EXIT_NOSLOT, "the host table is armed and this host's slot\n"
		  "could not be written after the replay: the mount is\n"
		  "undone" },
		{ CLI_EXIT_NOSLOT_MOUNTED, "as 5, but the mount could not be undone\n"
		  "(umount failed: something opened a file meanwhile):\n"
		  "MPT stays mounted without this host's slot; unmount it" },
		CLI_EXIT_END },
	.see_also = "famfs(8), mount.famfs(8), famfs-logplay(8), famfs-fsck(8), umount(8)",
};

static int mkmeta(const char *mpt, const struct famfs_superblock *sb, bool rw)
{
	char p[PATH_MAX];
	int rc, rfd;

	if (famfs_join(p, sizeof(p), mpt, FAMFS_META_DIR))
		return -ENAMETOOLONG;
	/* through famfs.ko's FAMFSIOC_NS: a protected mount refuses mkdir(2) */
	rfd = open(mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rc = rfd < 0 ? -errno : famfs_mnt_mkdirat(rfd, FAMFS_META_DIR, 0755) &&
	     errno != EEXIST ? -errno : 0;
	if (rfd >= 0)
		close(rfd);
	if (rc) {
		famfs_err("%s: mkdir: %s", p, strerror(-rc));
		return rc;
	}
	rc = famfs_meta_create(mpt, FAMFS_META_SB, 0444, FAMFS_SUPERBLOCK, 0,
			       FAMFS_SB_REGION_LEN);
	if (rc)
		return rc;
	return famfs_meta_create(mpt, FAMFS_META_LOG, rw ? 0644 : 0444,
				 FAMFS_LOG, le64toh(sb->log_offset),
				 le64toh(sb->log_len));
}

/* The user's -o coherent|noncoherent overrode the superblock: say so on
 * stderr and, as one line, in the kernel log (where famfs.ko logs the mount). */
static void log_override(const char *dev, const char *mpt, const char *note)
{
	char line[FAMFS_REASON_LEN + 2 * PATH_MAX];
	int fd, n;

	famfs_warn("%s on %s: %s", dev, mpt, note);
	n = snprintf(line, sizeof(line), "<5>famfs: %s on %s: %s\n", dev, mpt, note);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (n > 0 && write(fd, line, (size_t)n < sizeof(line) ? (size_t)n :
			   sizeof(line) - 1) < 0)
		famfs_warn("/dev/kmsg: %s", strerror(errno));
	close(fd);
}

int cli_mount(const char *dev, const char *mpt,
	      const struct famfs_mount_opts *in, bool log_ro,
	      const char *const *hints, int nhints)
{
	char note[FAMFS_REASON_LEN], data[sizeof(in->data)];
	struct famfs_mount_opts opts = *in, *o = &opts;
	struct famfs_superblock sb;
	struct famfs_logplay_result r;
	struct famfs_fs fs;
	bool master;
	struct stat st;
	int rc;

	if (stat(mpt, &st) || !S_ISDIR(st.st_mode)) {
		famfs_err("%s: mount point is not a directory", mpt);
		return FAMFS_EXIT_ERROR;
	}
	if (o->remount) {	/* new flags for a famfs mount: no meta, no replay */
		char src[PATH_MAX];

		if (cli_mount_source(mpt, src, sizeof(src))) {
			famfs_err("%s: remount: not a famfs mount point", mpt);
			return FAMFS_EXIT_ERROR;
		}
		if (famfs_mount_opts_coherency(o, NULL, note) < 0 ||
		    famfs_mount_opts_protect(o, true, note)) {
			famfs_err("%s: remount: %s", mpt, note);
			return FAMFS_EXIT_USAGE;
		}
		rc = famfs_kernel->mount(dev, mpt, MS_REMOUNT | o->flags |
					 (o->ro ? MS_RDONLY : 0),
					 o->data[0] ? o->data : NULL);
		if (rc)
			famfs_err("%s: remount%s: %s", mpt, o->ro ? " read-only" : "",
				  strerror(-rc));
		return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
	}
	log_ro = log_ro || o->ro;
	/* 1. validate the device's superblock and log before mounting */
	rc = famfs_fs_open_dev_head(dev, &fs);
	if (rc)
		return FAMFS_EXIT_ERROR;
	memcpy(&sb, fs.sb, sizeof(sb));
	master = fs.master;
	famfs_fs_close(&fs);	/* /dev/pmemN: the mount holds it exclusively */
	rc = famfs_mount_opts_coherency(o, &sb, note);
	if (rc < 0) {
		famfs_err("%s: %s", dev, note);
		return FAMFS_EXIT_USAGE;
	}
	if (rc > 0)
		log_override(dev, mpt, note);

	/* 2. the kernel mount: mount(2), never mount(8) (that would run us),
	 * protected unless -o noprotect; a module without the option (older,
	 * or the 2024 one) refuses it with EINVAL: then without, said */
	memcpy(data, o->data, sizeof(data));
	if (famfs_mount_opts_protect(o, false, note)) {
		famfs_err("%s: %s", dev, note);
		return FAMFS_EXIT_USAGE;
	}
	rc = famfs_kernel->mount(dev, mpt, o->flags, o->data[0] ? o->data : NULL);
	if (rc == -EINVAL && o->protect == FAMFS_PROTECT_UNSET) {
		memcpy(o->data, data, sizeof(data));
		rc = famfs_kernel->mount(dev, mpt, o->flags,
					 o->data[0] ? o->data : NULL);
		if (!rc)
			famfs_warn("%s: this famfs.ko has no mount option 'protect': any program can change the files of %s behind the log",
				   dev, mpt);
	}
	if (rc) {
		bool dax = stat(dev, &st) == 0 && S_ISCHR(st.st_mode);

		famfs_err("%s: mount -t famfs on %s: %s%s", dev, mpt, strerror(-rc),
			  rc == -ENODEV ? " (is famfs.ko loaded?)" :
			  rc == -EOPNOTSUPP && dax ?
			  " (a device-dax instance must be bound to famfs first: famfs bind DEV)" : "");
		return FAMFS_EXIT_ERROR;
	}
	/* 3. meta files, then check the superblock through them */
	rc = mkmeta(mpt, &sb, master && !log_ro);
	if (!rc)
		rc = famfs_fs_open_mount(mpt, false, &fs);
	if (!rc && memcmp(fs.sb, &sb, sizeof(sb))) {
		famfs_err("%s/%s: differs from the superblock of %s", mpt,
			  FAMFS_META_SB, dev);
		famfs_fs_close(&fs);
		rc = -EIO;
	}
	/* 3b. the members the log names, before any file uses one */
	if (!rc) {
		rc = famfs_fs_attach_members(&fs, hints, nhints);
		if (rc)
			famfs_fs_close(&fs);
	}
	if (rc) {
		famfs_kernel->umount(mpt);
		return rc == -ENODEV ? CLI_EXIT_NOMEMBER : FAMFS_EXIT_ERROR;
	}
	/* 4. the master claims its role (the master record); if another
	 * instance holds it, this one stays mounted but never appends.
	 * Before the replay: only the instance that holds the role is the
	 * master instance, which replays files with their write bits -- a
	 * record it may take (free, handed over, this host's from another
	 * boot) is another instance's until claimed, and the claim drops the
	 * lines of the log that instance wrote (role/master.c) */
	if (master && !log_ro && !famfs_fs_lock(&fs)) {
		fs.claim_no_replay = true;	/* registered, then replayed */
		if (famfs_master_claim(&fs, false))
			famfs_warn("%s: mounted, but this instance does not hold the master role (see above) and will not create files (famfs master %s)",
				   mpt, mpt);
		fs.claim_no_replay = false;
		famfs_fs_unlock(&fs);
	}
	/* 5. replay; a corrupt entry or a conflict is reported, not fatal.
	 * With a host table, this host is registered first (before the
	 * replay maps anything) and reports what it replayed after; one
	 * evicted in this boot does not replay (said) */
	for (int pass = 0;; pass++) {
		uint64_t n0 = famfs_log_refresh_next(&fs);
		bool had_table = pass || famfs_hosts_present(&fs);
		struct famfs_logplay *lp;

		/* a host that cannot register maps nothing: its files would
		 * be invisible to the master's reclaim decision */
		rc = famfs_hosts_checkin(&fs, true, false, 0, NULL);
		if (rc == -EPROTONOSUPPORT)
			famfs_err("%s: not mounted: a newer famfs set a flag in the host table (named above): this famfs cannot take part (upgrade it)",
				  mpt);
		else if (rc && rc != -ESTALE)
			famfs_err("%s: not mounted: this host cannot register in the host table (%s)",
				  mpt, strerror(-rc));
		/* kept for the check-in: how far it read, and its namespace
		 * (the pending DELETEs) */
		lp = rc ? NULL : famfs_logplay_new(n0);
		memset(&r, 0, sizeof(r));
		if (!rc)
			rc = lp ? famfs_logplay_more(lp, &fs, false, &r, NULL, NULL) :
				  -ENOMEM;
		/* not fresh: a registration made only now (no table at the
		 * first check-in) comes after a replay that may have mapped
		 * any file the log had */
		if (!rc)
			rc = famfs_hosts_mount_checkin(&fs, mpt,
						       famfs_logplay_replayed(lp), lp,
						       had_table);
		/* this instance's claim owed this replay: paid when every
		 * entry was played (else the next append replays again) */
		if (!rc && fs.master_instance && !r.bad_entries && !r.errors)
			famfs_master_caught_up(&fs);
		famfs_logplay_free(lp);
		/* the table was armed during it: once more, registered */
		if (rc != -EAGAIN || pass)
			break;
	}
	/* the master's create summary, from the log as it is now */
	if (!rc && master && !log_ro && !famfs_fs_lock(&fs)) {
		famfs_fs_cache_remake(&fs);
		famfs_fs_unlock(&fs);
	}
	famfs_fs_close(&fs);
	/* 6. -o ro: the mount itself read-only, keeping the other flags */
	if (!rc && o->ro) {
		rc = famfs_kernel->mount(dev, mpt, o->flags | MS_REMOUNT | MS_BIND |
					 MS_RDONLY, NULL);
		if (rc)
			famfs_err("%s: cannot make the mount read-only: %s", mpt,
				  strerror(-rc));
	}
	if (rc) {
		int urc = famfs_kernel->umount(mpt);

		if (urc)
			famfs_err("%s: and it cannot be unmounted: %s: still mounted%s (umount %s)",
				  mpt, strerror(-urc),
				  rc == -ENOLINK ? " without this host's slot" : "",
				  mpt);
		if (rc == -ENOLINK)
			return urc ? CLI_EXIT_NOSLOT_MOUNTED : CLI_EXIT_NOSLOT;
		return FAMFS_EXIT_ERROR;
	}
	if (r.bad_entries || r.conflicts || r.errors)
		famfs_warn("%s: log replayed with %lu corrupt entries skipped, %lu conflicts, %lu errors; run famfs fsck",
			   mpt, r.bad_entries, r.conflicts, r.errors);
	/* still mounted (as with a corrupt entry): what it holds back may
	 * show no other file's bytes, and its check-in reported no more
	 * than the entry it could not read (the master frees nothing it
	 * may hold) */
	if (r.withheld)
		famfs_warn("%s: %lu files and directories of the log not made (named above: made before an entry or a log segment that cannot be read here, which may have deleted them, or on memory another file has)",
			   mpt, r.withheld);
	if (famfs_verbose)
		printf("famfs mount: %s on %s (%s%s): %lu files, %lu directories\n",
		       dev, mpt, master ? "master" : "client",
		       o->ro ? ", read-only" : log_ro ? ", read-only log" : "",
		       r.created_files, r.created_dirs);
	if (o->follow) {
		if (cli_follow_daemon(mpt))
			return FAMFS_EXIT_ERROR;	/* mounted, not followed */
		if (famfs_verbose)
			printf("famfs mount: %s: following the log (famfs logplay --follow, messages in the kernel log) until umount\n",
			       mpt);
	}
	return FAMFS_EXIT_OK;
}

int cli_follow_daemon(const char *mpt)
{
	char abs[PATH_MAX];
	pid_t pid;
	int st, fd;

	if (!realpath(mpt, abs)) {
		famfs_err("%s: %s", mpt, strerror(errno));
		return -errno;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int rc = -errno;

		famfs_err("%s: cannot start the follower: %s", abs, strerror(errno));
		return rc;
	}
	if (pid > 0) {		/* the first child exits once it forked again */
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			famfs_err("%s: cannot start the follower", abs);
			return -ECHILD;
		}
		return 0;
	}
	if (setsid() < 0)
		_exit(1);
	pid = fork();
	if (pid < 0)
		_exit(1);
	if (pid > 0)
		_exit(0);
	/* the daemon: nothing held, output to the kernel log */
	if (chdir("/"))
		_exit(1);
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		dup2(fd, 0);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	setvbuf(stderr, NULL, _IOLBF, 0);	/* one kernel log record a line */
	_exit(cli_follow(abs, 200));
}

int cmd_mount(int argc, char **argv)
{
	char reason[FAMFS_REASON_LEN];
	struct famfs_mount_opts o;
	const char *mopts = NULL, *hints[FAMFS_MAX_DEVS * 2];
	bool ro = false;
	int c, nhints = 0;

	while ((c = cli_getopt(argc, argv, &cli_doc_mount)) != -1) {
		switch (c) {
		case 'r': ro = true; break;
		case 'o': mopts = optarg; break;
		case 'v': famfs_verbose++; break;
		case 'd':
			if (nhints == (int)(sizeof(hints) / sizeof(hints[0]))) {
				famfs_err("-d %s: at most %d hints", optarg, nhints);
				return FAMFS_EXIT_USAGE;
			}
			hints[nhints++] = optarg;
			break;
		case 'h': return cli_usage(&cli_doc_mount, 0);
		default: return cli_usage(&cli_doc_mount, 1);
		}
	}
	if (argc - optind != 2)
		return cli_usage(&cli_doc_mount, 1);
	if (famfs_mount_opts_parse(mopts, false, &o, reason)) {
		famfs_err("%s: -o %s: %s", argv[optind], mopts, reason);
		return FAMFS_EXIT_USAGE;
	}
	return cli_mount(argv[optind], argv[optind + 1], &o, ro, hints, nhints);
}
