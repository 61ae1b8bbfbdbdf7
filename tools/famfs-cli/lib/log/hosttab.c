// SPDX-License-Identifier: GPL-2.0
/*
 * The host table (famfs_format.h, format revision 3, HOSTS): found by its
 * HOSTS entry in the log, mapped (on a mount through .meta/.hosts, file
 * type FAMFS_LOG as a log segment's; else from the device), its slots and
 * header read and written, and the master's creation of it under the log
 * lock.  The bytes are media/hosts.c's; registration is hostreg.c's.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/log.h"

struct find_ctx {
	bool found;
	uint64_t off, idx;
};

static int find_one(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		    bool ok, const char *reason)
{
	struct find_ctx *c = arg;

	(void)reason;
	if (ok && le16toh(e->type) == FAMFS_LOG_HOSTS) {
		c->found = true;
		c->off = le64toh(famfs_entry_hosts(e)->offset);
		c->idx = idx;
		return 1;	/* the first one: the walk stops */
	}
	return 0;
}

int famfs_hosts_find(struct famfs_fs *fs, uint64_t *off, uint64_t *idx)
{
	struct find_ctx c = { 0 };
	int rc;

	if (!(le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS))
		return -ENOENT;
	/* found before by this opening: the log only grows past it (a
	 * whole-log walk each time was most of a replay's cost of a few
	 * entries: every check-in and reclaim pass opens the table) */
	if (fs->hosts_idx1) {
		*off = fs->hosts_off;
		*idx = fs->hosts_idx1 - 1;
		return 0;
	}
	rc = famfs_log_walk(fs, find_one, &c);
	if (rc < 0)
		return rc;
	if (!c.found)
		return rc ? -EIO : -ENOENT;
	fs->hosts_idx1 = c.idx + 1;
	fs->hosts_off = c.off;
	*off = c.off;
	*idx = c.idx;
	return 0;
}

#define HOSTS_NAME	(FAMFS_META_HOSTS + sizeof(FAMFS_META_DIR))

/* .meta/.hosts opened (created over off when missing): an fd */
static int hosts_fd(struct famfs_fs *fs, uint64_t off, bool rw)
{
	char p[4200], why[FAMFS_META_WHY_LEN];
	int mfd, fd, rc;

	snprintf(p, sizeof(p), "%s/%s", fs->mpt, FAMFS_META_HOSTS);
	mfd = famfs_metadir_open(fs->mpt, why);
	if (mfd < 0) {
		famfs_err("%s: %s", p, why);
		return mfd;
	}
	fd = famfs_meta_openat(mfd, HOSTS_NAME, rw ? O_RDWR : O_RDONLY, 0, why);
	if (fd == -ENOENT) {
		rc = famfs_meta_create(fs->mpt, FAMFS_META_HOSTS, 0644, FAMFS_LOG,
				       off, FAMFS_HOSTS_LEN);
		if (rc && rc != -EEXIST) {
			close(mfd);
			return rc;
		}
		fd = famfs_meta_openat(mfd, HOSTS_NAME, rw ? O_RDWR : O_RDONLY,
				       0, why);
	}
	close(mfd);
	if (fd < 0) {
		famfs_err("%s: %s", p, why);
		return fd;
	}
	if (famfs_meta_file_off(fd, FAMFS_HOSTS_LEN) != off) {
		famfs_err("%s: does not map the host table [%llu, +%llu) as its HOSTS entry says: not used (famfs check; remove it and run famfs logplay)",
			  p, (unsigned long long)off,
			  (unsigned long long)FAMFS_HOSTS_LEN);
		close(fd);
		return -EIO;
	}
	return fd;
}

