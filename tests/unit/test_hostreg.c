// SPDX-License-Identifier: GPL-2.0
/* The host table on a file system (log/hosttab.c, log/hostreg.c): made by
 * the master (once), mapped, this host registered (its slot claimed, a new
 * generation at a new boot id, the same one kept within a boot), its slot
 * updated after a round, a client refused the table's creation, a torn
 * slot shown torn and left alone by a claim, clones and renamed hosts.
 * Evictions and fences: test_hostfence.c. */
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

static void test_create_once(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];

	(void)s;
	assert_true(le32toh(t->fs.sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS);
	assert_int_equal(famfs_hosts_create(&t->fs), -EEXIST);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(ev.n, 0);
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++)
		assert_int_equal(sl[i].state, FAMFS_HOST_FREE);
	/* the 2 MiB past the last slot: zero when made, never read */
	assert_true(famfs_all_zero((uint8_t *)tab.m.addr + FAMFS_HOSTS_SLOTS_END,
				   FAMFS_HOSTS_LEN - FAMFS_HOSTS_SLOTS_END));
	memset((uint8_t *)tab.m.addr + FAMFS_HOSTS_SLOTS_END, 0xa5,
	       FAMFS_HOSTS_LEN - FAMFS_HOSTS_SLOTS_END);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++)
		assert_int_equal(sl[i].state, FAMFS_HOST_FREE);
	famfs_hosttab_close(&tab);
	free(sl);
	th_free(t);
}

static void test_no_table(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	struct famfs_hosttab tab;

	(void)s;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), -ENOENT);
	/* a client does not make it */
	th_become_client(t);
	famfs_quiet = 1;
	assert_int_not_equal(famfs_hosts_create(&t->fs), 0);
	famfs_quiet = 0;
	assert_false(le32toh(t->fs.sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS);
	th_free(t);
}

static void test_register_generations(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h;
	uint8_t boot[16];
	unsigned slot, slot2;
	uint64_t next = famfs_log_next(t->fs.log);

	(void)s;
	open_registered(t, &tab, &slot, &h);
	assert_int_equal(h.generation, 1);
	assert_int_equal(h.registered_at, next);
	assert_true(h.flags & FAMFS_HOST_REGISTERED);
	assert_true(h.flags & FAMFS_HOST_MASTER);
	assert_true(h.holds_from == FAMFS_HOLDS_NONE);
	/* a round */
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, next + 3, NULL,
					   NULL), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(h.replayed, next + 3);
	/* the same boot: generation and registered_at kept */
	th_append_dir(t, "d1");
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot2, true), 0);
	assert_int_equal(slot2, slot);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(h.generation, 1);
	assert_int_equal(h.registered_at, next);
	/* a new boot: a new generation, registered now */
	memset(boot, 0x77, 16);
	th_write_id(t->bootid, boot);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot2, true), 0);
	assert_int_equal(slot2, slot);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(h.generation, 2);
	assert_int_equal(h.registered_at, famfs_log_next(t->fs.log));
	assert_int_equal(h.replayed, 0);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* a registration that is not a mount's first replay (a host mounted before
 * the table existed, or one whose tree was replayed another way) may map
 * any file the log ever had: it is registered at 0, never "after" a
 * DELETE, so it blocks each one until its replay is past it and it holds
 * none of that memory */
static void test_register_not_fresh(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h;
	unsigned slot;

	(void)s;
	th_append_dir(t, "d1");
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, false), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_int_equal(h.generation, 1);
	assert_int_equal(h.registered_at, 0);
	assert_int_equal(h.replayed, 0);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* a torn slot at this host's home: shown torn, skipped by the claim,
 * zeroed by an eviction by slot */
