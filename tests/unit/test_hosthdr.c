// SPDX-License-Identifier: GPL-2.0
/* The host table's header (review r39): two copies as the slots have (a
 * master write of it cut short keeps the evicted list in the other); a
 * header that verifies with a flag this build does not know is neither
 * taken as "no fences" nor repaired over; a host whose slot another host
 * took stops when no verifying header says whether it was fenced, and a
 * fence is dropped from a full list only when moot (its host registered
 * again), never because its slot was zeroed. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

static const uint8_t fsu[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 2 };

/* another host's registration written into slot n */
static void other(struct famfs_hosttab *tab, unsigned n, uint8_t fill,
		  uint64_t gen)
{
	struct famfs_host h;

	memset(&h, 0, sizeof(h));
	h.state = FAMFS_HOST_VALID;
	h.flags = FAMFS_HOST_REGISTERED;
	memset(h.host_uuid, fill, 16);
	memset(h.boot_id, 0xcd, 16);
	h.generation = gen;
	h.holds_from = FAMFS_HOLDS_NONE;
	snprintf(h.hostname, sizeof(h.hostname), "other%02x", fill);
	assert_int_equal(famfs_hosttab_write(tab, n, &h), 0);
}

/* the header copy (byte 0 or 4096 of the table) with the higher seq */
static uint8_t *newest_hdr(struct famfs_hosttab *tab)
{
	uint8_t *p = tab->m.addr;
	uint64_t s0, s1;

	memcpy(&s0, p + 16, 8);
	memcpy(&s1, p + 4096 + 16, 8);
	return le64toh(s1) > le64toh(s0) ? p + 4096 : p;
}

static void tear(struct famfs_hosttab *tab, uint8_t *p)
{
	p[100] ^= 0x5a;
	assert_int_equal(famfs_map_flush(&tab->m, p, 4096), 0);
}

/* ev encoded as header copy n (0: byte 0, 1: byte 4096) of tab, not
 * flushed */
static void put_copy(struct famfs_hosttab *tab,
		     const struct famfs_hosts_ev *ev, unsigned n)
{
	struct famfs_hosts_hdr *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	famfs_hosts_hdr_encode(h, ev, tab->fs_uuid);
	memcpy((uint8_t *)tab->m.addr + n * 4096, h, sizeof(*h));
	free(h);
}

static void test_layout(void **s)
{
	uint8_t tab[64];

	(void)s;
	/* 256 slots (64 KiB) in the 2 MiB allocation, the rest unused */
	assert_int_equal(FAMFS_HOSTS_LEN, 2 * MiB);
	assert_int_equal(FAMFS_HOST_SLOTS, 256);
	assert_ptr_equal(famfs_host_slot_at(tab, FAMFS_HOST_SLOTS),
			 tab + 8192 + 256 * 256);
	assert_ptr_equal(famfs_host_slot_at(tab, 0), tab + 8192);
	assert_int_equal(FAMFS_HOSTS_MAGIC, 0x34534f48534d4146ULL); /* FAMSHOS4 */
	assert_int_equal(FAMFS_HOST_MAGIC, 0x35524f48534d4146ULL);  /* FAMSHOR5 */
	/* a fence names its host's name, cut and hashed (review r42f MED),
	 * and whether evict --slot made it (r42f LOW): 80 bytes, 50 of
	 * them after the header's 64, then 32 zero */
	assert_int_equal(sizeof(struct famfs_hosts_evicted), 80);
	assert_int_equal(offsetof(struct famfs_hosts_evicted, hostname), 32);
	assert_int_equal(offsetof(struct famfs_hosts_evicted, name_hash), 48);
	assert_int_equal(FAMFS_HOSTS_MAX_EVICT, 50);
	assert_int_equal(offsetof(struct famfs_hosts_hdr, tail),
			 64 + FAMFS_HOSTS_MAX_EVICT *
			 sizeof(struct famfs_hosts_evicted));
	assert_int_equal(sizeof(struct famfs_hosts_hdr), 4096);
	/* the record: 15 bytes of name and the whole name's hash (r42c M2) */
	assert_int_equal(offsetof(struct famfs_host_rec, hostname), 104);
	assert_int_equal(offsetof(struct famfs_host_rec, name_hash), 120);
	assert_int_equal(sizeof(struct famfs_host_rec), 128);
}

/* the name hash is FNV-1a-64 of the whole name (review r42f LOW: two
 * CRC-32s are affine -- names of one length carried 32 bits) */
