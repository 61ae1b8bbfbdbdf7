// SPDX-License-Identifier: GPL-2.0
/* famfs flush: write back (and invalidate) this host's cache lines of
 * whole files (FAMFSIOC_CACHE, issue 18). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_flush = {
	.page = "famfs-flush", .prog = "famfs flush",
	.summary = "write back (and invalidate) the CPU cache lines of files",
	.synopsis = { "famfs flush [-i|--invalidate] FILE..." },
	.description =
		"For memory that is not cache-coherent between hosts (famfs mkfs\n"
		"--noncoherent, mount -o noncoherent): write back this host's dirty\n"
		"cache lines of each whole FILE, so other hosts can read what this\n"
		"host stored through a mapping; with -i also drop them, so this\n"
		"host's next loads read memory, not stale lines.  A writer flushes\n"
		"after its stores, a reader flushes with -i before its loads.  On a\n"
		"coherent mount famfs.ko has nothing to do and succeeds.  Each FILE\n"
		"is a famfs file (any host, master or client); empty ones succeed,\n"
		"and a file that is not on a famfs mount is an error (also an empty\n"
		"one, or one of /proc).\n",
	.opts = (const struct cli_opt[]){
		{ 'i', "invalidate", NULL, "write back, then invalidate the lines" },
		{ 'v', "verbose", NULL, "print each file flushed" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("a FILE cannot be opened, is not a mapped famfs file,\n"
			       "or famfs.ko refused (the others are still flushed)"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-tune(8), famfs-mkfs(8), msync(2)",
};

static int flush_one(const char *path, bool inval)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	struct statfs sf;

	if (fd < 0) {
		famfs_err("%s: cannot open: %s", path, strerror(errno));
		return -errno;
	}
	rc = famfs_file_cache(fd, inval);
	if (rc == -ENOTTY && !fstatfs(fd, &sf) &&
	    (uint32_t)sf.f_type != FAMFS_SUPER_MAGIC)
		famfs_err("%s: not a famfs file (on a file system of type 0x%llx, famfs is 0x%x): nothing to %s",
			  path, (unsigned long long)sf.f_type, FAMFS_SUPER_MAGIC,
			  inval ? "write back and invalidate" : "write back");
	else if (rc)
		famfs_err("%s: %s: %s%s", path, inval ? "write back and invalidate" :
			  "write back", strerror(-rc),
			  rc == -ENOTTY ? " (famfs.ko without FAMFSIOC_CACHE?)" :
			  rc == -ENODEV ? " (the file has no map)" : "");
	else if (famfs_verbose)
		printf("famfs flush: %s: %s\n", path,
		       inval ? "written back and invalidated" : "written back");
	close(fd);
	return rc;
}

int cmd_flush(int argc, char **argv)
{
	bool inval = false;
	int c, bad = 0;

	while ((c = cli_getopt(argc, argv, &cli_doc_flush)) != -1) {
		switch (c) {
		case 'i': inval = true; break;
		case 'v': famfs_verbose++; break;
		case 'h': return cli_usage(&cli_doc_flush, 0);
		default: return cli_usage(&cli_doc_flush, 1);
		}
	}
	if (optind >= argc)
		return cli_usage(&cli_doc_flush, 1);
	for (int i = optind; i < argc; i++)
		bad += flush_one(argv[i], inval) != 0;
	return bad ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
}
