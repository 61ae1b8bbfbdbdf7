/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libfamfs: the library under famfs-cli.  Everything that touches the
 * format, the allocator, the log, fsck, paths, devices and the kernel.
 *
 * Conventions: functions return 0 or a negative errno; on failure they have
 * already printed one message naming the path or device and the reason
 * (famfs_err), unless documented otherwise.  Format helpers (famfs_*_check)
 * only fill a reason string: callers decide how to report.
 */
#ifndef LIBFAMFS_H
#define LIBFAMFS_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <linux/famfs_ioctl.h>
#include <linux/famfs_format.h>
#include <linux/famfs_interleave.h>

/* exit codes of every command (documented in famfs --help) */
enum {
	FAMFS_EXIT_OK      = 0,
	FAMFS_EXIT_USAGE   = 1,
	FAMFS_EXIT_ERROR   = 2,
	FAMFS_EXIT_PROBLEM = 3,	/* ran to the end, found inconsistencies */
};

/* ---- err.c: messages, numbers ------------------------------------------ */
extern int famfs_quiet;		/* unit tests: silence famfs_err/famfs_warn */
extern int famfs_verbose;
__attribute__((format(printf, 1, 2))) void famfs_err(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void famfs_warn(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void famfs_info(const char *fmt, ...);
/* what the tool did that the user did not ask for exactly ("famfs: ..."
 * on stderr, always; famfs_info: only with -v) */
__attribute__((format(printf, 1, 2))) void famfs_note(const char *fmt, ...);
/* "123", "4k", "2M", "1g" (binary multiples) -> bytes; decimal, or hex
 * after 0x ("010" is ten, never octal); -EINVAL on junk */
int famfs_parse_size(const char *s, uint64_t *out);
int famfs_parse_u32(const char *s, int base, uint32_t *out);
/* the lower-case text form of a uuid */
void famfs_uuid_str(const uint8_t uuid[16], char out[37]);

/* ---- sb.c, format.c: superblock, log header and entry ---------------------- */
#define FAMFS_REASON_LEN 160
/* every byte of [p, p + n) zero? (a word at a time) */
bool famfs_all_zero(const void *p, size_t n);
uint32_t famfs_crc32(const void *buf, size_t len);
/* zlib's crc32(crc, buf, len): the CRC of what crc covered, then buf */
uint32_t famfs_crc32_update(uint32_t crc, const void *buf, size_t len);
/* true when famfs_crc32 uses carry-less multiplication (crc32.c) */
bool famfs_crc32_fast(void);
void famfs_sb_init(struct famfs_superblock *sb, const uint8_t fs_uuid[16],
		   const uint8_t master_uuid[16], uint64_t dev_size,
		   uint64_t log_len);
void famfs_sb_set_crc(struct famfs_superblock *sb);
/* dev_size 0: not checked against a device. */
int famfs_sb_check(const struct famfs_superblock *sb, uint64_t dev_size,
		   char *reason);
bool famfs_sb_is_famfs(const struct famfs_superblock *sb);  /* magic only */
/* A v1 log header (1 KiB entries) */
void famfs_log_hdr_init(struct famfs_log_header *h, const uint8_t fs_uuid[16],
			uint64_t log_len);
/* compact: a compact log's header (256-byte slots, INCOMPAT_COMPACT_LOG) */
void famfs_log_hdr_init_fmt(struct famfs_log_header *h,
			    const uint8_t fs_uuid[16], uint64_t log_len,
			    bool compact);
/* Entries (v1) or slots (compact) a log of len bytes holds */
uint64_t famfs_log_capacity_of(uint64_t len, bool compact);
void famfs_log_hdr_set_crc(struct famfs_log_header *h);
int famfs_log_hdr_check(const struct famfs_log_header *h,
			const struct famfs_superblock *sb, char *reason);
void famfs_entry_set_crc(struct famfs_log_entry *e);
/* Full validation of a committed entry (crc, seq, uuid, type, path, extents
 * inside the device data area). */
int famfs_entry_check(const struct famfs_log_entry *e, uint64_t index,
		      const struct famfs_superblock *sb, char *reason);
/* The same two with the device table (devs.c) the entry is judged by:
 * without one (NULL, as the two above) an extent on a member is
 * unparseable */
struct famfs_logdevs;
int famfs_entry_check_devs(const struct famfs_log_entry *e, uint64_t index,
			   const struct famfs_superblock *sb,
			   const struct famfs_logdevs *devs, char *reason);
int famfs_entry_owned_devs(const struct famfs_log_entry *e, uint64_t index,
			   const struct famfs_superblock *sb,
			   const struct famfs_logdevs *devs, char *reason);
/* famfs_entry_check_devs without its CRC, seq and fs uuid checks: for an
 * entry whose v1 form was decoded (and those filled) from a verified
 * compact one */
int famfs_entry_check_fields(const struct famfs_log_entry *e, uint64_t index,
			     const struct famfs_superblock *sb,
			     const struct famfs_logdevs *devs, char *reason);
/* R3 (famfs_format.h): 0 if the memory of a committed entry is known even
 * if famfs_entry_check refuses it -- CRC, seq and uuid right, a known type
 * and extent kind whose feature bit is set, every extent or strip aligned
 * and in the data area; famfs_entry_ranges then lists it.  Else the entry
 * cannot be parsed (reason filled): the master must not allocate. */
int famfs_entry_owned(const struct famfs_log_entry *e, uint64_t index,
		      const struct famfs_superblock *sb, char *reason);
/* R4: CRC, seq == index and fs uuid right (a slot past next_index that
 * holds this fs's entry for it) */
bool famfs_entry_written(const struct famfs_log_entry *e, uint64_t index,
			 const struct famfs_superblock *sb);
/* Simple extents a FILE entry may have without INCOMPAT_MULTI_EXTENT */
#define FAMFS_LOG_SIMPLE_EXT_BASE	2
bool famfs_loglen_valid(uint64_t len);
/* The device ranges (host byte order) a FILE entry that passed
 * famfs_entry_check occupies: its simple extents, or the strips of an
 * interleaved one.  Returns how many (<= FAMFS_ENTRY_MAX_RANGES). */
#define FAMFS_ENTRY_MAX_RANGES	16
unsigned famfs_entry_ranges(const struct famfs_log_entry *e,
			    struct famfs_extent out[FAMFS_ENTRY_MAX_RANGES]);
/* Only those on device dev (famfs_entry_devindex): what one device's
 * allocator, df and fsck count.  famfs_entry_ranges gives all of them. */
unsigned famfs_entry_ranges_on(const struct famfs_log_entry *e, unsigned dev,
			       struct famfs_extent out[FAMFS_ENTRY_MAX_RANGES]);
bool famfs_entry_interleaved(const struct famfs_log_entry *e);
uint64_t famfs_data_start(const struct famfs_superblock *sb);
bool famfs_sb_compact(const struct famfs_superblock *sb);
/* (uid_t)-1, (gid_t)-1: chown's "no change", never an owner: -EINVAL */
int famfs_owner_check(const char *what, uint32_t uid, uint32_t gid);
/* Build a FILE or MKDIR entry (not yet sequenced; famfs_owner_check). */
int famfs_entry_build(struct famfs_log_entry *e, int type, const char *rel,
		      uint64_t size, uint32_t mode, uint32_t uid, uint32_t gid,
		      const struct famfs_log_simple_ext *ext, unsigned next);
/* Build an interleaved FILE entry (not yet sequenced); ie is copied as is
 * (little-endian, as famfs_alloc_strips fills it). */
int famfs_entry_build_interleaved(struct famfs_log_entry *e, const char *rel,
				  uint64_t size, uint32_t mode, uint32_t uid,
				  uint32_t gid,
				  const struct famfs_log_interleave_ext *ie);
/* The v1 form of an EXTEND entry: segment k over [off, off + len) */
void famfs_entry_build_extend(struct famfs_log_entry *e, uint32_t k,
			      uint64_t off, uint64_t len);

#include "devices.h"

/* ---- clog.c: the compact log entry (INCOMPAT_COMPACT_LOG) ---------------- */
/* crc32(fs_uuid, the nslots slots of entry with crc = 0) */
uint32_t famfs_clog_crc(const void *entry, unsigned nslots,
			const uint8_t fs_uuid[16]);
/* The compact form of the v1-shaped entry e (type, fmeta; seq, uuid and
 * crc of e are not read) for slot, in out (zero-padded): its slot count
 * (1..4), or -EINVAL with reason filled if it has none. */
int famfs_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
		      const uint8_t fs_uuid[16],
		      uint8_t out[FAMFS_CLOG_MAX_ENTRY], char *reason);
/*
 * A private copy of the entry at s, in a mapping another host may write:
 * k is its slot count as read from s beforehand (it may have changed
 * since).  Copies k slots (1 if k is not in 1..avail), then the rest of
 * what the copied header claims (up to avail), so that verify, which
 * trusts the copy's count, reads only copied bytes.  Returns bytes copied.
 */
size_t famfs_clog_copy(uint8_t buf[FAMFS_CLOG_MAX_ENTRY], const uint8_t *s,
		       unsigned k, unsigned avail);
/* Does the entry at entry (avail slots of it readable) verify as this
 * fs's entry for slot: seq, slot count, CRC?  Its slot count, or -errno
 * (-EBADMSG: CRC) with reason filled. */
int famfs_clog_verify(const void *entry, uint64_t slot, uint64_t avail,
		      const uint8_t fs_uuid[16], char *reason);
/* The v1 form of a verified compact entry, seq, uuid and v1 crc filled (so
 * famfs_entry_check and famfs_entry_owned judge it as any v1 entry).
 * 0; -EINVAL (reason): decoded, but refused (reserved bytes, bad path),
 * its memory known; -EPROTO (reason): it has no v1 form (unknown type,
 * strips of different lengths), its memory unknown.  Device indexes go to
 * fm.reserved (famfs_entry_devindex), a DEVADD body to fm.ext.raw: whether
 * they are allowed is famfs_entry_check_devs's to say. */
int famfs_clog_decode(const void *entry, uint64_t slot,
		      const uint8_t fs_uuid[16], struct famfs_log_entry *e,
		      char *reason);
uint64_t famfs_sb_dev_size(const struct famfs_superblock *sb);

/* ---- path.c -------------------------------------------------------------- */
/* Normalize a path relative to the mount root: collapse "//" and "./",
 * strip leading/trailing '/'.  Refuses "..", the empty path, ".meta/...",
 * and paths longer than FAMFS_LOG_PATH_MAX - 1.  out has FAMFS_LOG_PATH_MAX. */
int famfs_relpath_normalize(const char *in, char *out, char *reason);
/* Find the famfs mount holding path (which need not exist): resolves the
 * longest existing prefix and walks up to a directory holding .meta/.log
 * that is the root of a famfs mount (famfs_mount_root_check).
 * Fills mpt (PATH_MAX) and rel (FAMFS_LOG_PATH_MAX); rel is "" for the
 * mount root itself when allow_root, else that is refused. */
int famfs_locate(const char *path, bool allow_root, char *mpt, char *rel);
/* statfs f_type of a famfs mount (FAMFS_MAGIC of fs/famfs/famfs.h) */
#define FAMFS_SUPER_MAGIC	0x87b282ffU
/* 0 if dir is the root of a famfs mount (statfs type, its parent on
 * another device), else -errno and reason (may be NULL) filled */
int famfs_is_mount_root(const char *dir, char *reason);
/* mountinfo text in f (/proc/self/mountinfo): 0 if the mount seen at mpt
 * (the last one listed there) is device dev's and shows its file system's
 * root ("/": not a bind mount of a directory in it), else -ENOENT with
 * reason filled */
int famfs_mountinfo_root(FILE *f, const char *mpt, dev_t dev, char *reason);
/* what famfs_locate and famfs_fs_open_mount ask (unit tests, whose
 * "mounts" are plain directories, put their own) */
extern int (*famfs_mount_root_check)(const char *dir, char *reason);
/* true if path is dir or inside it (both absolute, normalized: no "//",
 * "." or ".."; dir "/" holds everything) */
bool famfs_path_within(const char *path, const char *dir);
/* out = a "/" b; -ENAMETOOLONG (message printed) if it does not fit */
int famfs_join(char *out, size_t n, const char *a, const char *b);

/* ---- dev.c: device and meta-file mappings -------------------------------- */
enum famfs_dev_kind { FAMFS_DEV_FILE, FAMFS_DEV_BLOCK, FAMFS_DEV_DAX };
struct famfs_dev {
	char path[4096];
	int fd;
	enum famfs_dev_kind kind;
	uint64_t size;
	bool rw;
};
/* A window of a device or meta file: an mmap (flushed with msync; on
 * device-dax, which has no fsync, with cache-line flushes) or, for a block
 * device, a bounce buffer read and written back with O_DIRECT. */
struct famfs_bitmap;
struct famfs_alloc;
struct famfs_summary;
struct famfs_map {
	void *addr;
	uint64_t len;
	uint64_t dev_off;
	int fd;			/* not owned */
	bool bounce;
	bool cpu_flush;		/* device-dax: no fsync, flush CPU caches */
	bool rw;
	uint64_t loaded;	/* bounce: bytes [0, loaded) read so far */
	bool fixed;		/* mapped at a given address of a reservation
				 * (the log's view): unmapping reserves it
				 * again */
	const char *name;	/* for messages */
};
int famfs_dev_open(const char *path, bool rw, struct famfs_dev *d);
/* the size of /dev/daxX.Y (rdev: its device number), from sysfs */
int famfs_dax_size(const char *path, dev_t rdev, uint64_t *size);
void famfs_dev_close(struct famfs_dev *d);
int famfs_dev_map(struct famfs_dev *d, uint64_t off, uint64_t len,
		  struct famfs_map *m);
int famfs_fd_map(int fd, const char *name, uint64_t len, bool rw,
		 struct famfs_map *m);
/* The same at address at (NULL: anywhere) of a PROT_NONE reservation
 * (MAP_FIXED; a bounce buffer is anonymous memory there) */
int famfs_dev_map_at(struct famfs_dev *d, uint64_t off, uint64_t len,
		     void *at, struct famfs_map *m);
int famfs_fd_map_at(int fd, const char *name, uint64_t len, bool rw,
		    void *at, struct famfs_map *m);
/* A bounce buffer mapped at an address (a compact log's view) is read from
 * the device as it is needed: [addr, addr + len) before it is read or
 * written.  0 or -errno (printed); nothing to do for a mapping. */
int famfs_map_load(struct famfs_map *m, const void *addr, size_t len);
/* unit tests: regular files go through bounce buffers as block devices do */
extern bool famfs_dev_bounce_files;
/* d's maps are copies read with O_DIRECT (a block device), not mappings */
bool famfs_dev_bounced(const struct famfs_dev *d);
/* bytes read into bounce buffers (what a log's size costs an opening) */
extern uint64_t famfs_bounce_bytes;
/* Write back and invalidate the CPU cache lines of [p, p+len): before
 * reading what another host wrote, on memory that is not cache coherent. */
void famfs_cpu_flush(const void *p, size_t len);
/* Make [addr, addr+len) of the map durable/visible to other hosts:
 * msync(MS_SYNC) of a mapping (famfs.ko and the pmem driver write the CPU
 * cache lines back), cache-line flushes on device-dax, O_DIRECT write of a
 * bounce buffer (the pmem driver copies with cache-bypassing stores). */
int famfs_map_flush(struct famfs_map *m, const void *addr, size_t len);
/* A reader about to look at what another host wrote: drop this CPU's cached
 * lines of [addr, addr+len) of a mapping (a bounce buffer was just read:
 * nothing to do).  Only the part inside the mapping. */
void famfs_map_invalidate(struct famfs_map *m, const void *addr, size_t len);
/* A reader found a bad CRC: get a fresh copy of [addr, addr+len) before
 * judging -- flush the cache lines of a mapping (they may be stale: the
 * other host's write reached memory, not this CPU's cache), re-read a
 * bounce buffer.  Callers retry their check once after it. */
int famfs_map_refresh(struct famfs_map *m, void *addr, size_t len);
/* What the tool did to publish and to refresh metadata, for tests and
 * FAMFS_DEBUG_FLUSH=1 (printed at exit by famfs-cli). */
struct famfs_flush_stats {
	unsigned long msyncs;		/* famfs_map_flush: msync(MS_SYNC) */
	unsigned long dio_writes;	/* famfs_map_flush: O_DIRECT write-back */
	unsigned long cpu_flushes;	/* famfs_map_flush: cache-line flushes */
	unsigned long cpu_lines;	/* ... lines flushed by those */
	unsigned long invalidates;	/* famfs_cpu_flush (reader side too) */
	unsigned long refreshes;	/* famfs_map_refresh */
	unsigned long crc_retries;	/* checks redone after a refresh */
};
extern struct famfs_flush_stats famfs_flush_stats;
void famfs_flush_stats_print(FILE *f);
/* Unit tests: called by every famfs_map_flush (before it writes back) and
 * after every famfs_map_refresh (to stand for what memory holds). */
extern void (*famfs_flush_hook)(const struct famfs_map *m, const void *addr,
				size_t len);
extern void (*famfs_refresh_hook)(struct famfs_map *m, void *addr, size_t len);
void famfs_map_unmap(struct famfs_map *m);

#include "devices.h"

/* ---- probe.c: other signatures on a device (libblkid) --------------------- */
/* 1 and what (n bytes) filled ("ext4 file system labelled 'x'", "a gpt
 * partition table") if libblkid knows what d holds, 0 if nothing it knows
 * (famfs is not among them), -errno (message printed) if it cannot tell. */
int famfs_dev_probe(struct famfs_dev *d, char *what, size_t n);

/* ---- kernel.c: the only place that talks to famfs.ko ---------------------- */
struct famfs_kernel_ops {
	int (*mount)(const char *dev, const char *mpt, unsigned long flags,
		     const char *opts);
	int (*umount)(const char *mpt);
	int (*map_create)(int fd, const struct famfs_ioc_map *map);
	/* MAP_GET as the module answers it: this project's fills in the
	 * whole map (-ENODATA when unmapped), the 2024 module's only
	 * file_size and ext_list_count (-EINVAL when unmapped) */
	int (*map_get)(int fd, struct famfs_ioc_map *map);
	/* MAP_GETEXT: the ext_list_count extents (at most 2) to ext */
	int (*map_getext)(int fd, struct famfs_extent ext[FAMFS_MAX_EXTENTS]);
	/* the v2 ioctls as they are (NULL: -ENOTTY, an older module) */
	int (*map_create_v2)(int fd, const struct famfs_ioc_map_v2 *map);
	int (*map_get_v2)(int fd, struct famfs_ioc_map_v2 *map);
	/* FAMFSIOC_CACHE as it is (NULL: -ENOTTY, an older module) */
	int (*cache)(int fd, const struct famfs_ioc_cache *c);
	/* the v3 ioctls (issue 16) as they are (NULL: -ENOTTY) */
	int (*dev_add)(int fd, const struct famfs_ioc_dev_add *a);
	int (*dev_get)(int fd, struct famfs_ioc_dev_info *i);
	int (*map_create_v3)(int fd, const struct famfs_ioc_map_v2 *map);
	int (*map_get_v3)(int fd, struct famfs_ioc_map_v2 *map);
};
extern const struct famfs_kernel_ops famfs_kernel_real;
extern const struct famfs_kernel_ops *famfs_kernel;	/* tests swap it */

/* A file's map in any shape the module knows: count simple extents
 * (ext[]) or interleaved extents (iext[]). */
struct famfs_fmap {
	uint32_t extent_type;		/* SIMPLE_DAX_EXTENT or
					 * FAMFS_INTERLEAVED_EXTENT */
	uint32_t file_type;		/* enum famfs_file_type */
	bool file_type_unknown;		/* read through v1, which said
					 * file_type 0: FAMFS_REG, or not
					 * said (the 2024 module never did) */
	uint64_t file_size;
	uint32_t count;
	union {
		struct famfs_extent ext[FAMFS_IOC_MAX_EXTENTS_V2];
		struct famfs_ioc_iext iext[FAMFS_IOC_MAX_IEXTENTS];
	};
	/* the device of ext[i], or of strip s of iext[x] at
	 * dev[x * FAMFS_IOC_MAX_STRIPS + s]; all 0: one device (v1/v2) */
	uint8_t dev[FAMFS_IOC_MAX_EXTENTS_V2];
};
/* true if some extent or strip of m is on a member (MAP_CREATE_V3) */
bool famfs_fmap_multidev(const struct famfs_fmap *m);
/* Give the module a file's map: MAP_CREATE_V3 when it uses a member,
 * else MAP_CREATE (v1) for up to FAMFS_MAX_EXTENTS simple extents,
 * MAP_CREATE_V2 otherwise. */
int famfs_fmap_create(int fd, const struct famfs_fmap *m);
/* Read a file's map: MAP_GET_V2 (the count, then the list) -- MAP_GET_V3
 * when v2 says EOVERFLOW (a map on a member) -- or, from a module without
 * v2, MAP_GET (size, count) and MAP_GETEXT (extents).
 * -ENODATA: not mapped; -ENOTTY: not a famfs file; -EBADE: the module gave
 * two different answers; -EPROTO: a map this tool cannot read. */
int famfs_fmap_get(int fd, struct famfs_fmap *m);
/* 1 if famfs.ko has the v2 ioctls, 0 if it has numbers 1..4 only (the
 * 2024 module), -ENOTTY if fd is no famfs file.  Asked of the first famfs
 * file fd it is given, then remembered for the process. */
int famfs_kernel_v2(int fd);
/* What v1 cannot express about m ("an interleaved file", "more than 2
 * extents"), or NULL */
const char *famfs_fmap_needs_v2(const struct famfs_fmap *m);
/* The reason in every message about it */
#define FAMFS_NO_V2_MSG \
	"this famfs.ko lacks the v2 ioctls (MAP_CREATE_V2, MAP_GET_V2)"
bool famfs_fmap_equal(const struct famfs_fmap *a, const struct famfs_fmap *b);
/* Write back (invalidate false) or write back and invalidate this host's
 * cache lines of the whole file open at fd (FAMFSIOC_CACHE; a no-op in
 * the kernel on a coherent mount).  A file that is not on a famfs mount
 * (statfs type), empty or not: -ENOTTY.  An empty famfs file: 0, nothing
 * to do.  -errno of fstat(fs) or the ioctl (-ENOTTY: the module has no
 * FAMFSIOC_CACHE). */
int famfs_file_cache(int fd, bool invalidate);
/* The v1 ioctl map of a FILE entry (REG, simple extents; -EOVERFLOW for
 * an interleaved one). */
int famfs_map_from_entry(const struct famfs_log_entry *e,
			 struct famfs_ioc_map *map);
/* The map of a (valid) FILE entry, simple or interleaved. */
void famfs_fmap_from_entry(const struct famfs_log_entry *e,
			   struct famfs_fmap *m);
/* The v1 map as an fmap */
void famfs_fmap_from_v1(struct famfs_fmap *m, const struct famfs_ioc_map *v1);
/* 1 if famfs.ko has a device at index in the mount at mpt, 0 if not,
 * -errno (-ENOTTY: a module without DEV_GET) */
int famfs_mount_dev_attached(const char *mpt, unsigned index);
/* FAMFSIOC_DEV_GET of index in the mount at mpt: 0 and *i filled, -ENXIO
 * (nothing attached there), -errno (-ENOTTY: no DEV_GET) */
int famfs_mount_dev_get(const char *mpt, unsigned index,
			struct famfs_ioc_dev_info *i);
/* FAMFSIOC_DEV_ADD of path as member index of size bytes (printed) */
int famfs_mount_dev_add(const char *mpt, const char *path, unsigned index,
			uint64_t size);

/* ---- hostid.c ------------------------------------------------------------ */
/* This host's persistent id: $FAMFS_HOST_ID_FILE, else /etc/famfs/host-uuid;
 * random (uuid_generate), created on first use; never /etc/machine-id. */
int famfs_host_id(uint8_t uuid[16]);
/* The uuid on the first line of an id file (a host id, boot_id): the
 * usual text form, or 32 hex digits (machine-id style); -errno, -EINVAL */
int famfs_read_id(const char *path, uint8_t uuid[16]);
/* /proc/sys/kernel/random/boot_id, or $FAMFS_BOOT_ID_FILE (tests) */
int famfs_boot_id(uint8_t boot[16]);

/* ---- fs.c: an opened file system (superblock + log) ---------------------- */
/* A log segment (INCOMPAT_LOG_EXTEND): segment 0 is mkfs's log (its map is
 * fs->logm), k >= 1 were added by EXTEND entries */
struct famfs_logseg {
	uint64_t first, nslots;		/* its slots [first, first + nslots) */
	uint64_t dev_off, len;		/* on device 0; dev_off UINT64_MAX:
					 * not known (a .meta file found
					 * before its EXTEND entry was read) */
	struct famfs_map m;		/* k >= 1: in the log's view */
	int fd;				/* .meta/.logK when mounted, else -1 */
	bool logged;			/* its EXTEND entry was read (or
					 * written by this process) */
	uint64_t ext_idx;		/* that entry's slot (logged) */
};
struct famfs_fs {
	struct famfs_dev dev;		/* when opened from a device */
	struct famfs_map sbm, logm;
	int sb_fd, log_fd;		/* meta files when mounted, else -1 */
	int lock_fd;			/* flock()ed around allocate+append */
	bool locked;			/* this process holds it exclusively */
	bool held;			/* famfs_fs_hold: kept until release */
	bool scratch_swept;		/* dead scratch files removed under
					 * this hold (fill.c) */
	char mpt[4096];			/* "" when opened from a device */
	const char *name;		/* device or mount point, for messages */
	struct famfs_superblock *sb;	/* &sb_kept: never the media */
	struct famfs_superblock sb_kept; /* the copy that verified last */
	bool sb_reread_bad;		/* the last re-read failed (said once) */
	bool sb_other;			/* ... found another fs's (-ESTALE) */
	struct famfs_log_header *log;
	bool rw;			/* log opened writable */
	bool ro_mount;			/* log meta file without write bits:
					 * a client's mount or famfs mount -r */
	bool master;			/* host id == sb master_uuid */
	/* master and this instance may hold the role (master.h): it alone
	 * skips cache invalidation and replays write bits; a clone does not */
	bool master_instance;
	uint8_t host_uuid[16];
	bool host_id_ok;		/* host_uuid could be read or created */
	/* kept between the creates of this opening (ops.c), used and
	 * brought up to date under the log lock: the allocation bitmap and
	 * the logged paths of the entries [0, cache_next) */
	struct famfs_alloc *cache_alloc;	/* one bitmap per device */
	struct famfs_summary *cache_sum;	/* summary.h: the paths */
	uint64_t cache_next;
	bool cache_unsaved;		/* the summary file is behind */
	/* the last entry of [0, cache_next): where it starts, and the CRC
	 * of its (v1 form) entry as famfs_log_entry_span gives it */
	uint64_t cache_last_idx;
	uint32_t cache_last_crc;
	/* found by the cache update (R3, R4); UINT64_MAX: none */
	uint64_t cache_unparsed;	/* first committed entry that cannot
					 * be parsed: no allocation */
	char cache_unparsed_why[FAMFS_REASON_LEN];
	uint64_t cache_past;		/* first valid entry past next + 1 */
	/* registered by the cache's owner (cache.c), above the opening and
	 * the append that call them: write the summary out, free the cache */
	void (*cache_flush)(struct famfs_fs *fs);
	void (*cache_drop)(struct famfs_fs *fs);
	char cache_dirok[FAMFS_LOG_PATH_MAX];	/* pathcheck.c */
	size_t cache_dirok_len;
	bool tail_checked;		/* log.c: slots past next_index seen */
	/* log.c: during a walk, the index just past the entry given to the
	 * callback (idx + 1 in a v1 log, idx + its slots in a compact one);
	 * after an append, the index of the entry appended */
	uint64_t walk_next;
	uint64_t walk_lost;	/* -ENXIO: first slot unread, else UINT64_MAX */
	uint64_t last_append;
	/* devs.c: the devices the log added (INCOMPAT_MULTIDEV), up to
	 * devs.next; dev[0] the primary.  famfs_fs_devs_update */
	struct famfs_logdevs devs;
	/* master.c: the role as the last check found it held by this
	 * instance (record, superblock master, where the boot id and claim
	 * come from): an append that finds the same skips re-reading the
	 * boot id and the claim file */
	bool mine_seen;
	uint8_t mine_master[16];
	/* the record read once by famfs_mrec_refresh (or as written): what
	 * is judged; mine_rec: what was remembered as this instance's */
	struct famfs_master_record mrec, mine_rec;
	char mine_env[512];
	uint64_t beat_at;	/* beat.c: this opening's last beat (0: none) */
	bool beat_said;		/* beat.c: a beat that failed was said */
	/* logseg.c: a compact log is one view, a PROT_NONE reservation of
	 * FAMFS_LOG_TOTAL_MAX bytes at fs->log into which every segment is
	 * mapped in order, so slot i is at the same address arithmetic in
	 * every segment and an entry that spans two is contiguous */
	void *view;
	struct famfs_logseg seg[FAMFS_LOG_MAX_SEGS];
	unsigned nsegs;			/* mapped: 1 + segments 1.. */
	uint64_t log_cap;		/* their slots (v1: the header's) */
	bool grow_said;			/* automatic growth was reported */
	/* place.c: the members of the log not attached to this mount, as
	 * found when the allocators had here_ndevs devices; said once */
	unsigned here_ndevs;
	uint32_t here_absent;
	bool here_said;
};
/* INCOMPAT_COMPACT_LOG: log indexes are 256-byte slots, an entry takes
 * 1..4 of them (famfs_format.h) */
static inline bool famfs_fs_compact(const struct famfs_fs *fs)
{
	return famfs_sb_compact(fs->sb);
}
/* INCOMPAT_MULTIDEV: member devices (famfs_format.h) */
bool famfs_fs_multidev(const struct famfs_fs *fs);
#define FAMFS_META_DIR	".meta"
#define FAMFS_META_SB	".meta/.superblock"
#define FAMFS_META_LOG	".meta/.log"

/* Superblock and log header must pass the checks, else -EBADMSG (message
 * printed).  want_rw: open the log writable if this host may write it.
 * famfs_fs_open_dev and famfs_fs_open_mount (master.c) are these, then
 * the master instance judged (famfs_master_instance_judge): what every
 * command uses; famfs_fs_map_* only map and check. */
int famfs_fs_open_dev(const char *path, bool want_rw, struct famfs_fs *fs);
int famfs_fs_map_dev(const char *path, bool want_rw, struct famfs_fs *fs);
/* The same, read-only, for mount (which then reads the log through the
 * mount): the superblock, the log header and the role checked; of a block
 * device only the first 4 KiB of the superblock region and of the log are
 * read (famfs_fs_open_dev reads the 2 MiB region and the log whole: a
 * 16 MiB log, ~16 M instructions of copying under TCG).  Nothing
 * past the superblock or the log header may be read through it: not the
 * master record (famfs_mrec_refresh), not a log entry. */
int famfs_fs_open_dev_head(const char *path, struct famfs_fs *fs);
int famfs_fs_open_mount(const char *mpt, bool want_rw, struct famfs_fs *fs);
int famfs_fs_map_mount(const char *mpt, bool want_rw, struct famfs_fs *fs);
void famfs_fs_close(struct famfs_fs *fs);
/* 0 if this process may append to the log; else prints why and -EPERM/-EROFS */
int famfs_fs_writable(struct famfs_fs *fs);
/* The log lock: flock() of the log meta file (of the device when opened
 * from one), so it is per host.  Exclusive: whoever appends, from the
 * allocation to the file's MAP_CREATE, and logplay (one replayer at a time,
 * never beside a create).  Shared: readers that change nothing. */
int famfs_fs_lock(struct famfs_fs *fs);
int famfs_fs_lock_shared(struct famfs_fs *fs);
void famfs_fs_unlock(struct famfs_fs *fs);
/* A batch (famfs mkfile/mkdir/cp of many paths): the log lock taken once,
 * exclusively, and kept until famfs_fs_release (or famfs_fs_close); the
 * lock and unlock of every create or mkdir in between do nothing.  Each
 * create still fills its memory and maps it before it logs it, under the
 * lock as before; other creators and logplay on this host wait for the
 * whole batch. */
int famfs_fs_hold(struct famfs_fs *fs);
void famfs_fs_release(struct famfs_fs *fs);
/* The one writer of the superblock's feature words: set the bits of set and
 * clear those of clear in word (FAMFS_FEAT_*).  Nothing is written when
 * nothing changes.  Else, under the log lock (taken here unless this process
 * holds it), this instance must hold the master role (famfs_master_check: a
 * client, a clone of the master or a corrupt master record is refused with
 * a message naming the file system and the holder, -EPERM/-EUCLEAN, before
 * a byte is written); then the superblock is written through its writable
 * view (famfs_fs_sb_get: .meta/.superblock when mounted, else the device
 * opened writable), re-CRCed and flushed.  0 or -errno (printed). */
enum { FAMFS_FEAT_COMPAT, FAMFS_FEAT_RO_COMPAT, FAMFS_FEAT_INCOMPAT };
/* Read the superblock again (famfs_map_refresh: another host may have
 * changed it).  fs->sb always points at a private copy (fs->sb_kept): what
 * is read is copied out of the media first, checked (famfs_sb_check; one
 * that fails is read once more: torn while the master wrote it), and
 * replaces the copy only if it verifies.  Else the copy verified last stays
 * and the check's -errno is returned, reason filled (may be NULL).  One
 * that verifies but is another file system's (uuid, size, log length or
 * format not the opening's: what fs->logm, the segments and fs->devs were
 * built from) is -ESTALE, the copy kept.  A mapping shows another host's
 * writes at once; the copy does not change under a reader between a check
 * and a use. */
int famfs_fs_sb_reread(struct famfs_fs *fs, char *reason);
int famfs_fs_change_feature(struct famfs_fs *fs, int word, uint32_t set,
			    uint32_t clear);
/* A writable view of the superblock region (FAMFS_SB_REGION_LEN bytes at
 * base, flushed through map): fs->sbm when it is writable (a device opened
 * rw), else .meta/.superblock opened O_RDWR and mapped.  A superblock there
 * that does not verify is refused (-EBADMSG, printed): re-CRCed it would
 * make its damage good for every host. */
struct famfs_sbw {
	struct famfs_map m, *map;
	void *base;
	int fd;
};
int famfs_fs_sb_get(struct famfs_fs *fs, struct famfs_sbw *w, const char *why);
void famfs_fs_sb_put(struct famfs_sbw *w);
static inline struct famfs_log_entry *famfs_log_slot(struct famfs_log_header *h,
						     uint64_t i)
{
	return (struct famfs_log_entry *)((char *)h + FAMFS_LOG_HDR_SIZE +
					  i * FAMFS_LOG_ENTRY_SIZE);
}
/* slot i of a compact log (an entry takes 1..4 of them) */
static inline uint8_t *famfs_clog_slot(struct famfs_log_header *h, uint64_t i)
{
	return (uint8_t *)h + FAMFS_LOG_HDR_SIZE + i * FAMFS_CLOG_SLOT;
}

/* logseg.c, loggrow.c: log segments and growth */
#include "logseg.h"

/* ---- log.c: append and scan ---------------------------------------------- */
/* Bring fs->devs up to the log's committed end: the DEVADD entries of
 * [devs.next, next_index) are added (a MULTIDEV file system; else only the
 * primary is there).  Every walk does it first, so an entry is judged with
 * the devices the log added before it.  0 or -errno. */
int famfs_fs_devs_update(struct famfs_fs *fs);
uint64_t famfs_log_next(const struct famfs_log_header *h);
/* loggrow.c: famfs_log_put, and a full log grown first (the master, under
 * the log lock, FAMFS_LOG_AUTOGROW not 0).  -ENOSPC when full (log
 * unchanged). */
int famfs_log_append(struct famfs_fs *fs, struct famfs_log_entry *e);
/* append.c: the master instance's append: the master record checked, an
 * entry at next_index rolled forward (R4), the slots past it checked; then
 * seq/uuid/crc filled, the slot written and flushed, next_index advanced.
 * A full compact log: FAMFS_LOG_FULL and *full filled (nothing printed)
 * if full is not NULL and the log may grow there, else -ENOSPC (printed:
 * famfs_log_full_err) */
struct famfs_log_full {
	uint64_t idx, cap;	/* next_index, the slots the log has */
	int need;		/* the entry's slots */
	bool ext;		/* an EXTEND entry (no slot kept for it) */
};
#define FAMFS_LOG_FULL	1
int famfs_log_put(struct famfs_fs *fs, struct famfs_log_entry *e,
		  struct famfs_log_full *full);
void famfs_log_full_err(struct famfs_fs *fs, const struct famfs_log_full *f);
/* What a full log's message tells the user */
#define FAMFS_LOG_FULL_HINT \
	"Grow it with famfs loggrow MPT (it needs free space), or make a new file system with a larger --loglen (up to 1G) and copy the files to it"
/* The entry (v1 form) that starts at index idx: 0, or -EINVAL if none
 * verifies there (compact; a v1 slot is copied as it is) */
int famfs_log_entry_at(struct famfs_fs *fs, uint64_t idx,
		       struct famfs_log_entry *e);
/* The same, returning the slots the entry takes (1 in a v1 log) */
int famfs_log_entry_span(struct famfs_fs *fs, uint64_t idx,
			 struct famfs_log_entry *e);
/* Calls fn for each committed entry; bad ones come with a reason and ok=0.
 * Indexes: v1, entry numbers; compact, the slot an entry starts at (the
 * next entry's is fs->walk_next during the call), and a run of slots where
 * no entry verifies (torn, CRC) is one bad entry whose e is zero.
 * An entry whose CRC fails is refreshed (famfs_map_refresh) and checked
 * once more first.  A non-zero return of fn stops the walk and is returned. */
typedef int (*famfs_entry_fn)(void *arg, uint64_t idx,
			      const struct famfs_log_entry *e, bool ok,
			      const char *reason);
int famfs_log_walk(struct famfs_fs *fs, famfs_entry_fn fn, void *arg);
/* The same for the committed entries in [start, end) (end may be past the
 * log's next index: it is cut there). */
int famfs_log_walk_range(struct famfs_fs *fs, uint64_t start, uint64_t end,
			 famfs_entry_fn fn, void *arg);
/* log.c, for append.c: the slot count of a verifying entry of this fs at
 * slot i of a compact log (ending by end), else 0; the first slot in
 * [from, cap) that starts one, looking no further than bound slots past
 * from or past the last one found (fn, may be NULL, called for each;
 * a non-zero return stops the scan, put in *rc), else UINT64_MAX; the
 * slots mapped, the log read first when a grown log's segments are not
 * all mapped yet */
unsigned famfs_clog_written(struct famfs_fs *fs, uint64_t i, uint64_t end);
uint64_t famfs_clog_scan(struct famfs_fs *fs, uint64_t from, uint64_t cap,
			 uint64_t bound, famfs_entry_fn fn, void *arg, int *rc);
uint64_t famfs_log_discover(struct famfs_fs *fs);
/* R4: calls fn for each slot in [next_index, capacity) that holds a
 * written entry of this fs (CRC, seq, uuid right; famfs_entry_written), ok
 * as famfs_entry_check says.  The one at next_index may be an uncommitted
 * append; any further one means the header lost committed entries. */
int famfs_log_walk_past(struct famfs_fs *fs, famfs_entry_fn fn, void *arg);
/* R4: a whole entry of this fs at next_index (an append that crashed
 * between its two flushes, or next_index one short: the two look the same,
 * and clients may map the latter) is committed, never overwritten.  Master
 * with the log open rw, under the log lock; 1 if it committed one, 0 if
 * there was none, -errno (printed). */
int famfs_log_roll_forward(struct famfs_fs *fs);
/* R4, what the master's append checks before it writes (a committed entry
 * past next_index, or one that next_index cuts): 0, or -EUCLEAN (printed).
 * A create calls it before it allocates and writes memory, since a create
 * cache loaded from the summary did not scan the tail itself. */
int famfs_log_tail_check(struct famfs_fs *fs);
/* The log's next index as memory holds it now: on a client the header's
 * cache line is refreshed first.  Cut to the capacity (with a message). */
uint64_t famfs_log_refresh_next(struct famfs_fs *fs);

/* ---- alloc.c: 2 MiB-unit bitmap, first fit ------------------------------- */
/* One node of the search index: free units at the start, at the end, and
 * the longest free run, of the 64-unit words under it. */
struct famfs_bm_node {
	uint64_t pre, suf, best;
};
struct famfs_bitmap {
	uint64_t nunits;
	uint64_t *bits;
	uint64_t nfree;
	/* work done (bitmap words and index nodes looked at or rewritten):
	 * what the unit tests count instead of timing */
	uint64_t work;
	/* no unit below hint is free: a request that fits at the first
	 * free units is served there, without the index (an empty device,
	 * or one unit on a fragmented one: the same cost at any size) */
	uint64_t hint;
	/* words looked at by searches (before the index is built: past
	 * nwords, the next search builds it) */
	uint64_t scanned;
	/* the search index: a binary tree over the bitmap's words (leaves
	 * nleaves..2*nleaves-1), built by a search that needs it (see
	 * scanned), so a first fit costs O(log(device)) at any fullness.
	 * Its upkeep is deferred: the leaves of words stale_lo..stale_hi
	 * (when stale) and the nodes above them are mended before the next
	 * search, once for a series of nearby changes. */
	struct famfs_bm_node *tree;
	uint64_t nwords, nleaves;
	uint64_t stale_lo, stale_hi;
	bool stale;
};
int famfs_bitmap_init(struct famfs_bitmap *b, const struct famfs_superblock *sb);
/* One device's allocator: units [data_start, size) free, those below used
 * (the primary's superblock and log, a member's superblock unit) */
int famfs_bitmap_init_dev(struct famfs_bitmap *b, uint64_t data_start,
			  uint64_t size);
/* Mark [off, off + len) used (bytes; the part inside the device) */
void famfs_bitmap_mark_range(struct famfs_bitmap *b, uint64_t off,
			     uint64_t len);
/* First fit of units units: marked used, *first its first; -ENOSPC */
int famfs_bitmap_take(struct famfs_bitmap *b, uint64_t units, uint64_t *first);
/* Build the search index, or bring it up to date, as the allocator does
 * before it searches (for tests that look at it or count its upkeep):
 * 0 or -ENOMEM (printed) */
int famfs_bitmap_index_sync(struct famfs_bitmap *b);
/* Give back what famfs_bitmap_take took */
void famfs_bitmap_give(struct famfs_bitmap *b, uint64_t first, uint64_t units);
/* The strip length of an interleaved layout (famfs_alloc_strips): 0,
 * -EINVAL (bad geometry), -ENOSPC (too big to count) */
int famfs_strip_len(uint64_t size, uint32_t nstrips, uint64_t chunk,
		    uint64_t *slen);
void famfs_bitmap_free(struct famfs_bitmap *b);
bool famfs_bitmap_test(const struct famfs_bitmap *b, uint64_t unit);
void famfs_bitmap_set(struct famfs_bitmap *b, uint64_t unit);
/* Mark every valid entry's extents used: O(entries + units). */
int famfs_bitmap_build(struct famfs_fs *fs, struct famfs_bitmap *b);
/* Mark the extents or strips of one valid entry used */
void famfs_bitmap_mark(struct famfs_bitmap *b, const struct famfs_log_entry *e);
/* First fit, one contiguous extent of roundup(size, 2 MiB) (>= 1 unit);
 * -ENOSPC if none. */
int famfs_alloc(struct famfs_bitmap *b, uint64_t size,
		struct famfs_log_simple_ext *ext);
void famfs_bitmap_clear(struct famfs_bitmap *b, uint64_t unit);
/* A simple file of size bytes in at most max_ext (1..16) extents: one
 * contiguous run, first fit, when one is free; else, when free space is
 * fragmented, the fewest runs that hold it: the longest free runs whole,
 * and the rest at the start of the shortest remaining run that holds it
 * (so the big runs stay whole).  Every extent whole 2 MiB units, sorted
 * by device offset.  -ENOSPC (bitmap unchanged) if the max_ext longest
 * runs together are too small. */
int famfs_alloc_extents(struct famfs_bitmap *b, uint64_t size,
			unsigned max_ext, struct famfs_log_simple_ext *ext,
			unsigned *next);
/* An interleaved layout for size bytes: nstrips (1..16) strips of
 * strip_len = ceil(size / (nstrips * chunk)) * chunk bytes (at least one
 * chunk), each one contiguous, first fit.  chunk: a non-zero multiple of
 * 2 MiB.  Fills ie (little-endian, unused strips zero).  All or nothing:
 * -ENOSPC leaves the bitmap as it was; -EINVAL for a bad geometry. */
int famfs_alloc_strips(struct famfs_bitmap *b, uint64_t size, uint32_t nstrips,
		       uint64_t chunk, struct famfs_log_interleave_ext *ie);

/* ---- place.c: one allocator per device, placement (issue 16) ---------- */
#include "place.h"

#include "report.h"

/* ---- ops.c: file system operations on a mounted file system --------------- */
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
};
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
/* zero.c: memset(buf, 0, n) for large n, with non-temporal wide stores
 * where the CPU has them (ordered by a fence before it returns).  Returns
 * how many bytes from buf on may still be in this CPU's cache (n where
 * there are no such stores); the rest reached the memory. */