static void test_name_hash(void **s)
{
	const char *a = "node-rack-abcde-29685295", *b = "node-rack-abcde-32060020";
	char x[32], y[32];

	(void)s;
	/* the published FNV-1a-64 test vectors */
	assert_true(famfs_host_name_hash("", 0) == 0xcbf29ce484222325ULL);
	assert_true(famfs_host_name_hash("a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(famfs_host_name_hash("foobar", 6) == 0x85944171f73967e8ULL);
	/* the review's pair: one length, one CRC-32, equal first 15 bytes */
	assert_true(famfs_host_name_hash(a, strlen(a)) !=
		    famfs_host_name_hash(b, strlen(b)));
	/* the halves' xor is not a function of the length alone */
	memset(x, 'a', 8);
	memset(y, 'z', 8);
	x[0] = 'q';
	y[4] = '7';
	{
		uint64_t hx = famfs_host_name_hash(x, 8);
		uint64_t hy = famfs_host_name_hash(y, 8);

		assert_true(((hx >> 32) ^ (uint32_t)hx) !=
			    ((hy >> 32) ^ (uint32_t)hy));
	}
}

/* a header copy of the earlier layout (FAMSHOS3: fences without a name),
 * CRC and all: not taken for this one's; said by name, treated as a header
 * this famfs does not understand (hosts register without the list,
 * nothing is reclaimed, repair only with --force), and repair --force
 * leaves no copy of it beside the new one */
static void test_old_layout_header(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN], msg[4096];
	uint8_t *p = tab.m.addr;
	uint64_t magic = htole64(0x33534f48534d4146ULL);	/* FAMSHOS3 */
	uint32_t crc;
	unsigned slot;

	(void)s;
	memset(p, 0, 8192);
	for (unsigned c = 0; c < 2; c++) {
		uint8_t *h = p + c * 4096;

		memcpy(h, &magic, 8);
		h[16] = (uint8_t)(c + 1);	/* seq */
		crc = htole32(famfs_crc32_update(famfs_crc32(tab.fs_uuid, 16),
						 h, 4096));
		memcpy(h + 8, &crc, 4);
	}
	assert_int_equal(famfs_map_flush(&tab.m, p, 8192), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), -EINVAL);
	assert_non_null(strstr(why, "FAMSHOS3"));
	th_stderr_grab();
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "FAMSHOS3"));
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, false), -EINVAL);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, true), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 0);
	for (unsigned c = 0; c < 2; c++)
		assert_int_not_equal(memcmp(p + c * 4096, &magic, 8), 0);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* review rfence F2: repair --force of a FAMSHOS3 header carries its
 * fences (48-byte, nameless: never moot) and its ARMED flag into the
 * FAMSHOS4 header; the host fenced there, in its fenced boot, stays out */
static void test_old_layout_repair_keeps_fences(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t *p = tab.m.addr, me[16], boot[16];
	uint64_t magic = htole64(0x33534f48534d4146ULL), one = htole64(1);
	uint32_t crc, n = htole32(2), armed = htole32(FAMFS_HOSTS_ARMED);
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_id(me), 0);
	assert_int_equal(famfs_boot_id(boot), 0);
	memset(p, 0, 8192);
	memcpy(p, &magic, 8);
	memcpy(p + 12, &n, 4);
	p[16] = 5;				/* seq */
	memcpy(p + 24, &armed, 4);
	memset(p + 64, 0x77, 32);		/* another host, its boot */
	memcpy(p + 96, &one, 8);
	memcpy(p + 112, me, 16);		/* this host, this boot */
	memcpy(p + 128, boot, 16);
	memcpy(p + 144, &one, 8);
	crc = htole32(famfs_crc32_update(famfs_crc32(tab.fs_uuid, 16), p, 4096));
	memcpy(p + 8, &crc, 4);
	assert_int_equal(famfs_map_flush(&tab.m, p, 8192), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), -EINVAL);
	assert_int_equal(ev.n, 2);
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, false), -EINVAL);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, true), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 2);
	assert_int_equal(ev.flags, FAMFS_HOSTS_ARMED);
	assert_memory_equal(ev.e[1].host_uuid, me, 16);
	assert_memory_equal(ev.e[1].boot_id, boot, 16);
	assert_int_equal(ev.e[1].generation, 1);
	assert_int_equal(ev.e[1].name_hash, 0);
	assert_int_equal(ev.e[1].hostname[0], 0);
	for (unsigned c = 0; c < 2; c++)
		assert_int_not_equal(memcmp(p + c * 4096, &magic, 8), 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true),
			 -ESTALE);
	famfs_quiet = 0;
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* a master write of the header cut short: the other copy is the header
 * (the fence kept), and the next write goes over the torn one */
