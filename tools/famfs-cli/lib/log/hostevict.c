// SPDX-License-Identifier: GPL-2.0
/*
 * The master's evictions in the host table (docs/lifecycle.md, "Reclaim
 * across hosts"; split from hostreg.c): a host's registrations fenced by
 * uuid (and generation) or by slot, a fenced slot zeroed, a full evicted
 * list's moot fences dropped, fences forgotten, the header repaired.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log/log.h"

/* is fence f moot: a slot of its host -- its uuid and name -- holds
 * another boot at a greater generation (it registered again, so it
 * rebooted: a fenced host cannot register in the boot it was fenced in)?
 * A slot of its uuid under another name (a clone, or this host before or
 * after a rename) never makes it moot: the host fenced may still run in
 * its fenced boot, its slot zeroed (review r42f MED) */
static bool moot(struct famfs_hosttab *t, const struct famfs_host_evict *f)
{
	struct famfs_host g;

	/* nameless (a FAMSHOS3 fence carried over by repair --force): no
	 * slot is known to be its host's, so never moot */
	if (!f->hostname[0] && !f->name_hash)
		return false;

	for (unsigned s = 0; s < FAMFS_HOST_SLOTS; s++)
		if (famfs_hosttab_slot(t, s, &g) == FAMFS_HOST_VALID &&
		    !memcmp(g.host_uuid, f->host_uuid, 16) &&
		    g.name_hash == f->name_hash &&
		    !strncmp(g.hostname, f->hostname, sizeof(g.hostname)) &&
		    memcmp(g.boot_id, f->boot_id, 16) &&
		    g.generation > f->generation)
			return true;
	return false;
}

/* (uuid, host name and its hash, boot id, generation; flags) added to ev;
 * a full list first drops fences that are moot -- never one whose slot was
 * zeroed while no slot of its uuid and name shows a later boot (its host
 * may still run in the boot it was fenced in): -ENOSPC when none is */
static int fence(struct famfs_hosttab *t, struct famfs_hosts_ev *ev,
		 const struct famfs_host *h, uint32_t flags)
{
	/* a record that never registered (generation 0) holds nothing and
	 * names no boot that did: no fence (one of generation 0 would make
	 * the header unreadable: review rev2 R1) */
	if (!h->generation || famfs_host_evicted(h, ev))
		return 0;
	if (ev->n == FAMFS_HOSTS_MAX_EVICT) {
		unsigned w = 0;

		for (unsigned i = 0; i < ev->n; i++)
			if (!moot(t, &ev->e[i]))
				ev->e[w++] = ev->e[i];
		ev->n = w;
		if (w == FAMFS_HOSTS_MAX_EVICT)
			return -ENOSPC;
	}
	memset(&ev->e[ev->n], 0, sizeof(ev->e[0]));
	memcpy(ev->e[ev->n].host_uuid, h->host_uuid, 16);
	memcpy(ev->e[ev->n].boot_id, h->boot_id, 16);
	memcpy(ev->e[ev->n].hostname, h->hostname, sizeof(h->hostname));
	ev->e[ev->n].hostname[sizeof(h->hostname) - 1] = '\0';
	ev->e[ev->n].name_hash = h->name_hash;
	ev->e[ev->n].generation = h->generation;
	ev->e[ev->n].time = (uint64_t)time(NULL);
	ev->e[ev->n].flags = flags;
	ev->n++;
	return 0;
}

/* a fence of h's host (its uuid and name) in an earlier boot, by slot or
 * by uuid: its host registered again since (a reboot under its name), and
 * a second evict --slot meant for the fenced boot would fence this one
 * (review r42f LOW, rfence F5) -- NULL when none */
static const struct famfs_host_evict *fenced_before(
	const struct famfs_host *h, const struct famfs_hosts_ev *ev)
{
	for (unsigned i = 0; i < ev->n; i++)
		if (!memcmp(ev->e[i].host_uuid, h->host_uuid, 16) &&
		    ev->e[i].name_hash == h->name_hash &&
		    !strncmp(ev->e[i].hostname, h->hostname,
			     sizeof(h->hostname)) &&
		    memcmp(ev->e[i].boot_id, h->boot_id, 16) &&
		    ev->e[i].generation < h->generation)
			return &ev->e[i];
	return NULL;
}

static void say_full(struct famfs_fs *fs)
{
	famfs_err("%s: the evicted list is full (%u fences, none moot: no fenced host has registered again since): famfs hosts evict --forget HOST-UUID drops the fence of a host that is down for good (its slot zeroed first: evict --slot N twice); famfs hosts -j lists the fences",
		  fs->name, FAMFS_HOSTS_MAX_EVICT);
}

