// SPDX-License-Identifier: GPL-2.0
/* The host table against the races and wrecks hostile review r38 found
 * (log/hostreg.c, ops/reclaimpass.c):
 *  - a claim stalled between its free check and its write does not take a
 *    slot another host claimed meanwhile, and a host whose slot another
 *    host took registers again elsewhere (at 0) instead of stopping;
 *  - an eviction by uuid names the generation the administrator saw;
 *  - a torn header locks no host out, and `famfs hosts repair` writes a
 *    fresh one (refused while the header verifies);
 *  - evicted by slot, a live host does not register again in its boot
 *    (r38's test 3);
 *  - FAMFS_HOST_SETTLE_MS cannot turn the settle wait off outside tests;
 *  - a slot whose registered_at or replayed is past the log's end blocks
 *    the pass. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "th.h"

static struct th *mk(void)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	th_fast_settle();
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	return t;
}

static void other_rec(struct famfs_host *h, uint8_t fill, uint64_t reg,
		      uint64_t rep)
{
	memset(h, 0, sizeof(*h));
	h->state = FAMFS_HOST_VALID;
	h->flags = FAMFS_HOST_REGISTERED;
	memset(h->host_uuid, fill, 16);
	memset(h->boot_id, fill ^ 0xff, 16);
	h->generation = 1;
	h->registered_at = reg;
	h->replayed = rep;
	h->holds_from = FAMFS_HOLDS_NONE;
	snprintf(h->hostname, sizeof(h->hostname), "other");
}

/* the slot of uuid, or -1 */
static int slot_of(struct famfs_hosttab *tab, const uint8_t uuid[16],
		   struct famfs_host *h)
{
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++)
		if (famfs_hosttab_slot(tab, i, h) == FAMFS_HOST_VALID &&
		    !memcmp(h->host_uuid, uuid, 16))
			return (int)i;
	return -1;
}

/* ---- 1: a stalled claim ---------------------------------------------- */
static struct famfs_hosttab *stall_tab, *stall_other;
static unsigned stall_slot, stall_seen, stall_at;

/* B claims the slot while A's claim is stalled: on A's stall_at-th look
 * at it (find_slot looks once: its home run -- its full scan looks at the
 * table in place, not slot by slot; the claim's free check a second time;
 * the third is the claim's write) */
static void stall_hook(struct famfs_map *m, void *addr, size_t len)
{
	struct famfs_host b;

	if (m != &stall_tab->m || len != FAMFS_HOST_SLOT_SIZE ||
	    addr != famfs_host_slot_at(stall_tab->m.addr, stall_slot))
		return;
	if (++stall_seen != stall_at)
		return;
	other_rec(&b, 0xb0, 0, 0);
	assert_int_equal(famfs_hosttab_write(stall_other, stall_slot, &b), 0);
}

static void test_claim_stalled(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab, other;
	struct famfs_host h;
	uint8_t me[16], b[16];
	unsigned home, slot;

	(void)s;
	assert_int_equal(famfs_host_id(me), 0);
	memset(b, 0xb0, 16);
	home = famfs_host_slot_home(me, FAMFS_HOST_SLOTS);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &other), 0);
	stall_tab = &tab;
	stall_other = &other;
	stall_slot = home;
	stall_seen = 0;
	stall_at = 3;
	famfs_refresh_hook = stall_hook;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	famfs_refresh_hook = NULL;
	assert_true(stall_seen >= stall_at);
	/* B keeps the slot it claimed; A is elsewhere */
	assert_int_equal(famfs_hosttab_slot(&tab, home, &h), FAMFS_HOST_VALID);
	assert_memory_equal(h.host_uuid, b, 16);
	assert_int_equal(h.seq, 1);
	assert_int_not_equal(slot, home);
	assert_int_equal(slot_of(&tab, me, &h), (int)slot);
	famfs_hosttab_close(&other);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* A's slot was taken anyway (B's write landed after A's read-back): A's
 * next update registers it again in a slot of its own, at 0 (it may map
 * anything), and leaves B's registration alone */
static void test_update_slot_taken(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, b;
	uint8_t me[16];
	unsigned slot;
	int n;

	(void)s;
	assert_int_equal(famfs_host_id(me), 0);
	th_append_dir(t, "d1");
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 3, NULL, NULL), 0);
	other_rec(&b, 0xb1, 0, 0);
	assert_int_equal(famfs_hosttab_write(&tab, slot, &b), 0);
	th_stderr_grab();
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 7, NULL, NULL), 0);
	{
		char buf[2048];

		th_stderr_take(buf, sizeof(buf));
		assert_non_null(strstr(buf, "registered again"));
	}
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_memory_equal(h.host_uuid, b.host_uuid, 16);
	n = slot_of(&tab, me, &h);
	assert_true(n >= 0 && (unsigned)n != slot);
	assert_int_equal(h.registered_at, 0);
	assert_int_equal(h.replayed, 7);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* ---- 2: evict by uuid, the generation seen ---------------------------- */
