// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim decision (famfs_format.h, format revision 3, "Reclaim across
 * hosts"): which pending DELETEs the master may name in a RECLAIM now, and
 * for each one that it may not, which slots of the host table block it.
 * Pure: the slots as media/hosts.c decoded them, the header's evicted list,
 * the DELETE indexes; no memory, clock or file is read.  beat_time is
 * never looked at: a host that stopped beating still holds what it held
 * until it is evicted or registers with a new boot id.
 */
#include <string.h>

#include "role/role.h"

static bool registered(const struct famfs_host *h)
{
	return h->state == FAMFS_HOST_VALID &&
	       (h->flags & FAMFS_HOST_REGISTERED);
}

enum famfs_host_block famfs_host_blocks(const struct famfs_host *h,
					const struct famfs_hosts_ev *ev,
					uint64_t d, uint64_t next)
{
	if (h->state == FAMFS_HOST_TORN)
		return FAMFS_HB_TORN;
	if (!registered(h) || famfs_host_evicted(h, ev))
		return FAMFS_HB_NONE;
	/* no host has seen an entry the log does not have yet */
	if (h->registered_at > next || h->replayed > next)
		return FAMFS_HB_BEYOND;
	/* what its famfs.ko reported held, whenever it registered (a host
	 * may register after a replay that mapped d's file) */
	if (h->holds_from <= d)
		return FAMFS_HB_HOLDING;
	/* replayed up to d: d's file may still be there, however late the
	 * host registered (its replay may have stopped below d, at a lost
	 * segment, and made the file without reading its DELETE);
	 * registered_at only tells BEYOND */
	if (h->replayed <= d)
		return FAMFS_HB_BEHIND;
	return FAMFS_HB_NONE;
}

const char *famfs_host_block_str(enum famfs_host_block b)
{
	switch (b) {
	case FAMFS_HB_TORN:
		return "torn slot";
	case FAMFS_HB_BEHIND:
		/* a host that is down holds it until evicted, as does the
		 * slot of a host's name before a rename across a reboot
		 * (the key is host uuid and name) */
		return "behind: its replay is not past it; a host that is down, or a host's slot under its name before a rename, holds it until famfs hosts evict --slot N";
	case FAMFS_HB_HOLDING:
		return "holding";
	case FAMFS_HB_NO_MASTER:
		return "no master slot";
	case FAMFS_HB_BEYOND:
		return "past the log's end: registered_at or replayed above its next index (famfs hosts evict)";
	default:
		return "";
	}
}

size_t famfs_hostdec_decide(const struct famfs_host *slots, const unsigned *idx,
			    unsigned n, const struct famfs_hosts_ev *ev,
			    const uint8_t *master_uuid, const uint64_t *dels,
			    size_t ndel, uint64_t next, bool *ok,
			    famfs_hostdec_fn fn, void *arg)
{
	bool have_master = !master_uuid;
	unsigned nslots = idx ? FAMFS_HOST_SLOTS : n;
	size_t k = 0;

	for (unsigned s = 0; s < n && !have_master; s++)
		have_master = registered(&slots[s]) &&
			      !famfs_host_evicted(&slots[s], ev) &&
			      !memcmp(slots[s].host_uuid, master_uuid, 16);
	for (size_t i = 0; i < ndel; i++) {
		ok[i] = have_master;
		if (!have_master && fn)
			fn(arg, i, nslots, FAMFS_HB_NO_MASTER);
		for (unsigned s = 0; s < n; s++) {
			enum famfs_host_block b;

			if (slots[s].state == FAMFS_HOST_FREE)
				continue;
			b = famfs_host_blocks(&slots[s], ev, dels[i], next);
			if (b == FAMFS_HB_NONE)
				continue;
			ok[i] = false;
			if (fn)
				fn(arg, i, idx ? idx[s] : s, b);
		}
		k += ok[i];
	}
	return k;
}
