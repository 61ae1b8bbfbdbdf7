// SPDX-License-Identifier: GPL-2.0
/* Hostile review rev2 (session 44) of the host table's fences (branches
 * fence, rfence): each test is a way a fence was lost, a live
 * registration went uncounted or was zeroed, or a live host was fenced
 * with another.  Each FAILED on main c149938. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"
#include "role/role.h"

#define MAGIC_HOR6	0x36524f48534d4146ULL	/* "FAMSHOR6": a newer record */

static struct th *mk(struct famfs_hosttab *tab)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	th_fast_settle();
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, tab), 0);
	return t;
}

static void named(struct famfs_host *g, uint8_t fill, uint8_t boot,
		  uint64_t gen, const char *name)
{
	memset(g, 0, sizeof(*g));
	g->state = FAMFS_HOST_VALID;
	g->flags = FAMFS_HOST_REGISTERED;
	memset(g->host_uuid, fill, 16);
	memset(g->boot_id, boot, 16);
	g->generation = gen;
	g->seq = 1;
	g->holds_from = FAMFS_HOLDS_NONE;
	snprintf(g->hostname, sizeof(g->hostname), "%s", name);
	g->name_hash = famfs_host_name_hash(name, strlen(name));
}

static void plant(struct famfs_hosttab *tab, unsigned slot,
		  const struct famfs_host *h)
{
	uint8_t *p = famfs_host_slot_at(tab->m.addr, slot);

	memset(p, 0, FAMFS_HOST_SLOT_SIZE);
	famfs_host_rec_encode((struct famfs_host_rec *)p, h, tab->fs_uuid);
	assert_int_equal(famfs_map_flush(&tab->m, p, FAMFS_HOST_SLOT_SIZE), 0);
}

/* R1: a record that decodes (CRC-valid, "unregistered", generation 0 --
 * written by a lying or buggy client into its own slot) is fenced by
 * evict --slot with generation 0; the header written then fails this
 * build's own decode ("evicted entry has no host or generation":
 * -EINVAL), every registration takes it as no fences, and a host fenced
 * in this very boot registers again; repair --force then drops every
 * fence. */
static void test_gen0_slot_poisons_header(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = mk(&tab);
	struct famfs_host g, me_h;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t me[16];
	unsigned slot;
	int rc;

	(void)s;
	/* this host registered, then fenced (evict UUID): it must stay out
	 * for the rest of this boot */
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_id(me), 0);
	assert_int_equal(famfs_hosts_evict_uuid(&t->fs, &tab, me), 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true),
			 -ESTALE);
	famfs_quiet = 0;
	/* a client's slot: unregistered, generation 0 (decodes as VALID) */
	named(&g, 0x71, 0x72, 0, "liar");
	g.flags = 0;
	plant(&tab, 9, &g);
	assert_int_equal(famfs_hosttab_slot(&tab, 9, &g), FAMFS_HOST_VALID);
	famfs_quiet = 1;
	rc = famfs_hosts_evict_slot(&t->fs, &tab, 9);
	famfs_quiet = 0;
	printf("# evict --slot of the gen-0 record: %d\n", rc);
	rc = famfs_hosttab_read_hdr(&tab, &ev, why);
	printf("# header after: %d (%s), %u fences\n", rc, rc ? why : "ok",
	       ev.n);
	/* the fenced host, in its fenced boot */
	famfs_quiet = 1;
	rc = famfs_host_register(&t->fs, &tab, &slot, true);
	famfs_quiet = 0;
	printf("# fenced boot registers again: %d\n", rc);
	(void)me_h;
	/* the way out the header's error names: repair --force */
	famfs_quiet = 1;
	printf("# repair --force: %d\n", famfs_hosts_repair(&t->fs, &tab, true));
	famfs_quiet = 0;
	printf("# header after repair: %d, %u fences\n",
	       famfs_hosttab_read_hdr(&tab, &ev, why), ev.n);
	assert_int_equal(rc, -ESTALE);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* R2: a slot whose newest copy is a later layout's record (FAMSHOR6, a
 * newer build's live registration at a new boot) and whose older copy is
 * this layout's stale record of a fenced registration: read as VALID
 * (the stale copy), not torn; counted as fenced (not blocking), and
 * evict --slot zeroes it -- what F3b says never happens. */
