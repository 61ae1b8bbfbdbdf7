// SPDX-License-Identifier: GPL-2.0
/* famfs mkdir: create and log directories. */
#define _GNU_SOURCE
#include <unistd.h>

#include "famfs.h"

static const char usage[] =
	"usage: famfs mkdir [-p] [-m MODE] [-u UID] [-g GID] DIR...\n"
	"\n"
	"Create directories in a famfs mount and log them (master only).\n"
	"\n"
	"  -p, --parents     create missing parents; no error if DIR exists\n"
	"  -m, --mode MODE   octal permission bits (default 0755)\n"
	"  -u, --uid UID     owner (default: the caller's)\n"
	"  -g, --gid GID     group (default: the caller's)\n"
	"  -h, --help        this text\n"
	"\n"
	EXIT_CODES_HELP;

int cmd_mkdir(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "parents", no_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "uid", required_argument, NULL, 'u' },
		{ "gid", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint32_t mode = 0755, uid = geteuid(), gid = getegid();
	char rel[FAMFS_LOG_PATH_MAX];
	bool parents = false;
	int c, rc = FAMFS_EXIT_OK;

	while ((c = getopt_long(argc, argv, "pm:u:g:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': parents = true; break;
		case 'm':
			if (famfs_parse_u32(optarg, 8, &mode) || mode > 07777) {
				famfs_err("--mode %s: not an octal mode", optarg);
				return FAMFS_EXIT_USAGE;
			}
			break;
		case 'u':
		case 'g':
			if (famfs_parse_u32(optarg, 10, c == 'u' ? &uid : &gid)) {
				famfs_err("-%c %s: not a number", c, optarg);
				return FAMFS_EXIT_USAGE;
			}
			break;
		case 'h': return cmd_usage(usage, 0);
		default: return cmd_usage(usage, 1);
		}
	}
	if (argc - optind < 1)
		return cmd_usage(usage, 1);
	for (int i = optind; i < argc; i++) {
		struct famfs_fs fs;

		if (cli_open_for(argv[i], false, true, &fs, rel)) {
			rc = FAMFS_EXIT_ERROR;
			continue;
		}
		if (famfs_mkdir(&fs, rel, mode, uid, gid, parents))
			rc = FAMFS_EXIT_ERROR;
		famfs_fs_close(&fs);
	}
	return rc;
}
