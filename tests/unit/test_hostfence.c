// SPDX-License-Identifier: GPL-2.0
/* Evictions and fences of the host table (log/hostreg.c; split from
 * test_hostreg.c): evicted by uuid (it stops; registers again at its next
 * boot) and by slot (fenced; zeroed at the second); a fence names its
 * host's name and is moot only by a later boot under that name; a second
 * evict --slot after a reboot refused; one generation of two slots; a
 * fence's generation above every slot's. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "th.h"

static struct th *mk(void)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	th_fast_settle();
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	return t;
}

/* the table opened in *tab, this host registered fresh in *slot, its
 * record in *h */
static void open_registered(struct th *t, struct famfs_hosttab *tab,
			    unsigned *slot, struct famfs_host *h)
{
	assert_int_equal(famfs_hosttab_open(&t->fs, true, tab), 0);
	assert_int_equal(famfs_host_register(&t->fs, tab, slot, true), 0);
	assert_int_equal(famfs_hosttab_slot(tab, *slot, h), FAMFS_HOST_VALID);
}

/* the slots that block a reclaim, counted */
static unsigned clone_blocked[FAMFS_HOST_SLOTS + 1];
static void clone_block(void *arg, size_t di, unsigned slot,
			enum famfs_host_block why)
{
	(void)arg;
	(void)di;
	(void)why;
	if (slot <= FAMFS_HOST_SLOTS)
		clone_blocked[slot]++;
}

static void test_evict(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t boot[16], me[16];
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_id(me), 0);
	assert_int_equal(famfs_hosts_evict_uuid(&t->fs, &tab, me), 0);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.e[0].generation, 1);
	assert_true(famfs_host_evicted(&sl[slot], &ev));
	/* it stops, and does not register again in this boot */
	famfs_quiet = 1;
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL),
			 -ESTALE);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), -ESTALE);
	famfs_quiet = 0;
	/* its next boot: generation 2, not fenced by generation 1's entry */
	memset(boot, 0x55, 16);
	th_write_id(t->bootid, boot);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(h.generation, 2);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_false(famfs_host_evicted(&sl[slot], &ev));
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL), 0);
	/* by slot: refused -- this boot took over a fenced registration's
	 * slot, and a second evict --slot is meant for the fenced boot
	 * (review rfence F5) */
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), -ESTALE);
	famfs_quiet = 0;
	/* by generation: that registration fenced, its record left (r38:
	 * so that it does not register again in this boot) */
	assert_int_equal(famfs_hosts_evict_gen(&t->fs, &tab, me, 2, NULL), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 2);
	assert_true(famfs_host_evicted(&sl[slot], &ev));
	/* by slot again (a host that is down): zeroed */
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_FREE);
	/* an unknown uuid */
	memset(me, 0x99, 16);
	assert_int_equal(famfs_hosts_evict_uuid(&t->fs, &tab, me), -ENOENT);
	famfs_hosttab_close(&tab);
	free(sl);
	th_free(t);
}

/* evicted by slot ((uuid, 1) fenced, its record left), it registers at
 * its next boot: a generation no fence names, or its mount would replay
 * (map every file) under a registration the decision ignores as evicted */
static void test_evict_slot_next_boot(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t boot[16];
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	memset(boot, 0x66, 16);
	th_write_id(t->bootid, boot);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	assert_false(famfs_host_evicted(&sl[slot], &ev));
	assert_true(h.generation > 1);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL), 0);
	famfs_hosttab_close(&tab);
	free(sl);
	th_free(t);
}

/* a fence names its host's name (review r42f MED): a later generation of
 * its uuid under another name (a clone) never makes it moot -- a full
 * evicted list then refuses an eviction; the same name at a later boot
 * (that host rebooted) does */
