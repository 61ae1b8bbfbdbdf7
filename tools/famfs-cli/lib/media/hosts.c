// SPDX-License-Identifier: GPL-2.0
/*
 * The host table's bytes (famfs_format.h, format revision 3, HOSTS): one
 * struct famfs_host_rec copy encoded and decoded, a slot's two copies
 * judged (the newest that verifies is the slot; a torn write of the older
 * leaves the newer whole), and the header with the evicted list (two
 * copies judged the same way).  Pure
 * functions of bytes in memory: the caller copies a slot out of the shared
 * mapping first (another host may write it meanwhile).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "media/media.h"

#define HOST_FLAGS	(FAMFS_HOST_REGISTERED | FAMFS_HOST_MASTER | \
			 FAMFS_HOST_AFTER_FENCE)
/* the header of the earlier layout (fences without a name: review r42f) */
#define HOSTS_MAGIC_3	0x33534f48534d4146ULL	/* "FAMSHOS3" */
#define HOSTS_FLAGS	FAMFS_HOSTS_ARMED	/* the header's */

static uint32_t seeded_crc(const void *p, size_t n, const uint8_t fs_uuid[16])
{
	return famfs_crc32_update(famfs_crc32(fs_uuid, 16), p, n);
}

static uint32_t rec_crc(const struct famfs_host_rec *r,
			const uint8_t fs_uuid[16])
{
	struct famfs_host_rec c = *r;

	c.crc = 0;
	return seeded_crc(&c, sizeof(c), fs_uuid);
}

void famfs_host_rec_encode(struct famfs_host_rec *r, const struct famfs_host *h,
			   const uint8_t fs_uuid[16])
{
	memset(r, 0, sizeof(*r));
	r->magic = htole64(FAMFS_HOST_MAGIC);
	r->flags = htole32(h->flags);
	memcpy(r->host_uuid, h->host_uuid, 16);
	memcpy(r->boot_id, h->boot_id, 16);
	r->generation = htole64(h->generation);
	r->seq = htole64(h->seq);
	r->registered_at = htole64(h->registered_at);
	r->replayed = htole64(h->replayed);
	r->holds_from = htole64(h->holds_from);
	r->held_bytes = htole64(h->held_bytes);
	r->beat_time = htole64(h->beat_time);
	/* at most 15 bytes: a NUL always ends it on the media */
	memcpy(r->hostname, h->hostname,
	       strnlen(h->hostname, sizeof(r->hostname) - 1));
	r->name_hash = htole64(h->name_hash);
	r->crc = htole32(seeded_crc(r, sizeof(*r), fs_uuid));
}

/* magic and CRC only: the copy was written whole for this file system */
static bool rec_verifies(const struct famfs_host_rec *r,
			 const uint8_t fs_uuid[16])
{
	return le64toh(r->magic) == FAMFS_HOST_MAGIC &&
	       le32toh(r->crc) == rec_crc(r, fs_uuid);
}

