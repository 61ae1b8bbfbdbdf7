// SPDX-License-Identifier: GPL-2.0
/* famfs chown: change the owner of files and directories and log it
 * (format rev 3). */
#define _GNU_SOURCE
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "famfs.h"

const struct cli_doc cli_doc_chown = {
	.page = "famfs-chown", .prog = "famfs chown",
	.summary = "change the owner of files and directories, on every host",
	.synopsis = { "famfs chown OWNER[:GROUP] PATH...",
		      "famfs chown :GROUP PATH..." },
	.description =
		"Give each PATH of a famfs mount a new owner, group or both and log it\n"
		"(master only): every host's replay gives it the same ids.  OWNER and\n"
		"GROUP are names (looked up on this host: the log keeps the numbers,\n"
		"which other hosts take as they are) or numbers; OWNER: (a colon and\n"
		"no group) gives OWNER's login group too, as chown(1).  Each PATH must\n"
		"be in the log, and here the logged file or not here; else nothing\n"
		"is logged for it.  As chown(2), a file's set-user-ID bit (and its\n"
		"set-group-ID bit if it is group-executable) is cleared, in the log\n"
		"too: no host keeps it.  The SETATTR entry is in the log before the owner\n"
		"changes here.  The first one sets the setattr feature in the\n"
		"superblock: famfs tools older than this one refuse the file system\n"
		"from then on.  As with mkfile, the mount is opened and the log lock\n"
		"taken once for all PATHs; one that fails does not stop the others,\n"
		"and the exit status is then 2.\n",
	.opts = (const struct cli_opt[]){ { 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK,
		{ FAMFS_EXIT_USAGE, "usage error: a bad option or argument, or an\n"
				    "OWNER or GROUP that is no user or group here" },
		CLI_EXIT_ERROR("a PATH is not in the log or not in a famfs mount,\n"
			       "the file here is not the logged one, this host\n"
			       "is a client, or the log is full"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-chmod(8), chown(1)",
};

/* a user or group name, or a number: 0, or FAMFS_EXIT_USAGE (printed) */
static int id_of(const char *s, bool group, uint32_t *id, uint32_t *login_gid)
{
	if (!famfs_parse_u32(s, 10, id) && *id != UINT32_MAX)
		return FAMFS_EXIT_OK;
	if (group) {
		struct group *g = getgrnam(s);

		if (g) {
			*id = g->gr_gid;
			return FAMFS_EXIT_OK;
		}
	} else {
		struct passwd *p = getpwnam(s);

		if (p) {
			*id = p->pw_uid;
			if (login_gid)
				*login_gid = p->pw_gid;
			return FAMFS_EXIT_OK;
		}
	}
	famfs_err("%s: no such %s on this host", s, group ? "group" : "user");
	return FAMFS_EXIT_USAGE;
}

int cmd_chown(int argc, char **argv)
{
	char rel[FAMFS_LOG_PATH_MAX], spec[512], *colon;
	struct cli_batch b = { .open = false };
	uint32_t valid = 0, uid = 0, gid = 0, login_gid = 0;
	int c, rc = FAMFS_EXIT_OK;

	while ((c = cli_getopt(argc, argv, &cli_doc_chown)) != -1) {
		switch (c) {
		case 'h': return cli_usage(&cli_doc_chown, 0);
		default: return cli_usage(&cli_doc_chown, 1);
		}
	}
	if (argc - optind < 2 || strlen(argv[optind]) >= sizeof(spec))
		return cli_usage(&cli_doc_chown, 1);
	strcpy(spec, argv[optind]);
	colon = strchr(spec, ':');
	if (colon)
		*colon = '\0';
	if (*spec) {
		if (id_of(spec, false, &uid, &login_gid))
			return FAMFS_EXIT_USAGE;
		valid |= FAMFS_SETATTR_UID;
	}
	if (colon && colon[1]) {
		if (id_of(colon + 1, true, &gid, NULL))
			return FAMFS_EXIT_USAGE;
		valid |= FAMFS_SETATTR_GID;
	} else if (colon && *spec) {		/* OWNER: its login group */
		gid = login_gid;
		valid |= FAMFS_SETATTR_GID;
	}
	if (!valid) {
		famfs_err("%s: neither an owner nor a group", argv[optind]);
		return FAMFS_EXIT_USAGE;
	}
	for (int i = optind + 1; i < argc; i++) {
		if (cli_batch_open(&b, argv[i], rel) ||
		    famfs_setattr(&b.fs, rel, valid, NULL, uid, gid))
			rc = FAMFS_EXIT_ERROR;
	}
	cli_batch_close(&b);
	return rc;
}
