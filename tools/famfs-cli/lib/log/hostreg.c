// SPDX-License-Identifier: GPL-2.0
/*
 * This host's slot in the host table (docs/lifecycle.md, "Reclaim across
 * hosts"): found by (host uuid, host name) or claimed, registered (a new
 * generation at a new boot id), kept current after each replay round; and
 * the header's evicted list read for them and for the master's evictions
 * (hostevict.c).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log/log.h"

int famfs_holds_none(void *arg, uint64_t *holds_from, uint64_t *held_bytes)
{
	(void)arg;
	/* STUB: famfs.ko does not report held memory yet */
	*holds_from = FAMFS_HOLDS_NONE;
	*held_bytes = 0;
	return 0;
}

/* FAMFS_HOST_SETTLE seconds, or $FAMFS_HOST_SETTLE_MS: longer is always
 * taken; shorter (down to 0) only with FAMFS_TEST_SETTLE=1 -- the tests'
 * own; a garbage or shorter value outside tests is said and not used */
static long settle_ms(void)
{
	const long dflt = FAMFS_HOST_SETTLE * 1000L;
	const char *ms = getenv("FAMFS_HOST_SETTLE_MS");
	const char *test = getenv("FAMFS_TEST_SETTLE");
	static bool said;
	char *end;
	long n;

	if (!ms || !*ms)
		return dflt;
	errno = 0;
	n = strtol(ms, &end, 10);
	if (!errno && !*end && n >= 0 && n <= 600000 &&
	    (n >= dflt || (test && !strcmp(test, "1"))))
		return n;
	if (!said)
		famfs_warn("FAMFS_HOST_SETTLE_MS=%s: not %ld..600000 (below only with FAMFS_TEST_SETTLE=1, for tests): %ld used",
			   ms, dflt, dflt);
	said = true;
	return dflt;
}

static void settle(void)
{
	long n = settle_ms();
	struct timespec ts = { n / 1000, (n % 1000) * 1000000L };

	if (n > 0)
		nanosleep(&ts, NULL);
}

/* this host's key: host uuid, host name (NUL-padded, cut to 15 bytes,
 * and the hash of the whole: review r42c M2), boot id.  *shared (may be
 * NULL): why every clone of an image may have this name, or NULL */
static int my_key(struct famfs_host_key *k, const char **shared)
{
	char full[256] = "";
	int rc = famfs_host_id(k->uuid);
	bool failed;

	if (!rc)
		rc = famfs_boot_id(k->boot);
	failed = gethostname(full, sizeof(full) - 1) != 0;
	if (failed)
		full[0] = '\0';
	full[sizeof(full) - 1] = '\0';
	famfs_host_key_name(k, full);
	if (shared)
		*shared = famfs_host_name_shared(full, failed);
	return rc;
}

/* said once per process, when a slot is claimed or taken over at a new
 * boot: a name clones share is a key they share (each registration of one
 * takes the other's slot as its own reboot's) */
static void say_shared(struct famfs_fs *fs, const struct famfs_host_key *k,
		       const char *why)
{
	static bool said;

	if (!why || said)
		return;
	said = true;
	famfs_warn("%s: host name \"%s\" (%s): clones of one image with this name cannot be told apart: give each host its own name or its own /etc/famfs/host-uuid",
		   fs->name, k->name, why);
}

static void me_fill(struct famfs_fs *fs, struct famfs_host *h,
		    const struct famfs_host_key *k)
{
	h->flags = (h->flags & FAMFS_HOST_AFTER_FENCE) | FAMFS_HOST_REGISTERED |
		   (fs->master ? FAMFS_HOST_MASTER : 0);
	memcpy(h->hostname, k->name, sizeof(h->hostname));
	h->name_hash = k->name_hash;
	h->beat_time = (uint64_t)time(NULL);
}

