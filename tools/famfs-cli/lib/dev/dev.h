/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dev/: this host -- opening and mapping devices and meta files (mmap,
 * O_DIRECT bounce buffers, cache-line flushes, refresh), what else a
 * device holds (libblkid), every call to famfs.ko (mount(2), the ioctls,
 * a mount's members), this host's id and this boot's, reading and writing
 * a device's head and finding a file system's devices by uuid.  It knows
 * the format's bytes (media/) but no opened file system; it calls media/
 * and base/.
 */
#ifndef FAMFS_DEV_H
#define FAMFS_DEV_H

#include "media/media.h"

struct stat;

/* ---- dev.c: device and meta-file mappings ------------------------------- */
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
/* The device number FAMFSIOC_DEV_GET reports of the device at a node (st:
 * its stat): a block device (pmem) its major and minor; a character
 * device (devdax) the same and FAMFS_DEV_DEVDAX in *flags.  false: no
 * device node.  famfs_kernel_real's node_number. */
bool famfs_node_number(const struct stat *st, uint32_t *major,
		       uint32_t *minor, uint32_t *flags);
/* famfs_kernel's node_number (the device number DEV_GET would report of
 * the device at st), or famfs_node_number without one */
bool famfs_kernel_node_number(const struct stat *st, uint32_t *major,
			      uint32_t *minor, uint32_t *flags);
/* sysfs, "/sys" (the unit tests: a directory of their own) */
extern const char *famfs_sys_root;
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
	unsigned long file_invalidates;	/* new files on reclaimed memory:
					 * their lines dropped (by the create,
					 * or by FAMFSIOC_CACHE after it) --
					 * or asked to be: on a coherent mount
					 * famfs.ko has nothing to drop and
					 * does nothing, counted all the same */
	unsigned long file_stale;	/* new files on reclaimed memory whose
					 * lines nothing here could drop */
};
extern struct famfs_flush_stats famfs_flush_stats;
void famfs_flush_stats_print(FILE *f);
/* Unit tests: called by every famfs_map_flush (before it writes back) and
 * after every famfs_map_refresh (to stand for what memory holds). */
extern void (*famfs_flush_hook)(const struct famfs_map *m, const void *addr,
				size_t len);
extern void (*famfs_refresh_hook)(struct famfs_map *m, void *addr, size_t len);
void famfs_map_unmap(struct famfs_map *m);

/* ---- probe.c: other signatures on a device (libblkid) ------------------- */
/* 1 and what (n bytes) filled ("ext4 file system labelled 'x'", "a gpt
 * partition table") if libblkid knows what d holds, 0 if nothing it knows
 * (famfs is not among them), -errno (message printed) if it cannot tell. */
int famfs_dev_probe(struct famfs_dev *d, char *what, size_t n);

/* ---- nscall.c: the namespace calls on a famfs mount (issue 29) ----------
 * Through FAMFSIOC_NS (famfs_kernel->ns), which a mount with the option
 * "protect" leaves as the only way to make these changes; the plain system
 * call when the module has no FAMFSIOC_NS (ENOTTY) or refuses this process
 * (EPERM), or when name is not one path component of a directory fd.  As
 * the system calls: -1 and errno on failure.  famfs_mnt_creat is
 * openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
 * mode) (the umask applies either way) and returns the new descriptor. */
int famfs_mnt_creat(int dfd, const char *name, mode_t mode);
int famfs_mnt_mkdirat(int dfd, const char *name, mode_t mode);
int famfs_mnt_unlinkat(int dfd, const char *name, int flags);
int famfs_mnt_renameat2(int ofd, const char *oname, int nfd, const char *nname,
		       unsigned int flags);
int famfs_mnt_fchmod(int fd, mode_t mode);
int famfs_mnt_fchown(int fd, uid_t uid, gid_t gid);

/* ---- kernel.c: the only place that talks to famfs.ko (fmap.c and
 * entrymap.c call it through famfs_kernel) ------------------------------ */
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
	/* FAMFSIOC_NS as it is: what it returns (a descriptor for CREATE)
	 * or -errno (NULL: -ENOTTY, an older module) */
	int (*ns)(int fd, const struct famfs_ioc_ns *a);
	/* FAMFSIOC_HELD as it is (NULL: -ENOTTY, an older module) */
	int (*held)(int fd, struct famfs_ioc_held *h);
	/* FAMFSIOC_UNLINK_MAP as it is (NULL: -ENOTTY, an older module) */
	int (*unlink_map)(int dfd, const struct famfs_ioc_unlink_map *a);
	/* the device number DEV_GET reports of the device at a node (st:
	 * its stat; famfs_node_number); NULL: famfs_node_number */
	bool (*node_number)(const struct stat *st, uint32_t *major,
			    uint32_t *minor, uint32_t *flags);
};
extern const struct famfs_kernel_ops famfs_kernel_real;
extern const struct famfs_kernel_ops *famfs_kernel;	/* tests swap it */

