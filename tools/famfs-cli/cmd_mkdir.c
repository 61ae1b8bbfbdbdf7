// SPDX-License-Identifier: GPL-2.0
/* famfs mkdir: create and log directories. */
#define _GNU_SOURCE
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_mkdir = {
	.page = "famfs-mkdir", .prog = "famfs mkdir",
	.summary = "create a directory",
	.synopsis = { "famfs mkdir [-p] [-m MODE] [-u UID] [-g GID] DIR..." },
	.description =
		"Create directories in a famfs mount and log them (master only).\n"
		"Each DIR is created in the order given (with -p, its missing parents\n"
		"first); one that fails (its message names it) does not stop the\n"
		"others, and the exit status is then 2.  The mount is opened once and\n"
		"the log lock taken once for all the DIRs of one mount: feed long lists\n"
		"through xargs(1).\n"
		"\n"
		"A DIR is judged by the log, not by the local tree: one the log has\n"
		"already (as a file, or as a directory that is not here: famfs logplay\n"
		"makes it again), or one under a path the log has as a file, is refused\n"
		"with a message naming the log entry.\n",
	.opts = (const struct cli_opt[]){
		{ 'p', "parents", NULL, "create missing parents; no error if DIR exists" },
		{ 'm', "mode", "MODE", "octal permission bits (default 0755)" },
		{ 'u', "uid", "UID", "owner (default: the caller's)" },
		{ 'g', "gid", "GID", "group (default: the caller's)" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("a DIR exists (without -p), is refused by the log or\n"
			       "is not in a famfs mount, this host is a client, or\n"
			       "the log is full"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-cp(8), famfs-mkfile(8)",
};

int cmd_mkdir(int argc, char **argv)
{
	uint32_t mode = 0755, uid = geteuid(), gid = getegid();
	char rel[FAMFS_LOG_PATH_MAX];
	struct cli_batch b = { .open = false };
	bool parents = false;
	int c, rc = FAMFS_EXIT_OK;

	while ((c = cli_getopt(argc, argv, &cli_doc_mkdir)) != -1) {
		switch (c) {
		case 'p': parents = true; break;
		case 'm':
		case 'u':
		case 'g':
			if (cli_owner_opt(c, optarg, &mode, &uid, &gid))
				return FAMFS_EXIT_USAGE;
			break;
		case 'h': return cli_usage(&cli_doc_mkdir, 0);
		default: return cli_usage(&cli_doc_mkdir, 1);
		}
	}
	if (argc - optind < 1)
		return cli_usage(&cli_doc_mkdir, 1);
	for (int i = optind; i < argc; i++) {
		if (cli_batch_open(&b, argv[i], rel) ||
		    famfs_mkdir(&b.fs, rel, mode, uid, gid, parents))
			rc = FAMFS_EXIT_ERROR;
	}
	cli_batch_close(&b);
	return rc;
}
