// SPDX-License-Identifier: GPL-2.0
/* Mutating operations on a mounted file system (master only). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ops/ops.h"

int famfs_layout_check(const struct famfs_layout *lay, char *reason)
{
	if (!lay || !lay->nstrips)
		return 0;
	if (lay->nstrips > FAMFS_LOG_MAX_STRIPS) {
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "%u strips: the strip count must be 1..%u",
				 lay->nstrips, FAMFS_LOG_MAX_STRIPS);
		return -EINVAL;
	}
	if (!lay->chunk || lay->chunk % FAMFS_ALLOC_UNIT) {
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "chunk size %llu: must be a non-zero multiple of 2 MiB (2M, 4M, ...)",
				 (unsigned long long)lay->chunk);
		return -EINVAL;
	}
	return 0;
}

static void set_owner(int fd, const char *p, uint32_t mode, uint32_t uid,
		      uint32_t gid)
{
	if (famfs_mnt_fchown(fd, uid, gid) && (uid != getuid() || gid != getgid()))
		famfs_warn("%s: chown %u:%u: %s", p, uid, gid, strerror(errno));
	if (famfs_mnt_fchmod(fd, mode & 07777))
		famfs_warn("%s: chmod 0%o: %s", p, mode, strerror(errno));
}

/* What a create and a mkdir check before the lock: rel in normal form
 * (norm, FAMFS_LOG_PATH_MAX), its path under the mount (p, PATH_MAX), and
 * the owner it is to have */
static int path_and_owner(struct famfs_fs *fs, const char *rel, uint32_t uid,
			  uint32_t gid, char *norm, char *p)
{
	char reason[FAMFS_REASON_LEN];

	if (famfs_relpath_normalize(rel, norm, reason)) {
		famfs_err("%s: %s", fs->mpt, reason);
		return -EINVAL;
	}
	if (famfs_join(p, PATH_MAX, fs->mpt, norm))
		return -ENAMETOOLONG;
	return famfs_owner_check(p, uid, gid);
}

/*
 * Before a create or a mkdir judges its path by the create cache: an
 * opening that took itself for the master instance at its open reads the
 * log without dropping cache lines, which holds only while the role stays
 * its own.  If the role went to another host and came back meanwhile (a
 * long cp -r), its check claims the record again, and that claim drops the
 * lines and the cache this opening read through: so the check comes first,
 * never after a judgement made through a view from before the claim.  (Any
 * other opening drops its lines at every read.)
 */
static int pre_judge(struct famfs_fs *fs)
{
	/* on the master host, also by an opening that is not its instance
	 * yet: the claim's replay (role.h) before the tree and the cache are
	 * judged (review r39 1) */
	return fs->master ? famfs_master_check(fs) : 0;
}

int famfs_file_create(struct famfs_fs *fs, const char *rel, uint64_t size,
		      uint32_t mode, uint32_t uid, uint32_t gid)
{
	return famfs_file_create_layout(fs, rel, size, mode, uid, gid, NULL);
}

/* --align 1g for an interleaved file without room so: say which devices
 * the strips were to go to and how many free aligned GiBs each has */
static int strips_unaligned_err(const struct famfs_alloc *a, const char *p,
				const struct famfs_layout *lay, uint64_t size,
				const struct famfs_place *pl,
				const uint8_t devs[FAMFS_LOG_MAX_STRIPS], int rc)
{
	char free1g[FAMFS_REASON_LEN] = "";
	uint32_t seen = 0;
	uint64_t slen = 0;
	size_t n = 0;

	if (rc != -ENOSPC || famfs_strip_len(size, lay->nstrips, lay->chunk,
					     &slen)) {
		famfs_err("%s: --align 1g: %u strips of %llu-byte chunks holding %llu bytes cannot be placed on 1 GiB boundaries (%s)",
			  p, lay->nstrips, (unsigned long long)lay->chunk,
			  (unsigned long long)size, strerror(-rc));
		return rc;
	}
	for (uint32_t i = 0; i < lay->nstrips && n < sizeof(free1g) - 64; i++) {
		if (seen >> devs[i] & 1)
			continue;
		seen |= 1U << devs[i];
		n += (size_t)snprintf(free1g + n, sizeof(free1g) - n,
				      "%sdevice %u: %llu", n ? ", " : "",
				      devs[i], (unsigned long long)
				      famfs_bitmap_free_aligned(&a->dev[devs[i]],
						FAMFS_ALIGN_BYTES / FAMFS_ALLOC_UNIT));
	}
	famfs_err("%s: --align 1g: no room for %u strips of %llu bytes each starting on a 1 GiB boundary%s (free aligned GiBs: %s; famfs df shows them)",
		  p, lay->nstrips, (unsigned long long)slen,
		  pl->has_dev ? " on that --device" : "", free1g);
	return rc;
}

