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

const struct cli_doc cli_doc_verify = {
	.page = "famfs-verify", .prog = "famfs verify",
	.summary = "verify a file written by mkfile -S",
	.synopsis = { "famfs verify -S SEED [-f] FILE" },
	.description =
		"Check that FILE holds the pattern famfs mkfile -S SEED wrote, e.g. on\n"
		"another host that shares the memory.  Before it reads, this host's\n"
		"cached lines of FILE are dropped (famfs flush -i; famfs.ko does it on\n"
		"a non-coherent mount), so it reads memory, not stale lines.\n",
	.opts = (const struct cli_opt[]){
		{ 'S', "seed", "SEED", "the seed given to mkfile -S" },
		{ 'f', "filename", "FILE", "the file (or as the last argument)" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ 0, "the data match" }, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("FILE cannot be opened or mapped"),
		{ 3, "mismatch: the first differing byte is reported" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mkfile(8)",
};

int cmd_verify(int argc, char **argv)
{
	const char *path = NULL;
	bool have_seed = false;
	uint64_t seed = 0;
	struct stat st;
	int64_t bad;
	void *a;
	int c, fd, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_verify)) != -1) {
		switch (c) {
		case 'S':
			if (famfs_parse_size(optarg, &seed)) {
				famfs_err("--seed %s: not a number", optarg);
				return FAMFS_EXIT_USAGE;
			}
			have_seed = true;
			break;
		case 'f': path = optarg; break;
		case 'h': return cli_usage(&cli_doc_verify, 0);
		default: return cli_usage(&cli_doc_verify, 1);
		}
	}
	if (!path && argc - optind == 1)
		path = argv[optind++];
	if (!path || !have_seed || optind != argc)
		return cli_usage(&cli_doc_verify, 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		famfs_err("%s: %s", path, strerror(errno));
		return FAMFS_EXIT_ERROR;
	}
	if (!st.st_size) {
		close(fd);
		return FAMFS_EXIT_OK;
	}
	/* another host may have written it: drop this host's cached lines,
	 * through famfs.ko on a non-coherent mount (issue 18) */
	rc = famfs_file_cache(fd, true);
	if (rc && rc != -ENOTTY) {
		famfs_err("%s: invalidate (FAMFSIOC_CACHE): %s", path, strerror(-rc));
		close(fd);
		return FAMFS_EXIT_ERROR;
	}
	a = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (a == MAP_FAILED) {
		famfs_err("%s: mmap: %s", path, strerror(errno));
		return FAMFS_EXIT_ERROR;
	}
	famfs_cpu_flush(a, (size_t)st.st_size);	/* and by hand, for any mount */
	bad = famfs_pattern_check(a, (uint64_t)st.st_size, seed);
	munmap(a, (size_t)st.st_size);
	if (bad >= 0) {
		famfs_err("%s: does not match seed %llu: first difference at byte %lld",
			  path, (unsigned long long)seed, (long long)bad);
		return FAMFS_EXIT_PROBLEM;
	}
	return FAMFS_EXIT_OK;
}
