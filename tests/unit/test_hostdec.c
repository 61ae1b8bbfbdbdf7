// SPDX-License-Identifier: GPL-2.0
/* The reclaim decision (lib/role/hostdec.c, format revision 3): DELETE d
 * may be reclaimed only when every registered, not evicted slot has
 * holds_from > d and replayed > d (the master's own included): what
 * famfs.ko there reports held blocks, whenever the host registered, and
 * a host that registered after d blocks it until its replay has read past
 * d (a replay that stopped early may have made d's file without its
 * DELETE); a torn slot blocks all; times are never used.  Every host
 * state alone, then every pair of them, the blockers reported per DELETE,
 * a table of 64+ hosts and a full-size one. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

#define D 100		/* the DELETE judged */

enum kind {
	K_ZERO,		/* a free slot */
	K_LIVE,		/* replayed past d, holds nothing */
	K_LIVE_HOLDS_LATER,	/* replayed past d, holds a later DELETE */
	K_BEHIND,	/* registered before d, replayed <= d */
	K_BEHIND_AT,	/* replayed == d: the DELETE not applied yet */
	K_HOLDING,	/* replayed past d, holds d */
	K_HOLDING_OLDER,	/* holds an earlier DELETE */
	K_STALE,	/* behind with a beat years old: still blocks */
	K_STALE_LIVE,	/* a beat years old, but past d and holding none */
	K_EVICTED,	/* behind, its (uuid, generation) evicted */
	K_EVICT_OLDGEN,	/* behind; an older generation of it was evicted */
	K_REBOOTED,	/* registered again (new boot id) after d */
	K_REG_AFTER,	/* registered after d, its first replay not reported */
	K_REG_AFTER_STOPPED,	/* registered after d, its replay stopped
				 * below d (a lost segment): d's file may be
				 * there without its DELETE */
	K_REG_AFTER_DONE,	/* registered after d, replayed past it */
	K_REG_AT,	/* registered_at == d: it may have mapped it */
	K_UNREG,	/* a valid record without FAMFS_HOST_REGISTERED */
	K_TORN,		/* no verifying copy, not zero */
	K_MASTER_LIVE,	/* the master's own slot, past d, holding none */
	K_MASTER_HOLDING,	/* the master's own slot holds d */
	K_REG_AFTER_HOLDING,	/* registered after d, but famfs.ko there
				 * reports d's memory held (r38: a mount
				 * registered after its own replay) */
	K_NKINDS
};
static const enum famfs_host_block expect[K_NKINDS] = {
	[K_ZERO] = FAMFS_HB_NONE,
	[K_LIVE] = FAMFS_HB_NONE,
	[K_LIVE_HOLDS_LATER] = FAMFS_HB_NONE,
	[K_BEHIND] = FAMFS_HB_BEHIND,
	[K_BEHIND_AT] = FAMFS_HB_BEHIND,
	[K_HOLDING] = FAMFS_HB_HOLDING,
	[K_HOLDING_OLDER] = FAMFS_HB_HOLDING,
	[K_STALE] = FAMFS_HB_BEHIND,
	[K_STALE_LIVE] = FAMFS_HB_NONE,
	[K_EVICTED] = FAMFS_HB_NONE,
	[K_EVICT_OLDGEN] = FAMFS_HB_HOLDING,	/* it holds 20, and is behind */
	[K_REBOOTED] = FAMFS_HB_NONE,
	[K_REG_AFTER] = FAMFS_HB_BEHIND,
	[K_REG_AFTER_STOPPED] = FAMFS_HB_BEHIND,
	[K_REG_AFTER_DONE] = FAMFS_HB_NONE,
	[K_REG_AT] = FAMFS_HB_BEHIND,
	[K_UNREG] = FAMFS_HB_NONE,
	[K_TORN] = FAMFS_HB_TORN,
	[K_MASTER_LIVE] = FAMFS_HB_NONE,
	[K_MASTER_HOLDING] = FAMFS_HB_HOLDING,
	[K_REG_AFTER_HOLDING] = FAMFS_HB_HOLDING,
};

static const uint8_t master[16] = { 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa,
				    0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa };

