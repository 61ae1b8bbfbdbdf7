// SPDX-License-Identifier: GPL-2.0
/* famfs check: every file in a mount must be mapped. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_check = {
	.page = "famfs-check", .prog = "famfs check",
	.summary = "find files that are present but not mapped",
	.synopsis = { "famfs check [-v] MPT" },
	.description =
		"Walk the famfs mount MPT and report regular files that are present but\n"
		"not mapped (e.g. created with a plain cp), meta files of the wrong\n"
		"type, and files that are mapped but not in the log.  The last hold\n"
		"memory the log says is free, in this mount only: a creator killed\n"
		"between giving a new file its memory and logging it leaves one (a\n"
		"file, or its scratch file .meta/.new-PID).  New files that would get\n"
		"that memory are refused (MAP_CREATE: Address already in use) until it\n"
		"is removed (rm; no other host has it) or the mount is remounted;\n"
		"the next create removes a scratch file left that way itself.\n"
		"Log segments (.meta/.log1..) must map what their EXTEND entries\n"
		"say; a .meta/.logK.new is a log growth that did not finish.\n"
		"See also famfs fsck, which checks the log.\n",
	.opts = (const struct cli_opt[]){
		{ 'v', "verbose", NULL, "list every file checked" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ 0, "every file is mapped" }, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("MPT is not a famfs mount or cannot be walked"),
		{ 3, "unmapped files, or mapped files not in the log, found" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-fsck(8), famfs-getmap(8)",
};

static unsigned long nfiles, nbad, nuntyped, nunlogged;
/* the log's files where it has them now (its namespace: deletes and
 * renames applied), and the paths of refused file entries */
static struct famfs_names *names;
static struct pathset logged;
/* the log's segments by their EXTEND entries (1..nseg-1) */
static struct famfs_extent seg[FAMFS_LOG_MAX_SEGS];
static unsigned nseg = 1;

static int add_logged(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	int rc;

	(void)arg;
	(void)reason;
	if (ok && le16toh(e->type) == FAMFS_LOG_EXTEND &&
	    le64toh(e->fm.size) == nseg && nseg < FAMFS_LOG_MAX_SEGS) {
		seg[nseg].offset = le64toh(e->fm.ext.simple[0].offset);
		seg[nseg++].len = le64toh(e->fm.ext.simple[0].len);
	}
	if (ok) {
		rc = famfs_names_apply(names, idx, e, NULL, NULL);
		return rc < 0 ? rc : 0;
	}
	/* refused, still the entry of its path */
	if (le16toh(e->type) != FAMFS_LOG_FILE ||
	    strnlen(e->fm.path, sizeof(e->fm.path)) == sizeof(e->fm.path))
		return 0;
	rc = pathset_add(&logged, e->fm.path, idx, FAMFS_LOG_FILE, NULL);
	return rc == -EEXIST ? 0 : rc;
}
static size_t root_len;

static bool is_logged(const char *rel)
{
	uint64_t id;
	int kind;

	return (famfs_names_lookup(names, rel, &id, &kind) &&
		kind == FAMFS_LOG_FILE && id != FAMFS_NAMES_IMPLIED) ||
	       pathset_lookup(&logged, rel);
}

static int visit(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	static struct famfs_fmap map;	/* 4 KiB: not on nftw's stack */
	const char *rel = p + root_len + (p[root_len] == '/');
	uint32_t want = FAMFS_REG;
	unsigned k;
	int end = 0;
	char extra;
	int fd, rc;

	(void)f;
	if (flag != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	nfiles++;
	if (!strcmp(rel, FAMFS_META_SB))
		want = FAMFS_SUPERBLOCK;
	else if (!strcmp(rel, FAMFS_META_LOG) || !strcmp(rel, FAMFS_META_HOSTS) ||
		 (sscanf(rel, FAMFS_META_LOGSEG "%n%c", &k, &end, &extra) >= 1 &&
		  k >= 1 && (!rel[end] || !strcmp(rel + end, ".new"))))
		want = FAMFS_LOG;	/* a log segment, .meta/.logK(.new); the
					 * host table (famfs.ko has no type of
					 * its own for it) */
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
	} else if (want == FAMFS_REG && !is_logged(rel)) {
		printf("%s: mapped but not in the log: it holds %llu bytes of memory the log says are free, in this mount only (a creator killed before it logged the file?); rm it to free them\n",
		       p, (unsigned long long)famfs_fmap_alloc_bytes(&map));
		nunlogged++;
		nbad++;
	} else if (famfs_verbose) {
		printf("%s: ok (%llu bytes, %s)\n", p,
		       (unsigned long long)map.file_size,
		       famfs_extent_type_name(map.extent_type));
	}
	return 0;
}

static void say(void *arg, const char *msg)
{
	(void)arg;
	printf("%s\n", msg);
}

int cmd_check(int argc, char **argv)
{
	struct famfs_fs fs;
	int c, rc;

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
	names = famfs_names_new();
	if (!names || pathset_init(&logged, 16)) {
		famfs_err("%s: cannot read the log: out of memory", fs.mpt);
		famfs_names_free(names);
		famfs_fs_close(&fs);
		return FAMFS_EXIT_ERROR;
	}
	rc = famfs_log_walk(&fs, add_logged, NULL);
	if (rc) {
		famfs_err("%s: cannot read the log: %s", fs.mpt, strerror(-rc));
		/* a segment file that maps other memory stops the walk:
		 * name it */
		famfs_logseg_check_files(&fs, seg, nseg, say, NULL);
		pathset_free(&logged);
		famfs_names_free(names);
		famfs_fs_close(&fs);
		return FAMFS_EXIT_ERROR;
	}
	if (nftw(fs.mpt, visit, 32, FTW_PHYS | FTW_MOUNT)) {
		famfs_err("%s: walk failed: %s", fs.mpt, strerror(errno));
		pathset_free(&logged);
		famfs_names_free(names);
		famfs_fs_close(&fs);
		return FAMFS_EXIT_ERROR;
	}
	/* .meta/.log1.. as the EXTEND entries say */
	nbad += famfs_logseg_check_files(&fs, seg, nseg, say, NULL);
	famfs_fs_close(&fs);
	pathset_free(&logged);
	famfs_names_free(names);
	printf("famfs check: %s: %lu files, %lu not properly mapped (%lu mapped but not in the log)\n",
	       argv[optind], nfiles, nbad, nunlogged);
	if (nuntyped)
		printf("famfs check: %s: the file types of the meta files were not checked: this famfs.ko lacks MAP_GET_V2, and its MAP_GET does not say\n",
		       argv[optind]);
	return nbad ? FAMFS_EXIT_PROBLEM : FAMFS_EXIT_OK;
}