/* slots a and b hold h's (uuid, boot id, generation): no eviction of one
 * alone (review rev2 R4, rev3 C) */
static void say_one_boot(struct famfs_fs *fs, const struct famfs_host *h,
			 unsigned a, unsigned b)
{
	char u[37];

	famfs_uuid_str(h->host_uuid, u);
	famfs_err("%s: slots %u and %u both hold host %s at generation %llu in one boot (a clone restored from one memory snapshot, or a copy): nothing evicted -- a fence names a boot, so any eviction of it fences both; once one of the two reboots (its boot id changes), evict --slot fences the other alone; famfs hosts evict %s fences both now",
		  fs->name, a, b, u, (unsigned long long)h->generation, u);
}

/* --generation G fences one boot: two slots of the uuid at G (clones
 * under two names that registered at once) are refused, both named, not
 * both fenced (review rfence F6).  0, or -EEXIST (said) */
static int one_slot_of_gen(struct famfs_fs *fs, struct famfs_hosttab *t,
			   const uint8_t uuid[16], uint64_t gen)
{
	struct famfs_host h, fh;
	int first = -1;

	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++) {
		char u[37];

		if (famfs_hosttab_slot(t, i, &h) != FAMFS_HOST_VALID ||
		    memcmp(h.host_uuid, uuid, 16) || h.generation != gen)
			continue;
		if (first < 0) {
			first = (int)i;
			fh = h;
			continue;
		}
		famfs_uuid_str(uuid, u);
		if (!memcmp(fh.boot_id, h.boot_id, 16))	/* one boot too */
			say_one_boot(fs, &h, (unsigned)first, i);
		else
			famfs_err("%s: host %s has generation %llu in slots %d and %u (two hosts with one uuid, another name each): nothing evicted; famfs hosts evict --slot N fences one",
				  fs->name, u, (unsigned long long)gen, first,
				  i);
		return -EEXIST;
	}
	return 0;
}

/* evict --slot n fences one registration: another slot with its (uuid,
 * boot id, generation) -- a lying or cloned client's copy of a live
 * host's -- would be fenced with it, the live one's memory no longer
 * counted; refused, both named (review rev2 R4).  0, or -EEXIST (said) */
static int one_slot_of_boot(struct famfs_fs *fs, struct famfs_hosttab *t,
			    unsigned n, const struct famfs_host *h)
{
	struct famfs_host g;

	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++) {
		if (i == n || famfs_hosttab_slot(t, i, &g) != FAMFS_HOST_VALID ||
		    memcmp(g.host_uuid, h->host_uuid, 16) ||
		    memcmp(g.boot_id, h->boot_id, 16) ||
		    g.generation != h->generation)
			continue;
		say_one_boot(fs, h, n, i);
		return -EEXIST;
	}
	return 0;
}

int famfs_hosts_evict_gen(struct famfs_fs *fs, struct famfs_hosttab *t,
			  const uint8_t uuid[16], uint64_t gen,
			  uint64_t *fenced)
{
	struct famfs_hosts_ev ev;
	struct famfs_host h;
	bool took, found = false, fence_some = false, unreg = false;
	uint64_t now = 0, dummy;
	int rc = famfs_master_lock(fs, true, &took);

	if (!fenced)
		fenced = &dummy;
	*fenced = 0;
	if (rc)
		return rc;
	rc = famfs_hosts_read_ev(fs, t, &ev, false, NULL);
	if (!rc && gen)
		rc = one_slot_of_gen(fs, t, uuid, gen);
	for (unsigned i = 0; !rc && i < FAMFS_HOST_SLOTS; i++) {
		if (famfs_hosttab_slot(t, i, &h) != FAMFS_HOST_VALID ||
		    memcmp(h.host_uuid, uuid, 16))
			continue;
		/* never registered: no boot to fence (review rev5 3) */
		if (!h.generation) {
			unreg = true;
			continue;
		}
		found = true;
		/* the generation the administrator saw, or none: it
		 * registered again since (a reboot) */
		if (gen && h.generation != gen) {
			now = h.generation;
			continue;
		}
		fence_some = true;
		*fenced = h.generation;
		rc = fence(t, &ev, &h, 0);
	}
	if (!rc && !found && unreg) {
		char u[37];

		famfs_uuid_str(uuid, u);
		famfs_err("%s: host %s never registered (its slots have generation 0): no boot to fence, nothing evicted (famfs hosts evict --slot N zeroes such a slot)",
			  fs->name, u);
		rc = -ESTALE;
	} else if (!rc && !found) {
		rc = -ENOENT;
	}
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
		say_full(fs);
	famfs_master_unlock(fs, &took);
	return rc;
}

