/* SPDX-License-Identifier: GPL-2.0 */
/* Log segments and growth (INCOMPAT_LOG_EXTEND, famfs_format.h): part of
 * libfamfs.h, which includes it after struct famfs_fs. */
#ifndef FAMFS_LOGSEG_H
#define FAMFS_LOGSEG_H

/* ---- logseg.c: log segments, growth (INCOMPAT_LOG_EXTEND) --------------- */
#define FAMFS_META_LOGSEG	".meta/.log%u"
/* The slots a reader can reach now: the header's capacity for v1, the
 * mapped segments' for a compact log */
static inline uint64_t famfs_log_cap(const struct famfs_fs *fs)
{
	return fs->log_cap;
}
/* fs.c: reserve the view (compact logs; fs->view stays NULL for v1) and
 * after segment 0 is mapped there, the segments of .meta/.log1.. of a
 * mount; famfs_logview_fini undoes both */
int famfs_logview_init(struct famfs_fs *fs);
int famfs_logview_attach(struct famfs_fs *fs);
void famfs_logview_fini(struct famfs_fs *fs);
/* An EXTEND entry (v1 form, famfs_entry_check passed) read at slot idx:
 * its segment is mapped (on a mount through .meta/.logK, created if
 * missing), or compared with the one already known.  0; -EINVAL with
 * reason filled if it is refused (wrong segment number, overlap, size),
 * so the entry is corrupt; another -errno (printed) if it cannot be
 * mapped here. */
int famfs_logseg_add(struct famfs_fs *fs, const struct famfs_log_entry *e,
		     uint64_t idx, char *reason);
/* The master, under the log lock: grow the log by len bytes (0: double
 * it) into free memory of device 0 -- INCOMPAT_LOG_EXTEND set, the range
 * taken from the create cache, mapped as .meta/.logK, zeroed, and its
 * EXTEND entry appended.  0, or -errno (printed: -ENOSPC names the size
 * it looked for and the largest free run). */
int famfs_log_grow(struct famfs_fs *fs, uint64_t len);
/* ops.c: the one way to the allocator, for any allocation (a file's
 * memory, a growth's segment): under the log lock (-ENOLCK without it),
 * the create cache brought up to every committed entry -- what other
 * processes appended since this opening last looked, this one's own
 * mkdirs -- then judged usable (R3, R4).  0, or -errno (printed as
 * "WHO: WHAT: ...") */
int famfs_fs_cache_ready(struct famfs_fs *fs, const char *who,
			 const char *what);
/* Every segment the log's EXTEND entries add, mapped here (the log read
 * whole when INCOMPAT_LOG_EXTEND is set): before a growth numbers a new
 * one, and before a compact log is called full.  0, or -EUCLEAN
 * (printed) when one is mapped that the log does not add, or the log adds
 * one that cannot be mapped here; -errno of the walk. */
int famfs_log_segs_mapped(struct famfs_fs *fs);
/* Cache maintenance of [addr, addr + len) of the view, each part through
 * its segment's map (famfs_map_flush, _invalidate, _refresh) */
int famfs_log_flush(struct famfs_fs *fs, const void *addr, size_t len);
void famfs_log_invalidate(struct famfs_fs *fs, const void *addr, size_t len);
/* famfs_map_load of each part: before slots are read or written */
int famfs_log_load(struct famfs_fs *fs, const void *addr, size_t len);
int famfs_log_refresh(struct famfs_fs *fs, void *addr, size_t len);
/* A meta file of the mount at mpt: created (O_EXCL, mode), mapped by
 * MAP_CREATE as type over [off, off + len) of device 0.  0 or -errno
 * (printed; the file is removed again if it could not be mapped). */
int famfs_meta_create(const char *mpt, const char *rel, mode_t mode,
		      uint32_t type, uint64_t off, uint64_t len);
/* loggrow.c's steps: segment k (== fs->nsegs) over [off, +len) mapped
 * (and .meta/.logK.new made, an unfinished growth's removed first) before
 * its EXTEND entry is written; undone if that fails */
int famfs_logseg_map_new(struct famfs_fs *fs, unsigned k, uint64_t off,
			 uint64_t len, char *reason);
void famfs_logseg_unmap_new(struct famfs_fs *fs, unsigned k);
/* Its EXTEND entry committed: .meta/.logK.new becomes .meta/.logK (a
 * replay that meets the entry renames it if this does not happen) */
int famfs_logseg_publish(struct famfs_fs *fs, unsigned k);
/* famfs check, fsck on a mount: .meta/.logK (and .meta/.logK.new) against
 * the log's segments, ext[k] for k = 1..n-1 (ext[0] unused): each one
 * that is missing, maps other memory, or is not in the log is said
 * through fn.  The number said. */
unsigned famfs_logseg_check_files(struct famfs_fs *fs,
				  const struct famfs_extent *ext, unsigned n,
				  void (*fn)(void *arg, const char *msg),
				  void *arg);
/* FAMFS_LOG_AUTOGROW=0 in the environment: a full log is not grown */
bool famfs_log_autogrow(void);

#endif /* FAMFS_LOGSEG_H */