/* FAMFSIOC_HELD on fd (any file or directory of the mount; CAP_SYS_ADMIN):
 * for each of the n ranges (dev, offset, len; 4 KiB aligned) famfs.ko
 * fills in held (bytes still referenced on this host) and flags
 * (FAMFS_HELD_LIVE, FAMFS_HELD_ZOMBIE); their old values are cleared
 * first.  0, or -errno: -E2BIG for n > FAMFS_HELD_MAX (not asked), -ENOTTY
 * from a module without the call, the module's errors as they are. */
int famfs_kernel_held(int fd, struct famfs_ioc_held_range *r, unsigned n);

/* Write back (invalidate false) or write back and invalidate this host's
 * cache lines of the whole file open at fd (FAMFSIOC_CACHE; a no-op in
 * the kernel on a coherent mount).  A file that is not on a famfs mount
 * (statfs type), empty or not: -ENOTTY.  An empty famfs file: 0, nothing
 * to do.  -errno of fstat(fs) or the ioctl (-ENOTTY: the module has no
 * FAMFSIOC_CACHE). */
int famfs_file_cache(int fd, bool invalidate);
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

/* ---- fmap.c: a file's map given to famfs.ko and read from it ---------- */
/* A file's map in any shape the module knows: count simple extents
 * (ext[]) or interleaved extents (iext[]). */
