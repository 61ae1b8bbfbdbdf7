// SPDX-License-Identifier: GPL-2.0
/* The host table's bytes (lib/media/hosts.c, format revision 3, HOSTS):
 * one record copy encoded and decoded, a slot's newest verifying copy, a
 * torn write of the older copy leaving the newer whole, free and torn
 * slots, the header with its evicted list, refusals of what is not
 * understood, and a fuzz of slot and header decoding. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

static const uint8_t fsu[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t fsu2[16] = { 16, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1 };

static void mkhost(struct famfs_host *h, uint8_t tag, uint64_t gen)
{
	memset(h, 0, sizeof(*h));
	h->state = FAMFS_HOST_VALID;
	h->flags = FAMFS_HOST_REGISTERED;
	memset(h->host_uuid, tag, 16);
	memset(h->boot_id, tag + 1, 16);
	h->generation = gen;
	h->seq = 1;
	h->registered_at = 10;
	h->replayed = 12;
	h->holds_from = FAMFS_HOLDS_NONE;
	h->held_bytes = 4096;
	h->beat_time = 1700000000;
	snprintf(h->hostname, sizeof(h->hostname), "node-%u", tag);
}

/* the slot write a host does: the next copy with the next seq */
static void slot_write(uint8_t *slot, struct famfs_host *h)
{
	uint64_t seq;
	unsigned c = famfs_host_slot_next(slot, fsu, &seq);

	h->seq = seq;
	famfs_host_rec_encode((struct famfs_host_rec *)(slot + c * 128), h, fsu);
}

static void test_rec_roundtrip(void **s)
{
	struct famfs_host h, g;
	struct famfs_host_rec r;
	char why[FAMFS_REASON_LEN];

	(void)s;
	assert_int_equal(sizeof(r), 128);
	mkhost(&h, 7, 3);
	h.flags |= FAMFS_HOST_MASTER;
	famfs_host_rec_encode(&r, &h, fsu);
	assert_int_equal(le64toh(r.magic), FAMFS_HOST_MAGIC);
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), 0);
	assert_memory_equal(g.host_uuid, h.host_uuid, 16);
	assert_memory_equal(g.boot_id, h.boot_id, 16);
	assert_int_equal(g.generation, 3);
	assert_int_equal(g.registered_at, 10);
	assert_int_equal(g.replayed, 12);
	assert_true(g.holds_from == FAMFS_HOLDS_NONE);
	assert_int_equal(g.held_bytes, 4096);
	assert_int_equal(g.beat_time, 1700000000);
	assert_int_equal(g.flags, FAMFS_HOST_REGISTERED | FAMFS_HOST_MASTER);
	assert_string_equal(g.hostname, "node-7");
	/* another file system's record: its CRC is seeded with the fs uuid */
	assert_int_equal(famfs_host_rec_decode(&r, fsu2, &g, why), -EBADMSG);
	/* a flipped bit */
	((uint8_t *)&r)[100] ^= 1;
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), -EBADMSG);
}

/* a copy that verifies but says what this tool does not understand */
static void test_rec_refusals(void **s)
{
	struct famfs_host h, g;
	struct famfs_host_rec r;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mkhost(&h, 7, 3);
	/* unknown flag */
	famfs_host_rec_encode(&r, &h, fsu);
	r.flags = htole32(1U << 5);
	r.crc = 0;
	r.crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), &r, 128));
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), -EINVAL);
	assert_non_null(strstr(why, "flag"));
	/* hostname without its NUL, or bytes after it */
	famfs_host_rec_encode(&r, &h, fsu);
	memset(r.hostname, 'x', sizeof(r.hostname));
	r.crc = 0;
	r.crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), &r, 128));
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), -EINVAL);
	famfs_host_rec_encode(&r, &h, fsu);
	r.hostname[sizeof(r.hostname) - 2] = 'y';
	r.crc = 0;
	r.crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), &r, 128));
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), -EINVAL);
	/* registered with generation 0, or a nil host uuid */
	h.generation = 0;
	famfs_host_rec_encode(&r, &h, fsu);
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), -EINVAL);
	mkhost(&h, 0, 1);
	famfs_host_rec_encode(&r, &h, fsu);
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), -EINVAL);
	/* wrong magic */
	mkhost(&h, 7, 1);
	famfs_host_rec_encode(&r, &h, fsu);
	r.magic = htole64(FAMFS_HOSTS_MAGIC);
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), -EBADMSG);
}

