// SPDX-License-Identifier: GPL-2.0
/* famfs mkfile (creat): allocate, log, create and map a file. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_mkfile = {
	.page = "famfs-mkfile", .prog = "famfs mkfile",
	.summary = "allocate and create a file",
	.synopsis = { "famfs mkfile -s SIZE [-N NSTRIPS [-C CHUNK]] [-m MODE] [-u UID] [-g GID] [-S SEED] [-v] FILE",
		      "famfs creat ... (the same)" },
	.description =
		"Allocate SIZE bytes (rounded up to 2 MiB units, first fit), append the\n"
		"file to the log and create FILE in a famfs mount, mapped to them.\n"
		"Only the master can do this.  FILE must not exist.\n"
		"\n"
		"A file is one contiguous extent when a free run that long exists.  When\n"
		"free space is fragmented (no run is long enough), it gets up to 16\n"
		"extents: the longest free runs, the last one cut from the shortest run\n"
		"that holds the rest.  If the 16 longest runs together are too small,\n"
		"the device is full for this file (exit 2), however much is free.\n"
		"Files of more than 2 extents need a famfs.ko with MAP_CREATE_V2.\n"
		"\n"
		"With -N, the file is interleaved (striped): NSTRIPS strips of equal\n"
		"length, each contiguous and anywhere on the device, hold the file in\n"
		"CHUNK-sized pieces taken in turn (chunk 0 on strip 0, chunk 1 on\n"
		"strip 1, ...).  Each strip holds ceil(SIZE / (NSTRIPS * CHUNK))\n"
		"chunks.  The first interleaved file sets the interleave feature in\n"
		"the superblock (tools without it refuse the file system).\n",
	.opts = (const struct cli_opt[]){
		{ 's', "size", "SIZE", "bytes, with an optional k/m/g suffix (required)" },
		{ 'm', "mode", "MODE", "octal permission bits (default 0644)" },
		{ 'u', "uid", "UID", "owner (default: the caller's)" },
		{ 'g', "gid", "GID", "group (default: the caller's)" },
		{ 'S', "seed", "SEED", "fill the file with the pattern of SEED (famfs\n"
		  "verify), then write it back as famfs flush does" },
		CLI_OPT_NSTRIPS,
		CLI_OPT_CHUNK,
		{ 'v', "verbose", NULL, "print more" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("FILE is not in a famfs mount or exists, this host\n"
			       "is a client, the device or the log is full"),
		CLI_EXIT_END },
	.sections = (const struct cli_section[]){
		{ "EXAMPLES",
		  "  famfs creat -N 4 -C 2M -s 24M /mnt/famfs/striped\n"
		  "  famfs getmap /mnt/famfs/striped\n", false },
		{ 0 } },
	.see_also = "famfs(8), famfs-cp(8), famfs-verify(8), famfs-getmap(8)",
};

int cmd_mkfile(int argc, char **argv)
{
	uint32_t mode = 0644, uid = geteuid(), gid = getegid();
	uint64_t size = 0, seed = 0;
	bool have_size = false, have_seed = false;
	char rel[FAMFS_LOG_PATH_MAX];
	struct cli_layout lay = { 0 };
	struct famfs_fs fs;
	int c, fd, rc = FAMFS_EXIT_OK;

	while ((c = cli_getopt(argc, argv, &cli_doc_mkfile)) != -1) {
		switch (c) {
		case 's':
			if (famfs_parse_size(optarg, &size)) {
				famfs_err("--size %s: not a size", optarg);
				return FAMFS_EXIT_USAGE;
			}
			have_size = true;
			break;
		case 'm':
		case 'u':
		case 'g':
			if (cli_owner_opt(c, optarg, &mode, &uid, &gid))
				return FAMFS_EXIT_USAGE;
			break;
		case 'S':
			if (famfs_parse_size(optarg, &seed)) {
				famfs_err("--seed %s: not a number", optarg);
				return FAMFS_EXIT_USAGE;
			}
			have_seed = true;
			break;
		case 'N':
		case 'C':
			if (cli_layout_opt(c, optarg, &lay))
				return FAMFS_EXIT_USAGE;
			break;
		case 'v': famfs_verbose++; break;
		case 'h': return cli_usage(&cli_doc_mkfile, 0);
		default: return cli_usage(&cli_doc_mkfile, 1);
		}
	}
	if (argc - optind != 1 || !have_size)
		return cli_usage(&cli_doc_mkfile, 1);
	if (cli_layout_done(&lay))
		return FAMFS_EXIT_USAGE;
	if (cli_open_for(argv[optind], false, true, &fs, rel))
		return FAMFS_EXIT_ERROR;
	fd = famfs_file_create_layout(&fs, rel, size, mode, uid, gid, &lay.lay);
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
			if (!rc && famfs_data_written(fd, NULL, argv[optind]))
				rc = FAMFS_EXIT_ERROR;
		}
	}
	close(fd);
	return rc;
}
