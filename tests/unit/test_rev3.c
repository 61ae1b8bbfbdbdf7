// SPDX-License-Identifier: GPL-2.0
/* Hostile review rev3 of branch b1: each test shows a finding on b1. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"
#include "role/role.h"

#define MAGIC_HOS3	0x33534f48534d4146ULL
#define MAGIC_HOR6	0x36524f48534d4146ULL

static struct th *mk(struct famfs_hosttab *tab)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	th_fast_settle();
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, tab), 0);
	return t;
}

/* a FAMSHOS3 copy c with n fences; fence i has generation gen[i] */
static void raw3(struct famfs_hosttab *tab, unsigned c, uint64_t seq,
		 unsigned n, const uint64_t *gen)
{
	uint8_t *h = (uint8_t *)tab->m.addr + c * 4096;
	uint64_t m = htole64(MAGIC_HOS3), sq = htole64(seq);
	uint32_t f = htole32(FAMFS_HOSTS_ARMED), nn = htole32(n), crc;

	memset(h, 0, 4096);
	memcpy(h, &m, 8);
	memcpy(h + 12, &nn, 4);
	memcpy(h + 16, &sq, 8);
	memcpy(h + 24, &f, 4);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *e = h + 64 + 48 * i;
		uint64_t g = htole64(gen[i]), tm = htole64(1);

		memset(e, 0x41 + i, 16);
		memset(e + 16, 0x51 + i, 16);
		memcpy(e + 32, &g, 8);
		memcpy(e + 40, &tm, 8);
	}
	crc = htole32(famfs_crc32_update(famfs_crc32(tab->fs_uuid, 16), h, 4096));
	memcpy(h + 8, &crc, 4);
	assert_int_equal(famfs_map_flush(&tab->m, h, 4096), 0);
}

/* A: a FAMSHOS3 header an older build wrote with a fence of generation 0
 * (its fence() fenced an unregistered gen-0 record, as b1's main did:
 * rev2 R1).  old_fences() carries it (it skips only a nil uuid);
 * repair --force then builds a header reads_back() refuses: -EPROTO,
 * every time.  Nothing else writes over a FAMSHOS3 header (evict,
 * forget, arm refuse it): the table is stuck not understood, nothing is
 * ever reclaimed, and the 3 good fences are never carried over. */
static void test_old_gen0_fence_repair_stuck(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = mk(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	const uint64_t gen[4] = { 3, 0, 5, 7 };
	uint8_t u[16];
	int rc;

	(void)s;
	memset(tab.m.addr, 0, 8192);
	assert_int_equal(famfs_map_flush(&tab.m, tab.m.addr, 8192), 0);
	raw3(&tab, 0, 9, 4, gen);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), -EINVAL);
	printf("# FAMSHOS3 read: %u fences kept (old_layout %d)\n", ev.n,
	       ev.old_layout);
	th_stderr_grab();
	rc = famfs_hosts_repair(&t->fs, &tab, true);
	th_stderr_take(why, sizeof(why));
	printf("# repair --force: %d: %s\n", rc, why);
	memset(u, 0x41, 16);
	famfs_quiet = 1;
	printf("# evict UUID: %d, forget UUID: %d\n",
	       famfs_hosts_evict_uuid(&t->fs, &tab, u),
	       famfs_hosts_forget(&t->fs, &tab, u));
	famfs_quiet = 0;
	rc = famfs_hosttab_read_hdr(&tab, &ev, why);
	printf("# header after: %d (%s)\n", rc, rc ? why : "ok");
	assert_int_equal(rc, 0);	/* repaired, the 3 real fences kept */
	assert_int_equal(ev.n, 3);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* copy c of slot i re-signed as a FAMSHOR6 record (a newer build's) */
static void to_hor6(struct famfs_hosttab *tab, unsigned i, unsigned c)
{
	uint8_t *p = famfs_host_slot_at(tab->m.addr, i) + 128 * c;
	uint64_t m = htole64(MAGIC_HOR6);
	uint32_t crc;

	memcpy(p, &m, 8);
	memset(p + 8, 0, 4);
	crc = htole32(famfs_crc32_update(famfs_crc32(tab->fs_uuid, 16), p, 128));
	memcpy(p + 8, &crc, 4);
	assert_int_equal(famfs_map_flush(&tab->m, p, 128), 0);
}

/* B: upgrade then downgrade in one boot.  This host registers (copy 0,
 * FAMSHOR5), a newer build's update writes copy 1 as FAMSHOR6 (seq 2),
 * then this build is back.  Its update says the host was evicted
 * (-ESTALE), its next registration claims a second slot, and the old
 * slot is torn for ever: it blocks every reclaim, evict --slot refuses
 * it, and this build never writes it again. */
static void test_downgrade_slot_stuck(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = mk(&tab);
	struct famfs_hosts_ev ev;
	struct famfs_host g;
	char why[FAMFS_REASON_LEN];
	unsigned slot, s2 = 999;
	int up, reg, ev_rc;

	(void)s;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 1, NULL, NULL), 0);
	/* the newer build's write went to the copy that was not newest */
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &g), FAMFS_HOST_VALID);
	to_hor6(&tab, slot, 1 - g.copy);
	famfs_quiet = 1;
	up = famfs_host_update(&t->fs, &tab, slot, 2, NULL, NULL);
	reg = famfs_host_register(&t->fs, &tab, &s2, false);
	ev_rc = famfs_hosts_evict_slot(&t->fs, &tab, slot);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	famfs_hosttab_slot(&tab, slot, &g);
	printf("# update: %d; register again: %d in slot %u (was %u); old slot state %d blocks %d (TORN=%d); evict --slot old: %d\n",
	       up, reg, s2, slot, g.state, famfs_host_blocks(&g, &ev, 1, 10),
	       FAMFS_HB_TORN, ev_rc);
	assert_int_equal(up, 0);
	assert_int_equal(reg, 0);
	assert_int_equal(s2, slot);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* C: a liar copies a live host's (uuid, boot, generation) into a slot of
 * its own.  evict --slot LIAR is refused (one_slot_of_boot), evict
 * --generation G is refused (one_slot_of_gen), and the way out the
 * message names -- evict UUID -- fences the live host it protects.  The
 * liar's copy never advances: it blocks reclaim (BEHIND) until the live
 * host reboots. */
