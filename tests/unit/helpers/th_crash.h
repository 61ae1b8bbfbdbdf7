/* SPDX-License-Identifier: GPL-2.0 */
/* Crash tests of delete and reclaim (issue 29 item 5): a crash at the k-th
 * flush (famfs_flush_hook, longjmp), and the invariants a fresh opening
 * must find after it, read from the log by the test itself. */
#ifndef FAMFS_TH_CRASH_H
#define FAMFS_TH_CRASH_H

#include "th.h"

/* ---- the crash ---- */
extern jmp_buf thc_jmp;
extern unsigned thc_flushes, thc_crash_at;
/* called at the crash, before the longjmp (NULL: none): a torn write */
extern void (*thc_at_crash)(const struct famfs_map *m, const void *addr,
			    size_t len);
/* count flushes; longjmp(thc_jmp) at the thc_crash_at-th */
void thc_hook(const struct famfs_map *m, const void *addr, size_t len);
/* after the longjmp: the hook off, the log lock let go (a dead process's
 * lock), a new opening of the memory */
void thc_recover(struct th *t);

/* ---- what the log says, read by the test ---- */
enum { THC_LIVE, THC_PENDING, THC_RECLAIMED };
struct thc_file {
	uint64_t idx;			/* its FILE entry */
	char path[FAMFS_LOG_PATH_MAX];
	unsigned n;
	struct famfs_extent ext[FAMFS_ENTRY_MAX_RANGES];
	int state;
	uint64_t del;			/* its DELETE (not live) */
};
struct thc_state {
	struct thc_file *f;
	size_t n;
	bool hosts;			/* a HOSTS entry */
	uint64_t hosts_off;
	unsigned deletes, reclaims;	/* entries */
};
/* Walk the committed log: asserts no bad entry, no DELETE of a file that
 * is not live, no DELETE reclaimed twice (or never deleted) */
void thc_scan(struct famfs_fs *fs, struct thc_state *s);
void thc_state_free(struct thc_state *s);
const struct thc_file *thc_find(const struct thc_state *s, const char *path,
				int state);
/* Every invariant of now against before (NULL: none): every file live
 * before is live with the same entry and extents (but may_go: live or
 * pending); pending stays pending or is reclaimed; no 2 MiB unit has two
 * owners (live and pending files, the host table); the allocator's bitmap
 * has every owned unit used; fsck's problems 0 (each message printed);
 * a live file here has its logged map.  A deleted file still here (a crash
 * between its DELETE and the unlink) is removed by a logplay. */
void thc_check(struct th *t, const struct thc_state *before,
	       const char *may_go, struct thc_state *now);
/* A file made now gets memory no live or pending file has: made, and
 * thc_check'd */
void thc_new_file(struct th *t, const char *rel, uint64_t size);

/* ---- the host table ---- */
/* A registered host in slot n (reg, replayed, holds_from) */
void thc_other_host(struct th *t, unsigned n, uint64_t reg, uint64_t rep,
		    uint64_t holds);
/* hold_all / hold_none for th_mock_held_hook */
int thc_hold_all(struct famfs_ioc_held_range *r);

#endif
