// SPDX-License-Identifier: GPL-2.0
/*
 * The master's beat and a takeover's wait (famfs_format.h, issue 27.4).
 *
 * A disk clone of a running master has its host uuid and its claim file:
 * to the master record it looks like that host after a reboot
 * (FAMFS_MREC_REBOOT).  The instance that holds the record beats at every
 * command that checks the role; another boot of its host takes the role
 * only when the beat is older than a lease by its clock and did not move
 * while it watched it for a lease (after announcing it in the intent).  A
 * holder with no command for longer than a lease can so lose the role to a
 * clone; its next append is refused, naming the new holder.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "role/role.h"

uint64_t (*famfs_master_clock_hook)(void);
void (*famfs_master_sleep_hook)(unsigned seconds);

unsigned famfs_master_lease(void)
{
	const char *env = getenv("FAMFS_MASTER_LEASE");
	char *end;
	unsigned long v;

	if (!env || !*env)
		return FAMFS_MASTER_LEASE_DEFAULT;
	v = strtoul(env, &end, 10);
	if (*end || v < 1 || v > 3600) {
		famfs_warn("FAMFS_MASTER_LEASE=%s: not 1..3600 seconds; %u used",
			   env, FAMFS_MASTER_LEASE_DEFAULT);
		return FAMFS_MASTER_LEASE_DEFAULT;
	}
	return (unsigned)v;
}

uint64_t famfs_master_now(void)
{
	return famfs_master_clock_hook ? famfs_master_clock_hook() :
					 (uint64_t)time(NULL);
}

static void wait_1s(void)
{
	if (famfs_master_sleep_hook)
		famfs_master_sleep_hook(1);
	else
		sleep(1);
}

static void *at(void *region, uint64_t off)
{
	return (char *)region + off;
}

/* the bytes at off of the superblock region, as memory holds them now
 * (zeros -- no beat -- past a mapping of the head only) */
static void region_read(struct famfs_fs *fs, uint64_t off, void *out, size_t n)
{
	if (!fs->sbm.addr || fs->sbm.len < off + n) {
		memset(out, 0, n);
		return;
	}
	famfs_map_refresh(&fs->sbm, at(fs->sbm.addr, off), n);
	memcpy(out, at(fs->sbm.addr, off), n);
}

bool famfs_beat_of(struct famfs_fs *fs, const struct famfs_master_record *r,
		   struct famfs_master_beat *b)
{
	region_read(fs, FAMFS_MBEAT_OFFSET, b, sizeof(*b));
	return famfs_beat_valid(b, r, fs->sb->fs_uuid);
}

static bool intent_of(struct famfs_fs *fs, const struct famfs_master_record *r,
		      struct famfs_master_intent *in)
{
	region_read(fs, FAMFS_MINTENT_OFFSET, in, sizeof(*in));
	return famfs_intent_valid(in, r, fs->sb->fs_uuid);
}

void famfs_beat_fill(struct famfs_master_beat *b,
		     const struct famfs_master_record *r, uint64_t count)
{
	memset(b, 0, sizeof(*b));
	b->magic = htole64(FAMFS_MBEAT_MAGIC);
	b->generation = r->generation;
	memcpy(b->fs_uuid, r->fs_uuid, 16);
	memcpy(b->boot_id, r->boot_id, 16);
	b->count = htole64(count);
	b->beat_time = htole64(famfs_master_now());
	b->crc = htole32(famfs_mbeat_crc(b, sizeof(*b)));
}

/* "N s ago" (0 for a beat from the future: another clock) */
static unsigned long long age_of(const struct famfs_master_beat *b)
{
	uint64_t now = famfs_master_now(), t = le64toh(b->beat_time);

	return now > t ? (unsigned long long)(now - t) : 0;
}

/* Seconds a beat is stamped ahead of this clock by more than a lease (a
 * skew within a lease is taken as "just now"), else 0: its age is then
 * unknown -- the clock that stamped it runs ahead of this one, or this
 * one was set back (an RTC reset before NTP) -- so it neither refuses a
 * takeover at once nor counts as live; the wait, which watches the count
 * and no clock, decides. */
static unsigned long long ahead_of(const struct famfs_master_beat *b,
				   unsigned lease)
{
	uint64_t now = famfs_master_now(), t = le64toh(b->beat_time);

	return t > now && t - now > lease ? (unsigned long long)(t - now) : 0;
}

