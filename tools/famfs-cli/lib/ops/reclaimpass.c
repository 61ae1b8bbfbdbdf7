// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim across hosts (issue 29 item 4, docs/lifecycle.md): what this
 * host's famfs.ko still holds of the memory of pending DELETEs (every
 * host's replayer writes it in its slot of the host table), and the
 * master's pass that appends a RECLAIM for each pending DELETE that no
 * registered host can reach any more (the decision: role/hostdec.c) --
 * only while the table is armed (FAMFS_HOSTS_ARMED).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"

struct holds {
	const struct famfs_reclaim_cand *c;
	struct famfs_ioc_held_range r[FAMFS_HELD_MAX];
	size_t who[FAMFS_HELD_MAX];	/* r[i] is a range of c[who[i]] */
	unsigned n;
	int root;
	uint64_t from, bytes;
	uint8_t here[FAMFS_MAX_DEVS];	/* 0 not asked, 1 attached, 2 not */
};

/* a member not attached to this mount: famfs.ko refuses HELD for it
 * (EINVAL) and cannot map its memory (a member attached later gets its
 * files from a replay from the log's start, which makes no deleted one) */
static bool absent(struct famfs_fs *fs, struct holds *h, uint32_t dev)
{
	if (!dev || dev >= FAMFS_MAX_DEVS)
		return false;
	if (!h->here[dev])
		h->here[dev] = famfs_mount_dev_attached(fs->mpt, dev) == 0 ?
			       2 : 1;
	return h->here[dev] == 2;
}

/* ask famfs.ko about the ranges gathered so far */
static int holds_flush(struct holds *h)
{
	int rc = famfs_kernel_held(h->root, h->r, h->n);

	for (unsigned i = 0; !rc && i < h->n; i++) {
		uint64_t d = h->c[h->who[i]].del;

		if (!h->r[i].held)
			continue;
		h->bytes += h->r[i].held;
		if (d < h->from)
			h->from = d;
	}
	h->n = 0;
	return rc;
}

static uint64_t unread_said = UINT64_MAX;

int famfs_holds_of(struct famfs_fs *fs, const struct famfs_names *names,
		   uint64_t *holds_from, uint64_t *held_bytes)
{
	struct famfs_reclaim_cand *c;
	struct holds *h;
	size_t n;
	int rc;

	*holds_from = FAMFS_HOLDS_NONE;
	*held_bytes = 0;
	rc = famfs_reclaim_candidates_of(fs, names, &c, &n);
	if (rc || !n)
		return rc;
	h = calloc(1, sizeof(*h));
	if (!h) {
		free(c);
		return -ENOMEM;
	}
	h->c = c;
	h->from = FAMFS_HOLDS_NONE;
	/* no mount here: this host maps nothing of the file system */
	h->root = fs->mpt[0] ? famfs_fs_root(fs) : -ENOENT;
	rc = h->root == -ENOENT ? 0 : h->root < 0 ? h->root : 0;
	for (size_t i = 0; !rc && h->root >= 0 && i < n; i++) {
		/* fail closed: what cannot be asked about is held */
		if (c[i].unread && c[i].del < h->from) {
			if (c[i].del != unread_said)
				famfs_warn("%s: the FILE entry (log index %llu) of DELETE %llu does not verify here: its memory counts as held by this host until it does (or famfs hosts evict)",
					   fs->name, (unsigned long long)c[i].object,
					   (unsigned long long)c[i].del);
			unread_said = c[i].del;		/* once, not per poll */
			h->from = c[i].del;
		}
		for (unsigned k = 0; !rc && k < c[i].nranges; k++) {
			if (absent(fs, h, c[i].range[k].dev))
				continue;
			if (h->n == FAMFS_HELD_MAX)
				rc = holds_flush(h);
			h->r[h->n].dev = c[i].range[k].dev;
			h->r[h->n].offset = c[i].range[k].offset;
			h->r[h->n].len = c[i].range[k].len;
			h->who[h->n++] = i;
		}
	}
	if (!rc && h->n)
		rc = holds_flush(h);
	if (rc)
		famfs_err("%s: cannot ask famfs.ko which deleted files' memory it still holds: %s (this host's slot is not updated: it keeps every DELETE's memory from reclaim)",
			  fs->name, strerror(-rc));
	*holds_from = h->from;
	*held_bytes = h->bytes;
	free(h);
	free(c);
	return rc;
}

int famfs_holds_kernel(void *arg, uint64_t *holds_from, uint64_t *held_bytes)
{
	return famfs_holds_of(arg, NULL, holds_from, held_bytes);
}

/* the master's: from the create cache's namespace, which the pass brought
 * to the log's end under the log lock (no walk of the whole log) */
static int holds_cached(void *arg, uint64_t *holds_from, uint64_t *held_bytes)
{
	struct famfs_fs *fs = arg;

	return famfs_holds_of(fs, fs->cache_names, holds_from, held_bytes);
}

