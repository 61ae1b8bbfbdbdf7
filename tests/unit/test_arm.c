// SPDX-License-Identifier: GPL-2.0
/* An armed host table (review r38, high): a client that mounted before the
 * table existed and never replays again has no slot, so nothing the master
 * reads says it exists.  The master therefore reclaims only when the table
 * is armed (FAMFS_HOSTS_ARMED in the header's flags): one `famfs hosts
 * init` made (before any client mounted), or one the administrator armed
 * (`famfs hosts arm`) after checking every client is listed.  The table
 * the first famfs rm makes is not armed.  Here: the header's flags encoded
 * and decoded (an unknown bit refused), the unarmed table reclaiming
 * nothing, init's table armed, arming (master only, a table needed, an
 * eviction keeping the flag). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

static const uint8_t fsu[16] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6 };

static struct th *mk(void)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	th_fast_settle();
	return t;
}

static void recrc(struct famfs_hosts_hdr *h)
{
	h->crc = 0;
	h->crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), h, 4096));
}

/* flags at byte 24, taken from the pad; ARMED kept; any other bit refused
 * (a newer tool's meaning is not guessed: reader rule) */
static void test_hdr_flags(void **s)
{
	struct famfs_hosts_hdr *h = calloc(1, sizeof(*h));
	struct famfs_hosts_ev ev, d;
	char why[FAMFS_REASON_LEN];

	(void)s;
	assert_non_null(h);
	assert_int_equal(offsetof(struct famfs_hosts_hdr, flags), 24);
	assert_int_equal(sizeof(h->pad), 36);
	assert_int_equal(sizeof(*h), FAMFS_HOSTS_HDR_SIZE);
	assert_int_equal(FAMFS_HOSTS_ARMED, 1U);
	memset(&ev, 0, sizeof(ev));
	famfs_hosts_hdr_encode(h, &ev, fsu);
	assert_int_equal(le32toh(h->flags), 0);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), 0);
	assert_int_equal(d.flags, 0);
	ev.flags = FAMFS_HOSTS_ARMED;
	ev.seq = 3;
	famfs_hosts_hdr_encode(h, &ev, fsu);
	assert_int_equal(le32toh(h->flags), FAMFS_HOSTS_ARMED);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), 0);
	assert_int_equal(d.flags, FAMFS_HOSTS_ARMED);
	assert_int_equal(d.seq, 3);
	/* NULL ev: an empty, unarmed header */
	famfs_hosts_hdr_encode(h, NULL, fsu);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), 0);
	assert_int_equal(d.flags, 0);
	/* an unknown bit, CRC right: refused, as a newer build's rules */
	famfs_hosts_hdr_encode(h, &ev, fsu);
	h->flags = htole32(FAMFS_HOSTS_ARMED | (1U << 5));
	recrc(h);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why),
			 -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "flag"));
	h->flags = htole32(1U << 31);
	recrc(h);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why),
			 -EPROTONOSUPPORT);
	/* the pad that is left is still checked */
	famfs_hosts_hdr_encode(h, &ev, fsu);
	h->pad[35] = 1;
	recrc(h);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), -EINVAL);
	free(h);
}

/* the table the first rm makes is not armed: nothing is reclaimed (the
 * pass says why), df still counts it pending; armed, the next pass frees */
static void test_first_rm_unarmed(void **s)
{
	struct th *t = mk();
	struct famfs_reclaim_pass p = { 0 };
	struct famfs_df df;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	th_create_ok(&t->fs, "b", 2 * MiB);
	th_create_ok(&t->fs, "c", 2 * MiB);
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosts_armed(&t->fs), 0);
	assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
	df = th_df(t);
	assert_int_equal(df.pending_reclaim, 6 * MiB);
	assert_int_equal(df.reclaimed, 0);
	assert_int_equal(df.hosts_armed, 0);
	assert_int_equal(famfs_reclaim_pass(&t->fs, &p), 0);
	assert_int_equal(p.pending, 2);
	assert_int_equal(p.reclaimed, 0);
	assert_true(p.unarmed);
	assert_int_equal(th_df(t).pending_reclaim, 6 * MiB);
	/* armed: the next pass frees both */
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	assert_int_equal(famfs_hosts_armed(&t->fs), 1);
	assert_int_equal(famfs_hosts_arm(&t->fs), -EALREADY);
	memset(&p, 0, sizeof(p));
	assert_int_equal(famfs_reclaim_pass(&t->fs, &p), 0);
	assert_false(p.unarmed);
	assert_int_equal(p.reclaimed, 2);
	df = th_df(t);
	assert_int_equal(df.pending_reclaim, 0);
	assert_int_equal(df.reclaimed, 6 * MiB);
	assert_int_equal(df.hosts_armed, 1);
	/* and rm frees at once from then on (the master alone) */
	assert_int_equal(famfs_remove(&t->fs, "c", false), 0);
	assert_int_equal(th_df(t).pending_reclaim, 0);
	th_free(t);
}

/* famfs hosts init (before any client mounts): armed from the start */
static void test_init_armed(void **s)
{
	struct th *t = mk();

	(void)s;
	assert_int_equal(famfs_hosts_armed(&t->fs), -ENOENT);
	assert_int_equal(th_df(t).hosts_armed, -ENOENT);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	assert_int_equal(famfs_hosts_armed(&t->fs), 1);
	assert_int_equal(famfs_hosts_init(&t->fs), -EEXIST);
	th_create_ok(&t->fs, "a", 4 * MiB);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_int_equal(th_df(t).pending_reclaim, 0);
	assert_int_equal(th_df(t).reclaimed, 4 * MiB);
	/* read again from the media */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_hosts_armed(&t->fs), 1);
	th_free(t);
}

/* famfs_hosts_create (what the first rm calls) makes it unarmed */
static void test_create_unarmed(void **s)
{
	struct th *t = mk();

	(void)s;
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	assert_int_equal(famfs_hosts_armed(&t->fs), 0);
	th_free(t);
}

/* arming needs a table */
static void test_arm_no_table(void **s)
{
	struct th *t = mk();

	(void)s;
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_arm(&t->fs), -ENOENT);
	famfs_quiet = 0;
	assert_false(famfs_fs_has_hosts(&t->fs));
	th_free(t);
}

/* a client does not arm (nor does it read the flag wrong) */
static void test_arm_client(void **s)
{
	struct th *t = mk();

	(void)s;
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	th_become_client(t);
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_arm(&t->fs), -EPERM);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosts_armed(&t->fs), 0);
	th_free(t);
}

/* the master's other header writes (an eviction) keep the flag */
static void test_evict_keeps_armed(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h;

	(void)s;
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	memset(&h, 0, sizeof(h));
	h.state = FAMFS_HOST_VALID;
	h.flags = FAMFS_HOST_REGISTERED;
	memset(h.host_uuid, 0x77, 16);
	h.boot_id[0] = 1;
	h.generation = 1;
	h.holds_from = FAMFS_HOLDS_NONE;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_hosttab_write(&tab, 40, &h), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, 40), 0);
	famfs_hosttab_close(&tab);
	assert_int_equal(famfs_hosts_armed(&t->fs), 1);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr_flags),
		cmocka_unit_test(test_first_rm_unarmed),
		cmocka_unit_test(test_init_armed),
		cmocka_unit_test(test_create_unarmed),
		cmocka_unit_test(test_arm_no_table),
		cmocka_unit_test(test_arm_client),
		cmocka_unit_test(test_evict_keeps_armed),
	};

	return cmocka_run_group_tests_name("arm", tests, NULL, NULL);
}
