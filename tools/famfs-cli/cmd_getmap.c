// SPDX-License-Identifier: GPL-2.0
/* famfs getmap: print a file's map (MAP_GET, MAP_GETEXT). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "famfs.h"

static const char usage[] =
	"usage: famfs getmap [-q] FILE\n"
	"\n"
	"Print the map famfs.ko holds for FILE: file type, size and extents.\n"
	"\n"
	"  -q, --quiet   print nothing; the exit code tells\n"
	"  -h, --help    this text\n"
	"\n"
	"Exit codes: 0 mapped, 1 usage, 2 error, not a famfs file or not mapped\n";

static const char *ftype(uint32_t t)
{
	switch (t) {
	case FAMFS_REG: return "regular";
	case FAMFS_SUPERBLOCK: return "superblock";
	case FAMFS_LOG: return "log";
	default: return "unknown";
	}
}

int cmd_getmap(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct famfs_ioc_map map;
	const char *path;
	bool quiet = false;
	int c, fd, rc;

	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		switch (c) {
		case 'q': quiet = true; break;
		case 'h': return cmd_usage(usage, 0);
		default: return cmd_usage(usage, 1);
		}
	}
	if (argc - optind != 1)
		return cmd_usage(usage, 1);
	path = argv[optind];
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (!quiet)
			famfs_err("%s: %s", path, strerror(errno));
		return FAMFS_EXIT_ERROR;
	}
	rc = famfs_kernel->map_get(fd, &map);
	close(fd);
	if (rc) {
		if (!quiet)
			famfs_err("%s: %s", path,
				  rc == -ENOTTY ? "not a famfs file" :
				  rc == -EBADE ? "MAP_GET and MAP_GETEXT disagree" :
				  "not mapped (MAP_GET failed)");
		return FAMFS_EXIT_ERROR;
	}
	if (quiet)
		return FAMFS_EXIT_OK;
	printf("%s\n  type: %s\n  size: %llu\n  extent type: %s\n  extents: %llu\n",
	       path, ftype(map.file_type), (unsigned long long)map.file_size,
	       map.extent_type == SIMPLE_DAX_EXTENT ? "simple" : "unknown",
	       (unsigned long long)map.ext_list_count);
	for (unsigned i = 0; i < map.ext_list_count && i < FAMFS_MAX_EXTENTS; i++)
		printf("    %u: offset 0x%llx len 0x%llx\n", i,
		       (unsigned long long)map.ext_list[i].offset,
		       (unsigned long long)map.ext_list[i].len);
	return FAMFS_EXIT_OK;
}