static void test_liar_copy_no_way_out(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = mk(&tab);
	struct famfs_host h, l;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN], msg[4096];
	unsigned slot, liar, again;
	int a, b, c, d;

	(void)s;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 1, NULL, NULL), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	liar = (slot + 9) % FAMFS_HOST_SLOTS;
	l = h;
	snprintf(l.hostname, sizeof(l.hostname), "liar");
	l.name_hash = famfs_host_name_hash("liar", 4);
	l.seq = 1;
	{
		uint8_t *p = famfs_host_slot_at(tab.m.addr, liar);

		memset(p, 0, FAMFS_HOST_SLOT_SIZE);
		famfs_host_rec_encode((struct famfs_host_rec *)p, &l, tab.fs_uuid);
		assert_int_equal(famfs_map_flush(&tab.m, p, FAMFS_HOST_SLOT_SIZE), 0);
	}
	/* the live host goes on */
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 50, NULL, NULL), 0);
	th_stderr_grab();
	a = famfs_hosts_evict_slot(&t->fs, &tab, liar);
	b = famfs_hosts_evict_slot(&t->fs, &tab, liar);
	c = famfs_hosts_evict_gen(&t->fs, &tab, h.host_uuid, h.generation, NULL);
	th_stderr_take(msg, sizeof(msg));
	famfs_hosttab_read_hdr(&tab, &ev, why);
	famfs_hosttab_slot(&tab, liar, &l);
	printf("# evict --slot liar: %d, again: %d, --generation: %d; liar blocks DELETE 20: %d (BEHIND=%d)\n# %s",
	       a, b, c, famfs_host_blocks(&l, &ev, 20, 60), FAMFS_HB_BEHIND, msg);
	/* the named way out */
	famfs_quiet = 1;
	d = famfs_hosts_evict_uuid(&t->fs, &tab, h.host_uuid);
	printf("# evict UUID (the message's way out): %d; live host's update now: %d\n",
	       d, famfs_host_update(&t->fs, &tab, slot, 51, NULL, NULL));
	(void)again;
	famfs_quiet = 0;
	assert_int_equal(a, 0);	/* the liar's slot removable without fencing the live host */
	famfs_hosttab_close(&tab);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_gen0_fence_repair_stuck),
		cmocka_unit_test(test_downgrade_slot_stuck),
		cmocka_unit_test(test_liar_copy_no_way_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
