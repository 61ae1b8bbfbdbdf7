// SPDX-License-Identifier: GPL-2.0
/* famfs loggrow: grow the compact log of a mounted file system into free
 * space (master only; issue 17, famfs_format.h "Log growth"). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "famfs.h"

const struct cli_doc cli_doc_loggrow = {
	.page = "famfs-loggrow", .prog = "famfs loggrow",
	.summary = "grow the metadata log into free space (master only)",
	.synopsis = { "famfs loggrow [-s SIZE] MPT" },
	.description =
		"Add a segment of SIZE bytes (default: as large as the whole log now,\n"
		"doubling it) to the compact log of the famfs file system mounted at\n"
		"MPT, taken from free memory of the primary device.  The superblock\n"
		"gets the incompatible feature LOG_EXTEND first (tools that predate it\n"
		"refuse the file system), then the segment is mapped as\n"
		".meta/.logN.new, zeroed, recorded by an EXTEND entry in the log, and\n"
		"renamed .meta/.logN (a .meta/.logN.new left by a growth that did not\n"
		"finish is removed by the next one; famfs check names it).\n"
		"Clients pick it up when their replay or follower (famfs logplay\n"
		"--follow) reaches that entry.  The master also grows a full log by\n"
		"itself, with a message on stderr, when an append finds no room and\n"
		"free space allows (FAMFS_LOG_AUTOGROW=0 in the environment turns that\n"
		"off).  Refused when no free run of SIZE bytes exists (the message\n"
		"gives the longest), for a v1 log, on a client, and when the log\n"
		"stops creates (an entry that cannot be parsed: run famfs fsck).\n",
	.opts = (const struct cli_opt[]){
		{ 's', "size", "SIZE", "bytes to add (k, M, G suffixes; a multiple\n"
		  "of 2 MiB); default: the log's size now" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("MPT is no famfs mount, this host is not the\n"
			       "master, no free run of SIZE bytes, or the log\n"
			       "cannot grow (v1, damaged, at its largest)"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-df(8), famfs-mkfs(8), famfs-logplay(8)",
};

int cmd_loggrow(int argc, char **argv)
{
	char mpt[4096], rel[FAMFS_LOG_PATH_MAX];
	uint64_t size = 0, before;
	struct famfs_fs fs;
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_loggrow)) != -1) {
		switch (c) {
		case 's':
			if (famfs_parse_size(optarg, &size) || !size) {
				famfs_err("bad size '%s'", optarg);
				return FAMFS_EXIT_USAGE;
			}
			break;
		case 'h': return cli_usage(&cli_doc_loggrow, 0);
		default: return cli_usage(&cli_doc_loggrow, 1);
		}
	}
	if (argc - optind != 1)
		return cli_usage(&cli_doc_loggrow, 1);
	if (famfs_locate(argv[optind], true, mpt, rel))
		return FAMFS_EXIT_ERROR;
	if (famfs_fs_open_mount(mpt, true, &fs))
		return FAMFS_EXIT_ERROR;
	rc = famfs_fs_writable(&fs);
	if (!rc)
		rc = famfs_fs_lock(&fs);
	if (rc) {
		famfs_fs_close(&fs);
		return FAMFS_EXIT_ERROR;
	}
	/* (famfs_log_grow brings the cache up to date and maps every
	 * segment the log has first; the new one is the last) */
	rc = famfs_log_grow(&fs, size);
	if (!rc)
		before = famfs_log_cap(&fs) - fs.seg[fs.nsegs - 1].nslots;
	if (!rc)
		printf("famfs loggrow: %s: log segment %u: %llu bytes at %llu; %llu slots of 256 bytes now (was %llu)\n",
		       mpt, fs.nsegs - 1,
		       (unsigned long long)fs.seg[fs.nsegs - 1].len,
		       (unsigned long long)fs.seg[fs.nsegs - 1].dev_off,
		       (unsigned long long)famfs_log_cap(&fs),
		       (unsigned long long)before);
	famfs_fs_unlock(&fs);
	famfs_fs_close(&fs);
	return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
}