/* A small file (issue 30): page extents in shared units.  Not for a
 * module without the v2 ioctls (page maps come through MAP_CREATE_V3), an
 * interleaved file, or one placed on a 1 GiB boundary. */
uint64_t famfs_small_max = FAMFS_SMALL_MAX;

static bool is_small(uint64_t size, const struct famfs_layout *lay,
		     bool v1_only)
{
	uint64_t max = lay && lay->small_max ? lay->small_max : famfs_small_max;
	uint64_t np = size ? (size + FAMFS_PAGE - 1) / FAMFS_PAGE : 1;

	if (v1_only || (lay && (lay->nstrips || lay->align == FAMFS_ALIGN_1G)) ||
	    max == FAMFS_SMALL_NONE)
		return false;
	if (max > FAMFS_SMALL_MAX)
		max = FAMFS_SMALL_MAX;
	return size < max && np < FAMFS_UNIT_PAGES;
}

static int alloc_small(struct famfs_fs *fs, const char *p, const char *norm,
		       uint64_t size, uint32_t mode, uint32_t uid, uint32_t gid,
		       const struct famfs_place *pl, struct famfs_log_entry *e)
{
	struct famfs_log_simple_ext ext[FAMFS_LOG_MAX_SIMPLE_EXT];
	uint8_t devs[FAMFS_LOG_MAX_SIMPLE_EXT];
	char why[FAMFS_REASON_LEN] = "";
	unsigned next = 0;
	int rc;

	rc = famfs_alloc_place_pages(fs->cache_alloc, pl, size, ext, &next,
				     devs, why);
	if (rc) {
		famfs_err("%s: %s a small file of %llu bytes: %s", p,
			  rc == -ENOSPC ? "no room for" : "cannot place",
			  (unsigned long long)size, why[0] ? why : strerror(-rc));
		famfs_fs_cache_drop(fs);
		return rc;
	}
	rc = famfs_entry_build_pages(e, norm, size, mode, uid, gid, ext, next);
	/* the superblock says so before the first such entry (R2) */
	if (!rc)
		rc = famfs_fs_change_feature(fs, FAMFS_FEAT_INCOMPAT,
					     FAMFS_FEATURE_INCOMPAT_SMALL_FILES, 0);
	for (unsigned i = 0; !rc && i < next; i++)
		e->fm.reserved[i] = devs[i];
	if (rc)
		famfs_fs_cache_drop(fs);	/* allocated, not to be logged */
	return rc;
}

/* allocate and build the entry of a new file; v1_only: refuse more than
 * FAMFS_MAX_EXTENTS extents (a famfs.ko without MAP_CREATE_V2) */
static int alloc_entry(struct famfs_fs *fs, const char *p, const char *norm,
		       uint64_t size, uint32_t mode, uint32_t uid, uint32_t gid,
		       const struct famfs_layout *lay, bool v1_only,
		       struct famfs_log_entry *e)
{
	struct famfs_log_interleave_ext ie;
	struct famfs_log_simple_ext ext[FAMFS_LOG_MAX_SIMPLE_EXT];
	struct famfs_alloc *a = fs->cache_alloc;	/* up to date */
	struct famfs_place here = { 0 }, *pl = &here;
	char why[FAMFS_REASON_LEN];
	uint8_t devs[FAMFS_LOG_MAX_STRIPS] = { 0 };
	unsigned next = 0, dev = 0, nhere;
	bool shared = false, skipped;
	int rc;

