/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ops/: what changes a mounted file system -- creating a file (its memory
 * allocated from the create cache, filled or zeroed, mapped, then logged),
 * mkdir, famfs cp of one source, a new path judged by the log, and famfs
 * devices label.  It calls log/ (cache, append) and the layers below.
 */
#ifndef FAMFS_OPS_H
#define FAMFS_OPS_H

#include "log/log.h"

/* ---- ops.c, fill.c: file system operations on a mounted file system ----- */
/* Create rel (relative to fs->mpt) with a fresh allocation: the file is
 * created, given its owner and mode, mapped (MAP_CREATE) and zeroed, then
 * logged.  Returns an O_RDWR fd of the new file, or -errno (nothing logged,
 * no file left). */
int famfs_file_create(struct famfs_fs *fs, const char *rel, uint64_t size,
		      uint32_t mode, uint32_t uid, uint32_t gid);
/* The layout of a new file: nstrips 0 for one simple extent, else
 * interleaved over nstrips (1..16) strips of chunk bytes chunks. */
struct famfs_layout {
	uint32_t nstrips;
	uint64_t chunk;
	struct famfs_place place;	/* --device N, else the policy's */
	uint32_t align;			/* enum famfs_align (--align) */
	/* small files (issue 30): sizes below it get page extents in shared
	 * units; 0: FAMFS_SMALL_MAX; FAMFS_SMALL_NONE: no file */
	uint64_t small_max;
};
#define FAMFS_SMALL_NONE	UINT64_MAX
/* The threshold of a create without a layout or with small_max 0:
 * FAMFS_SMALL_MAX unless changed (tests that predate small files set
 * FAMFS_SMALL_NONE) */
extern uint64_t famfs_small_max;
/* 1 GiB-aligned placement of a simple file (issue 31: famfs.ko maps such a
 * file with 1 GiB page-table entries): AUTO (the default, and without a
 * layout) for files of at least FAMFS_ALIGN_BYTES when a device has an
 * aligned free run that long, else first fit as before; NONE never; ALIGN
 * always, or the create fails (-ENOSPC, message naming the file). */
enum famfs_align { FAMFS_ALIGN_AUTO, FAMFS_ALIGN_NONE, FAMFS_ALIGN_1G };
#define FAMFS_ALIGN_BYTES	(1ULL << 30)
int famfs_file_create_layout(struct famfs_fs *fs, const char *rel,
			     uint64_t size, uint32_t mode, uint32_t uid,
			     uint32_t gid, const struct famfs_layout *lay);
/* What a new file holds when it is logged (when other hosts can first map
 * it).  fn (may be NULL) writes [0, size) through addr, the file's shared
 * writable mapping, and returns 0 or -errno (message printed); the tool
 * zeroes the rest of the last page.  Without fn the file is zeroed.
 * nozero: no zeroing at all (the file may show what the memory held
 * before: another file's or an earlier file system's data).  fn runs under
 * the log lock.  NULL: zeros. */
struct famfs_fill {
	int (*fn)(void *arg, char *addr, uint64_t size);
	void *arg;
	bool nozero;
};
/* What MAP_CREATE's EADDRINUSE means for a new file's memory */
#define FAMFS_ADDRINUSE_MSG "its memory, free in the log, is still mapped by a file in this mount that is not in the log (a creator killed before it logged its file, or a page of a removed file still referenced); famfs check lists such files; the memory is free again once they are removed, and on a remount"
/* The bytes of a map's extents (or strips): its whole allocation. */
uint64_t famfs_fmap_alloc_bytes(const struct famfs_fmap *m);
/* Before p is mapped: every byte of map's memory, through a scratch file
 * (.meta/.new-PID) mapped over all of it: fill's bytes for [0,
 * map->file_size), zeros after (fill NULL: all zeros; nozero without fn:
 * nothing), written back; the scratch file is gone on return. */
int famfs_fill_units(struct famfs_fs *fs, const char *p,
		     const struct famfs_fmap *map,
		     const struct famfs_fill *fill);
/* Does the file's own mapping reach all of map's memory (a simple map whose
 * pages up to EOF's cover its extents: a small file's pages, a file that
 * ends on a page boundary of its last unit)?  Then it needs no scratch
 * file: famfs_fill_file writes it through fd once fd is mapped. */
bool famfs_fill_through_file(const struct famfs_fmap *m);
/* The same bytes as famfs_fill_units, through fd (the new file, mapped with
 * map, not logged yet), written back; p names it in messages */
int famfs_fill_file(int fd, const char *p, const struct famfs_fmap *map,
		    const struct famfs_fill *fill);
/* A dead creator's scratch files removed (their memory free again): once
 * per hold of the log lock; famfs_fill_units does it first */