static void test_evict_generation(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN], buf[2048];
	uint8_t master[16], client[16], boot[16];
	uint64_t g = 0;
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_id(master), 0);
	memset(client, 0x42, 16);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	th_write_id(t->hostid, client);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	/* the administrator looks (generation 1), the client reboots */
	memset(boot, 0x61, 16);
	th_write_id(t->bootid, boot);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(h.generation, 2);
	th_write_id(t->hostid, master);
	/* evict generation 1: refused, nothing fenced */
	th_stderr_grab();
	assert_int_equal(famfs_hosts_evict_gen(&t->fs, &tab, client, 1, &g),
			 -ESTALE);
	th_stderr_take(buf, sizeof(buf));
	assert_non_null(strstr(buf, "registered again"));
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 0);
	/* generation 2, or the current one: fenced, named */
	assert_int_equal(famfs_hosts_evict_gen(&t->fs, &tab, client, 0, &g), 0);
	assert_int_equal(g, 2);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.e[0].generation, 2);
	assert_int_equal(famfs_hosts_evict_gen(&t->fs, &tab, client, 2, &g), 0);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	famfs_hosttab_close(&tab);
	free(sl);
	th_free(t);
}

/* ---- 3: a torn header ------------------------------------------------- */
static void tear_header(struct th *t)
{
	struct famfs_hosttab tab;

	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	/* both copies: no copy verifies */
	((uint8_t *)tab.m.addr)[64] ^= 0xff;
	((uint8_t *)tab.m.addr)[FAMFS_HOSTS_HDR_SIZE + 64] ^= 0xff;
	assert_int_equal(famfs_map_flush(&tab.m, tab.m.addr,
					 FAMFS_HOSTS_SLOTS_OFF), 0);
	famfs_hosttab_close(&tab);
}

static void test_torn_header(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN], buf[4096];
	uint8_t master[16], client[16];
	uint64_t g;
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_id(master), 0);
	memset(client, 0x43, 16);
	/* a client registered before the master's header write was cut */
	th_write_id(t->hostid, client);
	assert_int_equal(famfs_hosts_checkin(&t->fs, true, false, 0, NULL), 0);
	th_write_id(t->hostid, master);
	tear_header(t);

	/* every host still registers and reports (the fences unknown) */
	th_write_id(t->hostid, client);
	th_stderr_grab();
	assert_int_equal(famfs_hosts_checkin(&t->fs, true, true, 5, NULL), 0);
	th_stderr_take(buf, sizeof(buf));
	assert_non_null(strstr(buf, "header"));
	th_write_id(t->hostid, master);
	assert_int_equal(famfs_hosts_checkin(&t->fs, false, true, 5, NULL), 0);

	/* the pass refuses, and names the repair */
	th_create_ok(&t->fs, "a", 2 * MiB);
	th_stderr_grab();
	famfs_remove(&t->fs, "a", false);
	th_stderr_take(buf, sizeof(buf));
	assert_non_null(strstr(buf, "famfs hosts repair"));

	/* an eviction writes the header: refused, names the repair */
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	th_stderr_grab();
	assert_int_not_equal(famfs_hosts_evict_gen(&t->fs, &tab, client, 0, &g), 0);
	th_stderr_take(buf, sizeof(buf));
	assert_non_null(strstr(buf, "famfs hosts repair"));

	/* the repair: a fresh header, no fences */
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, false), 0);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 0);
	/* refused while the header verifies */
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, false), -EEXIST);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosts_evict_gen(&t->fs, &tab, client, 0, &g), 0);
	famfs_hosttab_close(&tab);
	/* a client may not repair */
	tear_header(t);
	th_become_client(t);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	famfs_quiet = 1;
	assert_int_not_equal(famfs_hosts_repair(&t->fs, &tab, false), 0);
	famfs_quiet = 0;
	famfs_hosttab_close(&tab);
	(void)slot;
	free(sl);
	th_free(t);
}

