// SPDX-License-Identifier: GPL-2.0
/* famfs verify: compare a file with the pattern of a seed (mkfile -S). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "famfs.h"

static const char usage[] =
	"usage: famfs verify -S SEED [-f] FILE\n"
	"\n"
	"Check that FILE holds the pattern famfs mkfile -S SEED wrote.\n"
	"\n"
	"  -S, --seed SEED      the seed given to mkfile -S\n"
	"  -f, --filename FILE  the file (or as the last argument)\n"
	"  -h, --help           this text\n"
	"\n"
	"Exit codes: 0 match, 1 usage, 2 error, 3 mismatch\n";

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "filename", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *path = NULL;
	bool have_seed = false;
	uint64_t seed = 0;
	struct stat st;
	int64_t bad;
	void *a;
	int c, fd;

	while ((c = getopt_long(argc, argv, "S:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'S':
			if (famfs_parse_size(optarg, &seed)) {
				famfs_err("--seed %s: not a number", optarg);
				return FAMFS_EXIT_USAGE;
			}
			have_seed = true;
			break;
		case 'f': path = optarg; break;
		case 'h': return cmd_usage(usage, 0);
		default: return cmd_usage(usage, 1);
		}
	}
	if (!path && argc - optind == 1)
		path = argv[optind++];
	if (!path || !have_seed || optind != argc)
		return cmd_usage(usage, 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		famfs_err("%s: %s", path, strerror(errno));
		return FAMFS_EXIT_ERROR;
	}
	if (!st.st_size) {
		close(fd);
		return FAMFS_EXIT_OK;
	}
	a = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (a == MAP_FAILED) {
		famfs_err("%s: mmap: %s", path, strerror(errno));
		return FAMFS_EXIT_ERROR;
	}
	famfs_cpu_flush(a, (size_t)st.st_size);	/* another host may have written it */
	bad = famfs_pattern_check(a, (uint64_t)st.st_size, seed);
	munmap(a, (size_t)st.st_size);
	if (bad >= 0) {
		famfs_err("%s: does not match seed %llu: first difference at byte %lld",
			  path, (unsigned long long)seed, (long long)bad);
		return FAMFS_EXIT_PROBLEM;
	}
	return FAMFS_EXIT_OK;
}