static int add_del(void *arg, uint64_t del, uint64_t object)
{
	struct famfs_reclaim_dels *d = arg;

	(void)object;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		uint64_t *p = realloc(d->del, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		d->del = p;
		d->cap = cap;
	}
	d->del[d->n++] = del;
	return 0;
}

/* the pass, the log lock held and the cache (with its names) ready */
static int pass_locked(struct famfs_fs *fs, struct famfs_reclaim_dels *d,
		       struct famfs_reclaim_pass *p)
{
	struct famfs_hosttab t;
	struct famfs_hosts_ev ev;
	struct famfs_hosttab_used used = { 0 };
	char why[FAMFS_REASON_LEN] = "";
	uint64_t *ok_dels;
	bool *ok;
	size_t k = 0;
	int rc, hrc;

	rc = famfs_names_pending(fs->cache_names, add_del, d);
	if (rc || !d->n)
		return rc;
	p->pending = d->n;
	rc = famfs_hosttab_open(fs, true, &t);
	if (rc == -ENOENT)
		return 0;	/* no host table: nothing may be reclaimed */
	if (rc)
		return rc;
	/* the master's own slot first: it has applied every entry; the
	 * header read once for the check-in and the decision (the log lock
	 * held: only the master writes it, under that lock) */
	rc = famfs_host_checkin_ev(fs, &t, famfs_log_refresh_next(fs),
				   holds_cached, fs, &ev, &hrc, why);
	ok = calloc(d->n, sizeof(*ok));
	ok_dels = calloc(d->n, sizeof(*ok_dels));
	if (!rc && (!ok || !ok_dels))
		rc = -ENOMEM;
	if (!rc && hrc) {
		rc = hrc;
		if (rc != -ENOMEM)
			famfs_err("%s: host table: %s: nothing reclaimed (%s)",
				  fs->name, why, famfs_hosts_hdr_way(rc));
	}
	/* not armed: a host that mounted before the table may have no slot
	 * (famfs_format.h): nothing is known to be unreachable (the slots
	 * not read) */
	if (!rc && !(ev.flags & FAMFS_HOSTS_ARMED))
		p->unarmed = true;
	/* the slots that are not free only: a free slot blocks nothing */
	if (!rc && !p->unarmed) {
		rc = famfs_hosttab_read_used(&t, &used, NULL, why);
		if (rc && rc != -ENOMEM)
			famfs_err("%s: host table: %s: nothing reclaimed (%s)",
				  fs->name, why, strerror(-rc));
	}
	if (!rc && !p->unarmed) {
		if (p->dels_out)
			*p->dels_out = d->del;
		famfs_hostdec_decide(used.slots, used.idx, used.n, &ev,
				     fs->sb->master_uuid, d->del, d->n,
				     famfs_log_refresh_next(fs), ok,
				     p->blocked, p->arg);
		for (size_t i = 0; i < d->n; i++)
			if (ok[i])
				ok_dels[k++] = d->del[i];
		rc = famfs_reclaim_append_locked(fs, ok_dels, (unsigned)k,
						 &p->freed);
		if (!rc)
			p->reclaimed = k;
	}
	free(ok_dels);
	free(ok);
	famfs_hosttab_used_free(&used);
	famfs_hosttab_close(&t);
	return rc;
}

void famfs_reclaim_finish(struct famfs_fs *fs)
{
	struct famfs_reclaim_pass pass = { 0 };

	if (!fs->reclaim_due)
		return;
	fs->reclaim_due = false;
	famfs_reclaim_pass(fs, &pass);	/* a failure is printed */
}

bool famfs_fs_has_hosts(const struct famfs_fs *fs)
{
	return le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS;
}

int famfs_reclaim_pass(struct famfs_fs *fs, struct famfs_reclaim_pass *p)
{
	struct famfs_reclaim_dels d = { 0 };
	bool took;
	int rc;

	p->pending = p->reclaimed = 0;
	p->freed = 0;
	p->unarmed = false;
	if (!famfs_fs_has_hosts(fs))
		return 0;
	/* the master's check is its append's (famfs_reclaim_append_locked) */
	rc = famfs_master_lock(fs, false, &took);
	if (rc)
		return rc;
	fs->cache_names_want = true;
	rc = famfs_fs_cache_ready(fs, "reclaim", "RECLAIM");
	if (!rc && !fs->cache_names)
		rc = -ENOMEM;
	if (!rc)
		rc = pass_locked(fs, &d, p);
	free(d.del);
	famfs_master_unlock(fs, &took);
	/* the other failures were said where they happened */
	if (rc == -ENOMEM)
		famfs_err("%s: reclaim: out of memory: nothing reclaimed", fs->name);
	return rc;
}