/* slot h of kind k for host number n; evicted entries it needs go to ev */
static void mk(struct famfs_host *h, enum kind k, unsigned n,
	       struct famfs_hosts_ev *ev)
{
	memset(h, 0, sizeof(*h));
	if (k == K_ZERO)
		return;
	if (k == K_TORN) {
		h->state = FAMFS_HOST_TORN;
		return;
	}
	h->state = FAMFS_HOST_VALID;
	h->flags = FAMFS_HOST_REGISTERED;
	h->host_uuid[0] = (uint8_t)(n + 1);
	h->host_uuid[1] = (uint8_t)((n + 1) >> 8);
	h->host_uuid[15] = 0x55;
	h->boot_id[0] = 1;
	h->generation = 2;
	h->seq = 7;
	h->registered_at = 10;
	h->replayed = 150;
	h->holds_from = FAMFS_HOLDS_NONE;
	h->beat_time = 1800000000;	/* times are never used */
	snprintf(h->hostname, sizeof(h->hostname), "h%u", n);
	switch (k) {
	case K_LIVE_HOLDS_LATER:
		h->holds_from = D + 1;
		break;
	case K_BEHIND:
		h->replayed = 50;
		break;
	case K_BEHIND_AT:
		h->replayed = D;
		break;
	case K_HOLDING:
		h->holds_from = D;
		break;
	case K_HOLDING_OLDER:
		h->holds_from = 20;
		break;
	case K_STALE:
		h->replayed = 50;
		h->beat_time = 1;
		break;
	case K_STALE_LIVE:
		h->beat_time = 1;
		break;
	case K_EVICTED:
	case K_EVICT_OLDGEN:
		h->replayed = 50;
		h->holds_from = 20;
		memcpy(ev->e[ev->n].host_uuid, h->host_uuid, 16);
		memcpy(ev->e[ev->n].boot_id, h->boot_id, 16);
		if (k == K_EVICT_OLDGEN)	/* the boot before */
			ev->e[ev->n].boot_id[0] ^= 0x80;
		ev->e[ev->n].generation = k == K_EVICTED ? 2 : 1;
		ev->n++;
		break;
	case K_REBOOTED:
		/* its earlier generation (1) was never evicted; the new boot
		 * registered after d and has mapped nothing before it */
		h->generation = 3;
		h->boot_id[0] = 2;
		h->registered_at = D + 5;
		h->replayed = D + 5;
		break;
	case K_REG_AFTER:
		h->registered_at = D + 1;
		h->replayed = 0;
		break;
	case K_REG_AFTER_STOPPED:
		h->registered_at = D + 5;
		h->replayed = D - 2;
		break;
	case K_REG_AFTER_DONE:
		h->registered_at = D + 1;
		h->replayed = D + 3;
		break;
	case K_REG_AFTER_HOLDING:
		h->registered_at = D + 1;
		h->replayed = 0;
		h->holds_from = D;
		break;
	case K_REG_AT:
		h->registered_at = D;
		h->replayed = D;
		break;
	case K_UNREG:
		h->flags = 0;
		h->replayed = 0;
		break;
	case K_MASTER_LIVE:
	case K_MASTER_HOLDING:
		memcpy(h->host_uuid, master, 16);
		h->flags |= FAMFS_HOST_MASTER;
		if (k == K_MASTER_HOLDING)
			h->holds_from = D;
		break;
	default:
		break;
	}
}

struct rec {
	unsigned n;
	size_t di[64];
	unsigned slot[64];
	enum famfs_host_block why[64];
};

static void note(void *arg, size_t di, unsigned slot, enum famfs_host_block why)
{
	struct rec *r = arg;

	if (r->n < 64) {
		r->di[r->n] = di;
		r->slot[r->n] = slot;
		r->why[r->n] = why;
	}
	r->n++;
}

