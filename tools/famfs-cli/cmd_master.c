// SPDX-License-Identifier: GPL-2.0
/* famfs master: show, claim or hand over the master role (issue 15.2). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <uuid/uuid.h>

#include "famfs.h"

const struct cli_doc cli_doc_master = {
	.page = "famfs-master", .prog = "famfs master",
	.summary = "show, claim or hand over the master role",
	.synopsis = { "famfs master MPT|DEV",
		      "famfs master claim [-f] MPT|DEV",
		      "famfs master set HOST-UUID MPT|DEV" },
	.description =
		"Only the master appends to the log (creates files and directories).\n"
		"The superblock names the master host (its uuid, /etc/famfs/host-uuid);\n"
		"the master record next to it names the running instance that holds\n"
		"the role: host uuid, boot id, a generation bumped by every claim, the\n"
		"claim time and the host name.  The master claims the record when it\n"
		"mounts (or at its first append), and checks it, under the log lock,\n"
		"before every append: an instance whose host uuid is the master's but\n"
		"that does not hold the record (a cloned VM or container image) is\n"
		"refused before it writes.  This host's claim is remembered in\n"
		"/var/lib/famfs/FS-UUID.claim, so that it claims the role again after\n"
		"a reboot.\n"
		"\n"
		"A copy of the master's disk (a cloned VM) has that claim file too,\n"
		"which is what this host after a reboot looks like.  So the instance\n"
		"that holds the role beats (next to the record) at its claim and at\n"
		"every command that checks the role, and another boot of this host\n"
		"claims it only if that beat is older than the lease (10 s, or\n"
		"FAMFS_MASTER_LEASE seconds) and does not move while it waits a lease\n"
		"(it announces the takeover first; the holder reports it at its next\n"
		"command).  A younger beat refuses it at once, naming the live holder,\n"
		"its boot and the beat's age.  The trade-off: a master that runs no\n"
		"command for longer than the lease can be taken over by a clone; its\n"
		"next append is then refused, naming the new holder.  After a real\n"
		"reboot the claim (at mount or at the first append) waits a lease.\n"
		"\n"
		"famfs master MPT|DEV shows the superblock's master, this host, the\n"
		"record and its beat, and whether this instance holds the role.\n"
		"\n"
		"famfs master claim takes the role: a free record, or this host's own\n"
		"from another boot whose beat stopped (see above).  With -f it takes\n"
		"any record at once (its holder must be gone: there is no lock\n"
		"between hosts) and makes this host the superblock's master too; a\n"
		"client's mount has a read-only log, so umount and mount again after\n"
		"that.\n"
		"\n"
		"famfs master set HOST-UUID, run on the master, hands the role to the\n"
		"host HOST-UUID: the superblock names it, the record is released, and\n"
		"that host claims it when it mounts (or at its first append).  Its own\n"
		"uuid releases the role to whichever instance of this host claims\n"
		"first.\n",
	.opts = (const struct cli_opt[]){
		{ 'f', "force", NULL,
		  "claim: take the role even if another instance holds\n"
		  "it or the record is corrupt" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ FAMFS_EXIT_OK, "success (show: this instance holds the role or\n"
				 "may claim it, or it is not the master host)" },
		CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("the device or mount cannot be read or written,\n"
			       "or the claim or hand-over was refused (another\n"
			       "instance holds the role, the record is corrupt,\n"
			       "this host is not the master)"),
		{ FAMFS_EXIT_PROBLEM, "show: this host is the master host, but another\n"
				      "instance holds the role (another host's, or another\n"
				      "boot of this host that beat less than a lease ago),\n"
				      "or the record is corrupt" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mount(8), famfs-mkfs(8)",
};

static const char *state_name(enum famfs_mrec_state st)
{
	switch (st) {
	case FAMFS_MREC_MINE: return "this instance holds the role";
	case FAMFS_MREC_FREE: return "free: the master claims it at mount or at its first append";
	case FAMFS_MREC_REBOOT: return "held by another boot of this host (before a reboot, or a clone of its disk): claimed at mount or at the first append once its beat is older than the lease and does not move for a lease";
	case FAMFS_MREC_OTHER: return "held by another instance";
	default: return "corrupt";
	}
}

static int show(struct famfs_fs *fs)
{
	const struct famfs_master_record *r = famfs_mrec_refresh(fs);
	char reason[FAMFS_MREC_REASON_LEN], s[37], desc[FAMFS_MREC_REASON_LEN + 16];
	enum famfs_mrec_state st;
	uint8_t boot[16];
	bool live;
	int rc;

	famfs_uuid_str(fs->sb->master_uuid, s);
	printf("superblock master: %s%s\n", s, fs->master ? " (this host)" : "");
	if (fs->host_id_ok) {
		famfs_uuid_str(fs->host_uuid, s);
		printf("this host:         %s", s);
		if (!famfs_boot_id(boot)) {
			famfs_uuid_str(boot, s);
			printf(", boot %s", s);
		}
		printf("\n");
	}
	famfs_mrec_show(fs->sb, r, desc, sizeof(desc));
	printf("master record:     %s\n", desc);
	rc = famfs_master_state(fs, &st, reason);
	if (rc)
		return FAMFS_EXIT_ERROR;
	/* the holder's beat (issue 27.4), for a record someone holds */
	live = st == FAMFS_MREC_REBOOT && famfs_beat_live(fs, &fs->mrec);
	if (st == FAMFS_MREC_MINE || st == FAMFS_MREC_REBOOT ||
	    st == FAMFS_MREC_OTHER) {
		famfs_beat_show(fs, &fs->mrec, desc, sizeof(desc));
		printf("master beat:       %s\n", desc);
	}
	printf("this instance:     %s%s%s\n",
	       live ? "held by a live instance of this host on another boot (a clone of its disk?): its last beat is younger than the lease; not claimed while it beats" :
	       fs->master || st == FAMFS_MREC_MINE ? state_name(st) :
	       "a client (not the superblock's master host)",
	       reason[0] ? ": " : "", reason);
	if (fs->master && (st == FAMFS_MREC_OTHER || st == FAMFS_MREC_BAD || live))
		return FAMFS_EXIT_PROBLEM;
	return FAMFS_EXIT_OK;
}