static void test_slot_newest(void **s)
{
	uint8_t slot[FAMFS_HOST_SLOT_SIZE] = { 0 };
	struct famfs_host h, g;
	uint64_t seq;

	(void)s;
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_FREE);
	assert_int_equal(famfs_host_slot_next(slot, fsu, &seq), 0);
	assert_int_equal(seq, 1);
	mkhost(&h, 9, 1);
	for (uint64_t i = 1; i <= 6; i++) {
		h.replayed = 100 + i;
		slot_write(slot, &h);
		assert_int_equal(h.seq, i);
		assert_int_equal(famfs_host_slot_decode(slot, fsu, &g),
				 FAMFS_HOST_VALID);
		assert_int_equal(g.seq, i);
		assert_int_equal(g.replayed, 100 + i);
		/* the copies alternate */
		assert_int_equal(g.copy, (i - 1) % 2);
	}
}

/* a torn write is one of the older copy: the newer one stays the slot */
static void test_slot_torn_write(void **s)
{
	uint8_t slot[FAMFS_HOST_SLOT_SIZE] = { 0 };
	struct famfs_host h, g;
	uint64_t seq;

	(void)s;
	mkhost(&h, 9, 1);
	h.replayed = 50;
	slot_write(slot, &h);		/* copy 0, seq 1 */
	h.replayed = 51;
	slot_write(slot, &h);		/* copy 1, seq 2 */
	/* the next write goes to copy 0: torn at every 8-byte store */
	for (unsigned cut = 0; cut < 128; cut += 8) {
		uint8_t t[FAMFS_HOST_SLOT_SIZE];
		struct famfs_host_rec nr;
		struct famfs_host n = h;
		unsigned c;

		memcpy(t, slot, sizeof(t));
		c = famfs_host_slot_next(t, fsu, &seq);
		assert_int_equal(c, 0);
		assert_int_equal(seq, 3);
		n.seq = seq;
		n.replayed = 52;
		famfs_host_rec_encode(&nr, &n, fsu);
		memcpy(t, &nr, cut);		/* the first cut bytes landed */
		assert_int_equal(famfs_host_slot_decode(t, fsu, &g),
				 FAMFS_HOST_VALID);
		if (!memcmp(t, &nr, sizeof(nr))) {
			/* what was left of the old copy was the same bytes:
			 * the write is whole */
			assert_int_equal(g.replayed, 52);
			assert_int_equal(g.seq, 3);
			continue;
		}
		assert_int_equal(g.replayed, 51);
		assert_int_equal(g.seq, 2);
		/* and the next write still goes to the torn copy */
		assert_int_equal(famfs_host_slot_next(t, fsu, &seq), 0);
		assert_int_equal(seq, 3);
	}
	/* the whole write: the new copy is the slot */
	h.replayed = 52;
	slot_write(slot, &h);
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_VALID);
	assert_int_equal(g.replayed, 52);
	assert_int_equal(g.seq, 3);
}

static void test_slot_torn_states(void **s)
{
	uint8_t slot[FAMFS_HOST_SLOT_SIZE] = { 0 };
	struct famfs_host h, g;
	uint64_t seq;

	(void)s;
	/* one stray byte: not free, no copy verifies */
	slot[200] = 1;
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_TORN);
	assert_int_equal(famfs_host_slot_next(slot, fsu, &seq), 0);
	assert_int_equal(seq, 1);
	/* both copies torn */
	memset(slot, 0, sizeof(slot));
	mkhost(&h, 3, 1);
	slot_write(slot, &h);
	slot_write(slot, &h);
	slot[20] ^= 1;
	slot[128 + 20] ^= 1;
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_TORN);
	/* another file system's slot (the memory reused): torn, not free */
	memset(slot, 0, sizeof(slot));
	famfs_host_rec_encode((struct famfs_host_rec *)slot, &h, fsu2);
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_TORN);
	/* two copies of one seq that differ: no writer makes them */
	memset(slot, 0, sizeof(slot));
	h.seq = 4;
	famfs_host_rec_encode((struct famfs_host_rec *)slot, &h, fsu);
	h.replayed++;
	famfs_host_rec_encode((struct famfs_host_rec *)(slot + 128), &h, fsu);
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_TORN);
	/* a copy that verifies but is refused (unknown flag), the other torn */
	memset(slot, 0, sizeof(slot));
	h.flags = 1U << 7;
	famfs_host_rec_encode((struct famfs_host_rec *)slot, &h, fsu);
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_TORN);
	/* a refused newer copy does not hide a good older one? it is not
	 * understood: the slot is torn (a newer tool's record) */
	memset(slot, 0, sizeof(slot));
	mkhost(&h, 3, 1);
	slot_write(slot, &h);
	h.flags = 1U << 7;
	slot_write(slot, &h);
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_TORN);
}