static void test_moot_two_names(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_hosts_ev ev;
	struct famfs_host h, g;
	char why[FAMFS_REASON_LEN];
	unsigned slot, a, b;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	a = (slot + 1) % FAMFS_HOST_SLOTS;
	b = (slot + 2) % FAMFS_HOST_SLOTS;
	/* uuid 0x5a as clone-a, boot 0x11, generation 1: fenced, zeroed */
	th_host_named(&g, 0x5a, 0x11, 1, "clone-a");
	th_host_plant(&tab, a, &g);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, a), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, a), 0);
	/* the list filled with fences of hosts that never came back */
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	for (unsigned i = 1; i < FAMFS_HOSTS_MAX_EVICT; i++) {
		memset(ev.e[i].host_uuid, (int)i, 16);
		memset(ev.e[i].boot_id, 0x11, 16);
		ev.e[i].generation = 1;
	}
	ev.n = FAMFS_HOSTS_MAX_EVICT;
	assert_int_equal(famfs_hosttab_write_hdr(&tab, &ev), 0);
	/* uuid 0x5a under another name, a later generation: a clone, not
	 * clone-a rebooted */
	th_host_named(&g, 0x5a, 0x22, 2, "clone-b");
	th_host_plant(&tab, b, &g);
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), -ENOSPC);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.e[0].host_uuid[0], 0x5a);
	/* clone-a at a later boot: its fence is moot, and goes */
	th_host_named(&g, 0x5a, 0x33, 3, "clone-a");
	th_host_plant(&tab, a, &g);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, FAMFS_HOSTS_MAX_EVICT);
	for (unsigned i = 0; i < ev.n; i++)
		assert_int_not_equal(ev.e[i].host_uuid[0], 0x5a);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* review r42f MED (its attack 1): this host fenced by slot, its slot
 * zeroed (evict --slot twice); a clone of its uuid under another name
 * registered later (a higher generation); the list full, another host's
 * eviction must not drop this host's fence as moot: this host, still in
 * the boot it was fenced in, may not register again (its mappings would
 * not be counted) */
static void test_clone_keeps_zeroed_fence(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_hosts_ev ev;
	struct famfs_host h, g;
	char why[FAMFS_REASON_LEN];
	unsigned slot, again, x;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	th_host_named(&g, 0, 0x42, h.generation + 1, "clone-b");
	memcpy(g.host_uuid, h.host_uuid, 16);
	th_host_plant(&tab, (slot + 5) % FAMFS_HOST_SLOTS, &g);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &g), FAMFS_HOST_FREE);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	for (unsigned i = 1; i < FAMFS_HOSTS_MAX_EVICT; i++) {
		memset(ev.e[i].host_uuid, 0x80 + (int)i, 16);
		memset(ev.e[i].boot_id, 0x11, 16);
		ev.e[i].generation = 1;
	}
	ev.n = FAMFS_HOSTS_MAX_EVICT;
	assert_int_equal(famfs_hosttab_write_hdr(&tab, &ev), 0);
	/* a third host evicted by slot: no fence is moot */
	th_host_named(&g, 0x33, 0x34, 1, "other");
	x = (slot + 9) % FAMFS_HOST_SLOTS;
	th_host_plant(&tab, x, &g);
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, x), -ENOSPC);
	/* this host, the same boot: still fenced */
	assert_int_equal(famfs_host_register(&t->fs, &tab, &again, false),
			 -ESTALE);
	famfs_quiet = 0;
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* review r42f LOW (its attack 1d): evict --slot N, the host reboots under
 * its name (slot N again, a new generation), then a second evict --slot N
 * -- meant to zero the fenced boot's slot -- must not fence the live new
 * boot: refused, nothing written (famfs hosts evict --generation G names
 * the new one on purpose) */
static void test_second_evict_after_reboot(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_hosts_ev ev;
	struct famfs_host h, g;
	char why[FAMFS_REASON_LEN], msg[4096];
	uint8_t boot[16];
	unsigned slot, s2;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	memset(boot, 0x66, 16);
	th_write_id(t->bootid, boot);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &s2, true), 0);
	assert_int_equal(s2, slot);
	th_stderr_grab();
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), -ESTALE);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "registered again"));
	assert_non_null(strstr(msg, "--generation"));
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &g), FAMFS_HOST_VALID);
	assert_true(g.generation > h.generation);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	assert_false(famfs_host_evicted(&g, &ev));
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 3, NULL, NULL), 0);
	/* the new boot evicted on purpose, then its slot zeroed */
	assert_int_equal(famfs_hosts_evict_gen(&t->fs, &tab, g.host_uuid,
					       g.generation, NULL), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &g), FAMFS_HOST_FREE);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* review r42c H1: evicting one of two slots of one host uuid at one
 * generation -- a clone under another name, or this host before a rename
 * across a reboot -- fences that registration only (uuid, boot id,
 * generation): the other slot, a live host's, still updates and still
 * blocks a DELETE it has not replayed past.  A new slot of a uuid starts
 * above every generation of that uuid */
