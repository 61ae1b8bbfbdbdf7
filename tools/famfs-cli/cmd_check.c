// SPDX-License-Identifier: GPL-2.0
/* famfs check: every file in a mount must be mapped. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <string.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_check = {
	.page = "famfs-check", .prog = "famfs check",
	.summary = "find files that are present but not mapped",
	.synopsis = { "famfs check [-v] MPT" },
	.description =
		"Walk the famfs mount MPT and report regular files that are present but\n"
		"not mapped (e.g. created with a plain cp), and meta files of the wrong\n"
		"type.  See also famfs fsck, which checks the log.\n",
	.opts = (const struct cli_opt[]){
		{ 'v', "verbose", NULL, "list every file checked" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ 0, "every file is mapped" }, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("MPT is not a famfs mount or cannot be walked"),
		{ 3, "unmapped files found" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-fsck(8), famfs-getmap(8)",
};

static unsigned long nfiles, nbad, nuntyped;
static size_t root_len;

static int visit(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	static struct famfs_fmap map;	/* 4 KiB: not on nftw's stack */
	const char *rel = p + root_len + (p[root_len] == '/');
	uint32_t want = FAMFS_REG;
	int fd, rc;

	(void)f;
	if (flag != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	nfiles++;
	if (!strcmp(rel, FAMFS_META_SB))
		want = FAMFS_SUPERBLOCK;
	else if (!strcmp(rel, FAMFS_META_LOG))
		want = FAMFS_LOG;
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		famfs_err("%s: %s", p, strerror(errno));
		nbad++;
		return 0;
	}
	rc = famfs_fmap_get(fd, &map);
	close(fd);
	if (!rc && map.file_type_unknown && want != FAMFS_REG)
		nuntyped++;	/* a module without v2 does not say */
	if (rc == -ENODATA) {
		printf("%s: not mapped\n", p);
		nbad++;
	} else if (rc) {
		printf("%s: cannot read its map: %s\n", p, strerror(-rc));
		nbad++;
	} else if (!map.file_type_unknown && map.file_type != want) {
		printf("%s: file type %u, expected %u\n", p, map.file_type, want);
		nbad++;
	} else if (map.file_size != (uint64_t)st->st_size) {
		printf("%s: map of %llu bytes, file of %llu\n", p,
		       (unsigned long long)map.file_size,
		       (unsigned long long)st->st_size);
		nbad++;
	} else if (famfs_verbose) {
		printf("%s: ok (%llu bytes, %s)\n", p,
		       (unsigned long long)map.file_size,
		       famfs_extent_type_name(map.extent_type));
	}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	struct famfs_fs fs;
	int c;

	while ((c = cli_getopt(argc, argv, &cli_doc_check)) != -1) {
		switch (c) {
		case 'v': famfs_verbose++; break;
		case 'h': return cli_usage(&cli_doc_check, 0);
		default: return cli_usage(&cli_doc_check, 1);
		}
	}
	if (argc - optind != 1)
		return cli_usage(&cli_doc_check, 1);
	if (famfs_fs_open_mount(argv[optind], false, &fs))
		return FAMFS_EXIT_ERROR;
	root_len = strlen(fs.mpt);
	if (nftw(fs.mpt, visit, 32, FTW_PHYS | FTW_MOUNT)) {
		famfs_err("%s: walk failed: %s", fs.mpt, strerror(errno));
		famfs_fs_close(&fs);
		return FAMFS_EXIT_ERROR;
	}
	famfs_fs_close(&fs);
	printf("famfs check: %s: %lu files, %lu not properly mapped\n",
	       argv[optind], nfiles, nbad);
	if (nuntyped)
		printf("famfs check: %s: the file types of the meta files were not checked: this famfs.ko lacks MAP_GET_V2, and its MAP_GET does not say\n",
		       argv[optind]);
	return nbad ? FAMFS_EXIT_PROBLEM : FAMFS_EXIT_OK;
}