int famfs_host_rec_decode(const struct famfs_host_rec *r,
			  const uint8_t fs_uuid[16], struct famfs_host *h,
			  char *reason)
{
	static const uint8_t nil[16];
	const char *nul;
	uint32_t flags;

	memset(h, 0, sizeof(*h));
	if (le64toh(r->magic) != FAMFS_HOST_MAGIC) {
		snprintf(reason, FAMFS_REASON_LEN, "no host record (magic)");
		return -EBADMSG;
	}
	if (le32toh(r->crc) != rec_crc(r, fs_uuid)) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "host record CRC mismatch (torn, or another file system's)");
		return -EBADMSG;
	}
	flags = le32toh(r->flags);
	if (flags & ~HOST_FLAGS) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "host record has unknown flags 0x%x", flags & ~HOST_FLAGS);
		return -EINVAL;
	}
	nul = memchr(r->hostname, '\0', sizeof(r->hostname));
	if (!nul || !famfs_all_zero(nul, (size_t)(r->hostname +
					       sizeof(r->hostname) - nul))) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "host record's hostname is not NUL-padded");
		return -EINVAL;
	}
	if (!memcmp(r->host_uuid, nil, 16)) {
		snprintf(reason, FAMFS_REASON_LEN, "host record has no host uuid");
		return -EINVAL;
	}
	if (!r->seq || ((flags & FAMFS_HOST_REGISTERED) && !r->generation)) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "host record has seq or generation 0");
		return -EINVAL;
	}
	if (le64toh(r->seq) > FAMFS_HOST_SEQ_MAX ||
	    le64toh(r->generation) > FAMFS_HOST_SEQ_MAX) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "host record has seq or generation UINT64_MAX (none is written past UINT64_MAX - 1)");
		return -EINVAL;
	}
	h->state = FAMFS_HOST_VALID;
	h->flags = flags;
	memcpy(h->host_uuid, r->host_uuid, 16);
	memcpy(h->boot_id, r->boot_id, 16);
	h->generation = le64toh(r->generation);
	h->seq = le64toh(r->seq);
	h->registered_at = le64toh(r->registered_at);
	h->replayed = le64toh(r->replayed);
	h->holds_from = le64toh(r->holds_from);
	h->held_bytes = le64toh(r->held_bytes);
	h->beat_time = le64toh(r->beat_time);
	memcpy(h->hostname, r->hostname, sizeof(r->hostname));
	h->name_hash = le64toh(r->name_hash);
	return 0;
}

/* The copy whose magic and CRC verify with the highest seq: 0 or 1, or -1
 * for none; -2 for two of one seq that differ.  A seq past
 * FAMFS_HOST_SEQ_MAX is no writer's: that copy is corrupt. */
static int newest_copy(const void *slot, const uint8_t fs_uuid[16])
{
	const struct famfs_host_rec *c = slot;
	uint64_t s0 = le64toh(c[0].seq), s1 = le64toh(c[1].seq);
	bool v0 = rec_verifies(&c[0], fs_uuid) && s0 <= FAMFS_HOST_SEQ_MAX;
	bool v1 = rec_verifies(&c[1], fs_uuid) && s1 <= FAMFS_HOST_SEQ_MAX;

	if (v0 && v1) {
		if (s0 == s1)
			return memcmp(&c[0], &c[1], sizeof(c[0])) ? -2 : 0;
		return s1 > s0;
	}
	return v0 ? 0 : v1 ? 1 : -1;
}

enum famfs_host_state famfs_host_slot_decode(const void *slot,
					     const uint8_t fs_uuid[16],
					     struct famfs_host *h)
{
	const struct famfs_host_rec *c = slot;
	char why[FAMFS_REASON_LEN];
	int n;

	memset(h, 0, sizeof(*h));
	if (famfs_all_zero(slot, FAMFS_HOST_SLOT_SIZE))
		return h->state = FAMFS_HOST_FREE;
	n = newest_copy(slot, fs_uuid);
	/* the newest copy is not understood (a newer tool's): not judged by
	 * an older one that happens to verify */
	if (n < 0 || famfs_host_rec_decode(&c[n], fs_uuid, h, why)) {
		memset(h, 0, sizeof(*h));
		return h->state = FAMFS_HOST_TORN;
	}
	h->copy = (unsigned)n;
	/* nor is a slot with a later layout's copy, whatever the seqs (they
	 * may count otherwise): torn to this build, its owner included (it
	 * cannot tell its own copy from a clone's live one: review rev4 1)
	 * -- it blocks reclaim, and is never zeroed here (review rev2 R2) */
	if (famfs_host_slot_newer(slot, fs_uuid)) {
		memset(h, 0, sizeof(*h));
		return h->state = FAMFS_HOST_TORN;
	}
	return FAMFS_HOST_VALID;
}

unsigned famfs_host_slot_next(const void *slot, const uint8_t fs_uuid[16],
			      uint64_t *seq)
{
	const struct famfs_host_rec *c = slot;
	int n = newest_copy(slot, fs_uuid);

	if (n < 0) {
		*seq = 1;
		return 0;
	}
	*seq = famfs_host_seq_next(le64toh(c[n].seq));
	return 1 - (unsigned)n;
}