static void evict_other_same_gen(const char *other_name)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, g, *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_reclaim_pass p = { .blocked = clone_block };
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	unsigned slot, slot2, a, b;
	uint64_t claimed, other_gen;

	open_registered(t, &tab, &slot, &h);
	/* the other registration of this uuid, another boot and name */
	g = h;
	memset(g.boot_id, 0x42, 16);
	snprintf(g.hostname, sizeof(g.hostname), "%s", other_name);
	g.replayed = 0;
	th_host_plant(&tab, slot, &g);
	other_gen = g.generation;
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot2, true), 0);
	famfs_quiet = 0;
	assert_int_not_equal(slot2, slot);
	assert_int_equal(famfs_hosttab_slot(&tab, slot2, &h), FAMFS_HOST_VALID);
	claimed = h.generation;
	/* the review's case: both at one generation */
	h.generation = g.generation;
	th_host_plant(&tab, slot2, &h);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot2, 1, NULL, NULL),
			 0);
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	/* the other one evicted by slot: fenced, then zeroed */
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	assert_true(famfs_host_evicted(&sl[slot], &ev));
	assert_false(famfs_host_evicted(&sl[slot2], &ev));
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot2, 1, NULL, NULL),
			 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &g), FAMFS_HOST_FREE);
	assert_int_equal(famfs_hosttab_slot(&tab, slot2, &h), FAMFS_HOST_VALID);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot2, 1, NULL, NULL),
			 0);
	/* another host (uuid 0x5a, not the master, whose own slot a pass
	 * brings up to date) in two slots at one generation: the live one
	 * has not replayed past the DELETE, the other is evicted (fenced,
	 * zeroed): the live one blocks it */
	g = h;
	g.flags = FAMFS_HOST_REGISTERED;
	memset(g.host_uuid, 0x5a, 16);
	memset(g.boot_id, 0x51, 16);
	g.generation = 3;
	g.replayed = 1;
	g.registered_at = 0;
	snprintf(g.hostname, sizeof(g.hostname), "%s", other_name);
	a = (slot2 + 10) % FAMFS_HOST_SLOTS;
	b = (slot2 + 11) % FAMFS_HOST_SLOTS;
	th_host_plant(&tab, a, &g);
	memset(g.boot_id, 0x52, 16);
	snprintf(g.hostname, sizeof(g.hostname), "live-host");
	th_host_plant(&tab, b, &g);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, a), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, a), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, a, &g), FAMFS_HOST_FREE);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_false(famfs_host_evicted(&sl[b], &ev));
	th_create_ok(&t->fs, "a", 4 * MiB);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	memset(clone_blocked, 0, sizeof(clone_blocked));
	assert_int_equal(famfs_reclaim_pass(&t->fs, &p), 0);
	assert_int_equal(p.reclaimed, 0);
	assert_true(clone_blocked[b] > 0);
	/* as claimed: above the other slot's generation (review r42f M3:
	 * g is a free slot's by now) */
	assert_true(claimed > other_gen);
	famfs_hosttab_close(&tab);
	free(sl);
	th_free(t);
}

/* review r42f MED 3: a fence's generation above every slot's (its slot
 * zeroed by evict --slot twice): a new boot of that uuid registers past
 * it, or its registration is the fence's and the master ignores it */
static void test_fence_gen_above_slots(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	unsigned slot;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	/* this uuid's boot before, at generation 7 */
	memset(h.boot_id, 0x42, 16);
	h.generation = 7;
	th_host_plant(&tab, slot, &h);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_FREE);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.e[0].generation, 7);
	/* this boot (not the fenced one) registers: past the fence */
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(h.generation, 8);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_false(famfs_host_evicted(&sl[slot], &ev));
	famfs_hosttab_close(&tab);
	free(sl);
	th_free(t);
}

static void test_evict_clone_same_gen(void **s)
{
	(void)s;
	evict_other_same_gen("orig-host");	/* a clone */
}

static void test_evict_renamed_same_gen(void **s)
{
	(void)s;
	evict_other_same_gen("old-name");	/* this host before a rename */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evict),
		cmocka_unit_test(test_evict_slot_next_boot),
		cmocka_unit_test(test_moot_two_names),
		cmocka_unit_test(test_clone_keeps_zeroed_fence),
		cmocka_unit_test(test_second_evict_after_reboot),
		cmocka_unit_test(test_evict_clone_same_gen),
		cmocka_unit_test(test_evict_renamed_same_gen),
		cmocka_unit_test(test_fence_gen_above_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