int famfs_hosts_file(struct famfs_fs *fs, uint64_t off)
{
	int fd;

	if (!fs->mpt[0])
		return 0;
	fd = hosts_fd(fs, off, false);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int tab_map(struct famfs_fs *fs, bool rw, uint64_t off,
		   struct famfs_hosttab *t)
{
	int rc;

	t->fd = -1;
	t->off = off;
	memcpy(t->fs_uuid, fs->sb->fs_uuid, 16);
	if (fs->mpt[0]) {
		t->fd = hosts_fd(fs, off, rw);
		if (t->fd < 0)
			return t->fd;
		rc = famfs_fd_map(t->fd, FAMFS_META_HOSTS, FAMFS_HOSTS_LEN, rw,
				  &t->m);
	} else {
		rc = famfs_dev_map(&fs->dev, off, FAMFS_HOSTS_LEN, &t->m);
		/* the slots' end: the bytes after it are never read */
		if (!rc)
			rc = famfs_map_load(&t->m, t->m.addr,
					    FAMFS_HOSTS_SLOTS_END);
	}
	if (rc && t->fd >= 0) {
		close(t->fd);
		t->fd = -1;
	}
	return rc;
}

int famfs_hosttab_open(struct famfs_fs *fs, bool rw, struct famfs_hosttab *t)
{
	uint64_t off, idx;
	int rc;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	rc = famfs_hosts_find(fs, &off, &idx);
	if (rc)
		return rc;
	t->entry = idx;
	return tab_map(fs, rw, off, t);
}

void famfs_hosttab_close(struct famfs_hosttab *t)
{
	if (t->m.addr)
		famfs_map_unmap(&t->m);
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

enum famfs_host_state famfs_hosttab_slot(struct famfs_hosttab *t, unsigned i,
					 struct famfs_host *h)
{
	uint8_t *p = famfs_host_slot_at(t->m.addr, i), copy[FAMFS_HOST_SLOT_SIZE];

	famfs_map_refresh(&t->m, p, FAMFS_HOST_SLOT_SIZE);
	/* free (all zero): no copy needed, each byte is read once either way
	 * (a first registration looks at every slot) */
	if (famfs_all_zero(p, FAMFS_HOST_SLOT_SIZE)) {
		memset(h, 0, sizeof(*h));
		return h->state = FAMFS_HOST_FREE;
	}
	memcpy(copy, p, sizeof(copy));
	return famfs_host_slot_decode(copy, t->fs_uuid, h);
}

bool famfs_hosttab_slot_newer(struct famfs_hosttab *t, unsigned i)
{
	uint8_t *p = famfs_host_slot_at(t->m.addr, i), copy[FAMFS_HOST_SLOT_SIZE];

	famfs_map_refresh(&t->m, p, FAMFS_HOST_SLOT_SIZE);
	memcpy(copy, p, sizeof(copy));
	return famfs_host_slot_newer(copy, t->fs_uuid);
}

/* the header as memory holds it now (both copies refreshed, copied, the
 * newest that verifies decoded) */
int famfs_hosttab_read_hdr(struct famfs_hosttab *t, struct famfs_hosts_ev *ev,
			   char *reason)
{
	uint8_t *hdrs = malloc(FAMFS_HOSTS_SLOTS_OFF);
	int rc;

	if (!hdrs) {
		memset(ev, 0, sizeof(*ev));
		snprintf(reason, FAMFS_REASON_LEN, "out of memory");
		return -ENOMEM;
	}
	rc = famfs_map_refresh(&t->m, t->m.addr, FAMFS_HOSTS_SLOTS_OFF);
	if (rc) {
		free(hdrs);
		memset(ev, 0, sizeof(*ev));
		snprintf(reason, FAMFS_REASON_LEN,
			 "the header cannot be read (%s)", strerror(-rc));
		return rc;
	}
	memcpy(hdrs, t->m.addr, FAMFS_HOSTS_SLOTS_OFF);
	rc = famfs_hosts_hdrs_decode(hdrs, t->fs_uuid, ev, reason);
	free(hdrs);
	return rc;
}

/* slots looked at GROUP at a time first: most of a table is free, and
 * famfs_all_zero's call is then made once per 4 KiB */
#define GROUP	16

/* each slot that is not free, as memory holds it now (the whole table
 * refreshed first), to one(arg, i, h): only those are copied and decoded.
 * 0, or one's -errno */
static int each_used(struct famfs_hosttab *t,
		     int (*one)(void *arg, unsigned i, struct famfs_host *h),
		     void *arg)
{
	const uint8_t *p = famfs_host_slot_at(t->m.addr, 0);
	uint8_t copy[FAMFS_HOST_SLOT_SIZE];
	struct famfs_host h;
	int rc;

	_Static_assert(FAMFS_HOST_SLOTS % GROUP == 0, "slots in groups");
	/* not read as memory holds it now (a bounce read failed): no
	 * decision on it.  The slots only (64 KiB), not the unused rest of
	 * the 2 MiB */
	rc = famfs_map_refresh(&t->m, famfs_host_slot_at(t->m.addr, 0),
			       FAMFS_HOSTS_SLOTS_END - FAMFS_HOSTS_SLOTS_OFF);
	if (rc)
		return rc;
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS;
	     i++, p += FAMFS_HOST_SLOT_SIZE) {
		/* a free group skipped at its first slot */
		if (!(i % GROUP) &&
		    famfs_all_zero(p, GROUP * FAMFS_HOST_SLOT_SIZE)) {
			i += GROUP - 1;
			p += (GROUP - 1) * FAMFS_HOST_SLOT_SIZE;
			continue;
		}
		if (famfs_all_zero(p, FAMFS_HOST_SLOT_SIZE))
			continue;
		/* a private copy: the checks and the decode see one state */
		memcpy(copy, p, sizeof(copy));
		famfs_host_slot_decode(copy, t->fs_uuid, &h);
		rc = one(arg, i, &h);
		if (rc)
			return rc;
	}
	return 0;
}

static int fill_one(void *arg, unsigned i, struct famfs_host *h)
{
	struct famfs_host *slots = arg;

	slots[i] = *h;
	return 0;
}

int famfs_hosttab_read(struct famfs_hosttab *t, struct famfs_host *slots,
		       struct famfs_hosts_ev *ev, char *reason)
{
	int rc = famfs_hosttab_read_hdr(t, ev, reason), rs;

	if (rc == -ENOMEM)
		return rc;
	memset(slots, 0, FAMFS_HOST_SLOTS * sizeof(*slots));
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++)
		slots[i].state = FAMFS_HOST_FREE;
	rs = each_used(t, fill_one, slots);
	if (rs && !rc)
		snprintf(reason, FAMFS_REASON_LEN, "the slots cannot be read (%s)",
			 strerror(-rs));
	return rc ? rc : rs;
}