/* each kind alone, next to the master's slot (live) */
static void test_each_state(void **s)
{
	(void)s;
	for (int k = 0; k < K_NKINDS; k++) {
		struct famfs_hosts_ev ev = { 0 };
		struct famfs_host sl[2];
		uint64_t d = D;
		bool ok;
		struct rec r = { 0 };
		size_t n;

		mk(&sl[0], K_MASTER_LIVE, 0, &ev);
		mk(&sl[1], (enum kind)k, 1, &ev);
		assert_int_equal(famfs_host_blocks(&sl[1], &ev, D, UINT64_MAX), expect[k]);
		n = famfs_hostdec_decide(sl, NULL, 2, &ev, master, &d, 1, UINT64_MAX, &ok, note, &r);
		if (expect[k] == FAMFS_HB_NONE) {
			assert_int_equal(n, 1);
			assert_true(ok);
			assert_int_equal(r.n, 0);
		} else {
			assert_int_equal(n, 0);
			assert_false(ok);
			if (k == K_MASTER_HOLDING) {	/* its slot replaced */
				assert_int_equal(r.n, 1);
				continue;
			}
			assert_int_equal(r.n, 1);
			assert_int_equal(r.slot[0], 1);
			assert_int_equal(r.why[0], expect[k]);
			assert_true(famfs_host_block_str(expect[k])[0] != '\0');
		}
	}
}

/* every pair of kinds: d is reclaimable iff neither blocks, and each
 * blocker is reported once */
static void test_every_pair(void **s)
{
	(void)s;
	for (int a = 0; a < K_NKINDS; a++)
		for (int b = 0; b < K_NKINDS; b++) {
			struct famfs_hosts_ev ev = { 0 };
			struct famfs_host sl[3];
			uint64_t d = D;
			bool ok;
			struct rec r = { 0 };
			unsigned want = (expect[a] != FAMFS_HB_NONE) +
					(expect[b] != FAMFS_HB_NONE);

			mk(&sl[0], K_MASTER_LIVE, 0, &ev);
			mk(&sl[1], (enum kind)a, 1, &ev);
			mk(&sl[2], (enum kind)b, 2, &ev);
			famfs_hostdec_decide(sl, NULL, 3, &ev, master, &d, 1, UINT64_MAX, &ok,
					     note, &r);
			if (ok != !want)
				fail_msg("kinds %d, %d: ok %d", a, b, ok);
			assert_int_equal(r.n, want);
		}
}

/* several DELETEs at once: each judged against every slot */
static void test_many_deletes(void **s)
{
	struct famfs_hosts_ev ev = { 0 };
	struct famfs_host sl[4];
	uint64_t d[6] = { 5, 20, 49, 50, 99, 140 };
	bool ok[6];
	struct rec r = { 0 };
	size_t n;

	(void)s;
	mk(&sl[0], K_MASTER_LIVE, 0, &ev);	/* replayed 150 */
	mk(&sl[1], K_BEHIND, 1, &ev);		/* replayed 50 */
	mk(&sl[2], K_HOLDING_OLDER, 2, &ev);	/* holds 20 */
	mk(&sl[3], K_ZERO, 3, &ev);
	n = famfs_hostdec_decide(sl, NULL, 4, &ev, master, d, 6, UINT64_MAX, ok, note, &r);
	/* 5: replayed past it by all, held by none: free */
	assert_true(ok[0]);
	/* 20: slot 2 holds it */
	assert_false(ok[1]);
	/* 49: replayed 50 > 49, slot 2 holds from 20 <= 49 */
	assert_false(ok[2]);
	/* 50, 99, 140: slot 1 behind, slot 2 holding */
	assert_false(ok[3] || ok[4] || ok[5]);
	assert_int_equal(n, 1);
	/* blockers: (20: slot 2), (49: 2), (50: 1, 2), (99: 1, 2), (140: 1, 2) */
	assert_int_equal(r.n, 8);
	/* slot 2 released its hold: 49 is free, 50 on is blocked by slot 1 */
	sl[2].holds_from = FAMFS_HOLDS_NONE;
	memset(&r, 0, sizeof(r));
	n = famfs_hostdec_decide(sl, NULL, 4, &ev, master, d, 6, UINT64_MAX, ok, NULL, NULL);
	assert_int_equal(n, 3);
	assert_true(ok[0] && ok[1] && ok[2] && !ok[3]);
}