void famfs_beat_renew(struct famfs_fs *fs)
{
	const struct famfs_master_record *r = &fs->mrec;	/* mine */
	struct famfs_master_intent in;
	struct famfs_master_beat b;
	uint64_t now = famfs_master_now(), count = 0;
	unsigned every = famfs_master_lease() / 3;
	struct famfs_sbw w;
	char u[37];
	int rc;

	if (fs->beat_at && now >= fs->beat_at && now - fs->beat_at < (every ? every : 1))
		return;
	if (famfs_beat_of(fs, r, &b))
		count = le64toh(b.count);
	/* another boot of this host announced a takeover since the last
	 * beat: a clone of this host's disk, or a reboot it takes for one */
	if (intent_of(fs, r, &in) && memcmp(in.boot_id, r->boot_id, 16) &&
	    le64toh(in.count_seen) == count) {
		famfs_uuid_str(in.boot_id, u);
		famfs_warn("%s: another boot of this host (boot %s: a clone of this host's disk?) announced %llu s ago that it takes over the master role unless this instance beats within %u s; this command's beat keeps the role",
			   fs->name, u,
			   (unsigned long long)(now > le64toh(in.intent_time) ?
						now - le64toh(in.intent_time) : 0),
			   le32toh(in.wait));
	}
	rc = famfs_fs_sb_get(fs, &w, "renew the master beat");
	if (!rc) {
		struct famfs_master_beat *m = at(w.base, FAMFS_MBEAT_OFFSET);

		famfs_beat_fill(m, r, count + 1);
		famfs_store_stats.meta += sizeof(*m);
		rc = famfs_map_flush(w.map, m, sizeof(*m));
		famfs_fs_sb_put(&w);
	}
	/* a failure is tried again a third of a lease later, not at every
	 * append of this command */
	fs->beat_at = now ? now : 1;
	if (rc && !fs->beat_said)
		famfs_warn("%s: the master beat cannot be renewed (%s): another boot of this host (a clone) could take the role after a lease (%u s) without a beat",
			   fs->name, strerror(-rc), famfs_master_lease());
	fs->beat_said |= rc != 0;
}

/* the intent, written before the wait */
static int announce(struct famfs_fs *fs, const struct famfs_me *me,
		    uint64_t count, unsigned lease)
{
	struct famfs_master_intent *in;
	struct famfs_sbw w;
	int rc = famfs_fs_sb_get(fs, &w, "announce a takeover of the master role");

	if (rc)
		return rc;
	in = at(w.base, FAMFS_MINTENT_OFFSET);
	memset(in, 0, sizeof(*in));
	in->magic = htole64(FAMFS_MINTENT_MAGIC);
	in->wait = htole32(lease);
	in->generation = fs->mrec.generation;
	memcpy(in->fs_uuid, fs->sb->fs_uuid, 16);
	memcpy(in->boot_id, me->boot, 16);
	in->count_seen = htole64(count);
	in->intent_time = htole64(famfs_master_now());
	in->crc = htole32(famfs_mbeat_crc(in, sizeof(*in)));
	famfs_store_stats.meta += sizeof(*in);
	rc = famfs_map_flush(w.map, in, sizeof(*in));
	famfs_fs_sb_put(&w);
	return rc;
}