int famfs_hosts_evict_uuid(struct famfs_fs *fs, struct famfs_hosttab *t,
			   const uint8_t uuid[16])
{
	return famfs_hosts_evict_gen(fs, t, uuid, 0, NULL);
}

/* slot n zeroed if it still holds h as read (its seq and boot): a host
 * that took it over since (a reboot, writing its new registration) is
 * never zeroed by an eviction meant for the record before -- the rest of
 * the window is the registration's to close (it reads its record back
 * after the settle time: review rev2 R3) */
static int zero_if_same(struct famfs_fs *fs, struct famfs_hosttab *t,
			unsigned n, const struct famfs_host *h)
{
	struct famfs_host now;

	if (famfs_hosttab_slot(t, n, &now) != FAMFS_HOST_VALID ||
	    now.seq != h->seq || memcmp(now.boot_id, h->boot_id, 16) ||
	    memcmp(now.host_uuid, h->host_uuid, 16)) {
		famfs_err("%s: slot %u changed while it was evicted (its host wrote it again?): nothing zeroed; look again (famfs hosts)",
			  fs->name, n);
		return -EAGAIN;
	}
	return famfs_hosttab_zero_slot(t, n);
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
		const struct famfs_host_evict *f;

		rc = famfs_hosts_read_ev(fs, t, &ev, false, NULL);
		if (!rc && (famfs_host_evicted(&h, &ev) || !h.generation)) {
			/* fenced already (the second eviction), or never
			 * registered: zeroed, if it is still what was read */
			rc = zero_if_same(fs, t, n, &h);
		} else if (!rc && ((f = fenced_before(&h, &ev)) ||
				   (h.flags & FAMFS_HOST_AFTER_FENCE))) {
			/* the second evict --slot meant for the fenced boot
			 * (to zero a down host's slot) finds its host
			 * rebooted: it applies to that boot only (review
			 * r42f LOW, rfence F5, F5b) */
			char u[37], was[48] = "";

			famfs_uuid_str(h.host_uuid, u);
			if (f)
				snprintf(was, sizeof(was), " at generation %llu",
					 (unsigned long long)f->generation);
			famfs_err("%s: slot %u: host %s \"%.*s\" was evicted%s and registered again since (generation %llu, another boot): nothing evicted (a second evict --slot zeroes only the fenced boot's slot); to evict this boot too: famfs hosts evict --generation %llu %s",
				  fs->name, n, u, (int)sizeof(h.hostname),
				  h.hostname, was,
				  (unsigned long long)h.generation,
				  (unsigned long long)h.generation, u);
			rc = -ESTALE;
		} else if (!rc && !(rc = one_slot_of_boot(fs, t, n, &h))) {
			rc = fence(t, &ev, &h, FAMFS_FENCE_BY_SLOT);
			if (!rc)
				rc = famfs_hosttab_write_hdr(t, &ev);
			if (rc == -ENOSPC)
				say_full(fs);
		}
	} else if (famfs_hosttab_slot_newer(t, n)) {
		/* a newer build's record (a later layout, CRC and all): its
		 * live registration, torn only to this build -- never zeroed
		 * here (review rfence F3b) */
		famfs_err("%s: slot %u holds a host record of a newer famfs (a later layout than FAMSHOR5, or a flag this famfs does not know): not zeroed (famfs hosts evict --slot with that famfs)",
			  fs->name, n);
		rc = -EPROTONOSUPPORT;
	} else {
		rc = famfs_hosttab_zero_slot(t, n);
	}
	famfs_master_unlock(fs, &took);
	return rc;
}

int famfs_hosts_forget(struct famfs_fs *fs, struct famfs_hosttab *t,
		       const uint8_t uuid[16])
{
	struct famfs_hosts_ev ev;
	struct famfs_host h;
	unsigned w = 0;
	bool took;
	char u[37];
	int rc = famfs_master_lock(fs, true, &took);

	if (rc)
		return rc;
	famfs_uuid_str(uuid, u);
	rc = famfs_hosts_read_ev(fs, t, &ev, false, NULL);
	/* a slot that still holds a fenced registration of it: that fence
	 * is what keeps the record from counting */
	for (unsigned i = 0; !rc && i < FAMFS_HOST_SLOTS; i++)
		if (famfs_hosttab_slot(t, i, &h) == FAMFS_HOST_VALID &&
		    !memcmp(h.host_uuid, uuid, 16) && famfs_host_evicted(&h, &ev)) {
			famfs_err("%s: slot %u still holds host %s's fenced registration (generation %llu): famfs hosts evict --slot %u zeroes it first (only for a host that is down)",
				  fs->name, i, u, (unsigned long long)h.generation, i);
			rc = -EBUSY;
		}
	for (unsigned i = 0; !rc && i < ev.n; i++)
		if (memcmp(ev.e[i].host_uuid, uuid, 16))
			ev.e[w++] = ev.e[i];
	if (!rc && w == ev.n) {
		famfs_err("%s: no fence names host %s (famfs hosts -j lists them)",
			  fs->name, u);
		rc = -ENOENT;
	}
	if (!rc) {
		ev.n = w;
		rc = famfs_hosttab_write_hdr(t, &ev);
	}
	famfs_master_unlock(fs, &took);
	return rc;
}

