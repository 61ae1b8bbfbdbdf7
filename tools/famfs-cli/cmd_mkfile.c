// SPDX-License-Identifier: GPL-2.0
/* famfs mkfile (creat): allocate, log, create and map a file. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "famfs.h"

static const char usage[] =
	"usage: famfs mkfile -s SIZE [-m MODE] [-u UID] [-g GID] [-S SEED] FILE\n"
	"       famfs creat  ... (same)\n"
	"\n"
	"Allocate SIZE bytes (rounded up to 2 MiB units, first fit), append the\n"
	"file to the log and create FILE in a famfs mount, mapped to them.\n"
	"Only the master can do this.  FILE must not exist.\n"
	"\n"
	"  -s, --size SIZE   bytes, with an optional k/m/g suffix (required)\n"
	"  -m, --mode MODE   octal permission bits (default 0644)\n"
	"  -u, --uid UID     owner (default: the caller's)\n"
	"  -g, --gid GID     group (default: the caller's)\n"
	"  -S, --seed SEED   fill the file with the pattern of SEED (famfs verify)\n"
	"  -h, --help        this text\n"
	"\n"
	EXIT_CODES_HELP;

int cmd_mkfile(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ "uid", required_argument, NULL, 'u' },
		{ "gid", required_argument, NULL, 'g' },
		{ "seed", required_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint32_t mode = 0644, uid = geteuid(), gid = getegid();
	uint64_t size = 0, seed = 0;
	bool have_size = false, have_seed = false;
	char rel[FAMFS_LOG_PATH_MAX];
	struct famfs_fs fs;
	int c, fd, rc = FAMFS_EXIT_OK;

	while ((c = getopt_long(argc, argv, "s:m:u:g:S:vh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (famfs_parse_size(optarg, &size)) {
				famfs_err("--size %s: not a size", optarg);
				return FAMFS_EXIT_USAGE;
			}
			have_size = true;
			break;
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
		case 'S':
			if (famfs_parse_size(optarg, &seed)) {
				famfs_err("--seed %s: not a number", optarg);
				return FAMFS_EXIT_USAGE;
			}
			have_seed = true;
			break;
		case 'v': famfs_verbose++; break;
		case 'h': return cmd_usage(usage, 0);
		default: return cmd_usage(usage, 1);
		}
	}
	if (argc - optind != 1 || !have_size)
		return cmd_usage(usage, 1);
	if (cli_open_for(argv[optind], false, true, &fs, rel))
		return FAMFS_EXIT_ERROR;
	fd = famfs_file_create(&fs, rel, size, mode, uid, gid);
	famfs_fs_close(&fs);
	if (fd < 0)
		return FAMFS_EXIT_ERROR;
	if (have_seed && size) {
		void *a = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (a == MAP_FAILED) {
			famfs_err("%s: mmap: %s", argv[optind], strerror(errno));
			rc = FAMFS_EXIT_ERROR;
		} else {
			famfs_pattern_fill(a, size, seed);
			if (msync(a, size, MS_SYNC)) {
				famfs_err("%s: msync: %s", argv[optind], strerror(errno));
				rc = FAMFS_EXIT_ERROR;
			}
			munmap(a, size);
		}
	}
	close(fd);
	return rc;
}
