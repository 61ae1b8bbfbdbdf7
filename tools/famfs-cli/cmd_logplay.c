// SPDX-License-Identifier: GPL-2.0
/* famfs logplay: create what the log has and the mount lacks. */
#include "famfs.h"

const struct cli_doc cli_doc_logplay = {
	.page = "famfs-logplay", .prog = "famfs logplay",
	.summary = "create the files and directories of the log",
	.synopsis = { "famfs logplay [-n] [-v] MPT" },
	.description =
		"Replay the log of the famfs file system mounted at MPT: create the\n"
		"files and directories it lacks (idempotent).  Reports conflicts: a\n"
		"file whose map differs from the log, a path logged twice, a file where\n"
		"a directory belongs.  Corrupt log entries are reported and skipped.\n"
		"famfs mount and mount.famfs replay the log already; a client runs\n"
		"logplay to see what the master created since.\n",
	.opts = (const struct cli_opt[]){
		{ 'n', "dryrun", NULL, "only print what would be created" },
		{ 'v', "verbose", NULL, "print a summary" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("MPT is not a famfs mount, or creating a file failed\n"
			       "(e.g. MAP_CREATE)"),
		{ 3, "conflicts or corrupt entries found" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mount(8), famfs-fsck(8)",
};

int cmd_logplay(int argc, char **argv)
{
	struct famfs_logplay_result r;
	struct famfs_fs fs;
	bool dry = false;
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_logplay)) != -1) {
		switch (c) {
		case 'n': dry = true; break;
		case 'v': famfs_verbose++; break;
		case 'h': return cli_usage(&cli_doc_logplay, 0);
		default: return cli_usage(&cli_doc_logplay, 1);
		}
	}
	if (argc - optind != 1)
		return cli_usage(&cli_doc_logplay, 1);
	if (famfs_fs_open_mount(argv[optind], false, &fs))
		return FAMFS_EXIT_ERROR;
	rc = famfs_logplay(&fs, dry, &r);
	famfs_fs_close(&fs);
	if (rc)
		return FAMFS_EXIT_ERROR;
	if (famfs_verbose || dry)
		printf("famfs logplay: %lu files and %lu directories %s, %lu present, %lu conflicts, %lu corrupt entries skipped, %lu errors\n",
		       r.created_files, r.created_dirs,
		       dry ? "to create" : "created", r.present, r.conflicts,
		       r.bad_entries, r.errors);
	if (r.errors)
		return FAMFS_EXIT_ERROR;
	return (r.conflicts || r.bad_entries) ? FAMFS_EXIT_PROBLEM : FAMFS_EXIT_OK;
}