	if (lay)
		here = lay->place;
	if (famfs_place_check(a, pl, why) ||
	    famfs_place_here(fs, a, pl, lay ? lay->nstrips : 0, &skipped, why)) {
		famfs_err("%s: --device: %s", p, why);
		return -ENODEV;
	}
	/* members in the log but not here: said once, when it mattered */
	if (skipped && !fs->here_said) {
		fs->here_said = true;
		for (unsigned i = 1; i < a->ndevs; i++)
			if (pl->absent >> i & 1)
				famfs_note("%s: device %u is in the file system but not attached on this host: not used for new files (famfs mount -d or famfs logplay attaches it once it is here)",
					   fs->mpt, i);
	}
	if (is_small(size, lay, v1_only))
		return alloc_small(fs, p, norm, size, mode, uid, gid, pl, e);
	/* all or nothing: ENOSPC leaves the bitmaps as they were */
	if (lay && lay->nstrips) {
		rc = -ENOSPC;
		/* every strip on a 1 GiB boundary: each chunk of 1 GiB (or
		 * a multiple) one 1 GiB mapping */
		if (lay->align == FAMFS_ALIGN_1G ||
		    (lay->align == FAMFS_ALIGN_AUTO &&
		     size >= FAMFS_ALIGN_BYTES &&
		     lay->chunk % FAMFS_ALIGN_BYTES == 0))
			rc = famfs_alloc_place_strips_aligned(a, pl, size,
					lay->nstrips, lay->chunk,
					FAMFS_ALIGN_BYTES / FAMFS_ALLOC_UNIT,
					&ie, devs, &shared);
		if (rc && lay->align == FAMFS_ALIGN_1G)
			return strips_unaligned_err(a, p, lay, size, pl, devs,
						    rc);
		if (rc)
			rc = famfs_alloc_place_strips(a, pl, size,
						      lay->nstrips, lay->chunk,
						      &ie, devs, &shared);
	} else {
		uint32_t al = lay ? lay->align : FAMFS_ALIGN_AUTO;

		rc = -ENOSPC;
		/* 1 GiB-aligned first (famfs.ko's 1 GiB mappings) */
		if (al == FAMFS_ALIGN_1G ||
		    (al == FAMFS_ALIGN_AUTO && size >= FAMFS_ALIGN_BYTES)) {
			rc = famfs_alloc_place_aligned(a, pl, size,
						       FAMFS_ALIGN_BYTES / FAMFS_ALLOC_UNIT,
						       ext, &dev);
			if (!rc)
				next = 1;
		}
		if (rc && al == FAMFS_ALIGN_1G) {
			uint64_t runs = 0;

			for (unsigned i = 0; i < a->ndevs; i++)
				runs += famfs_bitmap_free_aligned(&a->dev[i],
						FAMFS_ALIGN_BYTES / FAMFS_ALLOC_UNIT);
			famfs_err("%s: --align 1g: no free run of %llu bytes starting on a 1 GiB boundary%s (%llu wholly free aligned GiBs in the file system; famfs df shows them per device)",
				  p, (unsigned long long)size,
				  pl->has_dev ? " on that --device" : "",
				  (unsigned long long)runs);
			return -ENOSPC;
		}
		if (rc)
			rc = famfs_alloc_place(a, pl, size,
					       FAMFS_LOG_MAX_SIMPLE_EXT, ext,
					       &next, &dev);
	}
	if (rc) {
		if (lay && lay->nstrips)
			famfs_err("%s: device full: no room for %u strips of %llu-byte chunks holding %llu bytes (%llu bytes free in 2 MiB units)",
				  p, lay->nstrips, (unsigned long long)lay->chunk,
				  (unsigned long long)size,
				  (unsigned long long)(famfs_alloc_nfree(a) * FAMFS_ALLOC_UNIT));
		else
			famfs_err("%s: device full: %llu bytes fit neither in one free run nor in the %u longest ones together (%llu bytes free in 2 MiB units)",
				  p, (unsigned long long)size,
				  (unsigned)FAMFS_LOG_MAX_SIMPLE_EXT,
				  (unsigned long long)(famfs_alloc_nfree(a) * FAMFS_ALLOC_UNIT));
		return rc;
	}
	/* fewer devices than strips: said once, when there is more than one
	 * device to speak of */
	nhere = a->ndevs - (unsigned)__builtin_popcount(pl->absent);
	if (shared && nhere > 1)
		famfs_note(pl->absent ?
			   "%s: %u strips over the %u devices attached here: strip i is on the (i %% %u)th of them, so strips share devices" :
			   "%s: %u strips over %u devices: strip i is on device i %% %u, so strips share devices",
			   p, lay->nstrips, nhere, nhere);
	if (lay && lay->nstrips) {
		rc = famfs_entry_build_interleaved(e, norm, size, mode, uid, gid,
						   &ie);
		/* the superblock says so before the first such entry */
		if (!rc)
			rc = famfs_fs_change_feature(fs, FAMFS_FEAT_INCOMPAT,
						     FAMFS_FEATURE_INCOMPAT_INTERLEAVE, 0);
	} else if (v1_only && next > FAMFS_MAX_EXTENTS) {
		/* before the superblock's feature or the log is touched */
		famfs_err("%s: free space is fragmented: %llu bytes need %u extents, and " FAMFS_NO_V2_MSG ", which map at most %u; nothing logged",
			  p, (unsigned long long)size, next,
			  (unsigned)FAMFS_MAX_EXTENTS);
		rc = -EOPNOTSUPP;
	} else {
		rc = famfs_entry_build(e, FAMFS_LOG_FILE, norm, size, mode, uid,
				       gid, ext, next);
		for (unsigned i = 0; i < next; i++)
			devs[i] = (uint8_t)dev;
		/* more than 2 extents: the superblock says so first (R2) */
		if (!rc && next > FAMFS_LOG_SIMPLE_EXT_BASE)
			rc = famfs_fs_change_feature(fs, FAMFS_FEAT_INCOMPAT,
						     FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT, 0);
	}
	/* the device of every extent or strip (v1 form: fm.reserved[i]) */
	if (!rc)
		for (unsigned i = 0; i < FAMFS_LOG_MAX_STRIPS; i++)
			e->fm.reserved[i] = devs[i];
	/* allocated in the cache, but not to be logged */
	if (rc)
		famfs_fs_cache_drop(fs);
	return rc;
}