static void test_newer_record_beside_stale(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = mk(&tab);
	struct famfs_host g, h;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t *p = famfs_host_slot_at(tab.m.addr, 7);
	uint64_t m = htole64(MAGIC_HOR6);
	uint32_t crc;
	enum famfs_host_state st;
	int rc;

	(void)s;
	named(&g, 0x61, 0x62, 1, "newer");
	plant(&tab, 7, &g);		/* copy 0: FAMSHOR5, seq 1, boot 0x62 */
	/* the registration fenced (evict --slot 7: record kept) */
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, 7), 0);
	/* the host reboots with a newer build: copy 1, FAMSHOR6, seq 2 */
	named(&h, 0x61, 0x63, 2, "newer");
	h.seq = 2;
	famfs_host_rec_encode((struct famfs_host_rec *)(p + 128), &h,
			      tab.fs_uuid);
	memcpy(p + 128, &m, 8);
	memset(p + 128 + 8, 0, 4);
	crc = htole32(famfs_crc32_update(famfs_crc32(tab.fs_uuid, 16),
					 p + 128, 128));
	memcpy(p + 128 + 8, &crc, 4);
	assert_int_equal(famfs_map_flush(&tab.m, p, FAMFS_HOST_SLOT_SIZE), 0);
	assert_true(famfs_host_slot_newer(p, tab.fs_uuid));

	st = famfs_hosttab_slot(&tab, 7, &g);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	printf("# slot state %d (VALID=%d TORN=%d), its boot %02x, fenced %d, blocks %d\n",
	       st, FAMFS_HOST_VALID, FAMFS_HOST_TORN, g.boot_id[0],
	       famfs_host_evicted(&g, &ev), famfs_host_blocks(&g, &ev, 1, 10));
	famfs_quiet = 1;
	rc = famfs_hosts_evict_slot(&t->fs, &tab, 7);
	famfs_quiet = 0;
	printf("# evict --slot 7: %d, slot now %d\n", rc,
	       famfs_hosttab_slot(&tab, 7, &g));
	assert_int_not_equal(famfs_hosttab_slot(&tab, 7, &g), FAMFS_HOST_FREE);
	assert_int_equal(st, FAMFS_HOST_TORN);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* R3: the second evict --slot N (meant to zero a down host's fenced slot)
 * reads the slot, then the host -- rebooted -- writes its new
 * registration there, then the eviction zeroes it: the host's register
 * returned 0 with its slot free (not counted: the master reclaims what
 * it maps).  The host reads its takeover back after the settle time, as
 * a claim does, and claims a slot anew when it was zeroed. */
static uint8_t *zap_at;
static int zap_calls;

static void zap_hook(const struct famfs_map *m, const void *addr, size_t len)
{
	(void)m;
	(void)len;
	if (zap_calls || (const uint8_t *)addr < zap_at ||
	    (const uint8_t *)addr >= zap_at + FAMFS_HOST_SLOT_SIZE)
		return;
	zap_calls++;
	memset(zap_at, 0, FAMFS_HOST_SLOT_SIZE);	/* the eviction's zero */
}

static void test_takeover_zeroed_meanwhile(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = mk(&tab);
	struct famfs_host g;
	uint8_t boot[16];
	unsigned slot, s2;

	(void)s;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	memset(boot, 0x66, 16);
	th_write_id(t->bootid, boot);
	zap_at = famfs_host_slot_at(tab.m.addr, slot);
	zap_calls = 0;
	famfs_flush_hook = zap_hook;
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &s2, true), 0);
	famfs_quiet = 0;
	famfs_flush_hook = NULL;
	assert_int_equal(zap_calls, 1);
	assert_int_equal(famfs_hosttab_slot(&tab, s2, &g), FAMFS_HOST_VALID);
	assert_memory_equal(g.boot_id, boot, 16);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* R4: a client's slot that copies a live host's (uuid, boot id,
 * generation) -- a lying or cloned one: evict --slot of it writes a
 * fence that names the live host too, whose memory then stops counting.
 * Refused, both slots named, as --generation refuses two slots of one
 * generation. */
static void test_evict_slot_duplicate_triple(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = mk(&tab);
	struct famfs_host h;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN], msg[4096];
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	snprintf(h.hostname, sizeof(h.hostname), "liar");
	h.name_hash = famfs_host_name_hash("liar", 4);
	plant(&tab, (slot + 9) % FAMFS_HOST_SLOTS, &h);
	th_stderr_grab();
	assert_int_not_equal(famfs_hosts_evict_slot(&t->fs, &tab,
						    (slot + 9) % FAMFS_HOST_SLOTS), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "slot"));
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 0);
	famfs_hosttab_close(&tab);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen0_slot_poisons_header),
		cmocka_unit_test(test_newer_record_beside_stale),
		cmocka_unit_test(test_takeover_zeroed_meanwhile),
		cmocka_unit_test(test_evict_slot_duplicate_triple),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