static uint32_t hdr_crc(const struct famfs_hosts_hdr *h,
			const uint8_t fs_uuid[16])
{
	uint32_t crc = famfs_crc32_update(famfs_crc32(fs_uuid, 16), h,
					  offsetof(struct famfs_hosts_hdr, crc));
	static const uint8_t zero4[4];

	crc = famfs_crc32_update(crc, zero4, 4);
	return famfs_crc32_update(crc, (const uint8_t *)h +
				  offsetof(struct famfs_hosts_hdr, nevicted),
				  sizeof(*h) - offsetof(struct famfs_hosts_hdr,
							nevicted));
}

void famfs_hosts_hdr_encode(struct famfs_hosts_hdr *h,
			    const struct famfs_hosts_ev *ev,
			    const uint8_t fs_uuid[16])
{
	memset(h, 0, sizeof(*h));
	h->magic = htole64(FAMFS_HOSTS_MAGIC);
	if (ev) {
		unsigned n = ev->n < FAMFS_HOSTS_MAX_EVICT ?
			     ev->n : FAMFS_HOSTS_MAX_EVICT;

		h->seq = htole64(ev->seq);
		h->flags = htole32(ev->flags);
		h->nevicted = htole32(n);
		for (unsigned i = 0; i < n; i++) {
			memcpy(h->evicted[i].host_uuid, ev->e[i].host_uuid, 16);
			memcpy(h->evicted[i].boot_id, ev->e[i].boot_id, 16);
			memcpy(h->evicted[i].hostname, ev->e[i].hostname,
			       strnlen(ev->e[i].hostname,
				       sizeof(h->evicted[i].hostname) - 1));
			h->evicted[i].name_hash = htole64(ev->e[i].name_hash);
			h->evicted[i].generation = htole64(ev->e[i].generation);
			h->evicted[i].time = htole64(ev->e[i].time);
			h->evicted[i].flags = htole32(ev->e[i].flags);
		}
	}
	h->crc = htole32(hdr_crc(h, fs_uuid));
}

static bool hdr_verifies(const struct famfs_hosts_hdr *h,
			 const uint8_t fs_uuid[16])
{
	return le64toh(h->magic) == FAMFS_HOSTS_MAGIC &&
	       le32toh(h->crc) == hdr_crc(h, fs_uuid);
}