static void test_torn_slot(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h;
	uint8_t me[16];
	unsigned home, slot;

	(void)s;
	assert_int_equal(famfs_host_id(me), 0);
	home = famfs_host_slot_home(me, FAMFS_HOST_SLOTS);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	famfs_host_slot_at(tab.m.addr, home)[17] = 0x5a;
	assert_int_equal(famfs_map_flush(&tab.m, famfs_host_slot_at(tab.m.addr, home), 256), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, home, &h), FAMFS_HOST_TORN);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(slot, (home + 1) % FAMFS_HOST_SLOTS);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, home), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, home, &h), FAMFS_HOST_FREE);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* the slots that are not free, and only those (famfs_hosttab_read_used,
 * what the master's pass reads): a registration, a torn slot, a slot with
 * one byte set in its last line, one with its first byte set, in slot
 * order with their numbers; the same states as the whole table's read */
static void test_read_used(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_hosttab_used u;
	struct famfs_host *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	unsigned slot, torn = 7, even = 10, last = FAMFS_HOST_SLOTS - 1;
	unsigned nused = 0;

	(void)s;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_hosttab_read_used(&tab, &u, &ev, why), 0);
	assert_int_equal(u.n, 0);
	famfs_hosttab_used_free(&u);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	if (slot == torn)
		torn = 8;
	if (slot == last)
		last = 9;
	if (slot == even)
		even = 12;
	/* slots are looked at in pairs (an even one and the next): a used
	 * one at either place, its mate free */
	famfs_host_slot_at(tab.m.addr, even)[0] = 0x80;
	assert_int_equal(famfs_map_flush(&tab.m, famfs_host_slot_at(tab.m.addr, even), 256), 0);
	famfs_host_slot_at(tab.m.addr, torn)[17] = 0x5a;
	famfs_host_slot_at(tab.m.addr, last)[255] = 0x01;
	assert_int_equal(famfs_map_flush(&tab.m, famfs_host_slot_at(tab.m.addr, torn), 256), 0);
	assert_int_equal(famfs_map_flush(&tab.m, famfs_host_slot_at(tab.m.addr, last), 256), 0);
	assert_int_equal(famfs_hosttab_read_used(&tab, &u, &ev, why), 0);
	assert_int_equal(famfs_hosttab_read(&tab, sl, &ev, why), 0);
	assert_int_equal(u.n, 4);
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++) {
		if (sl[i].state == FAMFS_HOST_FREE)
			continue;
		assert_true(nused < u.n);
		assert_int_equal(u.idx[nused], i);
		assert_int_equal(u.slots[nused].state, sl[i].state);
		assert_memory_equal(&u.slots[nused], &sl[i], sizeof(sl[i]));
		nused++;
	}
	assert_int_equal(nused, 4);
	assert_int_equal(sl[even].state, FAMFS_HOST_TORN);
	assert_int_equal(sl[slot].state, FAMFS_HOST_VALID);
	assert_int_equal(sl[torn].state, FAMFS_HOST_TORN);
	assert_int_equal(sl[last].state, FAMFS_HOST_TORN);
	famfs_hosttab_used_free(&u);
	assert_null(u.slots);
	assert_int_equal(u.n, 0);
	famfs_hosttab_close(&tab);
	free(sl);
	th_free(t);
}

/* a free slot is one whose every byte is zero: any one byte set is not
 * (famfs_all_zero's memcmp and word tests: a slot, a group of slots; at
 * an aligned and an unaligned start, with a tail after them) */
static void test_slot_zero(void **s)
{
	static uint8_t buf[5 * FAMFS_HOST_SLOT_SIZE + 16]
		__attribute__((aligned(16)));
	static const size_t len[] = { 7, 63, 64, 1024, FAMFS_HOST_SLOT_SIZE,
				      2 * FAMFS_HOST_SLOT_SIZE,
				      FAMFS_HOST_SLOT_SIZE + 63,
				      5 * FAMFS_HOST_SLOT_SIZE + 8 };

	(void)s;
	for (unsigned at = 0; at < 2; at++) {
		for (unsigned l = 0; l < sizeof(len) / sizeof(len[0]); l++) {
			uint8_t *slot = buf + at;

			assert_true(famfs_all_zero(slot, len[l]));
			for (unsigned i = 0; i < len[l]; i++) {
				for (unsigned b = 0; b < 8; b++) {
					slot[i] = (uint8_t)(1u << b);
					assert_false(famfs_all_zero(slot, len[l]));
				}
				slot[i] = 0;
			}
			/* a byte just past it is not looked at */
			slot[len[l]] = 1;
			assert_true(famfs_all_zero(slot, len[l]));
			slot[len[l]] = 0;
		}
	}
}

/* the counters' end on a file system (review r39 B): a slot whose seq, or
 * a registration whose generation, is at UINT64_MAX - 1 is not written
 * again (no wrap to 0 that lets the older copy win): refused, the slot as
 * it was */