void famfs_fill_sweep(struct famfs_fs *fs);
/* famfs_file_create_layout with the file's bytes given by fill */
int famfs_file_create_fill(struct famfs_fs *fs, const char *rel,
			   uint64_t size, uint32_t mode, uint32_t uid,
			   uint32_t gid, const struct famfs_layout *lay,
			   const struct famfs_fill *fill);
/* The geometry -N/-C may ask for: 0, or -EINVAL with reason filled. */
int famfs_layout_check(const struct famfs_layout *lay, char *reason);
/* mkdir rel and log it; parents: create missing parents too, no error if
 * it exists as a directory.  Judged by the log as a file's create is. */
int famfs_mkdir(struct famfs_fs *fs, const char *rel, uint32_t mode,
		uint32_t uid, uint32_t gid, bool parents);

/* ---- copy.c: famfs cp of one source ------------------------------------- */
/* Copy the open source in (named src in messages) to a new file rel (mode
 * -1: the source's permission bits).  A regular file of known size is
 * streamed; one that reports 0 bytes (/proc, /sys), a FIFO or a character
 * device is read to EOF into memory first, at most famfs_copy_unsized_max
 * bytes (-EFBIG beyond, nothing created), and the file gets the size read.
 * The bytes are in the file before it is logged (under the log lock), the
 * rest of its last page zeroed; a read error leaves no file, nothing
 * logged.  Other kinds: -EINVAL.  Messages printed. */
#define FAMFS_COPY_UNSIZED_MAX	(64ULL << 20)
extern uint64_t famfs_copy_unsized_max;		/* unit tests lower it */
int famfs_copy_fd(struct famfs_fs *fs, int in, const char *src,
		  const char *rel, int64_t mode, uint32_t uid, uint32_t gid,
		  const struct famfs_layout *lay);

/* ---- pathcheck.c: a new path judged by the log (issue 27 item 3) -------- */
/* Under the log lock, the create cache up to date: rel (p: its full name)
 * against the log's paths.  0 if the log has neither rel nor a parent of
 * it as a file; 1 (*idx, may be NULL) if it has rel as a directory and
 * dir_ok; else -EEXIST (the log has rel), -ENOTDIR (a parent as a file),
 * or another -errno, printed. */
int famfs_path_check(struct famfs_fs *fs, const char *rel, const char *p,
		     bool dir_ok, uint64_t *idx);


/* ---- nsops.c: famfs rm, mv, chmod, chown (format rev 3) ---------------- */
/*
 * The master instance only (a client: famfs_fs_writable's refusal, as for
 * a create), under the log lock (taken here, or held by a batch): the
 * object judged by the log's namespace (log/names.c), what is here checked
 * to be it (a file with its entry's map, a directory) or absent, its
 * feature bit set, its entry appended, and only then the change made here
 * beneath the mount root, never through a link.  0, or -errno (printed,
 * naming the path and why; a change here that fails after the entry is
 * logged says so: famfs logplay makes it).
 *
 * famfs_remove: a file, or with recursive a directory and everything the
 * log has beneath it (a DELETE each, deepest first); without it a
 * directory is refused (-EISDIR).  famfs_rename: to a path the log does
 * not have (-EEXIST; into a directory the log has, or into the mount
 * root for to "", as mv(1)), whose
 * directory is here.  famfs_setattr: FAMFS_SETATTR_* in valid, the mode
 * applied to the one the log has. */
int famfs_remove(struct famfs_fs *fs, const char *rel, bool recursive);
int famfs_rename(struct famfs_fs *fs, const char *from, const char *to);
int famfs_setattr(struct famfs_fs *fs, const char *rel, uint32_t valid,
		  const struct famfs_modespec *mode, uint32_t uid, uint32_t gid);

/* ---- reclaimops.c: RECLAIM (issue 29) ---------------------------------- */
/* One range of a deleted file's memory (bytes) on device dev */
struct famfs_reclaim_range {
	uint32_t dev;
	uint64_t offset, len;
};
/* A DELETE of a file whose memory is still its (pending reclaim) */
struct famfs_reclaim_cand {
	uint64_t del;			/* the DELETE's log index */
	uint64_t object;		/* the file's id (its FILE entry) */
	char path[FAMFS_LOG_PATH_MAX];	/* where it was (for messages) */
	uint64_t bytes;			/* its memory: the ranges' sum */
	bool pages;			/* a small file: page extents */
	bool unread;			/* its FILE entry does not verify here */
	unsigned nranges;
	struct famfs_reclaim_range range[FAMFS_ENTRY_MAX_RANGES];
};
/* Every DELETE of a file no RECLAIM named yet, in log order, from the
 * whole log (any host, read only): 0 and *out (free() it; NULL when *n is
 * 0), or -errno (printed).  A file whose FILE entry does not verify here
 * has unread set and no ranges (and a DELETE of it, which the namespace
 * could not apply, is one when the walk found that entry not written
 * whole here -- a refused DELETE of a file every host reads is none):
 * whoever asks holds it.
 * Whether a host still holds that memory is not judged here. */