int famfs_hosts_hdr_decode(const struct famfs_hosts_hdr *h,
			   const uint8_t fs_uuid[16], struct famfs_hosts_ev *ev,
			   char *reason)
{
	static const uint8_t nil[16];
	unsigned n;

	memset(ev, 0, sizeof(*ev));
	if (le64toh(h->magic) != FAMFS_HOSTS_MAGIC) {
		snprintf(reason, FAMFS_REASON_LEN, "no host table header (magic)");
		return -EBADMSG;
	}
	if (le32toh(h->crc) != hdr_crc(h, fs_uuid)) {
		snprintf(reason, FAMFS_REASON_LEN, "host table header CRC mismatch");
		return -EBADMSG;
	}
	/* first: a newer build's flag may give the rest another meaning */
	if (le32toh(h->flags) & ~HOSTS_FLAGS) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "a newer famfs set flag 0x%x in the host table: this famfs cannot take part (upgrade it)",
			 le32toh(h->flags) & ~HOSTS_FLAGS);
		return -EPROTONOSUPPORT;
	}
	n = le32toh(h->nevicted);
	if (n > FAMFS_HOSTS_MAX_EVICT) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "host table header: %u evicted, at most %u", n,
			 FAMFS_HOSTS_MAX_EVICT);
		return -EINVAL;
	}
	/* a fence flag this build does not know: a newer build's fence kind,
	 * its rules -- never "not understood", which a registration takes as
	 * no fences (review rfence F1) */
	for (unsigned i = 0; i < n; i++)
		if (le32toh(h->evicted[i].flags) & ~FAMFS_FENCE_BY_SLOT) {
			snprintf(reason, FAMFS_REASON_LEN,
				 "a newer famfs set flag 0x%x on fence %u in the host table: this famfs cannot take part (upgrade it)",
				 le32toh(h->evicted[i].flags) &
				 ~FAMFS_FENCE_BY_SLOT, i);
			return -EPROTONOSUPPORT;
		}
	if (!famfs_all_zero(h->pad, sizeof(h->pad)) ||
	    !famfs_all_zero(h->tail, sizeof(h->tail)) ||
	    !famfs_all_zero(&h->evicted[n], (FAMFS_HOSTS_MAX_EVICT - n) *
			    sizeof(h->evicted[0]))) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "host table header: reserved bytes not zero");
		return -EINVAL;
	}
	if (le64toh(h->seq) > FAMFS_HOST_SEQ_MAX) {
		snprintf(reason, FAMFS_REASON_LEN,
			 "host table header has seq UINT64_MAX (none is written past UINT64_MAX - 1)");
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		const char *nm = h->evicted[i].hostname;
		const char *nul = memchr(nm, '\0', sizeof(h->evicted[i].hostname));

		if (!famfs_all_zero(h->evicted[i].pad,
				    sizeof(h->evicted[i].pad)) ||
		    !nul || !famfs_all_zero(nul, (size_t)(nm +
				sizeof(h->evicted[i].hostname) - nul))) {
			snprintf(reason, FAMFS_REASON_LEN,
				 "host table header: evicted entry %u has pad or a hostname not NUL-padded",
				 i);
			return -EINVAL;
		}
		if (!memcmp(h->evicted[i].host_uuid, nil, 16) ||
		    !h->evicted[i].generation ||
		    le64toh(h->evicted[i].generation) > FAMFS_HOST_SEQ_MAX) {
			snprintf(reason, FAMFS_REASON_LEN,
				 "host table header: evicted entry %u has no host or generation",
				 i);
			return -EINVAL;
		}
		memcpy(ev->e[i].host_uuid, h->evicted[i].host_uuid, 16);
		memcpy(ev->e[i].boot_id, h->evicted[i].boot_id, 16);
		memcpy(ev->e[i].hostname, h->evicted[i].hostname,
		       sizeof(ev->e[i].hostname));
		ev->e[i].name_hash = le64toh(h->evicted[i].name_hash);
		ev->e[i].generation = le64toh(h->evicted[i].generation);
		ev->e[i].time = le64toh(h->evicted[i].time);
		ev->e[i].flags = le32toh(h->evicted[i].flags);
	}
	ev->n = n;
	ev->seq = le64toh(h->seq);
	ev->flags = le32toh(h->flags);
	return 0;
}

/* The header copy whose magic and CRC verify with the highest seq: 0 or
 * 1, or -1 for none; -2 for two of one seq that differ (as a slot's).  A
 * seq past FAMFS_HOST_SEQ_MAX is no writer's: that copy is corrupt. */
static int newest_hdr(const struct famfs_hosts_hdr *c,
		      const uint8_t fs_uuid[16])
{
	uint64_t s0 = le64toh(c[0].seq), s1 = le64toh(c[1].seq);
	bool v0 = hdr_verifies(&c[0], fs_uuid) && s0 <= FAMFS_HOST_SEQ_MAX;
	bool v1 = hdr_verifies(&c[1], fs_uuid) && s1 <= FAMFS_HOST_SEQ_MAX;

	if (v0 && v1) {
		if (s0 == s1)
			return memcmp(&c[0], &c[1], sizeof(c[0])) ? -2 : 0;
		return s1 > s0;
	}
	return v0 ? 0 : v1 ? 1 : -1;
}

/* a copy of the earlier layout that verifies as that layout's would (the
 * same 4096 bytes, CRC seeded the same) */
bool famfs_hosts_hdr_old(const void *hdr, const uint8_t fs_uuid[16])
{
	const struct famfs_hosts_hdr *h = hdr;

	return le64toh(h->magic) == HOSTS_MAGIC_3 &&
	       le32toh(h->crc) == hdr_crc(h, fs_uuid);
}

/* FAMSHOS3's fence (48 bytes at byte 64 + 48 i, 84 a copy) */
struct hosts_evicted_3 {
	uint8_t host_uuid[16];
	uint8_t boot_id[16];
	__le64	generation;
	__le64	time;
};