/* ---- 4: evicted by slot, in the same boot (r38's test 3) --------------- */
static void test_evict_slot_same_boot(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h;
	uint8_t master[16], client[16];
	unsigned slot, slot2;
	int rc;

	(void)s;
	assert_int_equal(famfs_host_id(master), 0);
	memset(client, 0x44, 16);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	th_write_id(t->hostid, client);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	th_write_id(t->hostid, master);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	th_write_id(t->hostid, client);		/* the same boot id */
	famfs_quiet = 1;
	rc = famfs_host_register(&t->fs, &tab, &slot2, true);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 9, NULL, NULL),
			 -ESTALE);
	famfs_quiet = 0;
	assert_int_equal(rc, -ESTALE);
	/* the record stays, fenced */
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_memory_equal(h.host_uuid, client, 16);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* ---- 5: the settle wait ------------------------------------------------ */
static double register_secs(struct th *t)
{
	struct famfs_hosttab tab;
	struct timespec a, b;
	uint8_t u[16];
	unsigned slot;
	static uint8_t n = 0x50;

	memset(u, n++, 16);		/* a new host: a claim */
	th_write_id(t->hostid, u);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	famfs_quiet = 0;
	clock_gettime(CLOCK_MONOTONIC, &b);
	famfs_hosttab_close(&tab);
	return (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}

static void test_settle_env(void **s)
{
	struct th *t = mk();

	(void)s;
	unsetenv("FAMFS_TEST_SETTLE");
	setenv("FAMFS_HOST_SETTLE_MS", "garbage", 1);
	assert_true(register_secs(t) >= 0.9);
	setenv("FAMFS_HOST_SETTLE_MS", "0", 1);
	assert_true(register_secs(t) >= 0.9);
	/* the tests' own */
	setenv("FAMFS_TEST_SETTLE", "1", 1);
	assert_true(register_secs(t) < 0.5);
	th_free(t);
}

/* ---- 5b: a first registration reads the table once ------------------ */
/* every slot is looked at (this host's slot may be past a slot an eviction
 * zeroed), but through one refresh of the table and in place: not slot by
 * slot, each refreshed, copied and decoded (all 256 of them, 64 KiB) */
static unsigned slot_looks;
static void count_hook(struct famfs_map *m, void *addr, size_t len)
{
	(void)m;
	(void)addr;
	if (len == FAMFS_HOST_SLOT_SIZE)
		slot_looks++;
}

static void test_first_register_looks(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h;
	uint8_t me[16];
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_id(me), 0);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	slot_looks = 0;
	famfs_refresh_hook = count_hook;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	famfs_refresh_hook = NULL;
	/* the home run's look, the claim's free check, its write's check,
	 * the read-back */
	assert_true(slot_looks <= 8);
	assert_int_equal(slot_of(&tab, me, &h), (int)slot);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* ---- 5c: what a scan of the slots reads ------------------------------ */
/* slots for at least 64 hosts, and no more than 256 of them: a first
 * registration and the reclaim pass's read of the slots refresh at most
 * 64 KiB of them (every famfs rm reads them), not the 2 MiB allocation */
static size_t most_refreshed;
static void size_hook(struct famfs_map *m, void *addr, size_t len)
{
	(void)m;
	(void)addr;
	if (len > most_refreshed)
		most_refreshed = len;
}

static void test_scan_bytes(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_hosttab_used u;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	most_refreshed = 0;
	famfs_refresh_hook = size_hook;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, false), 0);
	assert_int_equal(famfs_hosttab_read_used(&tab, &u, &ev, why), 0);
	famfs_refresh_hook = NULL;
	assert_int_equal(u.n, 1);
	famfs_hosttab_used_free(&u);
	assert_true(most_refreshed <= 64 * 1024);
	_Static_assert(FAMFS_HOST_SLOTS >= 64 && FAMFS_HOST_SLOTS <= 256,
		       "64 hosts, at most 256 slots");
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* ---- 6: a slot past the log's end -------------------------------------- */
static unsigned beyond_calls[2];
static unsigned beyond_slot[2];
static void beyond_kept(void *arg, size_t di, unsigned slot,
			enum famfs_host_block why)
{
	(void)arg;
	(void)di;
	(void)why;
	for (unsigned i = 0; i < 2; i++)
		if (slot == beyond_slot[i])
			beyond_calls[i]++;
}

static void test_pass_beyond_next(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h;
	struct famfs_reclaim_pass p = { .blocked = beyond_kept };
	struct famfs_df df;
	uint64_t next;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	th_create_ok(&t->fs, "b", 2 * MiB);
	next = famfs_log_refresh_next(&t->fs);
	/* one "registered" past the end, one "replayed" past it */
	beyond_slot[0] = 100;
	beyond_slot[1] = 200;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	other_rec(&h, 0xc1, next + 50, 0);
	assert_int_equal(famfs_hosttab_write(&tab, beyond_slot[0], &h), 0);
	other_rec(&h, 0xc2, 0, next + 100);
	assert_int_equal(famfs_hosttab_write(&tab, beyond_slot[1], &h), 0);
	famfs_hosttab_close(&tab);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.pending_reclaim, 4 * MiB);
	memset(beyond_calls, 0, sizeof(beyond_calls));
	assert_int_equal(famfs_reclaim_pass(&t->fs, &p), 0);
	assert_int_equal(p.reclaimed, 0);
	assert_true(beyond_calls[0] > 0);
	assert_true(beyond_calls[1] > 0);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim_stalled),
		cmocka_unit_test(test_update_slot_taken),
		cmocka_unit_test(test_evict_generation),
		cmocka_unit_test(test_torn_header),
		cmocka_unit_test(test_evict_slot_same_boot),
		cmocka_unit_test(test_settle_env),
		cmocka_unit_test(test_pass_beyond_next),
		cmocka_unit_test(test_first_register_looks),
		cmocka_unit_test(test_scan_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