static void test_hdr(void **s)
{
	struct famfs_hosts_hdr *h = calloc(1, sizeof(*h));
	struct famfs_hosts_ev ev, d;
	char why[FAMFS_REASON_LEN];

	(void)s;
	assert_non_null(h);
	assert_int_equal(sizeof(*h), 4096);
	famfs_hosts_hdr_encode(h, NULL, fsu);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu2, &d, why), -EBADMSG);
	memset(&ev, 0, sizeof(ev));
	ev.seq = 5;
	ev.n = FAMFS_HOSTS_MAX_EVICT;
	for (unsigned i = 0; i < ev.n; i++) {
		memset(ev.e[i].host_uuid, (int)i + 1, 16);
		ev.e[i].generation = i + 1;
		ev.e[i].time = 1000 + i;
	}
	famfs_hosts_hdr_encode(h, &ev, fsu);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), 0);
	assert_int_equal(d.n, FAMFS_HOSTS_MAX_EVICT);
	assert_int_equal(d.seq, 5);
	assert_int_equal(d.e[FAMFS_HOSTS_MAX_EVICT - 1].generation,
			 FAMFS_HOSTS_MAX_EVICT);
	assert_int_equal(d.e[FAMFS_HOSTS_MAX_EVICT - 1].time,
			 1000 + FAMFS_HOSTS_MAX_EVICT - 1);
	assert_memory_equal(d.e[3].host_uuid, ev.e[3].host_uuid, 16);
	/* nevicted out of bounds */
	h->nevicted = htole32(FAMFS_HOSTS_MAX_EVICT + 1);
	h->crc = 0;
	h->crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), h, 4096));
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), -EINVAL);
	/* an entry past nevicted */
	ev.n = 2;
	famfs_hosts_hdr_encode(h, &ev, fsu);
	h->evicted[2].generation = htole64(1);
	h->crc = 0;
	h->crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), h, 4096));
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), -EINVAL);
	/* a pad byte */
	famfs_hosts_hdr_encode(h, &ev, fsu);
	h->pad[10] = 1;
	h->crc = 0;
	h->crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), h, 4096));
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), -EINVAL);
	/* generation 0 in the list */
	ev.e[1].generation = 0;
	famfs_hosts_hdr_encode(h, &ev, fsu);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), -EINVAL);
	/* magic, CRC */
	ev.e[1].generation = 2;
	famfs_hosts_hdr_encode(h, &ev, fsu);
	h->magic = htole64(FAMFS_HOST_MAGIC);
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), -EBADMSG);
	famfs_hosts_hdr_encode(h, &ev, fsu);
	((uint8_t *)h)[70] ^= 0x10;
	assert_int_equal(famfs_hosts_hdr_decode(h, fsu, &d, why), -EBADMSG);
	free(h);
}

static void test_evicted_match(void **s)
{
	struct famfs_hosts_ev ev = { .n = 1 };
	struct famfs_host h;

	(void)s;
	mkhost(&h, 4, 2);
	memcpy(ev.e[0].host_uuid, h.host_uuid, 16);
	memcpy(ev.e[0].boot_id, h.boot_id, 16);
	ev.e[0].generation = 2;
	assert_true(famfs_host_evicted(&h, &ev));
	/* another boot at this generation (another slot of this uuid: a
	 * clone, a renamed host; review r42c H1): not fenced */
	h.boot_id[0] ^= 1;
	assert_false(famfs_host_evicted(&h, &ev));
	h.boot_id[0] ^= 1;
	h.generation = 3;		/* registered again: not fenced */
	assert_false(famfs_host_evicted(&h, &ev));
	h.generation = 2;
	h.host_uuid[0] ^= 1;
	assert_false(famfs_host_evicted(&h, &ev));
}

/* review r42c M2: a host name is kept cut (15 bytes, shown) and hashed
 * whole (the key): two names equal in their first 23 bytes are two keys;
 * an empty name, a failed gethostname and the distributions' defaults are
 * shared by every clone of an image, and said */