int famfs_reclaim_candidates(struct famfs_fs *fs, struct famfs_reclaim_cand **out,
			     size_t *n);
/* The same from names, the log's namespace as a replay or the create
 * cache built it up to some index (NULL: from the whole log, read here):
 * its pending DELETEs, no walk of the log; path left empty (not read)
 * when names is given */
int famfs_reclaim_candidates_of(struct famfs_fs *fs,
				const struct famfs_names *names,
				struct famfs_reclaim_cand **out, size_t *n);
/* The master, under the log lock (taken here): RECLAIM entries for the n
 * DELETEs (FAMFS_RECLAIM_MAX per entry), each checked again against the
 * log first -- a DELETE of a file, applied, not reclaimed, named once --
 * else -EINVAL (printed, nothing appended).  *freed (may be NULL): the
 * bytes those entries made free.  0 or -errno (printed); a failure after
 * the first entry leaves the earlier entries appended. */
int famfs_reclaim_append(struct famfs_fs *fs, const uint64_t *deletes,
			 unsigned n, uint64_t *freed);
/* The same, the caller holding the log lock (*freed added to) */
int famfs_reclaim_append_locked(struct famfs_fs *fs, const uint64_t *deletes,
				unsigned n, uint64_t *freed);

/* ---- reclaimpass.c ------------------------------------------------------ */
/* A famfs_holds_fn (arg: the struct famfs_fs of a mount): the lowest
 * pending DELETE whose memory this host's famfs.ko still holds (an inode
 * still here, open or mapped; an evicted file's pinned pages), from
 * FAMFSIOC_HELD on the mount root, and the bytes.  -errno (printed: the
 * caller then leaves its slot as it was, which keeps every DELETE) */
int famfs_holds_kernel(void *arg, uint64_t *holds_from, uint64_t *held_bytes);
/* The same, the pending DELETEs from names (famfs_reclaim_candidates_of;
 * NULL: from the whole log) */
int famfs_holds_of(struct famfs_fs *fs, const struct famfs_names *names,
		   uint64_t *holds_from, uint64_t *held_bytes);
struct famfs_reclaim_dels {
	uint64_t *del;
	size_t n, cap;
};
struct famfs_reclaim_pass {
	size_t pending;			/* out: DELETEs pending before */
	size_t reclaimed;		/* out: of them, RECLAIMed now */
	uint64_t freed;			/* out: bytes made free */
	bool unarmed;			/* out: the host table is not armed:
					 * nothing reclaimed (reason) */
	famfs_hostdec_fn blocked;	/* in: told each (DELETE, slot) that blocks */
	void *arg;
	const uint64_t **dels_out;	/* in (may be NULL): set to the pending
					 * DELETEs blocked's di indexes (valid
					 * while blocked is called) */
};
/*
 * The master: its own slot brought up to date (every entry applied; its
 * holds from famfs.ko), then a RECLAIM for every pending DELETE the host
 * table's decision lets go (role/hostdec.c).  Under the log lock (taken
 * here unless the caller has it).  No host table (INCOMPAT_HOSTS clear),
 * or a table not armed (p->unarmed set when DELETEs are pending): 0,
 * nothing reclaimed.  0 or -errno (printed).
 */
int famfs_reclaim_pass(struct famfs_fs *fs, struct famfs_reclaim_pass *p);
/* The pass the removals of an opening with reclaim_later left for the
 * end (fs->reclaim_due): run once now (a failure is printed) */
void famfs_reclaim_finish(struct famfs_fs *fs);
/* Has the file system a host table (INCOMPAT_HOSTS)? */
bool famfs_fs_has_hosts(const struct famfs_fs *fs);
/* Why an unarmed table reclaims nothing, and what to do (for messages) */
#define FAMFS_UNARMED_WHY "the host table is not armed: famfs hosts arm once `famfs hosts` lists every host that has the file system mounted"

/* ---- label.c ------------------------------------------------------------ */
/* famfs devices label (a debugging aid: no log entry names the member):
 * write member index's superblock of the file system fs (opened from
 * primary, writable or through its mount: a free master record is claimed)
 * on path, device uuid dev_uuid (NULL: a random one; the one written to
 * out).  A write of the file system's: only by the instance that holds the
 * master role (famfs_master_check, under the log lock; -EPERM for a client
 * or a clone).  Refused unless force (-EEXIST): path holds a famfs or
 * member superblock or anything libblkid knows (famfs_member_vet: mkfs's
 * rules), or the identity is a live member's on another device (the
 * log's members, the mount's attached ones, member superblocks on this
 * host).  0, or -errno (printed: the device and why). */
int famfs_member_label(struct famfs_fs *fs, const char *primary,
		       const char *path, uint32_t index,
		       const uint8_t *dev_uuid, bool force, uint8_t out[16]);

#endif /* FAMFS_OPS_H */
