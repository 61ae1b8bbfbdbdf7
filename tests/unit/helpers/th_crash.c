// SPDX-License-Identifier: GPL-2.0
/* Crash tests of delete and reclaim: the crash and the invariants
 * (th_crash.h) */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th_crash.h"

jmp_buf thc_jmp;
unsigned thc_flushes, thc_crash_at;
void (*thc_at_crash)(const struct famfs_map *m, const void *addr, size_t len);

void thc_hook(const struct famfs_map *m, const void *addr, size_t len)
{
	if (++thc_flushes != thc_crash_at)
		return;
	if (thc_at_crash)
		thc_at_crash(m, addr, len);
	longjmp(thc_jmp, 1);
}

void thc_recover(struct th *t)
{
	famfs_flush_hook = NULL;
	thc_at_crash = NULL;
	if (t->fs.locked)
		famfs_fs_unlock(&t->fs);
	t->fs.locked = false;
	t->fs.held = false;
	assert_int_equal(th_reopen(t), 0);
}

/* ---- the log, read by the test ---- */
static struct thc_file *by_idx(struct thc_state *s, uint64_t idx)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->f[i].idx == idx)
			return &s->f[i];
	return NULL;
}

static int scan_one(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		    bool ok, const char *reason)
{
	struct thc_state *s = arg;
	uint64_t d[FAMFS_RECLAIM_MAX];
	struct thc_file *f;
	struct famfs_ns ns;
	unsigned n;

	if (!ok)
		fail_msg("log entry %llu is bad after the crash: %s",
			 (unsigned long long)idx, reason);
	switch (le16toh(e->type)) {
	case FAMFS_LOG_FILE:
		s->f = realloc(s->f, (s->n + 1) * sizeof(*s->f));
		assert_non_null(s->f);
		f = &s->f[s->n++];
		memset(f, 0, sizeof(*f));
		f->idx = idx;
		snprintf(f->path, sizeof(f->path), "%s", famfs_entry_path(e));
		f->n = famfs_entry_ranges(e, f->ext);
		f->state = THC_LIVE;
		break;
	case FAMFS_LOG_HOSTS:
		assert_false(s->hosts);
		s->hosts = true;
		s->hosts_off = le64toh(famfs_entry_hosts(e)->offset);
		break;
	case FAMFS_LOG_DELETE:
		s->deletes++;
		assert_int_equal(famfs_ns_get(e, &ns), 0);
		if (ns.kind != FAMFS_LOG_FILE)
			break;
		f = by_idx(s, ns.object);
		if (!f || f->state != THC_LIVE)
			fail_msg("DELETE %llu of %s: no live file %llu",
				 (unsigned long long)idx, ns.path,
				 (unsigned long long)ns.object);
		f->state = THC_PENDING;
		f->del = idx;
		break;
	case FAMFS_LOG_RECLAIM:
		s->reclaims++;
		n = famfs_reclaim_get(e, d);
		assert_true(n > 0);
		for (unsigned k = 0; k < n; k++) {
			f = NULL;
			for (size_t i = 0; i < s->n && !f; i++)
				if (s->f[i].state != THC_LIVE &&
				    s->f[i].del == d[k])
					f = &s->f[i];
			if (!f || f->state != THC_PENDING)
				fail_msg("RECLAIM %llu: DELETE %llu %s",
					 (unsigned long long)idx,
					 (unsigned long long)d[k],
					 f ? "reclaimed twice" : "is no DELETE of a file");
			f->state = THC_RECLAIMED;
		}
		break;
	}
	return 0;
}

void thc_scan(struct famfs_fs *fs, struct thc_state *s)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(famfs_log_walk(fs, scan_one, s), 0);
}

void thc_state_free(struct thc_state *s)
{
	free(s->f);
	memset(s, 0, sizeof(*s));
}

const struct thc_file *thc_find(const struct thc_state *s, const char *path,
				int state)
{
	for (size_t i = s->n; i-- > 0;)
		if (!strcmp(s->f[i].path, path) && s->f[i].state == state)
			return &s->f[i];
	return NULL;
}

static void say(void *arg, const char *msg)
{
	(void)arg;
	print_message("fsck: %s\n", msg);
}

/* unit u's owner, or the first claim of it: two owners fail */
static void own(const char **owner, uint64_t units, uint64_t off,
		uint64_t len, const char *who)
{
	for (uint64_t u = off / FAMFS_ALLOC_UNIT;
	     u < (off + len + FAMFS_ALLOC_UNIT - 1) / FAMFS_ALLOC_UNIT; u++) {
		assert_true(u < units);
		if (owner[u])
			fail_msg("2 MiB unit %llu has two owners: %s and %s",
				 (unsigned long long)u, owner[u], who);
		owner[u] = who;
	}
}

static bool same_ext(const struct thc_file *a, const struct thc_file *b)
{
	return a->idx == b->idx && a->n == b->n &&
	       !memcmp(a->ext, b->ext, a->n * sizeof(a->ext[0])) &&
	       !strcmp(a->path, b->path);
}

