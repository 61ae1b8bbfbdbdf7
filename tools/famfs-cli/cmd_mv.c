// SPDX-License-Identifier: GPL-2.0
/* famfs mv: move or rename a file or directory and log it (format rev 3). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "famfs.h"

const struct cli_doc cli_doc_mv = {
	.page = "famfs-mv", .prog = "famfs mv",
	.summary = "move or rename a file or directory, on every host",
	.synopsis = { "famfs mv [-j] SRC DST" },
	.description =
		"Move SRC to DST in the same famfs mount and log it (master only):\n"
		"every host's replay moves it too.  A directory moves with everything\n"
		"in it.  If DST is a directory of the log, SRC goes into it, as with\n"
		"mv(1).  A DST or SRC that ends in / names a directory, as with mv(1):\n"
		"a file is not moved to DST/ unless the log has a directory DST (Not a\n"
		"directory), while a directory is renamed to a DST/ that is not there.\n"
		"SRC must be in the log (and here the logged file, or not here); DST\n"
		"must be in neither the log nor here (famfs mv never replaces\n"
		"anything: famfs rm it first), its directory must be here, and a\n"
		"directory is not moved into itself.  Else nothing is logged.\n"
		"The RENAME entry is in the log before SRC moves here; a crash in\n"
		"between leaves it where it was until famfs logplay or a remount.\n"
		"A file keeps its memory and its map: a process that has it open or\n"
		"mapped keeps using it.  The first move sets the rename feature in\n"
		"the superblock: famfs tools older than this one refuse the file\n"
		"system from then on.\n",
	.opts = (const struct cli_opt[]){ CLI_OPT_NSJSON, { 0 } },
	.sections = (const struct cli_section[]){
		{ "JSON", CLI_NSJSON_TEXT
		  "Its one path is SRC, with destination (DST as given).  Example:\n"
		  "  famfs mv -j /mnt/famfs/a /mnt/famfs/d | jq -r '.paths[0].entries[0].to'\n", false },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("SRC is not in the log or not in a famfs mount, DST\n"
			       "is in another mount, exists (in the log or here),\n"
			       "lies in SRC, or its directory is not here, the file\n"
			       "here is not the logged one, this host is a client,\n"
			       "or the log is full"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-rm(8), famfs-logplay(8)",
};

/* a trailing / of arg kept on rel (famfs_locate drops it): famfs_rename
 * then takes it for a directory, as mv(1) does */
static int slash(const char *arg, char *rel)
{
	size_t n = strlen(rel);

	if (!n || arg[strlen(arg) - 1] != '/')
		return 0;
	if (n + 1 >= FAMFS_LOG_PATH_MAX) {
		famfs_err("%s: path too long", arg);
		return -ENAMETOOLONG;
	}
	memcpy(rel + n, "/", 2);
	return 0;
}

int cmd_mv(int argc, char **argv)
{
	char from[FAMFS_LOG_PATH_MAX], to[FAMFS_LOG_PATH_MAX], mpt[PATH_MAX];
	struct cli_batch b = { .open = false };
	struct cli_nsjson j = { .on = false };
	int c, rc = FAMFS_EXIT_OK;

	while ((c = cli_getopt(argc, argv, &cli_doc_mv)) != -1) {
		switch (c) {
		case 'j': j.on = true; break;
		case 'h': return cli_usage(&cli_doc_mv, 0);
		default: return cli_usage(&cli_doc_mv, 1);
		}
	}
	if (argc - optind != 2)
		return cli_usage(&cli_doc_mv, 1);
	cli_nsjson_begin(&j);
	if (cli_batch_open(&b, argv[optind], from))
		rc = FAMFS_EXIT_ERROR;
	cli_nsjson_mark(&j, &b);
	if (rc) {
		/* said */
	} else if (famfs_locate(argv[optind + 1], true, mpt, to)) {
		rc = FAMFS_EXIT_ERROR;
	} else if (slash(argv[optind], from) || slash(argv[optind + 1], to)) {
		rc = FAMFS_EXIT_ERROR;
	} else if (strcmp(mpt, b.fs.mpt)) {
		famfs_err("%s: not in the famfs mount %s that %s is in",
			  argv[optind + 1], b.fs.mpt, argv[optind]);
		rc = FAMFS_EXIT_ERROR;
	} else if (famfs_rename(&b.fs, from, to)) {
		rc = FAMFS_EXIT_ERROR;
	}
	cli_nsjson_end(&j, &b, argv[optind], argv[optind + 1], !rc);
	if (cli_nsjson_print(&j))
		rc = FAMFS_EXIT_ERROR;
	cli_batch_close(&b);
	return rc;
}