int famfs_file_create_layout(struct famfs_fs *fs, const char *rel,
			     uint64_t size, uint32_t mode, uint32_t uid,
			     uint32_t gid, const struct famfs_layout *lay)
{
	return famfs_file_create_fill(fs, rel, size, mode, uid, gid, lay, NULL);
}

/*
 * Under the log lock: allocate, create the file (O_EXCL, 0600), write all
 * its memory (its bytes, zeros up to the end of its last unit and of every
 * strip: through a scratch file before MAP_CREATE, famfs_fill_units, or
 * through the file itself after it when its mapping reaches all of it,
 * famfs_fill_file), give it that memory (MAP_CREATE), then its owner and
 * mode, and only then log it.  Once logged, every host can map
 * it, so it must never show what the memory held before.  Until then
 * nothing is visible to other hosts: a failure unlinks the file and the
 * allocation is forgotten.
 *
 * From the first MAP_CREATE (the scratch file's, or the file's own) to the
 * log append, a creator that dies leaves a mapped file that is not in the
 * log: its memory is held in this mount until it is removed or the mount
 * goes (famfs check lists it).  The signals that end a process by default
 * and can be blocked are held back meanwhile, and delivered when the entry
 * is in the log (or the create failed).
 */
static void block_fatal(sigset_t *old)
{
	static const int sig[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE,
				   SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,
				   SIGVTALRM, SIGPROF, SIGIO };
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(sig) / sizeof(sig[0]); i++)
		sigaddset(&set, sig[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* RECLAIM (issue 29): has the log freed a deleted file's memory?  Then a
 * new file may get it, and its bytes must never show (issue 15): even a
 * create told not to zero (famfs mkfile -Z) zeroes its memory */
static bool reclaimed_any(const struct famfs_fs *fs)
{
	struct famfs_names_count k;

	if (!fs->cache_names)
		return false;
	famfs_names_counts(fs->cache_names, &k);
	return k.reclaimed_files != 0;
}

/* No room: the memory of DELETEs no host can reach any more made free
 * (the host table's decision, reclaimpass.c), and the cache brought up to
 * date for the allocation's second try.  0 or -errno */
static int reclaim_some(struct famfs_fs *fs)
{
	struct famfs_reclaim_pass pass = { 0 };

	if (!famfs_reclaim_pass(fs, &pass) && pass.freed)
		famfs_note("%s: %zu deleted files' memory (%llu bytes) reclaimed: no host holds it any more",
			   fs->mpt, pass.reclaimed,
			   (unsigned long long)pass.freed);
	else if (pass.unarmed)
		famfs_note("%s: %zu deleted files' memory is not reclaimed: %s",
			   fs->mpt, pass.pending, FAMFS_UNARMED_WHY);
	/* a small file's failed allocation dropped the cache */
	return famfs_fs_cache_update(fs);
}

int famfs_file_create_fill(struct famfs_fs *fs, const char *rel,
			   uint64_t size, uint32_t mode, uint32_t uid,
			   uint32_t gid, const struct famfs_layout *lay,
			   const struct famfs_fill *fill)
{
	char norm[FAMFS_LOG_PATH_MAX], reason[FAMFS_REASON_LEN], p[PATH_MAX];
	struct famfs_log_entry e;
	struct famfs_fill zfill;
	struct famfs_fmap *map = NULL;
	const char *name = NULL;
	sigset_t oldmask;
	bool blocked = false;
	int fd = -1, pfd = -1, rc, v2, q;
	bool own, checked;

	rc = famfs_fs_writable(fs);
	if (rc)
		return rc;
	if (famfs_layout_check(lay, reason)) {
		famfs_err("%s/%s: %s", fs->mpt, rel, reason);
		return -EINVAL;
	}
	rc = path_and_owner(fs, rel, uid, gid, norm, p);
	if (rc)
		return rc;
	rc = famfs_fs_lock(fs);
	if (rc)
		return rc;
	/* the path judged by the log (the cache's path table), then every
	 * allocation sees every entry committed before it; the role before
	 * both (pre_judge: the master instance's, which the allocation's
	 * need not repeat a moment later -- the append checks it again) */
	checked = fs->master;
	rc = pre_judge(fs);
	if (!rc)
		rc = famfs_fs_cache_update(fs);
	if (!rc)
		rc = famfs_path_check(fs, norm, p, false, NULL);
	if (!rc)
		rc = checked ? famfs_fs_cache_ready_checked(fs, p, "not created") :
			       famfs_fs_cache_ready(fs, p, "not created");
	if (rc)
		goto out;
	if (fill && fill->nozero && reclaimed_any(fs)) {
		zfill = *fill;
		zfill.nozero = false;
		fill = &zfill;
	}
	/* made and mapped under its parent opened beneath the mount root (in
	 * a batch, the root opened once for the whole hold): a link on the
	 * way is refused, never created through */
	pfd = fs->held ? famfs_fs_root(fs) : -1;
	pfd = pfd >= 0 ? dirset_parent_at(pfd, norm, &name) :
			 dirset_parent_beneath(fs->mpt, norm, &name);
	if (pfd < 0) {
		rc = pfd;
		famfs_err("%s: cannot create: %s", p, dirset_beneath_why(pfd));
		goto out;
	}
	fd = famfs_mnt_creat(pfd, name, 0600);
	if (fd < 0) {
		rc = -errno;
		famfs_err("%s: cannot create: %s", p, strerror(errno));
		goto out;
	}
	/* a module without v2: refuse what it cannot map before it is logged */
	v2 = famfs_kernel_v2(fd);
	if (!v2 && lay && lay->nstrips) {
		famfs_err("%s: " FAMFS_NO_V2_MSG ": it cannot map an interleaved file (-N); nothing logged",
			  p);
		rc = -EOPNOTSUPP;
		goto undo;
	}
	/* no room: once more after a reclaim pass, and said only then */
	q = famfs_quiet;
	famfs_quiet = famfs_fs_has_hosts(fs) ? 1 : q;
	rc = alloc_entry(fs, p, norm, size, mode, uid, gid, lay, v2 == 0, &e);
	famfs_quiet = q;
	if (rc == -ENOSPC && famfs_fs_has_hosts(fs)) {
		rc = reclaim_some(fs);
		if (rc)
			famfs_err("%s: no room, and the file system's memory cannot be read again after a reclaim pass: %s",
				  p, strerror(-rc));
		else
			rc = alloc_entry(fs, p, norm, size, mode, uid, gid,
					 lay, v2 == 0, &e);
	} else if (rc && famfs_fs_has_hosts(fs))
		/* said: only "no room" waits for a reclaim (all or nothing:
		 * a refusal leaves the cache as it was, as for the retry) */
		rc = alloc_entry(fs, p, norm, size, mode, uid, gid, lay,
				 v2 == 0, &e);
	if (rc)
		goto undo;
	/* from here on the cache holds an allocation not logged yet: a
	 * failure drops the cache (the next create reads the log again) */
	map = malloc(sizeof(*map));
	if (!map) {
		famfs_err("%s: out of memory", p);
		rc = -ENOMEM;
		goto unalloc;
	}
	/* the file stays 0600 and the creator's until its bytes are in: once
	 * mapped, whoever may open it reads the memory, old contents too */
	famfs_fmap_from_entry(&e, map);
	/* its identity: the index its entry gets (the log lock is held; a
	 * full log grown now, not at the append, which writes the entry
	 * there or nowhere: famfs_log_put_at) */
	rc = famfs_log_grow_for(fs, &e);
	if (rc)
		goto unalloc;
	map->has_ident = true;
	map->ident = famfs_log_next(fs->log);
	block_fatal(&oldmask);
	blocked = true;
	/* written through its own mapping when that reaches all its memory
	 * (no scratch file's create, map and unlink); else first, through a
	 * scratch file.  Either way before the log has it. */
	own = famfs_fill_through_file(map);
	if (own)
		famfs_fill_sweep(fs);	/* a dead one's may hold the memory */
	else
		rc = famfs_fill_units(fs, p, map, fill);
	if (rc)
		goto unalloc;
	rc = famfs_fmap_create(fd, map);
	if (rc) {
		const char *why = famfs_fmap_needs_v2(map);

		famfs_err("%s: %s: %s%s (not created)", p,
			  map->pages ? "MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES (a small file; a famfs.ko without it refuses: -T 0 makes every file of 2 MiB units)" :
			  why ? "MAP_CREATE_V2" : "MAP_CREATE", strerror(-rc),
			  rc == -ENOTTY && why ? ": " FAMFS_NO_V2_MSG :
			  rc == -EBUSY ? ": another process opened the new file before it was mapped" :
			  rc == -EADDRINUSE ? ": " FAMFS_ADDRINUSE_MSG : "");
		goto unalloc;
	}
	if (own) {
		rc = famfs_fill_file(fd, p, map, fill);
		if (rc)
			goto unalloc;
	}
	set_owner(fd, p, mode, uid, gid);
	/* at its identity's index only (the log grown for it already):
	 * else not logged, and undone below (review rev1) */
	rc = famfs_log_put_at(fs, &e, NULL, map->ident);
	if (rc == -EAGAIN)
		famfs_err("%s: not created (nothing of it is left); try again",
			  p);
	if (rc)
		goto unalloc;
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	/* the cache knows the allocation; now the entry and its path too */
	famfs_fs_cache_created(fs, norm);
	free(map);
	close(pfd);
	famfs_fs_unlock(fs);
	return fd;
unalloc:
	famfs_fs_cache_drop(fs);	/* allocated, not logged */
undo:
	close(fd);
	famfs_mnt_unlinkat(pfd, name, 0);
	if (blocked)
		sigprocmask(SIG_SETMASK, &oldmask, NULL);
out:
	if (pfd >= 0)
		close(pfd);
	free(map);
	famfs_fs_unlock(fs);
	return rc;
}

/*
 * mkdir one directory and log it: 0; 1 if it is there already as a
 * directory; -errno (printed).  Judged by the log first.  Made under its
 * parent opened beneath the mount root without following a link, 0700
 * and root's until logged, and held open from its mkdir on: its owner and
 * mode go to that directory, not to whatever may be at its name once the
 * entry is appended (famfs mkdir -u alice pub/alice, pub/alice swapped
 * for a link to /etc meanwhile, would hand /etc to alice).
 */
static int mkdir_one(struct famfs_fs *fs, const char *rel, uint32_t mode,
		     uint32_t uid, uint32_t gid)
{
	char p[PATH_MAX];
	struct famfs_log_entry e;
	struct stat st, made;
	const char *name;
	uint64_t idx;
	int pfd, fd, logged, rc;

	if (famfs_join(p, sizeof(p), fs->mpt, rel))
		return -ENAMETOOLONG;
	logged = famfs_path_check(fs, rel, p, true, &idx);
	if (logged < 0)
		return logged;
	/* beneath the mount root held for a batch, as a file's create */
	pfd = fs->held ? famfs_fs_root(fs) : -1;
	pfd = pfd >= 0 ? dirset_parent_at(pfd, rel, &name) :
			 dirset_parent_beneath(fs->mpt, rel, &name);
	if (pfd < 0) {
		famfs_err("%s: mkdir: %s", p, dirset_beneath_why(pfd));
		return pfd;
	}
	rc = fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW);
	if (logged) {
		/* a directory of the log: there, or for a replay to make */
		if (!rc && S_ISDIR(st.st_mode)) {
			rc = 1;
		} else {
			famfs_err("%s: already in the log, as a directory (entry %llu), but not here as one: famfs logplay %s makes it again",
				  p, (unsigned long long)idx, fs->mpt);
			rc = -EEXIST;
		}
		goto out;
	}
	if (!rc) {
		rc = S_ISDIR(st.st_mode) ? 1 : -ENOTDIR;
		if (rc == -ENOTDIR)
			famfs_err("%s: exists and is not a directory%s", p,
				  S_ISLNK(st.st_mode) ? " (a symbolic link, not followed)" : "");
		goto out;
	}
	rc = famfs_entry_build(&e, FAMFS_LOG_MKDIR, rel, 0, mode, uid, gid,
			       NULL, 0);
	if (rc)
		goto out;
	if (famfs_mnt_mkdirat(pfd, name, 0700)) {
		rc = -errno;
		famfs_err("%s: mkdir: %s", p, strerror(errno));
		goto out;
	}
	fd = dirset_open_made_dir(pfd, name);
	if (fd < 0) {
		rc = fd;
		famfs_err("%s: the directory made was %s; not logged", p,
			  dirset_made_why(fd));
		goto out;
	}
	rc = famfs_log_append(fs, &e);
	if (rc) {
		/* the one made, if its name still leads to it */
		if (!fstat(fd, &made) &&
		    !fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
		    st.st_ino == made.st_ino && st.st_dev == made.st_dev)
			famfs_mnt_unlinkat(pfd, name, AT_REMOVEDIR);
	} else {
		set_owner(fd, p, mode, uid, gid);
	}
	close(fd);
out:
	close(pfd);
	return rc;
}

int famfs_mkdir(struct famfs_fs *fs, const char *rel, uint32_t mode,
		uint32_t uid, uint32_t gid, bool parents)
{
	char norm[FAMFS_LOG_PATH_MAX], p[PATH_MAX];
	int rc;

	rc = famfs_fs_writable(fs);
	if (rc)
		return rc;
	rc = path_and_owner(fs, rel, uid, gid, norm, p);
	if (rc)
		return rc;
	rc = famfs_fs_lock(fs);
	if (rc)
		return rc;
	/* judged by the log, as a file's create is */
	rc = pre_judge(fs);
	if (!rc)
		rc = famfs_fs_cache_update(fs);
	if (rc)
		goto out;
	/* a parent the log has as a file is named for the whole path (as
	 * mkdir -p says ENOTDIR), before any of them is made */
	if (parents) {
		rc = famfs_path_check(fs, norm, p, true, NULL);
		if (rc < 0)
			goto out;
	}
	if (parents) {
		for (char *s = strchr(norm, '/'); s; s = strchr(s + 1, '/')) {
			*s = '\0';
			rc = mkdir_one(fs, norm, 0755, uid, gid);
			*s = '/';
			if (rc < 0)
				goto out;
		}
	}
	rc = mkdir_one(fs, norm, mode, uid, gid);
	if (rc == 1) {
		rc = parents ? 0 : -EEXIST;
		if (rc)
			famfs_err("%s/%s: already exists", fs->mpt, norm);
	}
out:
	famfs_fs_cache_follow(fs);
	famfs_fs_unlock(fs);
	return rc;
}