/* fence f (flags, name and all) added to ev unless it has (uuid, boot id,
 * generation) already */
static void ev_add(struct famfs_hosts_ev *ev, const struct famfs_host_evict *f)
{
	for (unsigned i = 0; i < ev->n; i++)
		if (ev->e[i].generation == f->generation &&
		    !memcmp(ev->e[i].host_uuid, f->host_uuid, 16) &&
		    !memcmp(ev->e[i].boot_id, f->boot_id, 16))
			return;
	if (ev->n < FAMFS_HOSTS_EV_CAP)
		ev->e[ev->n++] = *f;
}

/* a verifying FAMSHOS3 copy's fences (a nil uuid skipped: no fence) and
 * its flags (ARMED) added to ev */
static void old_fences(const void *hdr, struct famfs_hosts_ev *ev)
{
	const struct famfs_hosts_hdr *h = hdr;
	const struct hosts_evicted_3 *e3 = (const void *)((const uint8_t *)hdr + 64);
	static const uint8_t nil[16];
	unsigned n = le32toh(h->nevicted);

	_Static_assert(sizeof(struct hosts_evicted_3) == 48 &&
		       64 + FAMFS_HOSTS_MAX_EVICT_3 * 48 == FAMFS_HOSTS_HDR_SIZE,
		       "FAMSHOS3: 84 fences of 48 bytes from byte 64");
	if (n > FAMFS_HOSTS_MAX_EVICT_3)
		n = FAMFS_HOSTS_MAX_EVICT_3;
	ev->flags |= le32toh(h->flags) & HOSTS_FLAGS;
	for (unsigned i = 0; i < n; i++) {
		struct famfs_host_evict f = { 0 };
		struct hosts_evicted_3 x;

		memcpy(&x, &e3[i], sizeof(x));
		if (!memcmp(x.host_uuid, nil, 16))
			continue;
		memcpy(f.host_uuid, x.host_uuid, 16);
		memcpy(f.boot_id, x.boot_id, 16);
		f.generation = le64toh(x.generation);
		f.time = le64toh(x.time);
		ev_add(ev, &f);
	}
}

/* a FAMSHOS3 copy verifies (o0, o1): the header is not understood
 * (-EINVAL), but its fences are read and kept with those of a FAMSHOS4
 * copy that verifies beside it (n; whatever the seqs: this build leaves
 * no FAMSHOS3 copy when it writes, so one is an older build's later
 * write, and the FAMSHOS4 copy beside may be stale: review rfence F4) */
static int old_layout(const struct famfs_hosts_hdr *c, int n, bool o0, bool o1,
		      const uint8_t fs_uuid[16], struct famfs_hosts_ev *ev,
		      char *reason)
{
	struct famfs_hosts_ev *cur = NULL;
	int rc = 0;

	memset(ev, 0, sizeof(*ev));
	if (n >= 0 && (cur = malloc(sizeof(*cur)))) {
		rc = famfs_hosts_hdr_decode(&c[n], fs_uuid, cur, reason);
		if (rc == -EPROTONOSUPPORT) {
			free(cur);
			return rc;
		}
		if (!rc) {
			ev->flags = cur->flags;
			for (unsigned i = 0; i < cur->n; i++)
				ev_add(ev, &cur->e[i]);
		}
	} else if (n >= 0) {
		snprintf(reason, FAMFS_REASON_LEN, "out of memory");
		return -ENOMEM;
	}
	free(cur);
	if (o0)
		old_fences(&c[0], ev);
	if (o1)
		old_fences(&c[1], ev);
	ev->old_layout = true;
	snprintf(reason, FAMFS_REASON_LEN,
		 "host table header copy of an earlier famfs (FAMSHOS3%s): the two must not share a file system (%u fences kept)",
		 n >= 0 ? ", beside a FAMSHOS4 one" : ", not FAMSHOS4", ev->n);
	return -EINVAL;
}