struct used {
	struct famfs_hosttab_used *u;
	unsigned cap;
};

static int add_one(void *arg, unsigned i, struct famfs_host *h)
{
	struct used *c = arg;
	struct famfs_hosttab_used *u = c->u;

	if (u->n == c->cap) {
		unsigned cap = c->cap ? 2 * c->cap : 16;
		struct famfs_host *s = realloc(u->slots, cap * sizeof(*s));
		unsigned *x;

		if (!s)
			return -ENOMEM;
		u->slots = s;
		x = realloc(u->idx, cap * sizeof(*x));
		if (!x)
			return -ENOMEM;
		u->idx = x;
		c->cap = cap;
	}
	u->slots[u->n] = *h;
	u->idx[u->n++] = i;
	return 0;
}

int famfs_hosttab_read_used(struct famfs_hosttab *t,
			    struct famfs_hosttab_used *u,
			    struct famfs_hosts_ev *ev, char *reason)
{
	struct used c = { .u = u };
	int rc = ev ? famfs_hosttab_read_hdr(t, ev, reason) : 0, rs;

	memset(u, 0, sizeof(*u));
	if (rc == -ENOMEM)
		return rc;
	rs = each_used(t, add_one, &c);
	if (rs) {
		famfs_hosttab_used_free(u);
		/* a header's own error is said first (nothing is reclaimed
		 * either way) */
		if (!rc)
			snprintf(reason, FAMFS_REASON_LEN, "%s",
				 rs == -ENOMEM ? "out of memory" :
				 "the slots cannot be read");
		return rc ? rc : rs;
	}
	return rc;
}

struct find_key {
	const struct famfs_host_key *k;
	struct famfs_host *h;
	int slot, rank, other;
};

static int match_one(void *arg, unsigned i, struct famfs_host *h)
{
	struct find_key *f = arg;
	int r = famfs_host_key_rank(h, f->k);

	if (r > f->rank) {
		*f->h = *h;
		f->slot = (int)i;
		f->rank = r;
	} else if (!r && f->other < 0 && h->state == FAMFS_HOST_VALID &&
		   (h->flags & FAMFS_HOST_REGISTERED) &&
		   !memcmp(h->host_uuid, f->k->uuid, 16)) {
		f->other = (int)i;
	}
	return f->rank == 2;	/* the best there is: the walk stops */
}

int famfs_hosttab_find_key(struct famfs_hosttab *t,
			   const struct famfs_host_key *k,
			   struct famfs_host *h, int *other)
{
	struct find_key f = { .k = k, .h = h, .slot = -ENOENT, .other = -1 };
	int rc = each_used(t, match_one, &f);