size_t famfs_zero(void *buf, size_t n);
/* zero.c's choice on x86-64: 1 AVX2, 0 SSE2, -1 not asked yet (tests) */
extern int famfs_zero_avx2;
/* Before p is mapped: every byte of map's memory, through a scratch file
 * (.meta/.new-PID) mapped over all of it: fill's bytes for [0,
 * map->file_size), zeros after (fill NULL: all zeros; nozero without fn:
 * nothing), written back; the scratch file is gone on return. */
int famfs_fill_units(struct famfs_fs *fs, const char *p,
		     const struct famfs_fmap *map,
		     const struct famfs_fill *fill);
/* famfs_file_create_layout with the file's bytes given by fill */
int famfs_file_create_fill(struct famfs_fs *fs, const char *rel,
			   uint64_t size, uint32_t mode, uint32_t uid,
			   uint32_t gid, const struct famfs_layout *lay,
			   const struct famfs_fill *fill);
/* The geometry -N/-C may ask for: 0, or -EINVAL with reason filled. */
int famfs_layout_check(const struct famfs_layout *lay, char *reason);
/* Bring fs's create cache (bitmap, logged paths) up to the log's end:
 * only the entries appended since the last call are read.  Under the log
 * lock.  famfs_fs_cache_drop forgets it (the next update reads it all). */