static void test_counters_end(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, g;
	uint8_t boot[16];
	unsigned slot;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	h.seq = UINT64_MAX - 1;
	th_host_plant(&tab, slot, &h);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot, 5, NULL, NULL),
			 -EOVERFLOW);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &g), FAMFS_HOST_VALID);
	assert_true(g.seq == UINT64_MAX - 1);
	assert_int_equal(g.copy, 0);
	/* a new boot at the last generation: not registered */
	h.seq = 3;
	h.generation = UINT64_MAX - 1;
	th_host_plant(&tab, slot, &h);
	memset(boot, 0x77, 16);
	th_write_id(t->bootid, boot);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true),
			 -EOVERFLOW);
	famfs_quiet = 0;
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &g), FAMFS_HOST_VALID);
	assert_true(g.generation == UINT64_MAX - 1);
	assert_int_equal(g.seq, 3);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* two hosts with one host uuid (a cloned image, review r40 4, r41b): under
 * another host name it is another host, the table armed or not: this host
 * claims a slot of its own and leaves that one alone.  Under this host's
 * name in another boot it is this host rebooted: taken over, a new
 * generation -- a clone with this name too cannot be told apart, and the
 * host whose slot is taken stops at its next update, naming host-uuid */
static void test_shared_uuid(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, g;
	uint8_t boot[16];
	char msg[4096];
	unsigned slot, slot2;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	g = h;
	memset(g.boot_id, 0x42, 16);
	snprintf(g.hostname, sizeof(g.hostname), "clone-of-this");
	g.generation = h.generation + 1;
	th_host_plant(&tab, slot, &g);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot2, true), 0);
	famfs_quiet = 0;
	assert_int_not_equal(slot2, slot);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_memory_equal(h.boot_id, g.boot_id, 16);	/* left alone */
	/* this host's name, another boot, in this host's slot: it stops */
	assert_int_equal(famfs_hosttab_slot(&tab, slot2, &h), FAMFS_HOST_VALID);
	g = h;
	memset(g.boot_id, 0x43, 16);
	g.generation = h.generation + 1;
	th_host_plant(&tab, slot2, &g);
	th_stderr_grab();
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot2, 3, NULL, NULL),
			 -ESTALE);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "host-uuid"));
	/* this host rebooted (its own name): taken over, a new generation */
	memset(boot, 0x77, 16);
	th_write_id(t->bootid, boot);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(slot, slot2);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_memory_equal(h.boot_id, boot, 16);
	assert_int_equal(h.generation, g.generation + 1);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* a failed read of the slots is an error, not "no slot of this key": a
 * registration taking it as none would claim this host a second slot */
static void test_find_key_unread(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_map keep;
	struct famfs_host h;
	struct famfs_host_key k = { 0 };
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_host_id(k.uuid), 0);
	assert_int_equal(famfs_boot_id(k.boot), 0);
	gethostname(k.name, sizeof(k.name) - 1);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_hosttab_find_key(&tab, &k, &h, NULL), -ENOENT);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosttab_find_key(&tab, &k, &h, NULL), (int)slot);
	/* the refresh of the slots fails (a bounce read of a bad fd) */
	keep = tab.m;
	tab.m.bounce = true;
	tab.m.fd = -1;
	famfs_quiet = 1;
	assert_int_equal(famfs_hosttab_find_key(&tab, &k, &h, NULL), -EIO);
	famfs_quiet = 0;
	tab.m = keep;
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* review r42f MED 2: a header this host could not read (-EIO here, the
 * master reads it fine and reclaims) is no "header without a list": a
 * host fenced in this boot, its slot zeroed by evict --slot twice, would
 * register again at generation 1 (the fence's: ignored by the master)
 * while it maps files.  Only a torn or malformed header on the media
 * registers without the list; a failed read refuses */
static struct famfs_hosttab *hdr_fail_tab;
static struct famfs_map hdr_fail_keep;
static int hdr_fail_reads;
static void hdr_fail_restore(void *arg, const char *msg)
{
	(void)arg;
	if (hdr_fail_tab && strstr(msg, "read at")) {
		hdr_fail_reads++;
		hdr_fail_tab->m = hdr_fail_keep;	/* one read fails */
		hdr_fail_tab = NULL;
	}
}

static void test_hdr_read_fails(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	char msg[4096];
	unsigned slot;
	int rc;

	(void)s;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, slot), 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), -ESTALE);
	famfs_quiet = 0;
	/* the next read of the table (the header's) fails here */
	hdr_fail_keep = tab.m;
	hdr_fail_tab = &tab;
	hdr_fail_reads = 0;
	tab.m.bounce = true;
	tab.m.fd = -1;
	famfs_err_hook = hdr_fail_restore;
	th_stderr_grab();
	rc = famfs_host_register(&t->fs, &tab, &slot, true);
	th_stderr_take(msg, sizeof(msg));
	famfs_err_hook = NULL;
	assert_int_equal(hdr_fail_reads, 1);
	assert_int_equal(rc, -EIO);
	assert_null(strstr(msg, "registered without the evicted list"));
	assert_non_null(strstr(msg, "host table"));
	assert_non_null(strstr(msg, "not registered"));
	/* read again: still fenced in this boot */
	famfs_quiet = 1;
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), -ESTALE);
	famfs_quiet = 0;
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* review r41b, rev41b's arm_after_clone_mount: two hosts with one host uuid
 * (a cloned image) and another host name each.  Slots are keyed by (host
 * uuid, host name): the clone that mounts second claims a slot of its own,
 * through its whole mount (register fresh, register, update), and leaves
 * the first one's alone -- both count, so a DELETE the first has not
 * replayed past stays unreclaimed; the table arms (nothing is taken over) */
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