	if (other)
		*other = f.other;
	/* not read: not "none" (a registration would claim a second slot) */
	return rc < 0 ? rc : f.slot;
}

struct top_gen {
	const uint8_t *uuid;
	uint64_t top;
};

static int top_one(void *arg, unsigned i, struct famfs_host *h)
{
	struct top_gen *g = arg;

	(void)i;
	if (h->state == FAMFS_HOST_VALID && !memcmp(h->host_uuid, g->uuid, 16) &&
	    h->generation > g->top)
		g->top = h->generation;
	return 0;
}

int famfs_hosttab_top_gen(struct famfs_hosttab *t, const uint8_t uuid[16],
			  uint64_t *top)
{
	struct top_gen g = { .uuid = uuid };
	int rc = each_used(t, top_one, &g);

	*top = g.top;
	return rc;
}

void famfs_hosttab_used_free(struct famfs_hosttab_used *u)
{
	free(u->slots);
	free(u->idx);
	memset(u, 0, sizeof(*u));
}

int famfs_hosttab_write(struct famfs_hosttab *t, unsigned i,
			struct famfs_host *h)
{
	uint8_t *p = famfs_host_slot_at(t->m.addr, i), copy[FAMFS_HOST_SLOT_SIZE];
	struct famfs_host_rec r;
	unsigned c;

	famfs_map_refresh(&t->m, p, FAMFS_HOST_SLOT_SIZE);
	memcpy(copy, p, sizeof(copy));
	c = famfs_host_slot_next(copy, t->fs_uuid, &h->seq);
	if (!h->seq) {
		famfs_err("slot %u of the host table: its seq is at its end (UINT64_MAX - 1): not written again (famfs hosts evict --slot %u frees it)",
			  i, i);
		return -EOVERFLOW;
	}
	famfs_host_rec_encode(&r, h, t->fs_uuid);
	memcpy(p + c * sizeof(r), &r, sizeof(r));
	return famfs_map_flush(&t->m, p + c * sizeof(r), sizeof(r));
}

int famfs_hosttab_claim(struct famfs_hosttab *t, unsigned i,
			struct famfs_host *h)
{
	uint8_t *p = famfs_host_slot_at(t->m.addr, i);
	struct famfs_host_rec r;

	/* looked at again just before the write: a claim that stalled since
	 * its free check never writes over a slot another host claimed */
	famfs_map_refresh(&t->m, p, FAMFS_HOST_SLOT_SIZE);
	if (!famfs_all_zero(p, FAMFS_HOST_SLOT_SIZE))
		return -EBUSY;
	h->seq = 1;
	famfs_host_rec_encode(&r, h, t->fs_uuid);
	memcpy(p, &r, sizeof(r));
	return famfs_map_flush(&t->m, p, sizeof(r));
}

/* a header is written only if it decodes: one that does not (a fence this
 * build's reader refuses) would leave every host without the list, and
 * repair --force without its fences (review rev2 R1).  0 or -EPROTO
 * (said) */
static int reads_back(const struct famfs_hosts_hdr *hdr,
		      const uint8_t fs_uuid[16])
{
	struct famfs_hosts_ev *ev = malloc(sizeof(*ev));
	char why[FAMFS_REASON_LEN];
	int rc;

	if (!ev)
		return -ENOMEM;
	rc = famfs_hosts_hdr_decode(hdr, fs_uuid, ev, why);
	free(ev);
	if (!rc)
		return 0;
	famfs_err("the host table header to be written does not read back (%s): not written",
		  why);
	return -EPROTO;
}

/* anew (repair): a header at the end of its seq starts again at 1 in the
 * copy that is not the newest, the other copy zeroed after (cut short
 * between: the old one is still the newest, and repair is run again) */