static void local_agrees(struct th *t, struct thc_state *s)
{
	struct famfs_logplay_result r;
	bool gone_here = false;

	for (size_t i = 0; i < s->n; i++) {
		const struct thc_file *f = &s->f[i];

		/* deleted in the log, still here: the crash came between
		 * the DELETE and the unlink (a path made again after it is
		 * another file) */
		if (f->state != THC_LIVE && th_exists(t, f->path, false) &&
		    !thc_find(s, f->path, THC_LIVE))
			gone_here = true;
	}
	if (gone_here) {
		memset(&r, 0, sizeof(r));
		assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
		assert_int_equal(r.conflicts + r.errors, 0);
		assert_true(r.removed >= 1);
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct thc_file *f = &s->f[i];
		char p[PATH_MAX];
		struct famfs_fmap m;

		if (f->state != THC_LIVE) {
			if (!thc_find(s, f->path, THC_LIVE))
				assert_false(th_exists(t, f->path, false));
			continue;
		}
		snprintf(p, sizeof(p), "%s/%s", t->mpt, f->path);
		if (!th_exists(t, f->path, false))
			continue;
		assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
		assert_int_equal(m.count, f->n);
		for (unsigned k = 0; k < f->n; k++) {
			assert_int_equal(m.ext[k].offset, f->ext[k].offset);
			assert_int_equal(m.ext[k].len, f->ext[k].len);
		}
	}
}

void thc_check(struct th *t, const struct thc_state *before,
	       const char *may_go, struct thc_state *now)
{
	uint64_t units = t->fs.sb ? le64toh(t->fs.sb->device_size) /
				    FAMFS_ALLOC_UNIT : 0;
	const char **owner = calloc(units, sizeof(*owner));
	struct famfs_fsck_result r;
	struct famfs_bitmap b;

	assert_non_null(owner);
	thc_scan(&t->fs, now);
	/* nothing committed lost */
	for (size_t i = 0; before && i < before->n; i++) {
		const struct thc_file *f = &before->f[i], *g = NULL;

		for (size_t j = 0; j < now->n && !g; j++)
			if (now->f[j].idx == f->idx)
				g = &now->f[j];
		if (!g || !same_ext(f, g))
			fail_msg("%s (entry %llu): not in the log as before the crash",
				 f->path, (unsigned long long)f->idx);
		if (f->state == THC_LIVE && g->state != THC_LIVE &&
		    !(may_go && !strcmp(may_go, f->path)))
			fail_msg("%s: deleted by a crash", f->path);
		if (f->state == THC_PENDING)
			assert_true(g->state != THC_LIVE);
		if (f->state == THC_RECLAIMED)
			assert_int_equal(g->state, THC_RECLAIMED);
	}
	/* no unit of two owners; every owned one used in the allocator */
	for (size_t i = 0; i < now->n; i++) {
		const struct thc_file *f = &now->f[i];

		if (f->state == THC_RECLAIMED)
			continue;
		for (unsigned k = 0; k < f->n; k++)
			own(owner, units, f->ext[k].offset, f->ext[k].len,
			    f->path);
	}
	if (now->hosts)
		own(owner, units, now->hosts_off, FAMFS_HOSTS_LEN, "the host table");
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	for (uint64_t u = 0; u < units; u++)
		if (owner[u] && !famfs_bitmap_test(&b, u))
			fail_msg("2 MiB unit %llu of %s is free in the allocator",
				 (unsigned long long)u, owner[u]);
	famfs_bitmap_free(&b);
	free(owner);
	assert_int_equal(famfs_fsck_cb(&t->fs, &r, say, NULL), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.bad_entries, 0);
	local_agrees(t, now);
}

void thc_new_file(struct th *t, const char *rel, uint64_t size)
{
	struct thc_state s;
	char p[PATH_MAX], buf[65536];
	ssize_t n;
	int fd;

	/* the memory shows what it held before (0xa5) unless zeroed */
	th_mock_stale = true;
	th_create_ok(&t->fs, rel, size);
	th_mock_stale = false;
	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			if (buf[i])
				fail_msg("%s: a byte of old memory", rel);
	close(fd);
	thc_check(t, NULL, NULL, &s);
	assert_non_null(thc_find(&s, rel, THC_LIVE));
	thc_state_free(&s);
}

/* ---- the host table ---- */
void thc_other_host(struct th *t, unsigned n, uint64_t reg, uint64_t rep,
		    uint64_t holds)
{
	struct famfs_hosttab tab;
	struct famfs_host h;

	memset(&h, 0, sizeof(h));
	h.state = FAMFS_HOST_VALID;
	h.flags = FAMFS_HOST_REGISTERED;
	memset(h.host_uuid, 0xab, 16);
	memset(h.boot_id, 0xcd, 16);
	h.generation = 1;
	h.registered_at = reg;
	h.replayed = rep;
	h.holds_from = holds;
	snprintf(h.hostname, sizeof(h.hostname), "other");
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_hosttab_write(&tab, n, &h), 0);
	famfs_hosttab_close(&tab);
}

int thc_hold_all(struct famfs_ioc_held_range *r)
{
	r->held = r->len;
	return 0;
}
