// SPDX-License-Identifier: GPL-2.0
/* famfs logplay: create what the log has and the mount lacks. */
#include "famfs.h"

static const char usage[] =
	"usage: famfs logplay [-n] [-v] MPT\n"
	"\n"
	"Replay the log of the famfs file system mounted at MPT: create the\n"
	"files and directories it lacks (idempotent).  Reports conflicts: a\n"
	"file whose map differs from the log, a path logged twice, a file where\n"
	"a directory belongs.  Corrupt log entries are reported and skipped.\n"
	"\n"
	"  -n, --dryrun    only print what would be created\n"
	"  -v, --verbose   print a summary\n"
	"  -h, --help      this text\n"
	"\n"
	"Exit codes: 0 ok, 1 usage, 2 error (e.g. MAP_CREATE failed),\n"
	"3 conflicts or corrupt entries found\n";

int cmd_logplay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dryrun", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct famfs_logplay_result r;
	struct famfs_fs fs;
	bool dry = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "nvh", opts, NULL)) != -1) {
		switch (c) {
		case 'n': dry = true; break;
		case 'v': famfs_verbose++; break;
		case 'h': return cmd_usage(usage, 0);
		default: return cmd_usage(usage, 1);
		}
	}
	if (argc - optind != 1)
		return cmd_usage(usage, 1);
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