int famfs_fs_cache_update(struct famfs_fs *fs);
void famfs_fs_cache_drop(struct famfs_fs *fs);
/* Write the master's summary (summary.h) if this opening's creates or
 * mkdirs changed it: once, at famfs_fs_close, not after every append (a
 * process that dies first only leaves more of the log to the next one) */
void famfs_fs_cache_flush(struct famfs_fs *fs);
/* famfs mount, the master, under the log lock: the summary made again from
 * the whole log (what was damaged while unmounted is seen: R3, R4), or
 * none when the log stops creates */
void famfs_fs_cache_remake(struct famfs_fs *fs);
/* After this opening's create of norm (its path, normalized) was appended:
 * the cache takes the entry and the path (its allocation it has already);
 * dropped if another entry came first */
void famfs_fs_cache_created(struct famfs_fs *fs, const char *norm);
/* After famfs mkdir appended: the master's summary, if there is a trusted
 * one, follows (never a rebuild from the log: mkdir needs no cache) */
void famfs_fs_cache_follow(struct famfs_fs *fs);
/* mkdir rel and log it; parents: create missing parents too, no error if
 * it exists as a directory.  Judged by the log as a file's create is. */
int famfs_mkdir(struct famfs_fs *fs, const char *rel, uint32_t mode,
		uint32_t uid, uint32_t gid, bool parents);

/* ---- copy.c: famfs cp of one source ---------------------------------------- */
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

#include "replay.h"

/* ---- pattern.c: seeded test pattern -------------------------------------- */
void famfs_pattern_fill(void *buf, uint64_t len, uint64_t seed);
/* returns -1 if equal, else the first differing byte offset */
int64_t famfs_pattern_check(const void *buf, uint64_t len, uint64_t seed);

#endif /* LIBFAMFS_H */
