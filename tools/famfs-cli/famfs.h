/* SPDX-License-Identifier: GPL-2.0 */
/*
 * famfs-cli: the subcommands (one file each: cmd_<name>.c), called by the
 * dispatcher famfs.c through its table of commands.  A command calls the
 * helpers (cli.h) and libfamfs; a few call what another command exports
 * here (mount.famfs runs famfs mount's cli_mount, mkfs.famfs and fsck.famfs
 * famfs mkfs's and fsck's), never in a circle.  None calls the dispatcher.
 */
#ifndef FAMFS_CLI_H
#define FAMFS_CLI_H

#include "cli.h"

#define CLI_COMMANDS(X) \
	X(mkfs) X(mount) X(logplay) X(mkfile) X(cp) X(mkdir) X(rm) X(mv) \
	X(chmod) X(chown) X(fsck) \
	X(getmap) X(check) X(verify) X(df) X(bind) X(master) X(flush) X(tune) X(loggrow) \
	X(devices) X(devadd) X(hosts)
#define CLI_DECLARE(n) \
	int cmd_##n(int argc, char **argv); \
	extern const struct cli_doc cli_doc_##n;
CLI_COMMANDS(CLI_DECLARE)
int cmd_mount_helper(int argc, char **argv);
extern const struct cli_doc cli_doc_mount_helper;
/* mkfs.famfs and fsck.famfs: mkfs(8)'s and fsck(8)'s helpers (cmd_fs8.c) */
int cmd_mkfs_helper(int argc, char **argv);
int cmd_fsck_helper(int argc, char **argv);
extern const struct cli_doc cli_doc_mkfs_helper, cli_doc_fsck_helper;

/* famfs mkfs on dev (cmd_mkfs.c); returns FAMFS_EXIT_* */
/* --log-format compact|v1: 0, or FAMFS_EXIT_USAGE (printed) */
int cli_log_format_opt(const char *arg, bool *compact);
int cli_mkfs_run(const char *dev, const char *const *members, int nmembers,
		 uint64_t loglen, bool force, bool kill,
		 bool noncoherent, bool compact);
/* -l/--loglen ARG: FAMFS_EXIT_OK, or FAMFS_EXIT_USAGE (message printed) */
int cli_loglen_opt(const char *arg, uint64_t *loglen);
/* famfs fsck of a device or mount point, messages prefixed with prog
 * (cmd_fsck.c); returns FAMFS_EXIT_* */
int cli_fsck_run(const char *prog, const char *target, bool json);

/* The mount itself, shared by famfs mount and mount.famfs: validate DEV,
 * mount(2), meta files, log replay; o->ro also makes the mount read-only.
 * Returns FAMFS_EXIT_*. */
int cli_mount(const char *dev, const char *mpt,
	      const struct famfs_mount_opts *o, bool log_ro,
	      const char *const *hints, int nhints);
/* famfs bind DEV (cmd_bind.c): /dev/daxX.Y to famfs's dax driver */
int cli_dax_bind_famfs(const char *dev);
/* famfs mount's exit code when a member is not on this host */
#define CLI_EXIT_NOMEMBER	4
/* famfs mount's exit code when the host table is armed and this host's
 * slot is not written after the replay (the mount undone) */
#define CLI_EXIT_NOSLOT		5
/* the same, but the mount could not be undone (umount failed, e.g. EBUSY:
 * something opened a file during the replay): still mounted, slot not
 * written (review r39 4) */
#define CLI_EXIT_NOSLOT_MOUNTED	6

/* famfs logplay --follow MPT: until MPT is unmounted or SIGINT/SIGTERM;
 * returns FAMFS_EXIT_*. */
int cli_follow(const char *mpt, unsigned interval_ms);
/* Start cli_follow(mpt) as a daemon (mount -o follow): detached, in its
 * own session, messages to the kernel log.  0, or -errno (message printed). */
int cli_follow_daemon(const char *mpt);

#endif
