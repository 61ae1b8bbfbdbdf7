// SPDX-License-Identifier: GPL-2.0
/*
 * This host's slot in the host table (docs/lifecycle.md, "Reclaim across
 * hosts"): found by host uuid or claimed, registered (a new generation at a
 * new boot id), kept current after each replay round; and the master's
 * evictions (the header's evicted list, a slot zeroed).
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

static void me_fill(struct famfs_fs *fs, struct famfs_host *h)
{
	h->flags = FAMFS_HOST_REGISTERED | (fs->master ? FAMFS_HOST_MASTER : 0);
	memset(h->hostname, 0, sizeof(h->hostname));
	gethostname(h->hostname, sizeof(h->hostname) - 1);
	h->hostname[sizeof(h->hostname) - 1] = '\0';
	h->beat_time = (uint64_t)time(NULL);
}

/* the slot of uuid in t, or -1.  First where its claim put it: from its
 * home slot up to the first free one -- a slot or two, where a full scan
 * reads all 2 MiB, and every replay round registers; then (a slot an
 * eviction zeroed may end that run early, a first registration finds
 * nothing) every slot */
static int find_slot(struct famfs_hosttab *t, const uint8_t uuid[16],
		     struct famfs_host *h)
{
	unsigned home = famfs_host_slot_home(uuid, FAMFS_HOST_SLOTS);

	for (unsigned k = 0; k < FAMFS_HOST_SLOTS; k++) {
		unsigned i = (home + k) % FAMFS_HOST_SLOTS;
		enum famfs_host_state st = famfs_hosttab_slot(t, i, h);

		if (st == FAMFS_HOST_FREE)
			break;
		if (st == FAMFS_HOST_VALID && !memcmp(h->host_uuid, uuid, 16))
			return (int)i;
	}
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++)
		if (famfs_hosttab_slot(t, i, h) == FAMFS_HOST_VALID &&
		    !memcmp(h->host_uuid, uuid, 16))
			return (int)i;
	return -1;
}

/* the header's evicted list.  lenient (registration, update): a header
 * that does not verify (the master's write of it cut) is said once and
 * taken as no fences -- the master's pass reclaims nothing while it does
 * not verify, so a fenced host counting again only keeps more memory;
 * else (evictions) -errno, printed */
static int read_ev(struct famfs_fs *fs, struct famfs_hosttab *t,
		   struct famfs_hosts_ev *ev, bool lenient)
{
	static bool said;
	char why[FAMFS_REASON_LEN];
	int rc = famfs_hosttab_read_hdr(t, ev, why);

	if (!rc)
		said = false;	/* a later tear is said again */
	if (rc == -ENOMEM)
		return rc;
	if (rc && lenient) {
		if (!said)
			famfs_warn("%s: host table header: %s: registered without the evicted list (nothing is reclaimed until the master runs famfs hosts repair)",
				   fs->name, why);
		said = true;
		memset(ev, 0, sizeof(*ev));
		return 0;
	}
	if (rc)
		famfs_err("%s: host table header: %s (famfs hosts repair writes a new one)",
			  fs->name, why);
	return rc;
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
	famfs_err("%s: the host table has no free slot (famfs hosts; famfs hosts evict)",
		  fs->name);
	return -ENOSPC;
}

int famfs_host_register(struct famfs_fs *fs, struct famfs_hosttab *t,
			unsigned *slot, bool fresh)
{
	struct famfs_hosts_ev ev;
	struct famfs_host h, cur;
	uint8_t uuid[16], boot[16];
	int s, rc;

	rc = famfs_host_id(uuid);
	if (!rc)
		rc = famfs_boot_id(boot);
	if (rc)
		return rc;
	rc = read_ev(fs, t, &ev, true);
	if (rc)
		return rc;
	s = find_slot(t, uuid, &cur);
	if (s >= 0 && !memcmp(cur.boot_id, boot, 16) &&
	    (cur.flags & FAMFS_HOST_REGISTERED)) {
		if (famfs_host_evicted(&cur, &ev)) {
			famfs_err("%s: this host (generation %llu) was evicted from the host table (famfs hosts evict): it stops, and registers again only at its next boot",
				  fs->name, (unsigned long long)cur.generation);
			return -ESTALE;
		}
		/* the same boot: its mappings may predate any index */
		h = cur;
		me_fill(fs, &h);
		*slot = (unsigned)s;
		return famfs_hosttab_write(t, *slot, &h);
	}
	memset(&h, 0, sizeof(h));
	h.state = FAMFS_HOST_VALID;
	memcpy(h.host_uuid, uuid, 16);
	memcpy(h.boot_id, boot, 16);
	/* past every generation of this uuid a fence names too: a slot zeroed
	 * by an eviction by slot forgot its generation, not the fence */
	h.generation = s >= 0 ? cur.generation : 0;
	for (unsigned i = 0; i < ev.n; i++)
		if (!memcmp(ev.e[i].host_uuid, uuid, 16) &&
		    ev.e[i].generation > h.generation)
			h.generation = ev.e[i].generation;
	h.generation = famfs_host_seq_next(h.generation);
	if (!h.generation) {
		famfs_err("%s: this host's generation in the host table is at its end (UINT64_MAX - 1): not registered again",
			  fs->name);
		return -EOVERFLOW;
	}
	/* past every DELETE in the log only before this boot's first replay
	 * of the mount (fresh): a host that mounted before the table existed,
	 * or by another way, may map any file the log ever had */
	h.registered_at = fresh ? famfs_log_refresh_next(fs) : 0;
	h.replayed = 0;
	h.holds_from = FAMFS_HOLDS_NONE;
	me_fill(fs, &h);
	if (s >= 0) {
		*slot = (unsigned)s;
		return famfs_hosttab_write(t, *slot, &h);
	}
	return claim(fs, t, &h, slot);
}

