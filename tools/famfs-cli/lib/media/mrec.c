// SPDX-License-Identifier: GPL-2.0
/*
 * The master record's bytes (famfs_format.h, RO_COMPAT_MASTER_REC): its
 * CRC, its text, and the decision it gives for an instance with a claim
 * -- pure functions of the record, the superblock, the instance and its
 * claim file's contents (the role itself: role/master.c); and the
 * holder's beat and a takeover's intent next to it: their CRC and checks
 * (the beat and the wait: role/beat.c).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "media/media.h"

static bool zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

void famfs_mrec_set_crc(struct famfs_master_record *r)
{
	r->crc = 0;
	r->crc = htole32(famfs_crc32(r, sizeof(*r)));
}

void famfs_mrec_describe(const struct famfs_master_record *r, char *out,
			 size_t n)
{
	char host[37], boot[37], when[32] = "?", name[sizeof(r->hostname) + 1];
	time_t t = (time_t)le64toh(r->claim_time);
	struct tm tm;

	famfs_uuid_str(r->host_uuid, host);
	famfs_uuid_str(r->boot_id, boot);
	memcpy(name, r->hostname, sizeof(r->hostname));
	name[sizeof(r->hostname)] = '\0';
	/* another host's bytes: no control characters in messages */
	for (char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	snprintf(out, n, "host %s (%s), boot %s, generation %llu, claimed at %s",
		 host, name[0] ? name : "no name", boot,
		 (unsigned long long)le64toh(r->generation), when);
}

enum famfs_mrec_state famfs_mrec_decide(const struct famfs_superblock *sb,
					const struct famfs_master_record *media,
					const struct famfs_me *me,
					const struct famfs_claim *c,
					char *reason)
{
	/* one read: the CRC and the fields judged are of the same bytes */
	const struct famfs_master_record rec = *media, *r = &rec;
	struct famfs_master_record tmp;
	uint32_t crc, flags = le32toh(r->flags);
	char who[300];

	if (reason)
		reason[0] = '\0';
	if (!(le32toh(sb->feature_ro_compat) & FAMFS_FEATURE_RO_COMPAT_MASTER_REC))
		return FAMFS_MREC_FREE;		/* made before master records */
	if (zero(r, sizeof(*r)))
		return FAMFS_MREC_FREE;		/* never claimed */
#define WHY(...) do { if (reason) snprintf(reason, FAMFS_MREC_REASON_LEN, __VA_ARGS__); } while (0)
	if (le64toh(r->magic) != FAMFS_MREC_MAGIC) {
		WHY("master record: bad magic 0x%016llx",
		    (unsigned long long)le64toh(r->magic));
		return FAMFS_MREC_BAD;
	}
	memcpy(&tmp, r, sizeof(tmp));
	tmp.crc = 0;
	crc = famfs_crc32(&tmp, sizeof(tmp));
	if (crc != le32toh(r->crc)) {
		WHY("master record CRC mismatch (stored 0x%08x, computed 0x%08x)",
		    le32toh(r->crc), crc);
		return FAMFS_MREC_BAD;
	}
	if (flags & ~FAMFS_MREC_HELD) {
		WHY("master record with unknown flags 0x%x (written by a newer tool?)",
		    flags & ~FAMFS_MREC_HELD);
		return FAMFS_MREC_BAD;
	}
	if (memcmp(r->fs_uuid, sb->fs_uuid, 16)) {
		WHY("master record of another file system (fs uuid differs)");
		return FAMFS_MREC_BAD;
	}
	if (!zero(r->reserved, sizeof(r->reserved))) {
		WHY("master record: reserved bytes are not zero");
		return FAMFS_MREC_BAD;
	}
	if (!(flags & FAMFS_MREC_HELD))
		return FAMFS_MREC_FREE;		/* released */
	famfs_mrec_describe(r, who, sizeof(who));
	if (memcmp(r->host_uuid, me->host, 16)) {
		WHY("another master holds the log: %s", who);
		return FAMFS_MREC_OTHER;
	}
	/* this host's uuid: this instance's claim, if its claim file says so */
	if (c && c->present && !memcmp(c->host, me->host, 16) &&
	    !memcmp(c->boot, r->boot_id, 16) &&
	    c->generation == le64toh(r->generation))
		return memcmp(r->boot_id, me->boot, 16) ? FAMFS_MREC_REBOOT :
							  FAMFS_MREC_MINE;
	WHY("another master holds the log: %s (this host's uuid, but not this instance's claim: a cloned host or container?)",
	    who);
	return FAMFS_MREC_OTHER;
#undef WHY
}

void famfs_mrec_show(const struct famfs_superblock *sb,
		     const struct famfs_master_record *r, char *out, size_t n)
{
	static const struct famfs_me nobody;
	char why[FAMFS_MREC_REASON_LEN], desc[400];

	if (!(le32toh(sb->feature_ro_compat) & FAMFS_FEATURE_RO_COMPAT_MASTER_REC)) {
		snprintf(out, n, "none yet (made before master records; the master writes one at mount)");
		return;
	}
	if (zero(r, sizeof(*r))) {
		snprintf(out, n, "never claimed");
		return;
	}
	/* nobody's view: FREE (released), OTHER (held) or BAD */
	if (famfs_mrec_decide(sb, r, &nobody, NULL, why) == FAMFS_MREC_BAD) {
		snprintf(out, n, "corrupt: %s", why);
		return;
	}
	famfs_mrec_describe(r, desc, sizeof(desc));
	snprintf(out, n, "%s: %s",
		 le32toh(r->flags) & FAMFS_MREC_HELD ? "held" : "released", desc);
}

/* ---- the holder's beat and a takeover's intent, next to the record ---- */
_Static_assert(FAMFS_MINTENT_SIZE == FAMFS_MBEAT_SIZE, "one buffer for both");
/* the CRC of n bytes (a beat or an intent) with the crc field (at byte 8)
 * taken as zero */
uint32_t famfs_mbeat_crc(const void *p, size_t n)
{
	uint8_t tmp[FAMFS_MBEAT_SIZE];

	memcpy(tmp, p, n);
	memset(tmp + 8, 0, 4);
	return famfs_crc32(tmp, n);
}

bool famfs_beat_valid(const struct famfs_master_beat *b,
		      const struct famfs_master_record *r,
		      const uint8_t fs_uuid[16])
{
	return le64toh(b->magic) == FAMFS_MBEAT_MAGIC &&
	       le32toh(b->crc) == famfs_mbeat_crc(b, sizeof(*b)) && !b->flags &&
	       famfs_all_zero(b->reserved, sizeof(b->reserved)) &&
	       !memcmp(b->fs_uuid, fs_uuid, 16) &&
	       b->generation == r->generation &&
	       !memcmp(b->boot_id, r->boot_id, 16);
}

bool famfs_intent_valid(const struct famfs_master_intent *in,
			const struct famfs_master_record *r,
			const uint8_t fs_uuid[16])
{
	return le64toh(in->magic) == FAMFS_MINTENT_MAGIC &&
	       le32toh(in->crc) == famfs_mbeat_crc(in, sizeof(*in)) &&
	       famfs_all_zero(in->reserved, sizeof(in->reserved)) &&
	       !memcmp(in->fs_uuid, fs_uuid, 16) &&
	       in->generation == r->generation;
}