static void test_torn_header_keeps_fences(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t me[16];
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_id(me), 0);
	assert_int_equal(famfs_hosts_evict_uuid(&t->fs, &tab, me), 0);
	/* the next header write (arming), cut short */
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	tear(&tab, newest_hdr(&tab));
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	assert_memory_equal(ev.e[0].host_uuid, me, 16);
	assert_int_equal(ev.flags, 0);	/* the copy before the arm */
	famfs_quiet = 1;
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL),
			 -ESTALE);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), -ESTALE);
	famfs_quiet = 0;
	/* armed again: written over the torn copy, the fence kept */
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.flags, FAMFS_HOSTS_ARMED);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* a verifying header with a flag this build does not know: its own errno;
 * registration and update refuse (said once, naming the bit), the pass
 * reclaims nothing, repair leaves it */
static void test_unknown_flag(void **s)
{
	struct famfs_hosts_hdr *h = calloc(1, sizeof(*h));
	struct famfs_reclaim_pass p = { 0 };
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev, d;
	char why[FAMFS_REASON_LEN], msg[4096];
	unsigned slot;

	(void)s;
	memset(&ev, 0, sizeof(ev));
	ev.flags = FAMFS_HOSTS_ARMED | (1U << 5);
	famfs_hosts_hdr_encode(h, &ev, fsu);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why),
			 -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "0x20"));
	free(h);

	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	ev.flags |= 1U << 5;
	th_hdr_plant(&tab, &ev);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why),
			 -EPROTONOSUPPORT);
	th_stderr_grab();
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true),
			 -EPROTONOSUPPORT);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL),
			 -EPROTONOSUPPORT);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, t->fs.name));
	assert_non_null(strstr(msg, "0x20"));
	assert_null(strstr(strstr(msg, "0x20") + 4, "0x20"));	/* once */
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, false),
			 -EPROTONOSUPPORT);
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, true),
			 -EPROTONOSUPPORT);
	famfs_quiet = 0;
	/* arming names it a newer famfs's, not repair's */
	th_stderr_grab();
	assert_int_not_equal(famfs_hosts_arm(&t->fs), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "newer famfs"));
	assert_null(strstr(msg, "hosts repair"));
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why),
			 -EPROTONOSUPPORT);
	/* a deleted file: nothing reclaimed */
	th_create_ok(&t->fs, "a", 2 * MiB);
	famfs_quiet = 1;
	famfs_remove(&t->fs, "a", false);
	famfs_reclaim_pass(&t->fs, &p);
	famfs_quiet = 0;
	assert_int_equal(p.reclaimed, 0);
	assert_int_equal(th_df(t).reclaimed, 0);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* no header copy verifies (registered without the list): a host whose
 * slot holds another host's registration cannot tell a raced claim from
 * its own fence and a zeroed slot: it stops */
static void test_taken_without_list(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	memset(tab.m.addr, 0x11, 8192);
	assert_int_equal(famfs_map_flush(&tab.m, tab.m.addr, 8192), 0);
	assert_int_equal(famfs_hosttab_zero_slot(&tab, slot), 0);
	other(&tab, slot, 0xab, 1);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL),
			 -ESTALE);
	famfs_quiet = 0;
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* ev's fences from index first on: hosts 0x20 + n (generation 1, named
 * as other() names them) that never registered again, the list full and
 * written; then host x (uuid 0xab..), registered in slot at, cannot be
 * evicted: no room */
static void list_full(struct famfs_fs *fs, struct famfs_hosttab *tab,
		      struct famfs_hosts_ev *ev, unsigned first, unsigned at,
		      uint8_t x[16])
{
	for (unsigned n = first; n < FAMFS_HOSTS_MAX_EVICT; n++) {
		memset(&ev->e[n], 0, sizeof(ev->e[n]));
		memset(ev->e[n].host_uuid, 0x20 + n, 16);
		/* named as other() names its slot: a fence names its host */
		snprintf(ev->e[n].hostname, sizeof(ev->e[n].hostname),
			 "other%02x", 0x20 + n);
		ev->e[n].generation = 1;
		ev->e[n].time = 1;
	}
	ev->n = FAMFS_HOSTS_MAX_EVICT;
	assert_int_equal(famfs_hosttab_write_hdr(tab, ev), 0);
	memset(x, 0xab, 16);
	other(tab, at % FAMFS_HOST_SLOTS, 0xab, 1);
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_evict_uuid(fs, tab, x), -ENOSPC);
	famfs_quiet = 0;
}