/* a FAMSHOS3 header's fences of generation 0 (that build fenced records
 * that never registered, naming no boot that did) or past the end (no
 * writer's): honoured while it is read (their boot ids stop that boot's
 * registrations), but this layout's reader refuses them, so repair
 * --force drops them -- said -- or could never write the rest (review
 * rev3 A) */
static bool writable(const struct famfs_host_evict *f)
{
	return f->generation && f->generation <= FAMFS_HOST_SEQ_MAX;
}

static unsigned unwritable(const struct famfs_hosts_ev *ev)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ev->n; i++)
		n += !writable(&ev->e[i]);
	return n;
}

static void drop_unnamed_gen(struct famfs_fs *fs, struct famfs_hosts_ev *ev)
{
	unsigned w = 0;

	for (unsigned i = 0; i < ev->n; i++)
		if (writable(&ev->e[i]))
			ev->e[w++] = ev->e[i];
	if (w != ev->n)
		famfs_warn("%s: %u fence(s) of the FAMSHOS3 header have generation 0 or past its end (fences of records that never registered): not carried over",
			   fs->name, ev->n - w);
	ev->n = w;
}

int famfs_hosts_repair(struct famfs_fs *fs, struct famfs_hosttab *t,
		       bool force)
{
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	bool took;
	int rc = famfs_master_lock(fs, true, &took);

	if (rc)
		return rc;
	rc = famfs_hosttab_read_hdr(t, &ev, why);
	if (rc == -EINVAL && ev.old_layout && force)
		drop_unnamed_gen(fs, &ev);
	if (!rc && ev.seq == FAMFS_HOST_SEQ_MAX && !force) {
		famfs_err("%s: the host table header's seq is at its end (UINT64_MAX - 1): not repaired without --force (--force starts it again from 1, its fences and flags kept)",
			  fs->name);
		rc = -EOVERFLOW;
	} else if (!rc && ev.seq != FAMFS_HOST_SEQ_MAX) {
		famfs_err("%s: the host table header verifies: nothing to repair (famfs hosts)",
			  fs->name);
		rc = -EEXIST;
	} else if (rc == -ENOMEM) {
		famfs_err("%s: out of memory", fs->name);
	} else if (rc == -EPROTONOSUPPORT) {
		famfs_err("%s: host table header: %s: not repaired, even with --force (%s)",
			  fs->name, why, famfs_hosts_hdr_way(rc));
	} else if (rc == -EINVAL && !force) {
		unsigned drop = ev.old_layout ? unwritable(&ev) : 0;

		famfs_err("%s: host table header: %s: not repaired without --force (it verifies but this famfs does not understand it; --force writes a new one with %s%s)",
			  fs->name, why, ev.old_layout ? "those fences" : "no fences",
			  drop ? ", but those of generation 0 or past its end (of records that never registered: their boots, stopped until then, may register again)" : "");
	} else if (rc == -EINVAL && ev.old_layout &&
		   ev.n > FAMFS_HOSTS_MAX_EVICT) {
		famfs_err("%s: host table header: %s: not repaired: %u fences, a FAMSHOS4 header holds %u (forget some with the build that wrote them)",
			  fs->name, why, ev.n, FAMFS_HOSTS_MAX_EVICT);
		rc = -ENOSPC;
	} else if (rc == -EINVAL && ev.old_layout) {
		/* the earlier layout's fences (and a FAMSHOS4 copy's beside)
		 * carried over, nameless ones never moot; its flag (ARMED)
		 * kept: no FAMSHOS3 copy is left (review rfence F2) */
		ev.seq = 0;
		ev.old_layout = false;
		rc = famfs_hosttab_write_hdr_anew(t, &ev);
	} else if (!rc) {
		/* at its end, with --force: again from 1, all else kept */
		rc = famfs_hosttab_write_hdr_anew(t, &ev);
	} else {
		/* no fences, not armed: every host evicted before counts
		 * again; the sequence goes on from what is there (at its
		 * end: again from 1) */
		memset(&ev, 0, sizeof(ev));
		rc = famfs_hosttab_write_hdr_anew(t, &ev);
	}
	famfs_master_unlock(fs, &took);
	return rc;
}