static int write_hdr(struct famfs_hosttab *t, struct famfs_hosts_ev *ev,
		     bool anew)
{
	uint8_t *hdrs = malloc(FAMFS_HOSTS_SLOTS_OFF), *p;
	struct famfs_hosts_hdr *hdr = malloc(sizeof(*hdr));
	bool restart = false;
	unsigned c;
	int rc = -ENOMEM;

	if (!hdrs || !hdr)
		goto out;
	/* the copy that is not the newest verifying one: a write cut short
	 * leaves that one whole */
	famfs_map_refresh(&t->m, t->m.addr, FAMFS_HOSTS_SLOTS_OFF);
	memcpy(hdrs, t->m.addr, FAMFS_HOSTS_SLOTS_OFF);
	c = famfs_hosts_hdr_next(hdrs, t->fs_uuid, &ev->seq);
	if (!ev->seq && !anew) {
		famfs_err("the host table header's seq is at its end (UINT64_MAX - 1): not written again (famfs hosts repair --force starts it again from 1, its fences kept)");
		rc = -EOVERFLOW;
		goto out;
	}
	if (!ev->seq) {
		/* again from 1: into copy c, which is not the newest, then the
		 * other one zeroed; a crash between the two leaves the newest
		 * header as it was, never an older copy ruling */
		restart = true;
		ev->seq = 1;
	}
	famfs_hosts_hdr_encode(hdr, ev, t->fs_uuid);
	rc = reads_back(hdr, t->fs_uuid);
	if (rc)
		goto out;
	p = (uint8_t *)t->m.addr + (size_t)c * FAMFS_HOSTS_HDR_SIZE;
	memcpy(p, hdr, sizeof(*hdr));
	rc = famfs_map_flush(&t->m, p, FAMFS_HOSTS_HDR_SIZE);
	/* no copy of the earlier layout (FAMSHOS3) left beside this one: a
	 * build of that layout would read it as the header */
	if (!rc && famfs_hosts_hdr_old(hdrs + (size_t)(1 - c) *
				       FAMFS_HOSTS_HDR_SIZE, t->fs_uuid))
		restart = true;
	if (!rc && restart) {
		p = (uint8_t *)t->m.addr + (size_t)(1 - c) * FAMFS_HOSTS_HDR_SIZE;
		memset(p, 0, FAMFS_HOSTS_HDR_SIZE);
		rc = famfs_map_flush(&t->m, p, FAMFS_HOSTS_HDR_SIZE);
	}
out:
	free(hdrs);
	free(hdr);
	return rc;
}

int famfs_hosttab_write_hdr(struct famfs_hosttab *t, struct famfs_hosts_ev *ev)
{
	return write_hdr(t, ev, false);
}

int famfs_hosttab_write_hdr_anew(struct famfs_hosttab *t,
				 struct famfs_hosts_ev *ev)
{
	return write_hdr(t, ev, true);
}

const char *famfs_hosts_hdr_way(int rc)
{
	switch (rc) {
	case -EBADMSG:
		return "famfs hosts repair on the master writes a new one, with no fences";
	case -EINVAL:
		return "it verifies but this famfs does not understand it (no writer of this layout makes it): famfs hosts repair --force on the master writes a new one, with no fences";
	case -EPROTONOSUPPORT:
		return "upgrade famfs; it is never repaired over";
	default:
		return strerror(-rc);
	}
}

int famfs_hosttab_zero_slot(struct famfs_hosttab *t, unsigned i)
{
	uint8_t *p = famfs_host_slot_at(t->m.addr, i);

	memset(p, 0, FAMFS_HOST_SLOT_SIZE);
	return famfs_map_flush(&t->m, p, FAMFS_HOST_SLOT_SIZE);
}

/* a .meta/.hosts left by a creation that died before its HOSTS entry:
 * its memory is free in the log */
static void remove_stale(struct famfs_fs *fs)
{
	char why[FAMFS_META_WHY_LEN];
	int mfd;

	if (!fs->mpt[0])
		return;
	mfd = famfs_metadir_open(fs->mpt, why);
	if (mfd < 0)
		return;
	if (famfs_mnt_unlinkat(mfd, HOSTS_NAME, 0) == 0)
		famfs_warn("%s/%s: removed: a host table creation that did not finish",
			   fs->mpt, FAMFS_META_HOSTS);
	close(mfd);
}