/* a full evicted list: a fence whose slot was zeroed stays (its host may
 * still run); only a moot one goes (its host registered again); else the
 * eviction is refused */
static void test_full_list_keeps_live_fences(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t me[16], x[16];
	unsigned slot;
	bool mine = false;

	(void)s;
	assert_int_equal(famfs_host_id(me), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	/* fenced, then zeroed (a second evict --slot): it still runs */
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	/* the list full of fences of hosts that never registered again */
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	list_full(&t->fs, &tab, &ev, 1, slot + 7, x);
	/* the first fake host registered again (generation 2): its fence
	 * is moot, and goes */
	other(&tab, (slot + 9) % FAMFS_HOST_SLOTS, 0x21, 2);
	assert_int_equal(famfs_hosts_evict_uuid(&t->fs, &tab, x), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, FAMFS_HOSTS_MAX_EVICT);
	for (unsigned i = 0; i < ev.n; i++) {
		mine |= !memcmp(ev.e[i].host_uuid, me, 16);
		assert_int_not_equal(ev.e[i].host_uuid[0], 0x21);
	}
	assert_true(mine);
	/* this host, still in the boot it was fenced in: its slot taken by
	 * another, it stops; it does not register again in this boot */
	other(&tab, slot, 0xac, 1);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL),
			 -ESTALE);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true),
			 -ESTALE);
	famfs_quiet = 0;
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* famfs hosts evict --forget: a fence dropped (a host down for good), to
 * make room in a full list; refused while a slot still holds that host's
 * fenced registration (zero it first) */
static void test_forget(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t me[16], x[16], f[16];
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_id(me), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_forget(&t->fs, &tab, me), -EBUSY);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosts_forget(&t->fs, &tab, me), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_forget(&t->fs, &tab, me), -ENOENT);
	famfs_quiet = 0;
	/* a full list: room made by forgetting one */
	list_full(&t->fs, &tab, &ev, 0, slot + 3, x);
	memset(f, 0x25, 16);
	assert_int_equal(famfs_hosts_forget(&t->fs, &tab, f), 0);
	assert_int_equal(famfs_hosts_evict_uuid(&t->fs, &tab, x), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, FAMFS_HOSTS_MAX_EVICT);
	assert_memory_equal(ev.e[ev.n - 1].host_uuid, x, 16);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* two copies judged: the newest that verifies, never the older instead of
 * one not understood; one seq twice with different bytes is none; the
 * next write goes over the other copy, seq + 1 (none verifying: on from
 * the highest seq there) */
static void test_hdrs_pick(void **s)
{
	struct famfs_hosts_hdr *c = calloc(2, sizeof(*c));
	struct famfs_hosts_ev ev, d;
	char why[FAMFS_REASON_LEN];
	uint64_t seq;

	(void)s;
	assert_non_null(c);
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(famfs_hosts_hdrs_decode(c, fsu, &d, why), -EBADMSG);
	assert_int_equal(famfs_hosts_hdr_next(c, fsu, &seq), 0);
	assert_int_equal(seq, 1);
	ev.seq = 4;
	famfs_hosts_hdr_encode(&c[0], &ev, fsu);
	ev.seq = 5;
	ev.n = 1;
	memset(ev.e[0].host_uuid, 7, 16);
	ev.e[0].generation = 3;
	famfs_hosts_hdr_encode(&c[1], &ev, fsu);
	assert_int_equal(famfs_hosts_hdrs_decode(c, fsu, &d, why), 0);
	assert_int_equal(d.seq, 5);
	assert_int_equal(d.n, 1);
	assert_int_equal(famfs_hosts_hdr_next(c, fsu, &seq), 0);
	assert_int_equal(seq, 6);
	/* the newest torn: the older */
	((uint8_t *)&c[1])[300] ^= 1;
	assert_int_equal(famfs_hosts_hdrs_decode(c, fsu, &d, why), 0);
	assert_int_equal(d.seq, 4);
	assert_int_equal(famfs_hosts_hdr_next(c, fsu, &seq), 1);
	assert_int_equal(seq, 5);
	/* the newest with a flag unknown: refused, not the older */
	ev.flags = 1U << 3;
	famfs_hosts_hdr_encode(&c[1], &ev, fsu);
	assert_int_equal(famfs_hosts_hdrs_decode(c, fsu, &d, why),
			 -EPROTONOSUPPORT);
	/* one seq, two contents: not understood (-EINVAL, as a malformed
	 * one: never "no copy verifies", which registers without fences and
	 * is repaired without --force); both torn: seq goes on */
	ev.flags = 0;
	ev.seq = 4;
	famfs_hosts_hdr_encode(&c[1], &ev, fsu);
	assert_int_equal(famfs_hosts_hdrs_decode(c, fsu, &d, why), -EINVAL);
	assert_non_null(strstr(why, "one seq"));
	assert_int_equal(famfs_hosts_hdr_next(c, fsu, &seq), 0);
	assert_int_equal(seq, 5);
	((uint8_t *)&c[0])[300] ^= 1;
	((uint8_t *)&c[1])[300] ^= 1;
	assert_int_equal(famfs_hosts_hdrs_decode(c, fsu, &d, why), -EBADMSG);
	assert_int_equal(famfs_hosts_hdr_next(c, fsu, &seq), 0);
	assert_int_equal(seq, 5);
	free(c);
}

