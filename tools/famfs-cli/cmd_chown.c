// SPDX-License-Identifier: GPL-2.0
/* famfs chown: change the owner of files and directories and log it
 * (format rev 3). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "famfs.h"

const struct cli_doc cli_doc_chown = {
	.page = "famfs-chown", .prog = "famfs chown",
	.summary = "change the owner of files and directories, on every host",
	.synopsis = { "famfs chown [-j] OWNER[:GROUP] PATH...",
		      "famfs chown [-j] :GROUP PATH..." },
	.description =
		"Give each PATH of a famfs mount a new owner, group or both and log it\n"
		"(master only): every host's replay gives it the same ids.  OWNER and\n"
		"GROUP are names (looked up on this host: the log keeps the numbers,\n"
		"which other hosts take as they are) or numbers; OWNER: (a colon and\n"
		"no group) gives OWNER's login group too, as chown(1) (OWNER a\n"
		"number too; one with no user here is refused).  Each PATH must\n"
		"be in the log, and here the logged file or not here; else nothing\n"
		"is logged for it.  As chown(2), a file's set-user-ID bit (and its\n"
		"set-group-ID bit if it is group-executable) is cleared, in the log\n"
		"too: no host keeps it.  The SETATTR entry is in the log before the owner\n"
		"changes here.  The first one sets the setattr feature in the\n"
		"superblock: famfs tools older than this one refuse the file system\n"
		"from then on.  As with mkfile, the mount is opened and the log lock\n"
		"taken once for all PATHs; one that fails does not stop the others,\n"
		"and the exit status is then 2.\n",
	.opts = (const struct cli_opt[]){ CLI_OPT_NSJSON, { 0 } },
	.sections = (const struct cli_section[]){
		{ "JSON", CLI_NSJSON_TEXT
		  "Example:\n"
		  "  famfs chown -j alice: /mnt/famfs/f | jq '.paths[0].entries[0].uid'\n", false },
		{ 0 } },
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

int cmd_chown(int argc, char **argv)
{
	char rel[FAMFS_LOG_PATH_MAX], reason[FAMFS_REASON_LEN];
	struct cli_batch b = { .open = false };
	struct cli_nsjson j = { .on = false };
	uint32_t valid = 0, uid = 0, gid = 0;
	int c, rc = FAMFS_EXIT_OK;

	while ((c = cli_getopt(argc, argv, &cli_doc_chown)) != -1) {
		switch (c) {
		case 'j': j.on = true; break;
		case 'h': return cli_usage(&cli_doc_chown, 0);
		default: return cli_usage(&cli_doc_chown, 1);
		}
	}
	if (argc - optind < 2)
		return cli_usage(&cli_doc_chown, 1);
	if (famfs_owner_parse(argv[optind], &valid, &uid, &gid, reason)) {
		famfs_err("%s", reason);
		return FAMFS_EXIT_USAGE;
	}
	for (int i = optind + 1; i < argc; i++) {
		bool bad;

		cli_nsjson_begin(&j);
		bad = cli_batch_open(&b, argv[i], rel);
		cli_nsjson_mark(&j, &b);
		bad = bad || famfs_setattr(&b.fs, rel, valid, NULL, uid, gid);
		cli_nsjson_end(&j, &b, argv[i], NULL, !bad);
		if (bad)
			rc = FAMFS_EXIT_ERROR;
	}
	if (cli_nsjson_print(&j))
		rc = FAMFS_EXIT_ERROR;
	cli_batch_close(&b);
	return rc;
}
