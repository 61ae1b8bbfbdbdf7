// SPDX-License-Identifier: GPL-2.0
/*
 * famfs-reclaim-test: a tool for the guest suites only (not installed, no
 * user command): drives the library's RECLAIM API (issue 29) on a mount,
 * since no famfs command appends a RECLAIM yet (the decision which DELETEs
 * no host can reach is the host table's, to come).
 *
 *   famfs-reclaim-test list MPT     one line per pending DELETE:
 *                                   "DEL OBJECT BYTES PATH DEV:OFF:LEN..."
 *   famfs-reclaim-test all MPT      RECLAIM every pending DELETE; prints
 *                                   "reclaimed N BYTES"
 *   famfs-reclaim-test del MPT IDX...  RECLAIM those DELETE indexes
 *   famfs-reclaim-test log MPT      one line per valid log entry (the
 *                                   bench's reuse distance, issue 29):
 *                                   "IDX TYPE PATH DEV:OFF:LEN..." for a
 *                                   FILE or DELETE, "IDX RECLAIM DEL..."
 *                                   (TYPE: the entry's type number)
 * Exit 0, 1 on an error (printed), 2 usage.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"
#include "replay/replay.h"

static int log_line(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		    bool ok, const char *reason)
{
	struct famfs_extent rg[FAMFS_ENTRY_MAX_RANGES];
	unsigned type = le16toh(e->type), k;

	(void)arg;
	(void)reason;
	if (!ok)
		return 0;
	if (type == FAMFS_LOG_RECLAIM) {
		uint64_t d[FAMFS_RECLAIM_MAX];

		k = famfs_reclaim_get(e, d);
		printf("%llu RECLAIM", (unsigned long long)idx);
		for (unsigned i = 0; i < k; i++)
			printf(" %llu", (unsigned long long)d[i]);
		printf("\n");
		return 0;
	}
	printf("%llu %u %s", (unsigned long long)idx, type, famfs_entry_path(e));
	if (type == FAMFS_LOG_FILE) {
		k = famfs_entry_ranges(e, rg);
		for (unsigned i = 0; i < k; i++)
			printf(" %u:%llu:%llu", famfs_entry_devindex(e, i),
			       (unsigned long long)rg[i].offset,
			       (unsigned long long)rg[i].len);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct famfs_reclaim_cand *c = NULL;
	struct famfs_fs fs;
	uint64_t *d = NULL, freed = 0;
	size_t n = 0;
	int rc;

	famfs_replay_install();
	if (argc < 3 || (strcmp(argv[1], "list") && strcmp(argv[1], "all") &&
			 strcmp(argv[1], "del") && strcmp(argv[1], "log"))) {
		fprintf(stderr, "usage: %s list|all|del|log MPT [DELETE_INDEX...]\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "log")) {
		if (famfs_fs_open_mount(argv[2], false, &fs))
			return 1;
		rc = famfs_log_walk(&fs, log_line, NULL);
		famfs_fs_close(&fs);
		return rc < 0 ? 1 : 0;
	}
	rc = famfs_fs_open_mount(argv[2], strcmp(argv[1], "list") != 0, &fs);
	if (rc)
		return 1;
	if (strcmp(argv[1], "del")) {
		rc = famfs_reclaim_candidates(&fs, &c, &n);
		if (rc)
			goto out;
	}
	if (!strcmp(argv[1], "list")) {
		for (size_t i = 0; i < n; i++) {
			printf("%llu %llu %llu %s", (unsigned long long)c[i].del,
			       (unsigned long long)c[i].object,
			       (unsigned long long)c[i].bytes, c[i].path);
			for (unsigned k = 0; k < c[i].nranges; k++)
				printf(" %u:%llu:%llu", c[i].range[k].dev,
				       (unsigned long long)c[i].range[k].offset,
				       (unsigned long long)c[i].range[k].len);
			printf("\n");
		}
		goto out;
	}
	if (!strcmp(argv[1], "del"))
		n = (size_t)(argc - 3);
	d = calloc(n ? n : 1, sizeof(*d));
	if (!d) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		d[i] = c ? c[i].del : strtoull(argv[3 + i], NULL, 0);
	rc = famfs_reclaim_append(&fs, d, (unsigned)n, &freed);
	if (!rc)
		printf("reclaimed %zu %llu\n", n, (unsigned long long)freed);
out:
	free(c);
	free(d);
	famfs_fs_close(&fs);
	return rc ? 1 : 0;
}