/* a header that verifies but is malformed (a generation 0 fence: no
 * writer of this build makes it): registration and update take it as no
 * fences (said once, as for a torn one: the pass reclaims nothing
 * meanwhile); repair writes it anew only with --force (the reason said);
 * arming names --force */
static void test_malformed_header(void **s)
{
	struct famfs_reclaim_pass p = { 0 };
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN], msg[4096], *w;
	unsigned slot;

	(void)s;
	memset(&ev, 0, sizeof(ev));
	ev.n = 1;
	memset(ev.e[0].host_uuid, 9, 16);
	th_hdr_plant(&tab, &ev);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), -EINVAL);
	th_stderr_grab();
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL), 0);
	th_stderr_take(msg, sizeof(msg));
	w = strstr(msg, "no host or generation");
	assert_non_null(w);
	assert_null(strstr(w + 4, "no host or generation"));	/* once */
	/* a deleted file: nothing reclaimed */
	th_create_ok(&t->fs, "a", 2 * MiB);
	famfs_quiet = 1;
	famfs_remove(&t->fs, "a", false);
	famfs_reclaim_pass(&t->fs, &p);
	famfs_quiet = 0;
	assert_int_equal(p.reclaimed, 0);
	th_stderr_grab();
	assert_int_not_equal(famfs_hosts_arm(&t->fs), 0);
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, false), -EINVAL);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "--force"));
	assert_non_null(strstr(msg, "no host or generation"));
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), -EINVAL);
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, true), 0);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 0);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* two verifying copies of one seq that differ: not understood, as a
 * malformed one (registered with no fences; repair only with --force) */
static void test_equal_seq_differ(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint8_t *p = tab.m.addr;
	unsigned slot;

	(void)s;
	memset(&ev, 0, sizeof(ev));
	ev.seq = 7;
	put_copy(&tab, &ev, 0);
	ev.flags = FAMFS_HOSTS_ARMED;
	put_copy(&tab, &ev, 1);
	assert_int_equal(famfs_map_flush(&tab.m, p, 8192), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), -EINVAL);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, false), -EINVAL);
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, true), 0);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_true(ev.seq > 7);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* the header's seq at its end (the cherry-picked rule): a copy at
 * UINT64_MAX - 1 is not written past (-EOVERFLOW, said; never a wrap
 * that the max copy outlives, losing the write); a copy at UINT64_MAX is
 * corrupt: the other copy is the header, or none is (an error, not 0) */