/* target opened so that the superblock region can be written */
static int open_rw(const char *target, struct famfs_fs *fs)
{
	char mpt[PATH_MAX];
	int rc = cli_open_target(target, fs, mpt, sizeof(mpt));

	if (rc || mpt[0])
		return rc;	/* a mount: .meta/.superblock is opened O_RDWR */
	famfs_fs_close(fs);
	return famfs_fs_open_dev(target, true, fs);
}

int cmd_master(int argc, char **argv)
{
	const char *sub = NULL, *target;
	struct famfs_fs fs;
	uint8_t host[16];
	bool force = false;
	char mpt[PATH_MAX];
	int c, rc, want;

	while ((c = cli_getopt(argc, argv, &cli_doc_master)) != -1) {
		switch (c) {
		case 'f': force = true; break;
		case 'h': return cli_usage(&cli_doc_master, 0);
		default: return cli_usage(&cli_doc_master, 1);
		}
	}
	if (optind < argc && (!strcmp(argv[optind], "claim") ||
			      !strcmp(argv[optind], "set")))
		sub = argv[optind++];
	want = sub && !strcmp(sub, "set") ? 2 : 1;
	if (argc - optind != want || (force && (!sub || strcmp(sub, "claim"))))
		return cli_usage(&cli_doc_master, 1);
	if (want == 2 && uuid_parse(argv[optind], host)) {
		famfs_err("master set %s: not a uuid", argv[optind]);
		return FAMFS_EXIT_USAGE;
	}
	/* no host has the nil uuid: nobody could claim the role */
	if (want == 2 && uuid_is_null(host)) {
		famfs_err("master set %s: the nil uuid names no host", argv[optind]);
		return FAMFS_EXIT_USAGE;
	}
	target = argv[argc - 1];
	if (!sub) {
		if (cli_open_target(target, &fs, mpt, sizeof(mpt)))
			return FAMFS_EXIT_ERROR;
		rc = show(&fs);
		famfs_fs_close(&fs);
		return rc;
	}
	if (open_rw(target, &fs))
		return FAMFS_EXIT_ERROR;
	rc = famfs_fs_lock(&fs);
	if (!rc) {
		rc = want == 2 ? famfs_master_set(&fs, host) :
				 famfs_master_claim(&fs, force);
		/* a claim of another instance's record dropped the lines of
		 * the segments mapped here; the others are mapped (and so
		 * dropped) now, or the next opening, the master instance,
		 * would read them as its own (famfs_fs_forget_lines) */
		if (!rc && want == 1 && fs.lines_forgotten)
			(void)famfs_log_discover(&fs);
		famfs_fs_unlock(&fs);
	}
	if (!rc && want == 2)
		printf("famfs master: %s: the role is handed over to host %s; it claims it when it mounts or appends\n",
		       fs.name, argv[optind]);
	else if (!rc)
		printf("famfs master: %s: this instance holds the master role\n",
		       fs.name);
	famfs_fs_close(&fs);
	return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
}