static void test_name_key(void **s)
{
	struct famfs_host_key a, b;
	struct famfs_host h, g;
	struct famfs_host_rec r;
	char why[FAMFS_REASON_LEN];

	(void)s;
	famfs_host_key_name(&a, "compute-node-rack12-slot01.example.com");
	famfs_host_key_name(&b, "compute-node-rack12-slot02.example.com");
	assert_string_equal(a.name, "compute-node-ra");
	assert_string_equal(a.name, b.name);
	assert_true(a.name_hash != b.name_hash);
	mkhost(&h, 4, 2);
	memcpy(a.uuid, h.host_uuid, 16);
	memcpy(b.uuid, h.host_uuid, 16);
	memset(a.boot, 0x77, 16);			/* another boot */
	memset(b.boot, 0x77, 16);
	memcpy(h.hostname, a.name, sizeof(h.hostname));
	h.name_hash = a.name_hash;
	famfs_host_rec_encode(&r, &h, fsu);
	assert_int_equal(famfs_host_rec_decode(&r, fsu, &g, why), 0);
	assert_string_equal(g.hostname, a.name);
	assert_true(g.name_hash == a.name_hash);
	assert_int_equal(famfs_host_key_rank(&g, &a), 1);	/* a reboot */
	assert_int_equal(famfs_host_key_rank(&g, &b), 0);	/* a clone */
	/* a short name: whole, and hashed too */
	famfs_host_key_name(&a, "node-7");
	assert_string_equal(a.name, "node-7");
	assert_true(a.name_hash == famfs_host_name_hash("node-7", 6));
	/* shared names */
	assert_null(famfs_host_name_shared("node-7", false));
	assert_non_null(famfs_host_name_shared("node-7", true));
	assert_non_null(famfs_host_name_shared("", false));
	assert_non_null(famfs_host_name_shared("localhost", false));
	assert_non_null(famfs_host_name_shared("localhost.localdomain", false));
	assert_non_null(famfs_host_name_shared("(none)", false));
}

static void test_slot_home(void **s)
{
	uint8_t u[16];
	unsigned hits[64] = { 0 };

	(void)s;
	for (unsigned i = 0; i < 4096; i++) {
		for (unsigned j = 0; j < 16; j++)
			u[j] = (uint8_t)(i * 31 + j * 7 + (i >> 3));
		unsigned k = famfs_host_slot_home(u, FAMFS_HOST_SLOTS);

		assert_true(k < FAMFS_HOST_SLOTS);
		assert_int_equal(k, famfs_host_slot_home(u, FAMFS_HOST_SLOTS));
		hits[famfs_host_slot_home(u, 64)]++;
	}
	for (unsigned i = 0; i < 64; i++)
		assert_true(hits[i] > 0);
}

static uint32_t rs = 12345;
static uint32_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 17;
	rs ^= rs << 5;
	return rs;
}

/* arbitrary bytes, with and without a fixed-up CRC: never a crash, never
 * VALID with fields the decoder refuses */
static void test_decode_fuzz(void **s)
{
	uint8_t slot[FAMFS_HOST_SLOT_SIZE];
	struct famfs_hosts_hdr *h = malloc(sizeof(*h));
	struct famfs_hosts_ev ev;
	struct famfs_host g, base;
	char why[FAMFS_REASON_LEN];
	unsigned valid = 0, torn = 0, hok = 0, hbad = 0;

	(void)s;
	assert_non_null(h);
	for (unsigned it = 0; it < 20000; it++) {
		memset(slot, 0, sizeof(slot));
		mkhost(&base, (uint8_t)(rnd() % 250 + 1), rnd() % 5 + 1);
		slot_write(slot, &base);
		slot_write(slot, &base);
		for (unsigned k = rnd() % 6; k; k--)
			slot[rnd() % sizeof(slot)] = (uint8_t)rnd();
		if (rnd() % 2) {	/* recompute a copy's CRC */
			struct famfs_host_rec *r = (void *)(slot + (rnd() % 2) * 128);

			r->crc = 0;
			r->crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), r, 128));
		}
		if (famfs_host_slot_decode(slot, fsu, &g) == FAMFS_HOST_VALID) {
			valid++;
			assert_true(g.hostname[sizeof(g.hostname) - 1] == '\0');
			assert_true((g.flags & ~(FAMFS_HOST_REGISTERED |
						 FAMFS_HOST_MASTER)) == 0);
		} else {
			torn++;
		}
		/* header */
		memset(&ev, 0, sizeof(ev));
		ev.n = rnd() % 4;
		for (unsigned i = 0; i < ev.n; i++) {
			memset(ev.e[i].host_uuid, (int)i + 1, 16);
			ev.e[i].generation = 1;
		}
		famfs_hosts_hdr_encode(h, &ev, fsu);
		for (unsigned k = rnd() % 4; k; k--)
			((uint8_t *)h)[rnd() % 200] = (uint8_t)rnd();
		if (rnd() % 2) {
			h->crc = 0;
			h->crc = htole32(famfs_crc32_update(famfs_crc32(fsu, 16), h, 4096));
		}
		if (!famfs_hosts_hdr_decode(h, fsu, &ev, why)) {
			hok++;
			assert_true(ev.n <= FAMFS_HOSTS_MAX_EVICT);
		} else {
			hbad++;
		}
	}
	print_message("slots: %u valid, %u torn; headers: %u ok, %u refused\n",
		      valid, torn, hok, hbad);
	assert_true(valid > 1000 && torn > 1000 && hok > 1000 && hbad > 1000);
	free(h);
}