static void test_hdr_seq_end(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN], msg[4096];
	uint8_t *p = tab.m.addr;
	uint8_t me[16];
	unsigned slot;
	uint64_t seq;

	(void)s;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_id(me), 0);
	memset(&ev, 0, sizeof(ev));
	ev.seq = UINT64_MAX - 1;
	memset(p, 0, 8192);
	put_copy(&tab, &ev, 0);
	assert_int_equal(famfs_map_flush(&tab.m, p, 8192), 0);
	famfs_hosts_hdr_next(p, tab.fs_uuid, &seq);
	assert_int_equal(seq, 0);
	th_stderr_grab();
	assert_int_equal(famfs_hosts_evict_uuid(&t->fs, &tab, me), -EOVERFLOW);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "UINT64_MAX - 1"));
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_true(ev.seq == UINT64_MAX - 1);
	assert_int_equal(ev.n, 0);
	/* copy 0 at UINT64_MAX, alone: no header (an error, not 0) */
	memset(&ev, 0, sizeof(ev));
	ev.seq = UINT64_MAX;
	put_copy(&tab, &ev, 0);
	assert_int_equal(famfs_map_flush(&tab.m, p, 8192), 0);
	famfs_quiet = 1;
	assert_int_not_equal(famfs_hosts_evict_uuid(&t->fs, &tab, me), 0);
	famfs_quiet = 0;
	/* ... with copy 1 at 3: copy 1 is the header, the fence goes over
	 * copy 0 at 4 and is kept */
	ev.seq = 3;
	put_copy(&tab, &ev, 1);
	assert_int_equal(famfs_map_flush(&tab.m, p, 8192), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.seq, 3);
	assert_int_equal(famfs_hosts_evict_uuid(&t->fs, &tab, me), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.seq, 4);
	assert_int_equal(ev.n, 1);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* what a crash at the first flush of a header restart would leave: the
 * header the copies then say (its seq and fence count) */
static const uint8_t *cut_fsu;
static int cut_rc = 1;
static struct famfs_hosts_ev cut_ev;

static void cut_hook(const struct famfs_map *m, const void *addr, size_t len)
{
	char why[FAMFS_REASON_LEN];

	(void)addr;
	(void)len;
	if (cut_rc != 1)
		return;
	cut_rc = famfs_hosts_hdrs_decode(m->addr, cut_fsu, &cut_ev, why);
}

/* a header that verifies at the seq's end (UINT64_MAX - 1) is started
 * again, its fences kept, only by repair --force (the way the refusal
 * names), and the
 * restart never lets an older copy rule: a crash between its two writes
 * leaves the newest header (fences and all) or the new one */
static void test_hdr_seq_end_repair(void **s)
{
	struct famfs_hosttab tab;
	struct th *t = th_hosts_new(&tab);
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN], msg[4096];
	uint8_t *p = tab.m.addr;

	(void)s;
	/* copy 0: the newest, at the end, with a fence; copy 1: older, none */
	memset(&ev, 0, sizeof(ev));
	ev.seq = UINT64_MAX - 1;
	ev.n = 1;
	memset(ev.e[0].host_uuid, 9, 16);
	ev.e[0].generation = 4;
	memset(p, 0, 8192);
	put_copy(&tab, &ev, 0);
	memset(&ev, 0, sizeof(ev));
	ev.seq = UINT64_MAX - 2;
	put_copy(&tab, &ev, 1);
	assert_int_equal(famfs_map_flush(&tab.m, p, 8192), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.n, 1);
	/* without --force: refused, and the refusal says how */
	th_stderr_grab();
	assert_int_not_equal(famfs_hosts_repair(&t->fs, &tab, false), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "--force"));
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_true(ev.seq == UINT64_MAX - 1);
	/* --force: again from 1, the fence kept; at its first write, the
	 * newest copy still rules, never the older one */
	cut_fsu = tab.fs_uuid;
	cut_rc = 1;
	famfs_flush_hook = cut_hook;
	famfs_quiet = 1;
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, true), 0);
	famfs_quiet = 0;
	famfs_flush_hook = NULL;
	assert_int_equal(cut_rc, 0);
	assert_true(cut_ev.seq == UINT64_MAX - 1 || cut_ev.seq == 1);
	assert_int_equal(cut_ev.n, 1);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	assert_int_equal(ev.seq, 1);
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.e[0].generation, 4);
	/* and it goes on from there */
	assert_int_equal(famfs_hosts_repair(&t->fs, &tab, true), -EEXIST);
	famfs_hosttab_close(&tab);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_torn_header_keeps_fences),
		cmocka_unit_test(test_unknown_flag),
		cmocka_unit_test(test_taken_without_list),
		cmocka_unit_test(test_full_list_keeps_live_fences),
		cmocka_unit_test(test_forget),
		cmocka_unit_test(test_hdrs_pick),
		cmocka_unit_test(test_malformed_header),
		cmocka_unit_test(test_equal_seq_differ),
		cmocka_unit_test(test_hdr_seq_end),
		cmocka_unit_test(test_hdr_seq_end_repair),
		cmocka_unit_test(test_name_hash),
		cmocka_unit_test(test_old_layout_header),
		cmocka_unit_test(test_old_layout_repair_keeps_fences),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