/* magic m is a later revision of the one of this build's magic mine: its
 * first seven bytes ("FAMSHOS", "FAMSHOR"), its last (the digit) greater */
static bool later_magic(uint64_t m, uint64_t mine)
{
	const uint64_t low = (1ULL << 56) - 1;

	return (m & low) == (mine & low) && (m >> 56) > (mine >> 56);
}

bool famfs_hosts_hdr_newer(const void *hdr, const uint8_t fs_uuid[16])
{
	const struct famfs_hosts_hdr *h = hdr;

	return later_magic(le64toh(h->magic), FAMFS_HOSTS_MAGIC) &&
	       le32toh(h->crc) == hdr_crc(h, fs_uuid);
}

bool famfs_host_slot_newer(const void *slot, const uint8_t fs_uuid[16])
{
	const struct famfs_host_rec *c = slot;
	int n = newest_copy(slot, fs_uuid);

	/* a later layout's copy, whatever the seqs (its may count
	 * otherwise); or the newest copy of this layout with a flag this
	 * build does not know (a newer build adds record flags without a
	 * new magic, as FAMFS_HOST_AFTER_FENCE came: review rev5 1) -- an
	 * older one is stale, as any older copy (review rev6 1) */
	for (unsigned i = 0; i < 2; i++)
		if (later_magic(le64toh(c[i].magic), FAMFS_HOST_MAGIC) &&
		    le32toh(c[i].crc) == rec_crc(&c[i], fs_uuid))
			return true;
	return n >= 0 && (le32toh(c[n].flags) & ~HOST_FLAGS);
}

int famfs_hosts_hdrs_decode(const void *hdrs, const uint8_t fs_uuid[16],
			    struct famfs_hosts_ev *ev, char *reason)
{
	const struct famfs_hosts_hdr *c = hdrs;
	int n = newest_hdr(c, fs_uuid);
	bool o0 = famfs_hosts_hdr_old(&c[0], fs_uuid);
	bool o1 = famfs_hosts_hdr_old(&c[1], fs_uuid);

	/* a later layout's copy (CRC and all): a newer build wrote it, under
	 * rules this one lacks -- never taken as torn, no fences, nor
	 * repaired over (review rfence F3a) */
	for (unsigned i = 0; i < 2; i++)
		if (famfs_hosts_hdr_newer(&c[i], fs_uuid)) {
			uint64_t m = le64toh(c[i].magic);

			memset(ev, 0, sizeof(*ev));
			snprintf(reason, FAMFS_REASON_LEN,
				 "a newer famfs wrote the host table header (layout FAMSHOS%c, this famfs knows FAMSHOS4): this famfs cannot take part (upgrade it)",
				 (char)(m >> 56));
			return -EPROTONOSUPPORT;
		}
	if (o0 || o1)
		return old_layout(c, n, o0, o1, fs_uuid, ev, reason);
	if (n >= 0)
		return famfs_hosts_hdr_decode(&c[n], fs_uuid, ev, reason);
	memset(ev, 0, sizeof(*ev));
	if (n == -2) {
		/* each verifies: not torn, but no writer makes it -- not
		 * understood, never "no copy verifies" */
		snprintf(reason, FAMFS_REASON_LEN,
			 "host table header: its two copies have one seq and differ");
		return -EINVAL;
	}
	snprintf(reason, FAMFS_REASON_LEN,
		 "host table header: no copy verifies (%s)",
		 le64toh(c[0].magic) != FAMFS_HOSTS_MAGIC &&
		 le64toh(c[1].magic) != FAMFS_HOSTS_MAGIC ? "magic" :
		 le64toh(c[0].seq) > FAMFS_HOST_SEQ_MAX ||
		 le64toh(c[1].seq) > FAMFS_HOST_SEQ_MAX ? "CRC, or seq UINT64_MAX" :
		 "CRC");
	return -EBADMSG;
}