/* the slot of k in t (famfs_host_key_rank), -ENOENT when none, or -errno
 * (the slots not read).  First where its claim put it: from its home slot
 * up to the first free one -- a slot or two, and every replay round
 * registers -- for this boot's slot (rank 2) only; reaching a free slot
 * without it (a slot an eviction zeroed may end that run early, this
 * boot's slot may lie past it while a slot of this name from another boot
 * lies before it: review r42c M1, a first registration finds nothing)
 * every slot, free ones looked at in place, and *other set
 * (famfs_hosttab_find_key) */
static int find_slot(struct famfs_hosttab *t, const struct famfs_host_key *k,
		     struct famfs_host *h, int *other)
{
	unsigned home = famfs_host_slot_home(k->uuid, FAMFS_HOST_SLOTS);
	struct famfs_host again;
	int best = -1;

	*other = -1;
	for (unsigned n = 0; n < FAMFS_HOST_SLOTS; n++) {
		unsigned i = (home + n) % FAMFS_HOST_SLOTS;
		int r;

		if (famfs_hosttab_slot(t, i, h) == FAMFS_HOST_FREE)
			return famfs_hosttab_find_key(t, k, h, other);
		r = famfs_host_key_rank(h, k);
		if (r == 2)
			return (int)i;
		if (r == 1 && best < 0) {
			best = (int)i;
			again = *h;
		}
	}
	if (best >= 0) {
		*h = again;
		return best;
	}
	return famfs_hosttab_find_key(t, k, h, other);
}

/* the header's evicted list.  lenient (registration, update): a header
 * with no verifying copy (both writes of it cut short, or never written:
 * -EBADMSG) or one that verifies but is malformed (no writer makes it:
 * -EINVAL, two copies of one seq that differ too) is said once and taken
 * as no fences, *nolist set -- the master's pass reclaims nothing while it
 * does not decode, so a fenced host counting again only keeps more
 * memory; one with a newer build's flag (-EPROTONOSUPPORT) is said once
 * and refused: this build takes no part in that table.  Any other error
 * (a read that failed on this host: the master may read the header and
 * reclaim) refuses too.  Else (evictions) -errno, printed */
static int judge_ev(struct famfs_fs *fs, int rc, const char *why,
		    struct famfs_hosts_ev *ev, bool lenient, bool *nolist)
{
	static bool said_torn, said_newer;

	if (nolist)
		*nolist = false;
	if (!rc)
		said_torn = said_newer = false;	/* a later one said again */
	if (rc == -ENOMEM)
		return rc;
	/* a read that failed here (the master reads it and reclaims): not
	 * read is not none -- refused, as a slot not read (review r42f M2) */
	if (rc && rc != -EBADMSG && rc != -EINVAL &&
	    rc != -EPROTONOSUPPORT && lenient) {
		famfs_err("%s: host table header: %s: not read, not none: this host is not registered",
			  fs->name, why);
		return rc;
	}
	/* an earlier layout's copy (FAMSHOS3): its fences, and those of a
	 * FAMSHOS4 copy beside, are honoured (review rfence F2) */
	if (rc == -EINVAL && lenient && ev->old_layout) {
		if (!said_torn)
			famfs_warn("%s: %s: registered with those fences only (nothing is reclaimed until then: %s)",
				   fs->name, why, famfs_hosts_hdr_way(rc));
		said_torn = true;
		if (nolist)
			*nolist = true;
		return 0;
	}
	if ((rc == -EBADMSG || rc == -EINVAL) && lenient) {
		if (!said_torn)
			famfs_warn("%s: host table header: %s: registered without the evicted list (nothing is reclaimed until then: %s)",
				   fs->name, why, famfs_hosts_hdr_way(rc));
		said_torn = true;
		memset(ev, 0, sizeof(*ev));
		if (nolist)
			*nolist = true;
		return 0;
	}
	if (rc && lenient) {
		if (!said_newer)
			famfs_err("%s: %s: this host is not registered in the host table",
				  fs->name, why);
		said_newer = true;
		return rc;
	}
	if (rc)
		famfs_err("%s: host table header: %s (%s)", fs->name, why,
			  famfs_hosts_hdr_way(rc));
	return rc;
}