int famfs_takeover_wait(struct famfs_fs *fs, const struct famfs_me *me,
			char *reason)
{
	const struct famfs_master_record r0 = fs->mrec;	/* judged REBOOT */
	struct famfs_master_intent in;
	struct famfs_master_beat b0, b;
	unsigned lease = famfs_master_lease();
	char who[300], mine[37];
	bool had = famfs_beat_of(fs, &r0, &b0), has;
	int rc;

	famfs_mrec_describe(&r0, who, sizeof(who));
	famfs_uuid_str(me->boot, mine);
#define WHY(...) snprintf(reason, FAMFS_MREC_REASON_LEN, __VA_ARGS__)
	if (had && !ahead_of(&b0, lease) && age_of(&b0) < lease) {
		WHY("the master role is held by a live instance of this host: %s, last beat %llu s ago (its beat count %llu); this instance (boot %s) is another boot of the same host -- a clone of its disk? (a takeover waits until its beat is older than %u s and does not move for %u s)",
		    who, age_of(&b0), (unsigned long long)le64toh(b0.count),
		    mine, lease, lease);
		return -EPERM;
	}
	rc = announce(fs, me, had ? le64toh(b0.count) : 0, lease);
	if (rc) {
		WHY("the master role is held by %s, another boot of this host; its takeover could not be announced: %s",
		    who, strerror(-rc));
		return rc;
	}
	if (had && ahead_of(&b0, lease))
		famfs_note("%s: the master role is held by %s, another boot of this host (this host before a reboot, or a clone of its disk), whose last beat is stamped %llu s ahead of this clock (another clock, or this one set back: its age is unknown): waiting %u s for a beat before taking it over",
			   fs->name, who, ahead_of(&b0, lease), lease);
	else if (had)
		famfs_note("%s: the master role is held by %s, another boot of this host (this host before a reboot, or a clone of its disk), which last beat %llu s ago: waiting %u s for a beat before taking it over",
			   fs->name, who, age_of(&b0), lease);
	else
		famfs_note("%s: the master role is held by %s, another boot of this host (this host before a reboot, or a clone of its disk), with no beat (claimed by an older tool?): waiting %u s for one before taking it over",
			   fs->name, who, lease);
	for (unsigned s = 0; s < lease; s++) {
		wait_1s();
		famfs_mrec_refresh(fs);
		if (memcmp(&fs->mrec, &r0, sizeof(r0))) {
			famfs_mrec_describe(&fs->mrec, who, sizeof(who));
			WHY("the master record changed while this instance waited to take the role over: now %s",
			    who);
			return -EPERM;
		}
		has = famfs_beat_of(fs, &r0, &b);
		if (has != had || (has && b.count != b0.count)) {
			WHY("the master role is held by a live instance of this host: %s; its beat moved while this instance (boot %s, another boot of the same host -- a clone of its disk?) waited %u s to take it over",
			    who, mine, s + 1);
			return -EPERM;
		}
		/* another boot announced a takeover too (two copies of the
		 * holder's disk, both waiting): each would claim after its
		 * wait and both would append, as there is no compare-and-swap
		 * between hosts.  The last announcement stands; an earlier
		 * one, overwritten, steps back. */
		if (!intent_of(fs, &r0, &in) || memcmp(in.boot_id, me->boot, 16)) {
			char other[37];
			bool known = intent_of(fs, &r0, &in);

			if (known)
				famfs_uuid_str(in.boot_id, other);
			WHY("the master role is held by %s, another boot of this host; while this instance (boot %s) waited %u s to take it over, another boot of this host announced a takeover too (%s%s; two copies of its disk?): not taken, the later announcement goes on (famfs master shows who holds the role then)",
			    who, mine, s + 1, known ? "boot " : "its announcement over this one's does not verify",
			    known ? other : "");
			return -EPERM;
		}
	}
#undef WHY
	return 0;
}

void famfs_beat_show(struct famfs_fs *fs, const struct famfs_master_record *r,
		     char *out, size_t n)
{
	struct famfs_master_intent in;
	struct famfs_master_beat b;
	char u[37];
	int w;

	if (!famfs_beat_of(fs, r, &b)) {
		snprintf(out, n, "none for this record");
		return;
	}
	if (ahead_of(&b, famfs_master_lease()))
		w = snprintf(out, n, "last beat stamped %llu s in the future by this host's clock (another clock, or this one set back: its age is unknown; count %llu; a takeover by another boot of this host waits %u s watching it)",
			     ahead_of(&b, famfs_master_lease()),
			     (unsigned long long)le64toh(b.count),
			     famfs_master_lease());
	else
		w = snprintf(out, n, "last beat %llu s ago (count %llu; a takeover by another boot of this host waits %u s)",
			     age_of(&b), (unsigned long long)le64toh(b.count),
			     famfs_master_lease());
	if (w > 0 && (size_t)w < n && intent_of(fs, r, &in) &&
	    memcmp(in.boot_id, r->boot_id, 16) &&
	    le64toh(in.count_seen) == le64toh(b.count)) {
		famfs_uuid_str(in.boot_id, u);
		snprintf(out + w, n - (size_t)w,
			 "; boot %s announced a takeover since", u);
	}
}

bool famfs_beat_live(struct famfs_fs *fs, const struct famfs_master_record *r)
{
	struct famfs_master_beat b;

	return famfs_beat_of(fs, r, &b) && !ahead_of(&b, famfs_master_lease()) &&
	       age_of(&b) < famfs_master_lease();
}