static int create_locked(struct famfs_fs *fs, uint32_t flags)
{
	struct famfs_log_simple_ext x;
	struct famfs_log_entry e;
	struct famfs_hosttab t;
	struct famfs_bitmap *b;
	uint64_t off, idx;
	int rc;

	rc = famfs_hosts_find(fs, &off, &idx);
	if (!rc)
		return -EEXIST;
	if (rc != -ENOENT)
		return rc;
	rc = famfs_fs_cache_ready(fs, fs->name, "cannot make the host table");
	if (rc)
		return rc;
	b = &fs->cache_alloc->dev[0];	/* on the primary, as log segments */
	if (famfs_alloc(b, FAMFS_HOSTS_LEN, &x)) {
		famfs_err("%s: cannot make the host table: no free 2 MiB on device 0",
			  fs->name);
		return -ENOSPC;
	}
	off = le64toh(x.offset);
	rc = famfs_fs_change_feature(fs, FAMFS_FEAT_INCOMPAT,
				     FAMFS_FEATURE_INCOMPAT_HOSTS, 0);
	if (rc)
		goto unalloc;
	remove_stale(fs);
	memset(&t, 0, sizeof(t));
	rc = tab_map(fs, true, off, &t);
	if (rc)
		goto unalloc;
	/* no slot of an earlier file system's table verifies here (the CRC
	 * is seeded with the fs uuid), but a torn one would block: zeroed */
	memset(t.m.addr, 0, FAMFS_HOSTS_LEN);
	{
		struct famfs_hosts_ev ev = { 0 };

		ev.flags = flags;	/* copy 0, seq 1 */
		rc = famfs_hosttab_write_hdr(&t, &ev);
	}
	if (!rc)
		rc = famfs_map_flush(&t.m, t.m.addr, FAMFS_HOSTS_LEN);
	famfs_hosttab_close(&t);
	if (rc)
		goto unfile;
	famfs_entry_build_hosts(&e, off);
	rc = famfs_log_append(fs, &e);
	if (rc) {
		/* it may be at next_index (R4: its memory used): the cache
		 * is read again from the log */
		famfs_fs_cache_drop(fs);
		goto unfile;
	}
	return 0;
unfile:
	remove_stale(fs);
	return rc;
unalloc:
	famfs_bitmap_clear(b, off / FAMFS_ALLOC_UNIT);
	return rc;
}

static int hosts_create(struct famfs_fs *fs, uint32_t flags)
{
	bool took;
	int rc = famfs_master_lock(fs, true, &took);

	if (rc)
		return rc;
	rc = create_locked(fs, flags);
	famfs_master_unlock(fs, &took);
	return rc;
}

int famfs_hosts_create(struct famfs_fs *fs)
{
	return hosts_create(fs, 0);
}

int famfs_hosts_init(struct famfs_fs *fs)
{
	return hosts_create(fs, FAMFS_HOSTS_ARMED);
}

int famfs_hosts_armed(struct famfs_fs *fs)
{
	struct famfs_hosttab t;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	int rc = famfs_hosttab_open(fs, false, &t);

	if (rc)
		return rc;
	rc = famfs_hosttab_read_hdr(&t, &ev, why);
	famfs_hosttab_close(&t);
	if (rc)
		return rc;
	return !!(ev.flags & FAMFS_HOSTS_ARMED);
}

/* the log lock held, the master checked */
static int arm_locked(struct famfs_fs *fs)
{
	struct famfs_hosttab t;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	int rc = famfs_hosttab_open(fs, true, &t);

	if (rc == -ENOENT)
		famfs_err("%s: no host table to arm (famfs hosts init makes one, armed)",
			  fs->name);
	if (rc)
		return rc;
	rc = famfs_hosttab_read_hdr(&t, &ev, why);
	if (rc)
		famfs_err("%s: host table header: %s: not armed (the master writing it now: look again; else %s)",
			  fs->name, why, famfs_hosts_hdr_way(rc));
	else if (ev.flags & FAMFS_HOSTS_ARMED)
		rc = -EALREADY;
	if (!rc) {
		ev.flags |= FAMFS_HOSTS_ARMED;
		rc = famfs_hosttab_write_hdr(&t, &ev);
		if (rc)
			famfs_err("%s: host table header: cannot write it: %s",
				  fs->name, strerror(-rc));
	}
	famfs_hosttab_close(&t);
	return rc;
}

int famfs_hosts_arm(struct famfs_fs *fs)
{
	bool took;
	int rc;

	if (!fs->master) {
		famfs_err("%s: this host is a client: only the master arms the host table (famfs hosts arm MPT on the master)",
			  fs->name);
		return -EPERM;
	}
	rc = famfs_master_lock(fs, true, &took);
	if (rc)
		return rc;
	rc = arm_locked(fs);
	famfs_master_unlock(fs, &took);
	return rc;
}