int famfs_hosts_read_ev(struct famfs_fs *fs, struct famfs_hosttab *t,
			struct famfs_hosts_ev *ev, bool lenient, bool *nolist)
{
	char why[FAMFS_REASON_LEN];
	int rc = famfs_hosttab_read_hdr(t, ev, why);

	return judge_ev(fs, rc, why, ev, lenient, nolist);
}

/* does a fence name this boot, under any host uuid?  A boot id is one
 * kernel boot's: a fenced boot stays fenced when it presents another uuid
 * (/etc/famfs/host-uuid lost, made anew; or removed as the clone advice
 * says: review rfence F8).  Containers on one kernel share its famfs.ko
 * and its mappings: every registration from that boot is refused.  The
 * fence, or NULL */
static const struct famfs_host_evict *fenced_boot(
	const struct famfs_hosts_ev *ev, const uint8_t boot[16])
{
	for (unsigned i = 0; i < ev->n; i++)
		if (!memcmp(ev->e[i].boot_id, boot, 16))
			return &ev->e[i];
	return NULL;
}

/* no free slot: the way out is an eviction by slot (one fences, a second
 * zeroes: only that frees a slot; by uuid frees none), and the slots a
 * down host most likely holds: the behind ones, least replayed first */
static void say_no_slot(struct famfs_fs *fs, struct famfs_hosttab *t)
{
	char list[160] = "";
	size_t len = 0;
	uint64_t low = UINT64_MAX;
	struct famfs_host g;

	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++)
		if (famfs_hosttab_slot(t, i, &g) == FAMFS_HOST_VALID &&
		    g.replayed < low)
			low = g.replayed;
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS && len < sizeof(list) - 16; i++) {
		enum famfs_host_state st = famfs_hosttab_slot(t, i, &g);

		if (st == FAMFS_HOST_TORN ||
		    (st == FAMFS_HOST_VALID && g.replayed == low))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%u", len ? " " : "", i);
	}
	famfs_err("%s: the host table has no free slot: famfs hosts lists them; famfs hosts evict --slot N frees one (twice for a host that is down: the first fences it, the second zeroes the slot; famfs hosts evict HOST-UUID frees none; a torn slot of a newer famfs's record, famfs hosts says which, with that famfs).  Least replayed (a host that is down?) or torn: slot %s",
		  fs->name, len ? list : "none");
}

/* claim a free slot from home upward: written only while it is still all
 * zero, read back after the settle time: the last writer keeps it (two
 * claimers that tear it leave a torn slot, which blocks reclaim until
 * famfs hosts evict --slot N) */
static int claim(struct famfs_fs *fs, struct famfs_hosttab *t,
		 struct famfs_host *h, unsigned *slot)
{
	unsigned home = famfs_host_slot_home(h->host_uuid, FAMFS_HOST_SLOTS);

	for (unsigned k = 0; k < FAMFS_HOST_SLOTS; k++) {
		unsigned i = (home + k) % FAMFS_HOST_SLOTS;
		struct famfs_host g;
		int rc;

		if (famfs_hosttab_slot(t, i, &g) != FAMFS_HOST_FREE)
			continue;
		/* never over a slot that is not free (any more) */
		rc = famfs_hosttab_claim(t, i, h);
		if (rc == -EBUSY)
			continue;
		if (rc)
			return rc;
		settle();
		if (famfs_hosttab_slot(t, i, &g) == FAMFS_HOST_VALID &&
		    !memcmp(g.host_uuid, h->host_uuid, 16) &&
		    !memcmp(g.boot_id, h->boot_id, 16)) {
			*slot = i;
			return 0;
		}
	}
	say_no_slot(fs, t);
	return -ENOSPC;
}

/* its slot taken over at a new boot (h): written, and read back after
 * the settle time as a claim is -- an eviction that zeroed it meanwhile
 * (the second evict --slot, meant for the boot before, read the slot
 * just before this write: review rev2 R3) leaves it free, and the host
 * then claims a slot as a new one.  0 taken, 1 lost, -errno */