unsigned famfs_hosts_hdr_next(const void *hdrs, const uint8_t fs_uuid[16],
			      uint64_t *seq)
{
	const struct famfs_hosts_hdr *c = hdrs;
	int n = newest_hdr(c, fs_uuid);
	uint64_t s0 = le64toh(c[0].seq), s1 = le64toh(c[1].seq), top = 0;
	bool o0 = famfs_hosts_hdr_old(&c[0], fs_uuid);
	bool o1 = famfs_hosts_hdr_old(&c[1], fs_uuid);
	unsigned to = n >= 0 ? 1 - (unsigned)n : 0;

	/* a FAMSHOS3 copy (repair --force) is written over last, so a write
	 * cut short leaves its fences: the other copy first; of two FAMSHOS3
	 * copies, the older first (review r43d B1).  A FAMSHOS4 copy beside
	 * one is not spared: both hold fences, a tear loses one copy's own
	 * either way, and the two layouts must not share a file system */
	if (o0 != o1)
		to = o0;
	else if (o0)
		to = s0 > s1;
	if (n >= 0) {
		*seq = famfs_host_seq_next(le64toh(c[n].seq));
		return to;
	}
	/* none verifies, or two of one seq (a repair): the sequence goes on
	 * from what is there (a seq past the end is no writer's) */
	if (le64toh(c[0].magic) == FAMFS_HOSTS_MAGIC && s0 <= FAMFS_HOST_SEQ_MAX)
		top = s0;
	if (le64toh(c[1].magic) == FAMFS_HOSTS_MAGIC &&
	    s1 <= FAMFS_HOST_SEQ_MAX && s1 > top)
		top = s1;
	*seq = famfs_host_seq_next(top);
	return to;
}

bool famfs_host_evicted(const struct famfs_host *h,
			const struct famfs_hosts_ev *ev)
{
	if (!ev || h->state != FAMFS_HOST_VALID)
		return false;
	for (unsigned i = 0; i < ev->n; i++)
		if (ev->e[i].generation == h->generation &&
		    !memcmp(ev->e[i].host_uuid, h->host_uuid, 16) &&
		    !memcmp(ev->e[i].boot_id, h->boot_id, 16))
			return true;
	return false;
}

int famfs_host_key_rank(const struct famfs_host *h,
			const struct famfs_host_key *k)
{
	if (h->state != FAMFS_HOST_VALID || memcmp(h->host_uuid, k->uuid, 16))
		return 0;
	if (!memcmp(h->boot_id, k->boot, 16))
		return 2;
	return h->name_hash == k->name_hash &&
	       !strncmp(h->hostname, k->name, sizeof(k->name));
}

uint64_t famfs_host_name_hash(const char *name, size_t n)
{
	uint64_t x = 0xcbf29ce484222325ULL;	/* FNV-1a-64 */

	for (size_t i = 0; i < n; i++) {
		x ^= (unsigned char)name[i];
		x *= 0x100000001b3ULL;
	}
	return x;
}

void famfs_host_key_name(struct famfs_host_key *k, const char *full)
{
	size_t n = strlen(full);

	memset(k->name, 0, sizeof(k->name));
	memcpy(k->name, full, n < sizeof(k->name) - 1 ? n : sizeof(k->name) - 1);
	k->name_hash = famfs_host_name_hash(full, n);
}

const char *famfs_host_name_shared(const char *full, bool failed)
{
	static const char *const dflt[] = {
		"localhost", "localhost.localdomain", "localhost6",
		"localhost6.localdomain6", "(none)", "localdomain",
	};

	if (failed)
		return "gethostname failed";
	if (!*full)
		return "the host name is empty";
	for (size_t i = 0; i < sizeof(dflt) / sizeof(dflt[0]); i++)
		if (!strcmp(full, dflt[i]))
			return "a distribution's default host name";
	return NULL;
}

/* FNV-1a over the uuid, mixed: the same slot on every host and every tool */
unsigned famfs_host_slot_home(const uint8_t host_uuid[16], unsigned nslots)
{
	uint64_t x = 0xcbf29ce484222325ULL;

	for (unsigned i = 0; i < 16; i++) {
		x ^= host_uuid[i];
		x *= 0x100000001b3ULL;
	}
	/* and mixed (splitmix64's finalizer): the low bits count */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return nslots ? (unsigned)(x % nslots) : 0;
}