/* slot holds another host's registration, and no fence names this host
 * uuid: a claim that raced took it (no eviction writes another host's
 * record there) */
static bool taken(struct famfs_hosttab *t, unsigned slot,
		  const uint8_t uuid[16], const struct famfs_hosts_ev *ev)
{
	struct famfs_host g;

	if (famfs_hosttab_slot(t, slot, &g) != FAMFS_HOST_VALID ||
	    !(g.flags & FAMFS_HOST_REGISTERED) || !memcmp(g.host_uuid, uuid, 16))
		return false;
	for (unsigned i = 0; i < ev->n; i++)
		if (!memcmp(ev->e[i].host_uuid, uuid, 16))
			return false;
	return true;
}

int famfs_host_update(struct famfs_fs *fs, struct famfs_hosttab *t,
		      unsigned slot, uint64_t replayed, famfs_holds_fn fn,
		      void *arg)
{
	struct famfs_hosts_ev ev;
	struct famfs_host h;
	uint8_t uuid[16], boot[16];
	int rc;

	rc = famfs_host_id(uuid);
	if (!rc)
		rc = famfs_boot_id(boot);
	if (!rc)
		rc = read_ev(fs, t, &ev, true);
	if (rc)
		return rc;
	if (slot < FAMFS_HOST_SLOTS && taken(t, slot, uuid, &ev)) {
		unsigned was = slot;

		rc = famfs_host_register(fs, t, &slot, false);
		if (rc)
			return rc;
		famfs_warn("%s: this host's slot %u of the host table holds another host's registration (a claim raced): registered again in slot %u, at 0 (it may map any file)",
			   fs->name, was, slot);
	}
	if (slot >= FAMFS_HOST_SLOTS ||
	    famfs_hosttab_slot(t, slot, &h) != FAMFS_HOST_VALID ||
	    memcmp(h.host_uuid, uuid, 16) || memcmp(h.boot_id, boot, 16) ||
	    famfs_host_evicted(&h, &ev)) {
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

/* (uuid, generation) added to ev; a full list first drops fences that no
 * slot holds any more (that host registered again, or its slot zeroed) */
static int fence(struct famfs_hosttab *t, struct famfs_hosts_ev *ev,
		 const struct famfs_host *h)
{
	if (famfs_host_evicted(h, ev))
		return 0;
	if (ev->n == FAMFS_HOSTS_MAX_EVICT) {
		unsigned w = 0;

		for (unsigned i = 0; i < ev->n; i++) {
			struct famfs_host g;
			bool live = false;

			for (unsigned s = 0; s < FAMFS_HOST_SLOTS && !live; s++)
				live = famfs_hosttab_slot(t, s, &g) == FAMFS_HOST_VALID &&
				       g.generation == ev->e[i].generation &&
				       !memcmp(g.host_uuid, ev->e[i].host_uuid, 16);
			if (live)
				ev->e[w++] = ev->e[i];
		}
		ev->n = w;
		if (w == FAMFS_HOSTS_MAX_EVICT)
			return -ENOSPC;
	}
	memcpy(ev->e[ev->n].host_uuid, h->host_uuid, 16);
	ev->e[ev->n].generation = h->generation;
	ev->e[ev->n].time = (uint64_t)time(NULL);
	ev->n++;
	return 0;
}

int famfs_hosts_evict_gen(struct famfs_fs *fs, struct famfs_hosttab *t,
			  const uint8_t uuid[16], uint64_t gen,
			  uint64_t *fenced)
{
	struct famfs_hosts_ev ev;
	struct famfs_host h;
	bool took, found = false, fence_some = false;
	uint64_t now = 0, dummy;
	int rc = famfs_master_lock(fs, true, &took);

	if (!fenced)
		fenced = &dummy;
	*fenced = 0;
	if (rc)
		return rc;
	rc = read_ev(fs, t, &ev, false);
	for (unsigned i = 0; !rc && i < FAMFS_HOST_SLOTS; i++) {
		if (famfs_hosttab_slot(t, i, &h) != FAMFS_HOST_VALID ||
		    memcmp(h.host_uuid, uuid, 16))
			continue;
		found = true;
		/* the generation the administrator saw, or none: it
		 * registered again since (a reboot) */
		if (gen && h.generation != gen) {
			now = h.generation;
			continue;
		}
		fence_some = true;
		*fenced = h.generation;
		rc = fence(t, &ev, &h);
	}
	if (!rc && !found)
		rc = -ENOENT;
	if (!rc && !fence_some) {
		char u[37];

		famfs_uuid_str(uuid, u);
		famfs_err("%s: host %s registered again (generation %llu now, not %llu): nothing evicted; look again (famfs hosts)",
			  fs->name, u, (unsigned long long)now,
			  (unsigned long long)gen);
		rc = -ESTALE;
	}
	if (!rc)
		rc = famfs_hosttab_write_hdr(t, &ev);
	if (rc == -ENOSPC)
		famfs_err("%s: the evicted list is full (%u hosts whose slots still hold their registration): evict the slots of hosts that are down twice (famfs hosts evict --slot N: the second zeroes it)",
			  fs->name, FAMFS_HOSTS_MAX_EVICT);
	famfs_master_unlock(fs, &took);
	return rc;
}

int famfs_hosts_evict_uuid(struct famfs_fs *fs, struct famfs_hosttab *t,
			   const uint8_t uuid[16])
{
	return famfs_hosts_evict_gen(fs, t, uuid, 0, NULL);
}

/* a registration there is fenced and its record left (its host, if it
 * still runs, finds itself fenced and stops: it must not register again
 * in the same boot as if it held nothing); a slot whose registration is
 * fenced already is zeroed (the second eviction: for a host that is
 * down); a slot that does not verify (torn, garbage) is zeroed */
int famfs_hosts_evict_slot(struct famfs_fs *fs, struct famfs_hosttab *t,
			   unsigned n)
{
	struct famfs_hosts_ev ev;
	struct famfs_host h;
	bool took;
	int rc;

	if (n >= FAMFS_HOST_SLOTS)
		return -ENOENT;
	rc = famfs_master_lock(fs, true, &took);
	if (rc)
		return rc;
	if (famfs_hosttab_slot(t, n, &h) == FAMFS_HOST_VALID) {
		rc = read_ev(fs, t, &ev, false);
		if (!rc && famfs_host_evicted(&h, &ev)) {
			rc = famfs_hosttab_zero_slot(t, n);
		} else if (!rc) {
			rc = fence(t, &ev, &h);
			if (!rc)
				rc = famfs_hosttab_write_hdr(t, &ev);
		}
	} else {
		rc = famfs_hosttab_zero_slot(t, n);
	}
	famfs_master_unlock(fs, &took);
	return rc;
}

int famfs_hosts_repair(struct famfs_fs *fs, struct famfs_hosttab *t)
{
	const struct famfs_hosts_hdr *hdr = t->m.addr;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	bool took;
	int rc = famfs_master_lock(fs, true, &took);

	if (rc)
		return rc;
	rc = famfs_hosttab_read_hdr(t, &ev, why);
	if (!rc) {
		famfs_err("%s: the host table header verifies: nothing to repair (famfs hosts)",
			  fs->name);
		rc = -EEXIST;
	} else if (rc == -ENOMEM) {
		famfs_err("%s: out of memory", fs->name);
	} else {
		/* no fences, not armed: every host evicted before counts
		 * again; the sequence goes on from what is there */
		memset(&ev, 0, sizeof(ev));
		ev.seq = le64toh(hdr->seq);
		if (!famfs_host_seq_next(ev.seq))
			ev.seq = 0;	/* at its end: again from 1 */
		rc = famfs_hosttab_write_hdr(t, &ev);
	}
	famfs_master_unlock(fs, &took);
	return rc;
}