static int take_over(struct famfs_hosttab *t, unsigned slot,
		     struct famfs_host *h)
{
	struct famfs_host g;
	int rc = famfs_hosttab_write(t, slot, h);

	if (rc)
		return rc;
	settle();
	return famfs_hosttab_slot(t, slot, &g) != FAMFS_HOST_VALID ||
	       memcmp(g.host_uuid, h->host_uuid, 16) ||
	       memcmp(g.boot_id, h->boot_id, 16);
}

/* slot other holds this host's uuid under another host name, registered
 * and not evicted: said once, when this host claims a slot of its own --
 * both count until one is evicted */
static void say_other(struct famfs_fs *fs, struct famfs_hosttab *t,
		      int other, unsigned slot, const struct famfs_hosts_ev *ev)
{
	struct famfs_host o;

	if (other < 0 ||
	    famfs_hosttab_slot(t, (unsigned)other, &o) != FAMFS_HOST_VALID ||
	    !(o.flags & FAMFS_HOST_REGISTERED) || famfs_host_evicted(&o, ev))
		return;
	famfs_warn("%s: this host registered in slot %u of the host table; slot %d holds its host uuid under host name \"%.*s\" (another boot): if that was this host before a rename, that slot holds reclaim until famfs hosts evict --slot %d (a second one zeroes it); if it is another running host with this uuid (a cloned image), both are counted -- give one its own (remove its /etc/famfs/host-uuid)",
		   fs->name, slot, other, (int)sizeof(o.hostname), o.hostname,
		   other);
}