struct famfs_fmap {
	uint32_t extent_type;		/* SIMPLE_DAX_EXTENT or
					 * FAMFS_INTERLEAVED_EXTENT */
	uint32_t file_type;		/* enum famfs_file_type */
	bool pages;			/* page extents of a small file
					 * (MAP_CREATE_V3 with
					 * FAMFS_IOC_MAP_PAGES) */
	bool file_type_unknown;		/* read through v1, which said
					 * file_type 0: FAMFS_REG, or not
					 * said (the 2024 module never did) */
	/* the file's identity (FAMFS_IOC_MAP_IDENT): the log index of the
	 * FILE entry that made it.  Given to MAP_CREATE_V3 when set (a
	 * famfs.ko without identities makes the file without one), read by
	 * MAP_GET_V3 (famfs_fmap_get asks for it: famfs.ko reports it only
	 * when asked); famfs_fmap_equal compares maps only */
	bool has_ident;
	uint64_t ident;
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
/* Give the module a file's map: MAP_CREATE_V3 with FAMFS_IOC_MAP_IDENT
 * when m has an identity (a famfs.ko that refuses the flag, EINVAL, makes
 * it without: asked once, then not again), MAP_CREATE_V3 when it uses a
 * member, else MAP_CREATE (v1) for up to FAMFS_MAX_EXTENTS simple extents,
 * MAP_CREATE_V2 otherwise. */
int famfs_fmap_create(int fd, const struct famfs_fmap *m);
/* The same for memory that may have been another file's (a RECLAIM freed
 * it): this host's cache lines of it dropped before anything can read the
 * file -- MAP_CREATE_V3 with FAMFS_IOC_MAP_INVALIDATE (counted in
 * famfs_flush_stats.file_invalidates).  A famfs.ko without the flag
 * (EINVAL, then the map taken without it: said once, and not asked again)
 * or without v3 (ENOTTY): famfs_fmap_create, then famfs_file_cache
 * invalidate (the window between the two calls stays open); once per
 * module a note says which of the two it lacks and whether FAMFSIOC_CACHE
 * dropped the lines after the map or, lacking that too, nothing did (a
 * warning).  The create's 0 or -errno; *cache_rc: 0 when the lines were
 * dropped, else that famfs_file_cache's -errno (-ENOTTY: nothing here
 * could drop them, already said; counted in famfs_flush_stats.file_stale
 * as every failed drop). */
int famfs_fmap_create_fresh(int fd, const struct famfs_fmap *m, int *cache_rc);
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
/* Is the file of map have the file of FILE entry id whose map is want?
 * The maps equal, and have's identity (if it has one) id. */
bool famfs_fmap_is_entry(const struct famfs_fmap *want,
			 const struct famfs_fmap *have, uint64_t id);
/* The v1 map as an fmap */
void famfs_fmap_from_v1(struct famfs_fmap *m, const struct famfs_ioc_map *v1);

/* ---- entrymap.c: a FILE entry's map; FAMFSIOC_UNLINK_MAP ---------------- */
/* The v1 ioctl map of a FILE entry (REG, simple extents; -EOVERFLOW for
 * an interleaved one, page extents, or a member device). */
int famfs_map_from_entry(const struct famfs_log_entry *e,
			 struct famfs_ioc_map *map);
/* Remove name (one path component) of the directory dfd if it is the
 * file the FILE entry e (at log index id) made: a regular famfs file with
 * e's map and, if it has an identity, id (FAMFS_IOC_MAP_IDENT; a famfs.ko
 * without identities is asked by the map alone, once probed), looked up,
 * compared and unlinked in one call (FAMFSIOC_UNLINK_MAP).  1 removed;
 * 0 it is not there (ENOENT), not that file (ESTALE: another map or
 * identity, none) or a directory (EISDIR): nothing removed; -errno
 * otherwise, the caller
 * then does it the old way (open, famfs_fmap_get, compare, unlink):
 * -ENOTTY a famfs.ko without the call (remembered, not asked again),
 * -EPERM no CAP_SYS_ADMIN, -EINVAL a name or map it does not take, ... */
int famfs_entry_unlink(int dfd, const char *name,
		       const struct famfs_log_entry *e, uint64_t id);
/* The same, with the identity id or not at all: -EOPNOTSUPP (nothing
 * removed) from a famfs.ko without identities, which would compare the
 * map alone -- for a path where a later file on the same memory may be */
int famfs_entry_unlink_ident(int dfd, const char *name,
			     const struct famfs_log_entry *e, uint64_t id);
/* The map of a (valid) FILE entry, simple or interleaved. */
void famfs_fmap_from_entry(const struct famfs_log_entry *e,
			   struct famfs_fmap *m);

/* ---- hostid.c ----------------------------------------------------------- */
/* This host's persistent id: $FAMFS_HOST_ID_FILE, else /etc/famfs/host-uuid;
 * random (uuid_generate), created on first use; never /etc/machine-id. */
int famfs_host_id(uint8_t uuid[16]);
/* The uuid on the first line of an id file (a host id, boot_id): the
 * usual text form, or 32 hex digits (machine-id style); -errno, -EINVAL */
int famfs_read_id(const char *path, uint8_t uuid[16]);
/* /proc/sys/kernel/random/boot_id, or $FAMFS_BOOT_ID_FILE (tests) */
int famfs_boot_id(uint8_t boot[16]);

/* ---- member.c, memberdev.c: member devices on this host (issue 16) ------ */
/* The first n (<= 4096) bytes of a device or file, as memory holds them
 * now: O_DIRECT on a block device, CPU cache lines dropped on a dax
 * mapping; never opened exclusively (a mounted device can be read).  size:
 * the device's size.  -errno, no message (a scan skips what it cannot read). */
int famfs_dev_read_head(const char *path, void *buf, size_t n, uint64_t *size);
/* famfs_dev_read_head's calls in this process (what a check costs) */
extern unsigned long famfs_dev_head_reads;
/* Write m at offset 0 of path and flush it (checked first: refused if it
 * does not fit the device). */
int famfs_member_write(const char *path, const struct famfs_member_sb *m);

/* memberdev.c: true if a and b are the same device (or file) */
bool famfs_same_device(const char *a, const char *b);
/* May path become a member of the file system on primary?  Not the
 * primary, at least FAMFS_MEMBER_MIN_SIZE, and -- unless force -- holding
 * no famfs superblock, no member superblock and nothing libblkid knows
 * (mkfs's rules).  0 and *size (the device's, whole 2 MiB units), or
 * -errno (printed: the device and why). */
int famfs_member_vet(const char *path, const char *primary, bool force,
		     uint64_t *size);
/* Write member index's superblock (a new device uuid, to dev_uuid) of the
 * file system of sb on path, size bytes, flushed. */
int famfs_member_make(const char *path, const struct famfs_superblock *sb,
		      uint32_t index, uint64_t size, uint8_t dev_uuid[16]);

/* Candidates a scan reads: SCAN_ROOT/pmemN[.M] (block), SCAN_ROOT/daxX.Y
 * (char); plain files of those names count too (unit tests). */
extern const char *famfs_scan_root;		/* "/dev" */
struct famfs_found_dev {
	bool present;
	char path[4096];
	uint8_t dev_uuid[16];	/* member's; nil for the primary */
	uint64_t size;		/* as recorded in its superblock */
	uint64_t fs_ctime;	/* the primary's ctime */
};
/* dev[0] the primary (a famfs superblock with this fs uuid), dev[i] member
 * i; nfound present entries; ndamaged devices that look like they belong
 * to this file system but were refused (reported: bad CRC, stale). */
struct famfs_devtab {
	uint8_t fs_uuid[16];
	struct famfs_found_dev dev[FAMFS_MAX_DEVS];
	int nfound;
	int ndamaged;
	/* famfs_devtab_find: member superblocks of this file system whose
	 * device uuid the log does not name (a devadd that crashed before
	 * its entry), with the index they claim; the first FAMFS_MAX_DEVS */
	struct famfs_found_dev orphan[FAMFS_MAX_DEVS];
	uint32_t orphan_index[FAMFS_MAX_DEVS];
	int norphans;
};
struct famfs_member_want {
	uint32_t index;
	uint8_t dev_uuid[16];
};
/* Fill t for fs_uuid from the hints (read first, in order; a hint that
 * cannot be read is a warning) then the scan root.  The same device seen
 * twice counts once.  -EEXIST, naming both devices, if two devices claim
 * the same index or the same device uuid (or two primaries). */
int famfs_devtab_scan(const uint8_t fs_uuid[16], const char *const *hints,
		      int nhints, struct famfs_devtab *t);
/* The same, taking only the members want names (the log's: index and
 * device uuid): a member superblock of this fs that want does not name
 * (an interrupted devadd's, maybe at an index reused since) is ignored,
 * one naming a wanted uuid at another index is refused (ndamaged). */
int famfs_devtab_find(const uint8_t fs_uuid[16], const char *const *hints,
		      int nhints, const struct famfs_member_want *want,
		      int nwant, struct famfs_devtab *t);
/* path is a node of the device FAMFSIOC_DEV_GET described (*i): its
 * number as famfs_kernel_node_number says, the same kind (FAMFS_DEV_DEVDAX) */
bool famfs_node_is(const char *path, const struct famfs_ioc_dev_info *i);
/* This host's node of the device DEV_GET described (*i) to path (len
 * bytes): a hint that is one (NULL or "" skipped), else sysfs's DEVNAME
 * (famfs_sys_root) under the scan root, else a candidate of the scan
 * root.  0, or -ENOENT (path ""). */
int famfs_node_of_number(const struct famfs_ioc_dev_info *i,
			 const char *const *hints, int nhints, char *path,
			 size_t len);
/* The member superblock at path's head to *m, checked for file system
 * fs_uuid (famfs_member_check): 0; -errno of the read; -EINVAL none (or
 * a bad field), -EBADMSG CRC (corrupt or torn), -EPROTONOSUPPORT a later
 * version, -ESTALE a whole member superblock of another file system.
 * why (FAMFS_REASON_LEN) says which.  No message. */
int famfs_member_read(const char *path, const uint8_t fs_uuid[16],
		      struct famfs_member_sb *m, char *why);
/* Is the device famfs.ko has as member index (*i: DEV_GET) the log's,
 * device uuid want?  SAME: a node of want here has its number (known: the
 * node an attach found want at, looked at first), or it reads whole with
 * want at index (its sysfs node read first, once: no scan then); OTHER: a node of want here has another number, or it reads whole
 * with another device uuid (have); UNSURE: neither device can be told
 * here (no node, a read error, a torn or later member superblock: why).
 * path: famfs.ko's device's node ("" not found), table_path: want's. */
enum famfs_member_is {
	FAMFS_MEMBER_UNSURE,
	FAMFS_MEMBER_SAME,
	FAMFS_MEMBER_OTHER,
};
/* Why a verdict is FAMFS_MEMBER_UNSURE: the way out differs */
enum famfs_member_unsure {
	FAMFS_UNSURE_NO_NODE,		/* no node of famfs.ko's device here */
	FAMFS_UNSURE_UNREAD,		/* its node's member superblock does
					 * not read or verify */
	FAMFS_UNSURE_COPIED,		/* two nodes with the log's uuid */
};
struct famfs_member_verdict {
	enum famfs_member_is is;
	enum famfs_member_unsure cause;	/* FAMFS_MEMBER_UNSURE: why */
	uint8_t have[16];		/* nil: not read */
	char path[256], table_path[256];
	char why[640];
};
/* 0 and *v, or -ENOMEM.  No message. */
int famfs_member_compare(const struct famfs_ioc_dev_info *i,
			 const uint8_t fs_uuid[16], uint32_t index,
			 const uint8_t want[16], const char *known,
			 struct famfs_member_verdict *v);
/* Every wanted member found with its device uuid: 0.  Else one message per
 * missing member, naming its index and device uuid (or the device found at
 * that index with another uuid), and -ENODEV. */
int famfs_devtab_require(const struct famfs_devtab *t,
			 const struct famfs_member_want *want, int n);

#endif /* FAMFS_DEV_H */