/* a torn slot blocks every DELETE, a zeroed one (evicted by slot) none */
static void test_torn_blocks_all(void **s)
{
	struct famfs_hosts_ev ev = { 0 };
	struct famfs_host sl[3];
	uint64_t d[3] = { 1, 100, 1000000 };
	bool ok[3];
	struct rec r = { 0 };

	(void)s;
	mk(&sl[0], K_MASTER_LIVE, 0, &ev);
	sl[0].replayed = 2000000;
	mk(&sl[1], K_TORN, 1, &ev);
	mk(&sl[2], K_LIVE, 2, &ev);
	sl[2].replayed = 2000000;
	assert_int_equal(famfs_hostdec_decide(sl, NULL, 3, &ev, master, d, 3, UINT64_MAX, ok,
					      note, &r), 0);
	assert_int_equal(r.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(r.slot[i], 1);
		assert_int_equal(r.why[i], FAMFS_HB_TORN);
	}
	mk(&sl[1], K_ZERO, 1, &ev);
	assert_int_equal(famfs_hostdec_decide(sl, NULL, 3, &ev, master, d, 3, UINT64_MAX, ok,
					      NULL, NULL), 3);
}

/* without a registered master slot nothing is reclaimed; an evicted or
 * unregistered master slot does not count either */