/* the registration with the header's evicted list as read (lenient) */
static int register_ev(struct famfs_fs *fs, struct famfs_hosttab *t,
		       unsigned *slot, bool fresh,
		       const struct famfs_hosts_ev *ev)
{
	const struct famfs_host_evict *f;
	struct famfs_host h, cur;
	struct famfs_host_key k;
	const char *shared;
	int s, other, rc;

	rc = my_key(&k, &shared);
	if (rc)
		return rc;
	s = find_slot(t, &k, &cur, &other);
	if (s < 0 && s != -ENOENT) {
		famfs_err("%s: the host table's slots cannot be read (%s): not registered",
			  fs->name, strerror(-s));
		return s;
	}
	/* fenced in this boot: whatever its slot holds now (zeroed by a
	 * second eviction, taken by another host), whatever uuid it has now */
	f = fenced_boot(ev, k.boot);
	if (f && !memcmp(f->host_uuid, k.uuid, 16)) {
		famfs_err("%s: this host was evicted from the host table in this boot (famfs hosts evict): it stops, and registers again only at its next boot",
			  fs->name);
		return -ESTALE;
	}
	if (f) {
		char u[37];

		famfs_uuid_str(f->host_uuid, u);
		famfs_err("%s: this boot (its boot id) was evicted from the host table as host %s (famfs hosts evict), and this host now has another host uuid (/etc/famfs/host-uuid made anew?): a boot evicted stays evicted whatever uuid it shows -- it stops, and registers again only at its next boot",
			  fs->name, u);
		return -ESTALE;
	}
	if (s >= 0 && !memcmp(cur.boot_id, k.boot, 16) &&
	    (cur.flags & FAMFS_HOST_REGISTERED)) {
		if (famfs_host_evicted(&cur, ev)) {
			famfs_err("%s: this host (generation %llu) was evicted from the host table (famfs hosts evict): it stops, and registers again only at its next boot",
				  fs->name, (unsigned long long)cur.generation);
			return -ESTALE;
		}
		/* the same boot: its mappings may predate any index (its name
		 * as it is now) */
		h = cur;
		me_fill(fs, &h, &k);
		*slot = (unsigned)s;
		return famfs_hosttab_write(t, *slot, &h);
	}
	/* a new slot, or a slot taken over at a new boot: only here (not at
	 * every command of this boot: review r42f L6) */
	say_shared(fs, &k, shared);
	memset(&h, 0, sizeof(h));
	h.state = FAMFS_HOST_VALID;
	memcpy(h.host_uuid, k.uuid, 16);
	memcpy(h.boot_id, k.boot, 16);
	/* a new boot of this host (its uuid and name: a reboot drops every
	 * mapping of the boot before), or a new slot; past every generation
	 * of this uuid a slot holds (a clone's, this host's before a rename:
	 * review r42c H1) and a fence names too: a slot zeroed by an eviction
	 * by slot forgot its generation, not the fence */
	rc = famfs_hosttab_top_gen(t, k.uuid, &h.generation);
	if (rc) {
		famfs_err("%s: the host table's slots cannot be read (%s): not registered",
			  fs->name, strerror(-rc));
		return rc;
	}
	if (s >= 0 && cur.generation > h.generation)
		h.generation = cur.generation;
	for (unsigned i = 0; i < ev->n; i++)
		if (!memcmp(ev->e[i].host_uuid, k.uuid, 16) &&
		    ev->e[i].generation > h.generation)
			h.generation = ev->e[i].generation;
	h.generation = famfs_host_seq_next(h.generation);
	if (!h.generation) {
		famfs_err("%s: this host's generation in the host table is at its end (UINT64_MAX - 1): not registered again",
			  fs->name);
		return -EOVERFLOW;
	}
	/* the log's end only before this boot's first replay of the mount
	 * (fresh), else 0: a host that mounted before the table existed, or
	 * by another way, may map any file the log ever had.  Shown, and
	 * checked against the log's end (BEYOND); what blocks is replayed,
	 * 0 until the replay reports */
	h.registered_at = fresh ? famfs_log_refresh_next(fs) : 0;
	h.replayed = 0;
	h.holds_from = FAMFS_HOLDS_NONE;
	/* this boot takes over the slot of its fenced registration (a
	 * reboot after evict --slot or evict UUID): said in the record, so a
	 * second evict --slot meant for the fenced boot never fences this
	 * one, even once the list dropped that fence as moot (review
	 * rfence F5b) */
	if (s >= 0 && famfs_host_evicted(&cur, ev))
		h.flags = FAMFS_HOST_AFTER_FENCE;
	me_fill(fs, &h, &k);
	if (s >= 0) {
		rc = take_over(t, (unsigned)s, &h);
		if (rc <= 0) {
			*slot = (unsigned)s;
			return rc;
		}
		/* (AFTER_FENCE kept: the claim may land in slot s again) */
	}
	rc = claim(fs, t, &h, slot);
	if (!rc)
		say_other(fs, t, other, *slot, ev);
	return rc;
}

int famfs_host_register(struct famfs_fs *fs, struct famfs_hosttab *t,
			unsigned *slot, bool fresh)
{
	struct famfs_hosts_ev ev;
	int rc = famfs_hosts_read_ev(fs, t, &ev, true, NULL);

	return rc ? rc : register_ev(fs, t, slot, fresh, &ev);
}

/* slot holds another host's registration (not k's: another uuid, or this
 * one under another name in another boot), and no fence names this host
 * in this boot: a claim that raced took it (no eviction writes another
 * host's record there).  1 taken, 0 not; -ESTALE when there is no list to
 * tell (no header copy verifies: its own fence and a zeroed slot would look
 * the same) */
static int taken(struct famfs_hosttab *t, unsigned slot,
		 const struct famfs_host_key *k,
		 const struct famfs_hosts_ev *ev, bool nolist)
{
	struct famfs_host g;

	if (famfs_hosttab_slot(t, slot, &g) != FAMFS_HOST_VALID ||
	    !(g.flags & FAMFS_HOST_REGISTERED) || famfs_host_key_rank(&g, k))
		return 0;
	if (nolist)
		return -ESTALE;
	return !fenced_boot(ev, k->boot);
}

/* the update with the header's evicted list as read (lenient; nolist:
 * none decoded) */