static void test_clones_both_counted(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, g;
	struct famfs_reclaim_pass p = { .blocked = clone_block };
	unsigned slot, slot2;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	/* the original host "orig-host" (this uuid, its own boot) holds the
	 * slot; it replayed nothing yet */
	g = h;
	memset(g.boot_id, 0x42, 16);
	snprintf(g.hostname, sizeof(g.hostname), "orig-host");
	g.replayed = 0;
	th_host_plant(&tab, slot, &g);
	/* this host, a clone of it, mounts: cmd_mount's first check-in
	 * (fresh), its replay, then famfs_hosts_mount_checkin */
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot2, true), 0);
	assert_int_not_equal(slot2, slot);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot2, false), 0);
	assert_int_not_equal(slot2, slot);
	assert_int_equal(famfs_host_update(&t->fs, &tab, slot2, 1, NULL, NULL),
			 0);
	/* "orig-host" left as it was */
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_memory_equal(h.boot_id, g.boot_id, 16);
	assert_string_equal(h.hostname, "orig-host");
	/* nothing taken over: armed */
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	/* a DELETE "orig-host" has not replayed past is not reclaimed, and
	 * its slot is named */
	th_create_ok(&t->fs, "a", 4 * MiB);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	memset(clone_blocked, 0, sizeof(clone_blocked));
	assert_int_equal(famfs_reclaim_pass(&t->fs, &p), 0);
	assert_int_equal(p.reclaimed, 0);
	assert_true(clone_blocked[slot] > 0);
	assert_int_equal(clone_blocked[slot2], 0);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* a host renamed across a reboot is, by the key, another host: it claims
 * a slot of its own and says that its old name's slot holds reclaim until
 * famfs hosts evict; renamed within a boot (the same boot id), it keeps
 * its slot, the name updated */
static void test_renamed_host(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, g;
	char msg[4096];
	unsigned slot, slot2;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	/* the same boot, registered under its name before a rename */
	g = h;
	snprintf(g.hostname, sizeof(g.hostname), "old-name");
	th_host_plant(&tab, slot, &g);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot2, false), 0);
	assert_int_equal(slot2, slot);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_string_not_equal(h.hostname, "old-name");
	/* another boot under the old name: a slot of its own, said */
	memset(g.boot_id, 0x42, 16);
	th_host_plant(&tab, slot, &g);
	th_stderr_grab();
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot2, false), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_int_not_equal(slot2, slot);
	assert_non_null(strstr(msg, "old-name"));
	assert_non_null(strstr(msg, "famfs hosts evict --slot"));
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	assert_string_equal(h.hostname, "old-name");
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* review r42c M1: this boot's slot (uuid and boot id) past a free slot,
 * a slot of this uuid and name from another boot before it: the
 * registration finds this boot's, as famfs_hosttab_find_key does */
static void test_find_slot_past_free(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host h, g;
	unsigned slot, s2, again;

	(void)s;
	open_registered(t, &tab, &slot, &h);
	s2 = (slot + 2) % FAMFS_HOST_SLOTS;
	th_host_plant(&tab, s2, &h);			/* this boot's, past a free one */
	g = h;
	memset(g.boot_id, 0x42, 16);		/* this name, another boot */
	th_host_plant(&tab, slot, &g);
	assert_int_equal(famfs_hosttab_slot(&tab, (slot + 1) % FAMFS_HOST_SLOTS,
					    &g), FAMFS_HOST_FREE);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &again, false), 0);
	assert_int_equal(again, s2);
	assert_int_equal(famfs_hosttab_slot(&tab, s2, &g), FAMFS_HOST_VALID);
	assert_int_equal(g.generation, h.generation);
	famfs_hosttab_close(&tab);
	th_free(t);
}

/* review r42c M2: a host whose name every clone of an image shares
 * ("localhost", empty) is told so once at registration; in a UTS
 * namespace of its own (root only: skipped otherwise) */
