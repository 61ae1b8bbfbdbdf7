// SPDX-License-Identifier: GPL-2.0
/* famfs rm: remove files and directories and log it (format rev 3). */
#define _GNU_SOURCE
#include <stdbool.h>

#include "famfs.h"

const struct cli_doc cli_doc_rm = {
	.page = "famfs-rm", .prog = "famfs rm",
	.summary = "remove files and directories, on every host",
	.synopsis = { "famfs rm [-r] [-j] PATH..." },
	.description =
		"Remove files from a famfs mount and log it (master only): every\n"
		"host's replay (famfs logplay, logplay --follow, a mount) removes them\n"
		"too.  A directory needs -r, which removes it and everything the log\n"
		"has in it, deepest first.  Each PATH is judged by the log, not by the\n"
		"local tree: one the log does not have (made here without famfs), or\n"
		"whose file here is not the logged one (another map, or none), is\n"
		"refused and nothing is logged for it.  The DELETE entry is in the log\n"
		"before the file goes here; a crash in between leaves it here until\n"
		"famfs logplay or a remount removes it.  On a client, and on hosts\n"
		"that replay, a file is removed only if it is the logged one (its\n"
		"map): anything else at its path is a conflict, reported and kept.\n"
		"\n"
		"The memory of a removed file is not given to new files at once: it\n"
		"stays used, and famfs df shows it as pending reclaim; it is freed\n"
		"(a RECLAIM entry) once no host can still reach it, and zeroed before\n"
		"a new file gets it -- only while the host table is armed (famfs\n"
		"hosts init before clients mount; the table the first removal of a\n"
		"file makes is not armed until famfs hosts arm: famfs-hosts(8)).\n"
		"A path removed and made\n"
		"again is a new file with new memory.  The first removal sets the\n"
		"delete feature in the superblock: famfs tools older than this one\n"
		"refuse the file system from then on.\n"
		"\n"
		"As with mkfile, the mount is opened once and the log lock taken once\n"
		"for all the PATHs of one mount; one that fails (its message names\n"
		"it) does not stop the others, and the exit status is then 2.\n",
	.opts = (const struct cli_opt[]){
		{ 'r', "recursive", NULL, "remove directories and everything in them" },
		{ 'R', NULL, NULL, "the same as -r" },
		CLI_OPT_NSJSON,
		{ 0 } },
	.sections = (const struct cli_section[]){
		{ "JSON", CLI_NSJSON_TEXT
		  "Example:\n"
		  "  famfs rm -r -j /mnt/famfs/d | jq -r '.paths[].entries[].path'\n", false },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("a PATH is not in the log or not in a famfs mount,\n"
			       "is a directory (without -r), the file here is not\n"
			       "the logged one, this host is a client, or the log\n"
			       "is full"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mv(8), famfs-df(8), famfs-logplay(8)",
};

int cmd_rm(int argc, char **argv)
{
	char rel[FAMFS_LOG_PATH_MAX];
	struct cli_batch b = { .open = false };
	struct cli_nsjson j = { .on = false };
	bool recursive = false;
	int c, rc = FAMFS_EXIT_OK;

	while ((c = cli_getopt(argc, argv, &cli_doc_rm)) != -1) {
		switch (c) {
		case 'r':
		case 'R': recursive = true; break;
		case 'j': j.on = true; break;
		case 'h': return cli_usage(&cli_doc_rm, 0);
		default: return cli_usage(&cli_doc_rm, 1);
		}
	}
	if (argc - optind < 1)
		return cli_usage(&cli_doc_rm, 1);
	for (int i = optind; i < argc; i++) {
		bool bad;

		cli_nsjson_begin(&j);
		bad = cli_batch_open(&b, argv[i], rel);
		/* one reclaim pass for the paths of a mount, when the batch
		 * closes it (cli_batch_close), not one per path */
		b.fs.reclaim_later = b.open;
		cli_nsjson_mark(&j, &b);
		bad = bad || famfs_remove(&b.fs, rel, recursive);
		cli_nsjson_end(&j, &b, argv[i], NULL, !bad);
		if (bad)
			rc = FAMFS_EXIT_ERROR;
	}
	if (cli_nsjson_print(&j))
		rc = FAMFS_EXIT_ERROR;
	cli_batch_close(&b);
	return rc;
}