static int update_ev(struct famfs_fs *fs, struct famfs_hosttab *t,
		     unsigned slot, uint64_t replayed, famfs_holds_fn fn,
		     void *arg, const struct famfs_hosts_ev *ev, bool nolist)
{
	struct famfs_host h;
	struct famfs_host_key k;
	int rc;

	rc = my_key(&k, NULL);
	if (rc)
		return rc;
	rc = slot < FAMFS_HOST_SLOTS ? taken(t, slot, &k, ev, nolist) : 0;
	if (rc < 0) {
		famfs_err("%s: this host's slot %u of the host table holds another host's registration, and no header copy verifies to say whether this host was evicted: it stops, and registers again only at its next boot",
			  fs->name, slot);
		return rc;
	}
	if (rc) {
		unsigned was = slot;

		rc = register_ev(fs, t, &slot, false, ev);
		if (rc)
			return rc;
		famfs_warn("%s: this host's slot %u of the host table holds another host's registration (a claim raced): registered again in slot %u, at 0 (it may map any file)",
			   fs->name, was, slot);
	}
	if (slot >= FAMFS_HOST_SLOTS ||
	    famfs_hosttab_slot(t, slot, &h) != FAMFS_HOST_VALID ||
	    famfs_host_key_rank(&h, &k) != 2 || famfs_host_evicted(&h, ev)) {
		/* its uuid and name, another boot: a reboot of this host
		 * took the slot while this boot runs -- a clone with this
		 * host's name too, which the key cannot tell apart */
		if (slot < FAMFS_HOST_SLOTS && famfs_hosttab_slot_newer(t, slot))
			famfs_err("%s: this host's slot %u in the host table holds a newer famfs's record (a later layout, or a flag this famfs does not know: this host ran a newer famfs, or a clone of it did): it stops; famfs hosts evict --slot %u with that famfs frees the slot (review rev4)",
				  fs->name, slot, slot);
		else if (slot < FAMFS_HOST_SLOTS &&
			 famfs_host_key_rank(&h, &k) == 1 &&
			 !famfs_host_evicted(&h, ev))
			famfs_err("%s: this host's slot %u in the host table holds its uuid and host name registered in another boot, by host \"%.*s\", and no fence names this host: two hosts share one host uuid and one host name (/etc/famfs/host-uuid; a cloned image?): it stops",
				  fs->name, slot, (int)sizeof(h.hostname),
				  h.hostname);
		else
			famfs_err("%s: this host's slot %u in the host table is no longer its registration (evicted: famfs hosts evict): it stops, and registers again only at its next boot",
				  fs->name, slot);
		return -ESTALE;
	}
	rc = (fn ? fn : famfs_holds_none)(arg, &h.holds_from, &h.held_bytes);
	if (rc)
		return rc;
	h.replayed = replayed;
	h.beat_time = (uint64_t)time(NULL);
	return famfs_hosttab_write(t, slot, &h);
}

int famfs_host_update(struct famfs_fs *fs, struct famfs_hosttab *t,
		      unsigned slot, uint64_t replayed, famfs_holds_fn fn,
		      void *arg)
{
	struct famfs_hosts_ev ev;
	bool nolist;
	int rc = famfs_hosts_read_ev(fs, t, &ev, true, &nolist);

	return rc ? rc : update_ev(fs, t, slot, replayed, fn, arg, &ev, nolist);
}

int famfs_host_checkin_ev(struct famfs_fs *fs, struct famfs_hosttab *t,
			  uint64_t replayed, famfs_holds_fn fn, void *arg,
			  struct famfs_hosts_ev *ev, int *hdr_rc, char *why)
{
	struct famfs_hosts_ev lev;
	unsigned slot;
	bool nolist;
	int rc;

	*hdr_rc = famfs_hosttab_read_hdr(t, ev, why);
	lev = *ev;
	rc = judge_ev(fs, *hdr_rc, why, &lev, true, &nolist);
	if (!rc)
		rc = register_ev(fs, t, &slot, false, &lev);
	if (!rc)
		rc = update_ev(fs, t, slot, replayed, fn, arg, &lev, nolist);
	return rc;
}
