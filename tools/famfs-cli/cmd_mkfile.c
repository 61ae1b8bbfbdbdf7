// SPDX-License-Identifier: GPL-2.0
/* famfs mkfile (creat): allocate, log, create and map a file. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_mkfile = {
	.page = "famfs-mkfile", .prog = "famfs mkfile",
	.summary = "allocate and create a file",
	.synopsis = { "famfs mkfile -s SIZE [-N NSTRIPS [-C CHUNK]] [-D N] [-A 1g|none|auto] [-T SIZE] [-m MODE] [-u UID] [-g GID] [-S SEED] [-Z] [-v] FILE...",
		      "famfs creat ... (the same)" },
	.description =
		"Allocate SIZE bytes (rounded up to 2 MiB units, first fit), create FILE\n"
		"in a famfs mount, mapped to them, and append it to the log.\n"
		"Only the master can do this.  FILE must not exist.\n"
		"\n"
		"With several FILEs, each is created as if alone, with the same options\n"
		"(size, layout, owner, mode, seed), in the order given; one that fails\n"
		"(its message names it) does not stop the others, and the exit status\n"
		"is then 2.  The options are checked once, before any file is created.\n"
		"The mount is opened once and the log lock taken once for all the\n"
		"FILEs of one mount (other creators and logplay on this host wait for\n"
		"the whole command), so that a batch costs far less per file than one\n"
		"command per file.  The argument list has a system limit (about 2 MiB\n"
		"for all arguments): feed long lists through xargs(1).\n"
		"\n"
		"A file is one contiguous extent when a free run that long exists.  When\n"
		"free space is fragmented (no run is long enough), it gets up to 16\n"
		"extents: the longest free runs, the last one cut from the shortest run\n"
		"that holds the rest.  If the 16 longest runs together are too small,\n"
		"the device is full for this file (exit 2), however much is free.\n"
		"Files of more than 2 extents, and interleaved files, need a famfs.ko\n"
		"with the v2 ioctls (MAP_CREATE_V2, MAP_GET_V2); with an older one\n"
		"(numbers 1..4 only, as the 2024 module had) such a file is refused\n"
		"before anything is logged (exit 2).\n"
		"\n"
		"With -N, the file is interleaved (striped): NSTRIPS strips of equal\n"
		"length, each contiguous and anywhere on the device, hold the file in\n"
		"CHUNK-sized pieces taken in turn (chunk 0 on strip 0, chunk 1 on\n"
		"strip 1, ...).  Each strip holds ceil(SIZE / (NSTRIPS * CHUNK))\n"
		"chunks.  The first interleaved file sets the interleave feature in\n"
		"the superblock (tools without it refuse the file system).\n"
		"\n"
		"The file reads as zeros (with -S, as the pattern) on every host: all\n"
		"of its memory, the rest of its last 2 MiB unit and every strip\n"
		"included, is written and flushed before the file is logged, that is\n"
		"before anyone else can read it: through the file itself when its\n"
		"mapping reaches all of it (a small file), else through a scratch\n"
		"file (.meta/.new-PID, mapped over it) before the file is mapped.\n"
		"This writes the whole allocation once; -Z (--nozero) skips it, except\n"
		"once the log has freed a deleted file's memory (a RECLAIM): a new\n"
		"file may get it, and is zeroed all the same.\n"
		"\n"
		"A small file (SIZE below 2 MiB, or below -T SIZE) takes 4 KiB pages\n"
		"in a 2 MiB unit that other small files share (famfs df counts them),\n"
		"and only its own pages are written; famfs.ko maps it with 4 KiB\n"
		"pages.  The first one sets the small-file feature in the superblock\n"
		"(tools without it refuse the file system).\n",
	.opts = (const struct cli_opt[]){
		{ 's', "size", "SIZE", "bytes, decimal (010 is ten) or hex after 0x, with\n"
		  "an optional k/m/g suffix (required)" },
		{ 'm', "mode", "MODE", "octal permission bits (default 0644)" },
		{ 'u', "uid", "UID", "owner (default: the caller's)" },
		{ 'g', "gid", "GID", "group (default: the caller's)" },
		{ 'S', "seed", "SEED", "fill the file with the pattern of SEED (famfs\n"
		  "verify), then write it back as famfs flush does" },
		{ 'Z', "nozero", NULL,
		  "do not zero the new file: it may then show what\n"
		  "the memory held before (another file's or an\n"
		  "earlier file system's data; never a deleted\n"
		  "file's: zeroed all the same after a RECLAIM);\n"
		  "for callers that overwrite all of it at once" },
		CLI_OPT_NSTRIPS,
		CLI_OPT_CHUNK,
		CLI_OPT_DEVICE,
		CLI_OPT_ALIGN,
		CLI_OPT_SMALL,
		{ 'v', "verbose", NULL, "print more" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("a FILE is not in a famfs mount or exists (here, or\n"
			       "in the log: itself, or a parent as a file), this host\n"
			       "is a client, the device or the log is full, the\n"
			       "--device is not attached on this host, or\n"
			       "famfs.ko lacks the v2 ioctls the file needs"),
		CLI_EXIT_END },
	.sections = (const struct cli_section[]){
		{ "EXAMPLES",
		  "  famfs creat -N 4 -C 2M -s 24M /mnt/famfs/striped\n"
		  "  famfs getmap /mnt/famfs/striped\n"
		  "  famfs mkfile -s 4k /mnt/famfs/a /mnt/famfs/b /mnt/famfs/c\n"
		  "  seq 1 10000 | sed 's|^|/mnt/famfs/d/f|' | xargs famfs mkfile -s 1m\n",
		  false },
		{ 0 } },
	.see_also = "famfs(8), famfs-cp(8), famfs-verify(8), famfs-getmap(8)",
};

static int fill_pattern(void *arg, char *a, uint64_t size)
{
	famfs_pattern_fill(a, size, *(const uint64_t *)arg);
	return 0;
}

int cmd_mkfile(int argc, char **argv)
{
	uint32_t mode = 0644, uid = geteuid(), gid = getegid();
	uint64_t size = 0, seed = 0;
	bool have_size = false, have_seed = false;
	char rel[FAMFS_LOG_PATH_MAX];
	struct cli_layout lay = { 0 };
	struct famfs_fill fill = { 0 };
	struct cli_batch b = { .open = false };
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
		case 'Z': fill.nozero = true; break;
		case 'N':
		case 'C':
		case 'D':
		case 'A':
		case 'T':
			if (cli_layout_opt(c, optarg, &lay))
				return FAMFS_EXIT_USAGE;
			break;
		case 'v': famfs_verbose++; break;
		case 'h': return cli_usage(&cli_doc_mkfile, 0);
		default: return cli_usage(&cli_doc_mkfile, 1);
		}
	}
	if (argc - optind < 1 || !have_size)
		return cli_usage(&cli_doc_mkfile, 1);
	if (cli_layout_done(&lay))
		return FAMFS_EXIT_USAGE;
	if (have_seed) {	/* the pattern is in before the file is logged */
		fill.fn = fill_pattern;
		fill.arg = &seed;
	}
	for (int i = optind; i < argc; i++) {
		if (cli_batch_open(&b, argv[i], rel)) {
			rc = FAMFS_EXIT_ERROR;
			continue;
		}
		fd = famfs_file_create_fill(&b.fs, rel, size, mode, uid, gid,
					    &lay.lay, &fill);
		if (fd < 0)
			rc = FAMFS_EXIT_ERROR;
		else
			close(fd);
	}
	cli_batch_close(&b);
	return rc;
}