/* ---- the counters' end (review r39 B): no write takes a seq or a
 * generation past UINT64_MAX - 1, so none wraps to 0 and lets the older
 * copy win; a copy that says UINT64_MAX is corrupt */
static void test_counters_end(void **s)
{
	uint8_t slot[FAMFS_HOST_SLOT_SIZE] = { 0 };
	struct famfs_host_rec *c = (struct famfs_host_rec *)slot;
	struct famfs_hosts_hdr *hdr = calloc(1, sizeof(*hdr));
	struct famfs_hosts_ev ev, d;
	char why[FAMFS_REASON_LEN];
	struct famfs_host h, g;
	uint64_t seq;

	(void)s;
	assert_non_null(hdr);
	mkhost(&h, 9, 1);
	/* a decoded copy at UINT64_MAX: corrupt */
	h.seq = UINT64_MAX;
	famfs_host_rec_encode(&c[0], &h, fsu);
	assert_int_equal(famfs_host_rec_decode(&c[0], fsu, &g, why), -EINVAL);
	h.seq = 1;
	h.generation = UINT64_MAX;
	famfs_host_rec_encode(&c[0], &h, fsu);
	assert_int_equal(famfs_host_rec_decode(&c[0], fsu, &g, why), -EINVAL);
	/* ... and not the slot's newest: the other copy is the slot */
	h.generation = 4;
	h.seq = UINT64_MAX;
	famfs_host_rec_encode(&c[0], &h, fsu);
	h.seq = 7;
	famfs_host_rec_encode(&c[1], &h, fsu);
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_VALID);
	assert_int_equal(g.seq, 7);
	assert_int_equal(g.copy, 1);
	assert_int_equal(famfs_host_slot_next(slot, fsu, &seq), 0);
	assert_int_equal(seq, 8);
	/* the last seq written: no next one (0, refused), never a wrap */
	h.seq = UINT64_MAX - 1;
	famfs_host_rec_encode(&c[0], &h, fsu);
	assert_int_equal(famfs_host_slot_decode(slot, fsu, &g), FAMFS_HOST_VALID);
	assert_true(g.seq == UINT64_MAX - 1);
	famfs_host_slot_next(slot, fsu, &seq);
	assert_int_equal(seq, 0);
	/* the header: its seq, or a fence's generation, at UINT64_MAX */
	memset(&ev, 0, sizeof(ev));
	ev.seq = UINT64_MAX;
	famfs_hosts_hdr_encode(hdr, &ev, fsu);
	assert_int_equal(famfs_hosts_hdr_decode(hdr, fsu, &d, why), -EINVAL);
	ev.seq = 3;
	ev.n = 1;
	memset(ev.e[0].host_uuid, 9, 16);
	ev.e[0].generation = UINT64_MAX;
	famfs_hosts_hdr_encode(hdr, &ev, fsu);
	assert_int_equal(famfs_hosts_hdr_decode(hdr, fsu, &d, why), -EINVAL);
	ev.e[0].generation = UINT64_MAX - 1;
	famfs_hosts_hdr_encode(hdr, &ev, fsu);
	assert_int_equal(famfs_hosts_hdr_decode(hdr, fsu, &d, why), 0);
	free(hdr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_end),
		cmocka_unit_test(test_rec_roundtrip),
		cmocka_unit_test(test_rec_refusals),
		cmocka_unit_test(test_slot_newest),
		cmocka_unit_test(test_slot_torn_write),
		cmocka_unit_test(test_slot_torn_states),
		cmocka_unit_test(test_hdr),
		cmocka_unit_test(test_evicted_match),
		cmocka_unit_test(test_name_key),
		cmocka_unit_test(test_slot_home),
		cmocka_unit_test(test_decode_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