static void test_shared_name_said(void **s)
{
	struct th *t;
	struct famfs_hosttab tab;
	char msg[4096], was[256] = "";
	unsigned slot;

	(void)s;
	gethostname(was, sizeof(was) - 1);
	if (unshare(CLONE_NEWUTS) || sethostname("localhost", 9)) {
		skip();
		return;
	}
	t = mk();
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	th_stderr_grab();
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, false), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "localhost"));
	assert_non_null(strstr(msg, "clones of one image with this name cannot be told apart"));
	assert_null(strstr(strstr(msg, "cannot be told apart") + 1,
			   "cannot be told apart"));	/* once */
	famfs_hosttab_close(&tab);
	th_free(t);
	assert_int_equal(sethostname(was, strlen(was)), 0);
}

/* a registration in a process of its own (the warning is said once per
 * process, as every famfs command is one): 0 registered and the shared
 * name not said, 1 registered and said, 2 not registered */
static int register_says_shared(struct th *t, struct famfs_hosttab *tab,
				bool fresh)
{
	int st = -1;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		char msg[4096];
		unsigned slot;
		int rc;

		th_stderr_grab();
		rc = famfs_host_register(&t->fs, tab, &slot, fresh);
		th_stderr_take(msg, sizeof(msg));
		_exit(rc ? 2 : strstr(msg, "cannot be told apart") ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* review r42f LOW 6: a default host name is said when this host claims a
 * slot or takes one over at a new boot, not at every registration of the
 * same boot (every famfs rm on a master named "localhost") */
static void test_shared_name_on_claim_only(void **s)
{
	struct th *t;
	struct famfs_hosttab tab;
	char was[256] = "";
	uint8_t boot[16];

	(void)s;
	gethostname(was, sizeof(was) - 1);
	if (unshare(CLONE_NEWUTS) || sethostname("localhost", 9)) {
		skip();
		return;
	}
	t = mk();
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(register_says_shared(t, &tab, true), 1);	/* claim */
	assert_int_equal(register_says_shared(t, &tab, false), 0);
	assert_int_equal(register_says_shared(t, &tab, true), 0);
	memset(boot, 0x77, 16);
	th_write_id(t->bootid, boot);
	assert_int_equal(register_says_shared(t, &tab, true), 1); /* new boot */
	assert_int_equal(register_says_shared(t, &tab, false), 0);
	famfs_hosttab_close(&tab);
	th_free(t);
	assert_int_equal(sethostname(was, strlen(was)), 0);
}

/* review r42c L1: a full table's message points to an eviction by slot
 * (by uuid frees no slot) and names the least replayed slots */
static void test_full_table_said(void **s)
{
	struct th *t = mk();
	struct famfs_hosttab tab;
	struct famfs_host g;
	char msg[4096];
	unsigned slot;

	(void)s;
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	memset(&g, 0, sizeof(g));
	g.state = FAMFS_HOST_VALID;
	g.flags = FAMFS_HOST_REGISTERED;
	g.generation = 1;
	g.seq = 1;
	g.holds_from = FAMFS_HOLDS_NONE;
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++) {
		memset(g.host_uuid, 0xa0, 16);
		g.host_uuid[0] = (uint8_t)i;
		memset(g.boot_id, 0x30, 16);
		g.boot_id[0] = (uint8_t)i;
		g.replayed = i == 7 ? 2 : 9;
		snprintf(g.hostname, sizeof(g.hostname), "h%u", i);
		th_host_plant(&tab, i, &g);
	}
	th_stderr_grab();
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, true), -ENOSPC);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "famfs hosts evict --slot N"));
	assert_non_null(strstr(msg, "torn: slot 7\n"));
	famfs_hosttab_close(&tab);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_end),
		cmocka_unit_test(test_read_used),
		cmocka_unit_test(test_slot_zero),
		cmocka_unit_test(test_create_once),
		cmocka_unit_test(test_no_table),
		cmocka_unit_test(test_register_generations),
		cmocka_unit_test(test_register_not_fresh),
		cmocka_unit_test(test_torn_slot),
		cmocka_unit_test(test_shared_uuid),
		cmocka_unit_test(test_find_key_unread),
		cmocka_unit_test(test_clones_both_counted),
		cmocka_unit_test(test_renamed_host),
		cmocka_unit_test(test_find_slot_past_free),
		cmocka_unit_test(test_full_table_said),
		/* before shared_name_said: said once a process, its children
		 * inherit it */
		cmocka_unit_test(test_shared_name_on_claim_only),
		cmocka_unit_test(test_shared_name_said),
		cmocka_unit_test(test_hdr_read_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