static void test_master_slot_needed(void **s)
{
	struct famfs_hosts_ev ev = { 0 };
	struct famfs_host sl[2];
	uint64_t d = D;
	bool ok;
	struct rec r = { 0 };

	(void)s;
	mk(&sl[0], K_LIVE, 1, &ev);
	mk(&sl[1], K_ZERO, 2, &ev);
	assert_int_equal(famfs_hostdec_decide(sl, NULL, 2, &ev, master, &d, 1, UINT64_MAX, &ok,
					      note, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.slot[0], 2);		/* nslots: no slot */
	assert_int_equal(r.why[0], FAMFS_HB_NO_MASTER);
	/* not checked when no master is named (pure rule) */
	assert_int_equal(famfs_hostdec_decide(sl, NULL, 2, &ev, NULL, &d, 1, UINT64_MAX, &ok,
					      NULL, NULL), 1);
	/* the master's slot, evicted */
	mk(&sl[1], K_MASTER_LIVE, 0, &ev);
	memcpy(ev.e[0].host_uuid, master, 16);
	memcpy(ev.e[0].boot_id, sl[1].boot_id, 16);
	ev.e[0].generation = sl[1].generation;
	ev.n = 1;
	assert_int_equal(famfs_hostdec_decide(sl, NULL, 2, &ev, master, &d, 1, UINT64_MAX, &ok,
					      NULL, NULL), 0);
	ev.n = 0;
	sl[1].flags &= ~FAMFS_HOST_REGISTERED;
	assert_int_equal(famfs_hostdec_decide(sl, NULL, 2, &ev, master, &d, 1, UINT64_MAX, &ok,
					      NULL, NULL), 0);
	sl[1].flags |= FAMFS_HOST_REGISTERED;
	assert_int_equal(famfs_hostdec_decide(sl, NULL, 2, &ev, master, &d, 1, UINT64_MAX, &ok,
					      NULL, NULL), 1);
}

/* 64+ hosts: one behind among 100 blocks; all of them past, none */
static void test_many_hosts(void **s)
{
	struct famfs_hosts_ev ev = { 0 };
	struct famfs_host *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	uint64_t d = D;
	bool ok;
	struct rec r = { 0 };

	(void)s;
	assert_non_null(sl);
	mk(&sl[0], K_MASTER_LIVE, 0, &ev);
	/* 80 hosts (the table has 256 slots), the evicted after them */
	for (unsigned i = 1; i <= 80; i++)
		mk(&sl[i * 2], (enum kind)(i % 3 ? K_LIVE : K_REG_AFTER_DONE), i, &ev);
	assert_int_equal(famfs_hostdec_decide(sl, NULL, FAMFS_HOST_SLOTS, &ev, master,
					      &d, 1, UINT64_MAX, &ok, NULL, NULL), 1);
	mk(&sl[77 * 2], K_BEHIND, 77, &ev);
	assert_int_equal(famfs_hostdec_decide(sl, NULL, FAMFS_HOST_SLOTS, &ev, master,
					      &d, 1, UINT64_MAX, &ok, note, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.slot[0], 77 * 2);
	/* the last slot of the table counts too */
	mk(&sl[77 * 2], K_LIVE, 77, &ev);
	mk(&sl[FAMFS_HOST_SLOTS - 1], K_HOLDING, 200, &ev);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_hostdec_decide(sl, NULL, FAMFS_HOST_SLOTS, &ev, master,
					      &d, 1, UINT64_MAX, &ok, note, &r), 0);
	assert_int_equal(r.slot[0], FAMFS_HOST_SLOTS - 1);
	/* FAMFS_HOSTS_MAX_EVICT evicted hosts (the list full), all behind: none blocks */
	for (unsigned i = 0; i < FAMFS_HOSTS_MAX_EVICT; i++)
		mk(&sl[161 + i], K_EVICTED, 300 + i, &ev);
	mk(&sl[FAMFS_HOST_SLOTS - 1], K_ZERO, 0, &ev);
	assert_int_equal(ev.n, FAMFS_HOSTS_MAX_EVICT);
	assert_int_equal(famfs_hostdec_decide(sl, NULL, FAMFS_HOST_SLOTS, &ev, master,
					      &d, 1, UINT64_MAX, &ok, NULL, NULL), 1);
	free(sl);
}

/* the slots that are not free only, each with its slot number
 * (famfs_hostdec_decide with idx, the master's pass): the same decision as over
 * the whole table, each blocker told by its own slot number, a missing
 * master as slot FAMFS_HOST_SLOTS */
static void test_decide_at(void **s)
{
	static const enum kind k[] = { K_BEHIND, K_LIVE, K_TORN, K_HOLDING,
				       K_EVICTED, K_REG_AFTER_DONE };
	static const unsigned at[] = { 3, 40, 99, 150, 201,
				       FAMFS_HOST_SLOTS - 1 };
	struct famfs_hosts_ev ev = { 0 };
	struct famfs_host *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_host used[8];
	unsigned idx[8], n = 0;
	uint64_t d[3] = { D - 5, D, D + 5 };
	bool ok_full[3], ok_at[3];
	struct rec rf = { 0 }, ra = { 0 };

	(void)s;
	assert_non_null(sl);
	mk(&sl[123], K_MASTER_LIVE, 0, &ev);
	for (unsigned i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		mk(&sl[at[i]], k[i], i + 1, &ev);
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++) {
		if (sl[i].state == FAMFS_HOST_FREE)
			continue;
		used[n] = sl[i];
		idx[n++] = i;
	}
	assert_int_equal(n, 7);
	assert_int_equal(famfs_hostdec_decide(sl, NULL, FAMFS_HOST_SLOTS, &ev, master,
					      d, 3, UINT64_MAX, ok_full, note,
					      &rf),
			 famfs_hostdec_decide(used, idx, n, &ev, master, d, 3,
						 UINT64_MAX, ok_at, note, &ra));
	assert_memory_equal(ok_full, ok_at, sizeof(ok_at));
	assert_true(rf.n > 0);
	assert_int_equal(rf.n, ra.n);
	assert_memory_equal(rf.slot, ra.slot, sizeof(rf.slot));
	assert_memory_equal(rf.why, ra.why, sizeof(rf.why));
	assert_memory_equal(rf.di, ra.di, sizeof(rf.di));
	/* no master: told as slot FAMFS_HOST_SLOTS either way */
	memset(&rf, 0, sizeof(rf));
	memset(&ra, 0, sizeof(ra));
	sl[123].state = FAMFS_HOST_FREE;
	for (unsigned i = 0; i < n; i++)
		if (idx[i] == 123)
			used[i].state = FAMFS_HOST_FREE;
	assert_int_equal(famfs_hostdec_decide(sl, NULL, FAMFS_HOST_SLOTS, &ev, master,
					      d, 3, UINT64_MAX, ok_full, note,
					      &rf), 0);
	assert_int_equal(famfs_hostdec_decide(used, idx, n, &ev, master, d,
						 3, UINT64_MAX, ok_at, note,
						 &ra), 0);
	assert_int_equal(ra.slot[0], FAMFS_HOST_SLOTS);
	assert_int_equal(ra.why[0], FAMFS_HB_NO_MASTER);
	assert_int_equal(rf.n, ra.n);
	assert_memory_equal(rf.slot, ra.slot, sizeof(rf.slot));
	free(sl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_state),
		cmocka_unit_test(test_every_pair),
		cmocka_unit_test(test_many_deletes),
		cmocka_unit_test(test_torn_blocks_all),
		cmocka_unit_test(test_decide_at),
		cmocka_unit_test(test_master_slot_needed),
		cmocka_unit_test(test_many_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
