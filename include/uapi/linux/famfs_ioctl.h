/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * famfs - a file system for memory that several hosts share
 *
 * The ioctl ABI between famfs.ko and the user-space tool that owns all
 * metadata.  Version 1 (numbers 1..4, struct famfs_ioc_map) is the ABI of the
 * 2024 famfs RFC and is frozen byte for byte: the enums of that RFC are 32-bit
 * fields here, which is the same layout on every ABI (i386 included), so
 * compat callers need no translation.  New calls only ever get new numbers.
 */
#ifndef _UAPI_LINUX_FAMFS_IOCTL_H
#define _UAPI_LINUX_FAMFS_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define FAMFS_MAX_EXTENTS	2

/* famfs_ioc_map.extent_type */
enum famfs_extent_type {
	SIMPLE_DAX_EXTENT = 13,
	INVALID_EXTENT_TYPE,
};

/* famfs_ioc_map.file_type */
enum famfs_file_type {
	FAMFS_REG,
	FAMFS_SUPERBLOCK,
	FAMFS_LOG,
};

/* One contiguous piece of a file: a byte range of the memory device. */
struct famfs_extent {
	__u64 offset;
	__u64 len;
};

/* The map of one file: what FAMFSIOC_MAP_CREATE takes and MAP_GET returns. */
struct famfs_ioc_map {
	__u32 extent_type;		/* enum famfs_extent_type */
	__u32 file_type;		/* enum famfs_file_type */
	__u64 file_size;
	__u64 ext_list_count;
	struct famfs_extent ext_list[FAMFS_MAX_EXTENTS];
};

#define FAMFSIOC_MAGIC		'u'

#define FAMFSIOC_MAP_CREATE	_IOW(FAMFSIOC_MAGIC, 1, struct famfs_ioc_map)
#define FAMFSIOC_MAP_GET	_IOR(FAMFSIOC_MAGIC, 2, struct famfs_ioc_map)
#define FAMFSIOC_MAP_GETEXT	_IOR(FAMFSIOC_MAGIC, 3, struct famfs_extent)
#define FAMFSIOC_NOP		_IO(FAMFSIOC_MAGIC, 4)

/* Sizes the v1 ABI is frozen at; checked by the module and the tools. */
#define FAMFS_IOC_EXTENT_SIZE	16
#define FAMFS_IOC_MAP_SIZE	56

/*
 * Version 2 (numbers 5 and 6): long extent lists and interleaved extents.
 *
 * The map header carries a user pointer to a separately counted list, either
 * of up to FAMFS_IOC_MAX_EXTENTS_V2 simple extents (struct famfs_extent, the
 * same rules as v1), or of up to FAMFS_IOC_MAX_IEXTENTS interleaved extents.
 * Every field is fixed-width, every structure a multiple of 8 bytes with its
 * padding spelled out, and the pointer a __u64: the layout is the same for
 * 32- and 64-bit callers.  Reserved fields and unused strips must be zero
 * (EINVAL otherwise), so that they can be given a meaning later.
 *
 * An interleaved extent (seed 003) holds nbytes of the file, striped in
 * chunk_size pieces over nstrips strips; each strip is a simple extent of the
 * device.  Chunk c of the extent is chunk c / nstrips of strip c % nstrips:
 *
 *   chunk  = off / chunk_size          strip     = chunk % nstrips
 *   stripe = chunk / nstrips           strip_off = stripe * chunk_size +
 *                                                  off % chunk_size
 *
 * famfs_interleave.h has that arithmetic as inline functions.  The extents
 * of a map follow each other in the file: extent i starts where extent i-1
 * ends.  Rules MAP_CREATE_V2 enforces (the errors of the map ioctls, below,
 * give the errno of each): chunk_size is a non-zero multiple of 2 MiB; every strip starts
 * 2 MiB aligned, is a non-zero multiple of 2 MiB long, lies inside the
 * device and holds every chunk that falls on it (whole chunks); nbytes of
 * every extent but the last is a multiple of 2 MiB; the extents hold at
 * least file_size bytes; no strip overlaps another or any mapped memory.
 * Only FAMFS_REG files can be interleaved.
 */
#define FAMFS_INTERLEAVED_EXTENT	15	/* famfs_ioc_map_v2.extent_type */

#define FAMFS_IOC_MAX_EXTENTS_V2	256	/* simple extents per v2 map */
#define FAMFS_IOC_MAX_IEXTENTS		16	/* interleaved extents per map */
#define FAMFS_IOC_MAX_STRIPS		16	/* strips per interleaved extent */

struct famfs_ioc_iext {
	__u32 nstrips;			/* 1..FAMFS_IOC_MAX_STRIPS */
	__u32 reserved;			/* 0 */
	__u64 chunk_size;		/* bytes, multiple of 2 MiB */
	__u64 nbytes;			/* file bytes this extent holds */
	struct famfs_extent strips[FAMFS_IOC_MAX_STRIPS]; /* [nstrips..) 0 */
};

struct famfs_ioc_map_v2 {
	__u32 extent_type;		/* SIMPLE_DAX_EXTENT or
					 * FAMFS_INTERLEAVED_EXTENT */
	__u32 file_type;		/* enum famfs_file_type */
	__u64 file_size;
	__u32 ext_count;		/* entries at ext_list, see below */
	__u32 flags;			/* 0; MAP_CREATE_V3 also takes
					 * FAMFS_IOC_MAP_PAGES,
					 * FAMFS_IOC_MAP_INVALIDATE and
					 * FAMFS_IOC_MAP_IDENT, MAP_GET_V3
					 * FAMFS_IOC_MAP_IDENT (below) */
	__u64 ext_list;			/* user address of ext_count
					 * struct famfs_extent (simple) or
					 * struct famfs_ioc_iext (interleaved) */
	__u64 reserved[4];		/* 0; with FAMFS_IOC_MAP_IDENT
					 * reserved[0] is the identity */
};

/*
 * MAP_CREATE_V2 reads the header and ext_count entries at ext_list.
 *
 * MAP_GET_V2: the caller sets ext_list and ext_count to the room it has
 * (flags and reserved 0).  The module fills in the header, with ext_count
 * set to the number of entries the map has, and copies the entries; with
 * ext_count 0 it only fills in the header.  If the room is non-zero but too
 * small, it fills in the header, copies nothing and fails with E2BIG.
 */
#define FAMFSIOC_MAP_CREATE_V2	_IOW(FAMFSIOC_MAGIC, 5, struct famfs_ioc_map_v2)
#define FAMFSIOC_MAP_GET_V2	_IOWR(FAMFSIOC_MAGIC, 6, struct famfs_ioc_map_v2)

/*
 * The errors of the map ioctls.
 *
 * MAP_CREATE and MAP_CREATE_V2 go through the same checks.  The first
 * failing check wins, in this order (famfs.ko logs each failure but EPERM,
 * EFAULT (header) and EROFS, naming the inode and the extent and strip):
 *
 *   EPERM	caller lacks CAP_SYS_ADMIN
 *   EFAULT	the argument (header) cannot be read
 *   EROFS	read-only mount
 *   EEXIST	the file already has a map
 *   EBUSY	another open file of the file exists (an open by any process,
 *		in any mode, of any of its names) besides the caller's, or it
 *		has more than one name (a hard link): memory goes only to a
 *		file the caller alone reaches, so that a file someone else
 *		created and holds open cannot be given another user's memory.
 *		Descriptors that share the caller's open file (dup, fork,
 *		SCM_RIGHTS) are the caller's; O_PATH handles reach no data and
 *		do not count.  The check and the map are atomic against new
 *		opens; an open that comes after the map is an open of a mapped
 *		file like any other.
 *   EIO	the mount had a memory failure
 *   EINVAL	v2: flags or reserved[] of the header are not 0 (v3 takes
 *		the flags FAMFS_IOC_MAP_PAGES, small files,
 *		FAMFS_IOC_MAP_INVALIDATE and FAMFS_IOC_MAP_IDENT, with
 *		reserved[0] its identity, below)
 *   EOPNOTSUPP	unknown extent_type or file_type (v1 knows only simple
 *		extents); an interleaved file that is not FAMFS_REG
 *   EINVAL	no extents (ext_list_count / ext_count is 0)
 *   E2BIG	more than FAMFS_MAX_EXTENTS (v1), FAMFS_IOC_MAX_EXTENTS_V2
 *		(v2 simple) or FAMFS_IOC_MAX_IEXTENTS (interleaved) extents
 *   EFAULT	v2: the list at ext_list cannot be read
 *   then each simple extent in order:
 *   EINVAL	length 0; offset not 2 MiB aligned; a length other than the
 *		last is not a multiple of 2 MiB
 *   EOVERFLOW	offset + length overflows 64 bits
 *   ENXIO	the extent ends past the end of the device
 *   EINVAL	a file other than the superblock uses device offset 0
 *   and after them EINVAL if the superblock does not start at offset 0;
 *   or each interleaved extent in order:
 *   EINVAL	reserved is not 0, or strips[nstrips..] are not all 0
 *   EINVAL	nstrips is 0
 *   E2BIG	nstrips > FAMFS_IOC_MAX_STRIPS
 *   EINVAL	chunk_size is 0 or not a multiple of 2 MiB
 *   EOVERFLOW	chunk_size * nstrips overflows 64 bits
 *   EINVAL	nbytes is 0; nbytes of an extent but the last is not a
 *		multiple of 2 MiB
 *   then each of its strips in order:
 *   EINVAL	length 0; offset not 2 MiB aligned; length not a multiple of
 *		2 MiB; device offset 0
 *   EOVERFLOW	offset + length overflows 64 bits
 *   ENXIO	the strip ends past the end of the device
 *   EFBIG	the strip holds fewer whole chunks than the extent puts on it
 *		(famfs_interleave_strip_chunks())
 *   then for the whole map:
 *   EOVERFLOW	the sum of the lengths (nbytes) overflows 64 bits
 *   EFBIG	file_size is larger than the extents hold
 *   EADDRINUSE	an extent or strip overlaps memory another file (or another
 *		extent or strip of this map) is mapped to (fs/famfs/map.c
 *		says why that is refused)
 *   EIO, EINTR	v3 with FAMFS_IOC_MAP_INVALIDATE only (below)
 *
 * A refused MAP_CREATE leaves the file unmapped and claims no memory.
 *
 * MAP_GET and MAP_GETEXT fail with ENODATA on a file that has no map and
 * with EOVERFLOW on a map the v1 structure cannot hold (interleaved, or more
 * than FAMFS_MAX_EXTENTS extents): never a silently truncated map.
 *
 * MAP_GET_V2: ENODATA on a file that has no map; EFAULT if the header cannot
 * be read or written or the list cannot be written; EINVAL if flags or
 * reserved[] are not 0.  With ext_count 0 it writes the header only (with
 * ext_count set to the map's count) and returns 0; with ext_count non-zero
 * but less than the map's count it writes that header, copies nothing and
 * fails with E2BIG; else it writes the list and the header and returns 0.
 */

#define FAMFS_IOC_IEXT_SIZE	280
#define FAMFS_IOC_MAP_V2_SIZE	64

/*
 * FAMFSIOC_CACHE: write back (FAMFS_CACHE_WRITEBACK) or write back and
 * invalidate (FAMFS_CACHE_INVALIDATE) this host's CPU cache lines that hold
 * bytes [offset, offset + length) of a mapped file, for applications that
 * share a mapping over memory that is not cache-coherent between hosts: the
 * writer writes back after its stores, the reader invalidates before its
 * loads.  On a mount in coherent mode (the default; see "noncoherent" in
 * README.md) there is nothing to do: the call is validated the same way and
 * returns 0.  Any open file descriptor of the file will do.
 *
 * Errors, in the order they are checked: EFAULT the argument cannot be
 * read; EINVAL flags is 0 or has an unknown bit, or reserved is not 0;
 * ENODEV the file has no map yet; EINVAL length is 0 or the range does not
 * lie within the file (offset + length > file size, or wraps); EIO the
 * mount has failed (memory failure, device gone) or part of the range is
 * poisoned; EINTR a fatal signal (SIGKILL) arrived while the range was
 * being done (checked every 2 MiB; what was done stays done).  fsync and
 * read(2) on a non-coherent mount stop the same way.
 */
#define FAMFS_CACHE_WRITEBACK	(1U << 0)	/* write dirty lines back */
#define FAMFS_CACHE_INVALIDATE	(1U << 1)	/* write back, then drop */

struct famfs_ioc_cache {
	__u64 offset;			/* file offset */
	__u64 length;			/* bytes, > 0 */
	__u32 flags;			/* FAMFS_CACHE_* */
	__u32 reserved;			/* 0 */
};
#define FAMFSIOC_CACHE		_IOW(FAMFSIOC_MAGIC, 7, struct famfs_ioc_cache)
#define FAMFS_IOC_CACHE_SIZE	24

/*
 * Version 3 (numbers 8..11): one mount over several memory devices (issue
 * 16).  Device 0 is the primary, the device mount(2) named (superblock and
 * log); devices 1..FAMFS_MAX_DEVS-1 are members that FAMFSIOC_DEV_ADD
 * attaches to the mounted file system.  A member stays attached until the
 * unmount, which releases every member.  Numbers 1..7 and their structures
 * are unchanged: they only ever name device 0, and MAP_GET, MAP_GETEXT and
 * MAP_GET_V2 fail with EOVERFLOW on a map that uses another device.
 *
 * A member is held like the primary: a pmem block device (fsdax) is opened
 * exclusively and its dax_device held (holder ops: memory failures and
 * removal reach the mount); a /dev/daxX.Y must be bound to famfs's dax-bus
 * driver and is claimed (a writable open of it is refused while attached).
 *
 * Failure policy (the same as the primary's, see fs/famfs/removal.c): a
 * memory failure in any device, or the removal of any device (namespace
 * disabled, devdax unbound), fails the WHOLE mount: every data access on
 * every file gets EIO or SIGBUS, whichever device the file is on, because a
 * file striped over devices, the log and the metadata cannot be told apart
 * from what they depend on.  Names and maps stay readable, and unmount
 * still works and releases every device (a removal waits for it).
 */
#ifndef FAMFS_MAX_DEVS
#define FAMFS_MAX_DEVS		16	/* devices per mount, primary included */
#endif

/*
 * FAMFSIOC_DEV_ADD: attach the device open at @fd as member @index, of
 * @size bytes (what the file system records; the device may be larger, the
 * rest stays unused).  Issued on any file or directory of the mount (the
 * mount root included); CAP_SYS_ADMIN.  Pass a /dev/daxX.Y opened
 * read-only: a writable open of it makes it busy.  Errors, in the order
 * they are checked (each but EPERM and EFAULT is one log line):
 *
 *   EPERM	caller lacks CAP_SYS_ADMIN
 *   EFAULT	the argument cannot be read
 *   EINVAL	flags or reserved fields are not 0
 *   EINVAL	index is 0 (the primary) or >= FAMFS_MAX_DEVS
 *   EINVAL	size is 0 or not a multiple of 2 MiB
 *   EBADF	fd is not an open file descriptor (O_PATH ones are not)
 *   ENOTBLK	fd is neither a block device nor a character device
 *   EIO	the mount has failed (memory failure, device removal)
 *   EEXIST	member index is attached already
 *   EALREADY	the device is this mount's primary, or attached already as
 *		another member
 *   EOPNOTSUPP	a block device without DAX (raw mode); a character device
 *		that is not a dax device bound to famfs
 *   EBUSY	the device is held elsewhere: another mount, an exclusive
 *		opener, another dax holder, or (devdax) a writable open
 *   EROFS	a read-only block device on a read-write mount
 *   EOPNOTSUPP	a block device whose memory has no struct pages (DAX
 *		without them cannot be mapped into processes; a pmem
 *		namespace in fsdax mode always has them), or is not one
 *		contiguous run of them (a device-mapper device over several
 *		namespaces or pieces of one: attach each as a member); the
 *		first size bytes are checked, or the whole device if it has
 *		fewer
 *   ENOSPC	the device is smaller than size
 */
struct famfs_ioc_dev_add {
	__s32 fd;			/* open /dev/pmemN or /dev/daxX.Y */
	__u32 index;			/* 1..FAMFS_MAX_DEVS-1 */
	__u64 size;			/* bytes, multiple of 2 MiB */
	__u32 flags;			/* 0 */
	__u32 reserved;			/* 0 */
	__u64 reserved2[3];		/* 0 */
};
#define FAMFSIOC_DEV_ADD	_IOW(FAMFSIOC_MAGIC, 8, struct famfs_ioc_dev_add)
#define FAMFS_IOC_DEV_ADD_SIZE	48

/*
 * Maps that name devices: FAMFSIOC_MAP_CREATE_V3 and FAMFSIOC_MAP_GET_V3
 * take the v2 header (struct famfs_ioc_map_v2, same fields, same rules),
 * but ext_list points to struct famfs_ioc_dext (simple) or struct
 * famfs_ioc_iext_v3 (interleaved) entries, whose extents and strips each
 * carry a device index.  MAP_GET_V3 works on every map (v1 and v2 maps show
 * device 0).  MAP_CREATE_V3 makes the checks of MAP_CREATE_V2, in the same
 * order, with two more that come first for each simple extent, and for each
 * strip of an interleaved extent (after that extent's own checks, before the
 * strip's):
 *
 *   EINVAL	reserved of the extent (strip) is not 0
 *   ENODEV	devindex >= FAMFS_MAX_DEVS or no device attached there
 *
 * so a check of extent (strip) i always comes before any check of extent
 * (strip) i + 1, and the checks of the whole map come last.  Every other
 * check is per device: the extent must lie inside its own device (ENXIO),
 * offset 0 of every device is reserved (for its superblock: EINVAL for any
 * file but FAMFS_SUPERBLOCK), and only extents on the same device can
 * overlap (EADDRINUSE): the same offset on two devices is not an overlap.
 * Unused strips ([nstrips..)) must be all 0, devindex and reserved included
 * (EINVAL, with the extent's first check).
 */
struct famfs_ioc_dext {
	__u64 offset;			/* bytes on device devindex */
	__u64 len;
	__u32 devindex;			/* 0 = primary, < FAMFS_MAX_DEVS */
	__u32 reserved;			/* 0 */
};

struct famfs_ioc_iext_v3 {
	__u32 nstrips;			/* 1..FAMFS_IOC_MAX_STRIPS */
	__u32 reserved;			/* 0 */
	__u64 chunk_size;		/* bytes, multiple of 2 MiB */
	__u64 nbytes;			/* file bytes this extent holds */
	struct famfs_ioc_dext strips[FAMFS_IOC_MAX_STRIPS]; /* [nstrips..) 0 */
};

#define FAMFSIOC_MAP_CREATE_V3	_IOW(FAMFSIOC_MAGIC, 9, struct famfs_ioc_map_v2)
#define FAMFSIOC_MAP_GET_V3	_IOWR(FAMFSIOC_MAGIC, 10, struct famfs_ioc_map_v2)
#define FAMFS_IOC_DEXT_SIZE	24
#define FAMFS_IOC_IEXT_V3_SIZE	408

/*
 * Small files in 4 KiB pages (format revision 3, INCOMPAT_SMALL_FILES):
 * MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES in the header's flags (one of the
 * two flags only MAP_CREATE_V3 takes, with FAMFS_IOC_MAP_INVALIDATE below;
 * MAP_CREATE_V2's flags stay 0) gives a file
 * smaller than FAMFS_IOC_SMALL_MAX bytes 1..FAMFS_IOC_MAX_PAGE_EXTENTS
 * simple extents ("page extents") whose offsets and lengths are multiples
 * of FAMFS_IOC_PAGE_SIZE, each inside one 2 MiB unit of its device, so that
 * several small files share a unit.  Two page extents may share a unit but
 * never a page; a unit that holds a page extent holds no extent or strip of
 * a map made without the flag (each of those keeps the whole 2 MiB units it
 * touches): EADDRINUSE either way.  Such a file is mapped with 4 KiB faults
 * only (a 2 MiB or 1 GiB fault falls back), its st_blocks count its pages,
 * and a memory failure in one of its pages reaches the mappers of this file
 * only, not those of the other files of the unit (the mount fails as for any
 * failure, see above).
 *
 * With the flag, MAP_CREATE_V3 checks, in this order (each but EPERM,
 * EFAULT (header) and EROFS one log line, as without it):
 *
 *   EPERM, EFAULT, EROFS, EEXIST, EBUSY, EIO	as without the flag
 *   EINVAL	flags has another bit (but FAMFS_IOC_MAP_INVALIDATE and
 *		FAMFS_IOC_MAP_IDENT); reserved[] is not 0 (reserved[0]
 *		aside with FAMFS_IOC_MAP_IDENT)
 *   EOPNOTSUPP	unknown extent_type or file_type; an interleaved file that
 *		is not FAMFS_REG (as without the flag)
 *   EOPNOTSUPP	the kernel's page size is not FAMFS_IOC_PAGE_SIZE
 *   EINVAL	an interleaved map; a file_type other than FAMFS_REG
 *   EINVAL	no extents
 *   E2BIG	more than FAMFS_IOC_MAX_PAGE_EXTENTS extents
 *   EFBIG	file_size is FAMFS_IOC_SMALL_MAX or more
 *   EFAULT	the list at ext_list cannot be read
 *   then each extent in order:
 *   EINVAL	reserved of the extent is not 0
 *   ENODEV	devindex >= FAMFS_MAX_DEVS or no device attached there
 *   EINVAL	length 0; offset or length not a multiple of 4 KiB
 *   EOVERFLOW	offset + length overflows 64 bits
 *   EINVAL	the extent crosses a 2 MiB boundary of the device
 *   ENXIO	the extent ends past the end of the device
 *   EINVAL	the extent lies in the first 2 MiB of the device (device
 *		offset 0's unit, its superblock's)
 *   then for the whole map:
 *   EFBIG	file_size is larger than the extents hold
 *   EADDRINUSE	a page of an extent is mapped to another file (or another
 *		extent of this map), or its 2 MiB unit holds an extent or
 *		strip of a map made without the flag
 *
 * MAP_GET_V3 of a page map sets FAMFS_IOC_MAP_PAGES in the header it
 * writes (on the way in the flags are 0 or FAMFS_IOC_MAP_IDENT, below:
 * EINVAL otherwise); MAP_GET,
 * MAP_GETEXT and MAP_GET_V2 fail with EOVERFLOW on a page map, whose
 * extents their callers would read by the 2 MiB rules.
 */
#define FAMFS_IOC_MAP_PAGES		(1U << 0)	/* famfs_ioc_map_v2.flags */
#define FAMFS_IOC_MAX_PAGE_EXTENTS	16
#define FAMFS_IOC_PAGE_SIZE		4096ULL
#define FAMFS_IOC_SMALL_MAX		(2ULL << 20)	/* file sizes below it */

/*
 * Memory that was another file's (issue 29: a deleted file's memory,
 * reclaimed and given to a new file): MAP_CREATE_V3 with
 * FAMFS_IOC_MAP_INVALIDATE in the header's flags (alone or with
 * FAMFS_IOC_MAP_PAGES) writes back and invalidates this host's CPU cache
 * lines of the map's memory -- every extent and strip, its length rounded
 * up to 4 KiB, as FAMFSIOC_CACHE with FAMFS_CACHE_INVALIDATE would -- once
 * that memory is claimed and before the map is published: no read(2),
 * fault or FAMFSIOC_CACHE of the file, by any process, sees the map before
 * those lines are gone, so none can load what this host cached of the
 * memory's former file.  On a coherent mount there is nothing to do (the
 * flag is accepted).  The flag is not part of the map: MAP_GET_V3 never
 * shows it.  It adds two errors after every check of the contract (the
 * file stays unmapped and its memory is given back):
 *
 *   EIO	the mount failed, or a page of the map is poisoned
 *   EINTR	a fatal signal (SIGKILL) arrived meanwhile (checked every
 *		2 MiB; a map may be a device's size)
 *
 * A famfs.ko without the flag refuses it (EINVAL: flags has an unknown
 * bit); its caller may make the map without it, then issue FAMFSIOC_CACHE,
 * which leaves a window between the two calls.
 */
#define FAMFS_IOC_MAP_INVALIDATE	(1U << 1)	/* famfs_ioc_map_v2.flags */

/*
 * A file's identity: MAP_CREATE_V3 with FAMFS_IOC_MAP_IDENT in the header's
 * flags (alone or with the others) gives the file's map the identity
 * reserved[0], any 64-bit value, 0 included; the famfs tool gives the log
 * index of the FILE entry that made the file.  The identity is part of the
 * map and as immutable.  MAP_GET_V3 reports it only to a caller that asks:
 * FAMFS_IOC_MAP_IDENT in the flags of the header it is given (reserved[]
 * 0; any other flag: EINVAL).  Then, of a file that has one, it sets
 * FAMFS_IOC_MAP_IDENT in the header it writes and the identity in its
 * reserved[0]; of a file made without one (MAP_CREATE, MAP_CREATE_V2,
 * MAP_CREATE_V3 without the flag) it writes neither.  A caller that does
 * not ask (flags 0) is never shown it, whatever the file: a caller that
 * knows only the flags before it may refuse a header with an unknown bit.
 * A famfs.ko without identities refuses the flag on MAP_GET_V3 too
 * (EINVAL): its caller asks again without it (none of its files has one).
 * MAP_GET, MAP_GETEXT and MAP_GET_V2 never show
 * it.  FAMFSIOC_UNLINK_MAP (below) compares it: two files of the same path
 * and the same map -- a file deleted, its memory reclaimed and given to a
 * new file at the same path -- are told apart by it.
 *
 * MAP_CREATE_V3's errors are those above: EINVAL if reserved[0] is not 0
 * without the flag, or reserved[1..3] are not 0 with it.  MAP_CREATE and
 * MAP_CREATE_V2 refuse the flag (EINVAL).  A famfs.ko without the flag
 * refuses it with EINVAL (flags has an unknown bit, reserved[0] not 0): its
 * caller makes the map without it, and the file has no identity.
 */
#define FAMFS_IOC_MAP_IDENT		(1U << 2)	/* famfs_ioc_map_v2.flags */

/*
 * FAMFSIOC_DEV_GET: what device @index of the mount is.  Set index (the
 * rest 0); the module fills in the rest.  Any file or directory of the
 * mount, no capability needed.  Errors, in this order: EFAULT; EINVAL a
 * field other than index is not 0, or index >= FAMFS_MAX_DEVS; ENXIO
 * nothing attached at index; EFAULT the answer cannot be written.
 */
#define FAMFS_DEV_DEVDAX	(1U << 0)	/* a /dev/daxX.Y, else pmem */
#define FAMFS_DEV_FAILED	(1U << 1)	/* the mount has failed */
#define FAMFS_DEV_CAUSE		(1U << 2)	/* this device's removal or
						 * memory failure failed it */

struct famfs_ioc_dev_info {
	__u32 index;			/* in: 0..FAMFS_MAX_DEVS-1 */
	__u32 flags;			/* out: FAMFS_DEV_* */
	__u64 size;			/* out: bytes the mount uses */
	__u32 major;			/* out: of the device node */
	__u32 minor;
	__u64 reserved[2];		/* 0 */
};
#define FAMFSIOC_DEV_GET	_IOWR(FAMFSIOC_MAGIC, 11, struct famfs_ioc_dev_info)
#define FAMFS_IOC_DEV_INFO_SIZE	40

/*
 * FAMFSIOC_NS: the namespace changes of the famfs tool (issue 29).  A mount
 * with the option "protect" (famfs mount, mount.famfs and -o follow set
 * it; plain mount(2) does not) refuses unlink, rmdir, rename, link,
 * symlink, mknod, mkdir, open(O_CREAT) of a new name, chmod and chown with
 * EPERM: the log is the namespace, and only the tool, which logs a change
 * before it makes it, may make one.  It makes them with this call, on any
 * famfs mount, protected or not.  CAP_SYS_ADMIN.
 *
 * Issued on a directory of the mount (@op other than SETATTR: @name is in
 * that directory) or, for SETATTR, on the file or directory to change.  A
 * name is one path component of 1..255 bytes (@name_len, no NUL needed):
 * no '/', no NUL, not "." or "..".  @mode has permission bits only
 * (07777).  Fields an op does not use must be 0.
 *
 *   CREATE   a regular file @name that did not exist, with the mode
 *	      open(2) would give it for @mode (the caller's umask, a
 *	      set-group-ID directory's rules; SETATTR sets it exactly);
 *	      returns a new O_RDWR | O_CLOEXEC descriptor of it.
 *	      @valid: FAMFS_NS_MODE.
 *   MKDIR    a directory @name, the mode as mkdir(2) gives it for @mode;
 *	      returns 0.  @valid: FAMFS_NS_MODE.
 *   UNLINK   the file (not a directory) @name; returns 0.
 *   RMDIR    the empty directory @name; returns 0.
 *   RENAME   @name to @new_name in the directory @new_dir_fd (a directory
 *	      of the same mount); @flags: 0 (replaces a file or an empty
 *	      directory there) or FAMFS_NS_NOREPLACE.
 *   SETATTR  @valid of FAMFS_NS_MODE (@mode), FAMFS_NS_UID (@uid),
 *	      FAMFS_NS_GID (@gid), in the caller's user namespace; no set-id
 *	      bit is cleared that @mode does not clear.
 *
 * Errors, in the order they are checked: EPERM no CAP_SYS_ADMIN; EFAULT
 * the argument; EINVAL a bad op, flag, valid bit or mode bit, a field the
 * op does not use not 0, a reserved field not 0; ENOTDIR a name op not
 * issued on a directory; EINVAL a bad name (its length, then its bytes),
 * EFAULT an unreadable one; for RENAME, EBADF @new_dir_fd, EXDEV it is on
 * another mount, ENOTDIR it is no directory; EROFS a read-only mount;
 * EINTR a fatal signal while waiting for another of these calls on the
 * mount (they run one at a time); EINVAL a uid or gid with no mapping;
 * and what the system call would return (EEXIST, ENOENT, ENOTEMPTY,
 * EISDIR, ENOTDIR, EINVAL a directory into itself, ...).
 */
#define FAMFS_NS_CREATE		1
#define FAMFS_NS_MKDIR		2
#define FAMFS_NS_UNLINK		3
#define FAMFS_NS_RMDIR		4
#define FAMFS_NS_RENAME		5
#define FAMFS_NS_SETATTR	6

#define FAMFS_NS_NOREPLACE	(1U << 0)	/* famfs_ioc_ns.flags, RENAME */

#define FAMFS_NS_MODE		(1U << 0)	/* famfs_ioc_ns.valid */
#define FAMFS_NS_UID		(1U << 1)
#define FAMFS_NS_GID		(1U << 2)

#define FAMFS_NS_NAME_MAX	255

struct famfs_ioc_ns {
	__u32 op;			/* FAMFS_NS_* */
	__u32 flags;			/* RENAME: FAMFS_NS_NOREPLACE or 0 */
	__u64 name;			/* user pointer: the name */
	__u64 new_name;			/* RENAME: user pointer, the new name */
	__u32 name_len;
	__u32 new_name_len;		/* RENAME */
	__s32 new_dir_fd;		/* RENAME: directory of new_name */
	__u32 valid;			/* FAMFS_NS_MODE | _UID | _GID */
	__u32 mode;
	__u32 uid;
	__u32 gid;
	__u32 reserved0;		/* 0 */
	__u64 reserved[2];		/* 0 */
};
#define FAMFSIOC_NS		_IOW(FAMFSIOC_MAGIC, 12, struct famfs_ioc_ns)
#define FAMFS_IOC_NS_SIZE	72

/*
 * FAMFSIOC_HELD: is memory of this mount still referenced on this host?
 * For the replayer of a host (docs/lifecycle.md, "Reclaim across hosts"):
 * the memory of a deleted file may be reclaimed for another file only once
 * no host references it any more, and only famfs.ko knows whether this
 * host still does.  The caller names @count byte ranges of the mount's
 * devices (a deleted file's extents, as its log entry had them); for each,
 * the module answers how many of its bytes are still held here, and by
 * what:
 *
 *   FAMFS_HELD_LIVE	an inode of this mount still has a map there: the
 *			file has not been removed on this host, or it has
 *			been unlinked but is still open or mapped
 *   FAMFS_HELD_ZOMBIE	an evicted file's memory kept reserved because some
 *			of its pages are still referenced (a pipe that a
 *			page was vmsplice'd into, O_DIRECT in flight, any
 *			other get_user_pages() pin): fs/famfs/pins.c
 *
 * A byte is held if it lies in an extent (or strip) of such a map; an
 * extent's bytes are its length rounded up to 4 KiB.  A zombie keeps each
 * extent with a referenced page whole, and gives back the others at once.
 * @held 0 and @flags 0: nothing of this host uses the range any more.  The
 * answer is a snapshot: a file created or evicted right after the call
 * changes it (a deleted file's memory only ever goes from held to not).
 *
 * Issued on any file or directory of the mount (the mount root included);
 * CAP_SYS_ADMIN.  Errors, in the order they are checked (each but EPERM and
 * EFAULT is one log line):
 *
 *   EPERM	caller lacks CAP_SYS_ADMIN
 *   EFAULT	the header cannot be read
 *   EINVAL	flags is not 0
 *   E2BIG	count > FAMFS_HELD_MAX (count 0: nothing to do, 0)
 *   EFAULT	the ranges cannot be read
 *   then each range in order:
 *   EINVAL	flags is not 0 (an output: clear it before each call)
 *   EINVAL	dev >= FAMFS_MAX_DEVS or no device attached there
 *   EINVAL	len is 0; offset or len is not a multiple of 4 KiB
 *   EINVAL	offset + len overflows 64 bits
 *   and EFAULT if the answers cannot be written (the ranges are written
 *   back whole, their inputs unchanged, held and flags filled in; a refused
 *   call writes nothing).
 *
 * A range past the end of its device is not refused: no file has memory
 * there.  After a device was removed or a memory failure failed the mount
 * (see above) the answers stand: the maps and the zombies are kept until
 * the unmount.
 */
#define FAMFS_HELD_MAX		1024	/* ranges per call */

#define FAMFS_HELD_ZOMBIE	(1U << 0)	/* famfs_ioc_held_range.flags */
#define FAMFS_HELD_LIVE		(1U << 1)

struct famfs_ioc_held_range {
	__u32 dev;			/* in: device index of the mount */
	__u32 flags;			/* in: 0; out: FAMFS_HELD_* */
	__u64 offset;			/* in: device offset, 4 KiB aligned */
	__u64 len;			/* in: bytes, multiple of 4 KiB */
	__u64 held;			/* out: bytes still referenced */
};

struct famfs_ioc_held {
	__u32 count;			/* ranges at @ranges */
	__u32 flags;			/* 0 */
	__u64 ranges;			/* user pointer: the ranges */
};
#define FAMFSIOC_HELD		_IOWR(FAMFSIOC_MAGIC, 13, struct famfs_ioc_held)
#define FAMFS_IOC_HELD_SIZE	16
#define FAMFS_IOC_HELD_RANGE_SIZE	32

/*
 * FAMFSIOC_UNLINK_MAP: remove the file @name of the directory the call is
 * issued on, only if it is the file the caller means: a regular famfs file
 * whose published map is @map.  For the replay of a DELETE log entry (the
 * file is known by the map its FILE entry gave it): one call instead of an
 * open of the file, fstat, MAP_GET_V3, close and FAMFSIOC_NS UNLINK.  The
 * name is looked up, the map compared and the name unlinked under the
 * directory's lock (i_rwsem), so no other file can take the name between
 * the comparison and the unlink.  CAP_SYS_ADMIN; on any famfs mount,
 * protected or not, as FAMFSIOC_NS (and serialized with it).  Returns 0.
 *
 * @map is a header as MAP_GET_V3 writes it when asked for the identity
 * (FAMFS_IOC_MAP_IDENT in its flags on the way in): extent_type
 * (SIMPLE_DAX_EXTENT or FAMFS_INTERLEAVED_EXTENT), file_type, file_size,
 * ext_count entries at ext_list (struct famfs_ioc_dext, simple; struct
 * famfs_ioc_iext_v3, interleaved), flags FAMFS_IOC_MAP_PAGES for a small
 * file's page map (else 0) and FAMFS_IOC_MAP_IDENT with the identity in
 * reserved[0] for the file the caller means (else reserved[0] 0),
 * reserved[1..3] 0.  The entries as MAP_GET_V3 writes them: reserved fields
 * 0, strips [nstrips..) of an interleaved extent all 0.  The map matches if
 * each of those fields equals what MAP_GET_V3 would report of the file,
 * with one exception: a file made without an identity is compared by its
 * map alone, whether @map has FAMFS_IOC_MAP_IDENT or not (so the caller
 * that names an identity still removes a file an older tool or famfs.ko
 * made).  A file that has an identity matches only a @map with
 * FAMFS_IOC_MAP_IDENT and that identity: a later file made at the same
 * path on the same memory (the same map) is not the one a DELETE of the
 * earlier file means, and stays (ESTALE).
 *
 * Errors, in the order they are checked (each EINVAL and E2BIG is one
 * rate-limited log line; nothing else is logged):
 *
 *   EPERM	caller lacks CAP_SYS_ADMIN
 *   EFAULT	the argument cannot be read
 *   EINVAL	flags or reserved[] not 0; map.flags has a bit other than
 *		FAMFS_IOC_MAP_PAGES and FAMFS_IOC_MAP_IDENT; map.reserved[0]
 *		not 0 without FAMFS_IOC_MAP_IDENT; map.reserved[1..3] not 0
 *   EINVAL	map.extent_type is neither SIMPLE_DAX_EXTENT nor
 *		FAMFS_INTERLEAVED_EXTENT; map.ext_count is 0
 *   E2BIG	map.ext_count > FAMFS_IOC_MAX_EXTENTS_V2 (simple) or
 *		FAMFS_IOC_MAX_IEXTENTS (interleaved)
 *   ENOTDIR	not issued on a directory
 *   EINVAL	name_len 0 or > FAMFS_NS_NAME_MAX
 *   EFAULT	the name cannot be read
 *   EINVAL	a bad name: '/' or NUL in it, "." or ".."
 *   EFAULT	the list at map.ext_list cannot be read
 *   then each entry in order:
 *   EINVAL	simple: reserved not 0; devindex >= FAMFS_MAX_DEVS
 *   EINVAL	interleaved: reserved not 0; nstrips 0 or more than
 *		FAMFS_IOC_MAX_STRIPS; a strip [0..nstrips) with reserved not
 *		0 or devindex >= FAMFS_MAX_DEVS; a strip [nstrips..) not all 0
 *   then:
 *   EROFS	read-only mount
 *   EINTR	a fatal signal while waiting for another FAMFSIOC_NS or
 *		FAMFSIOC_UNLINK_MAP of the mount (they run one at a time)
 *   and under the directory's lock:
 *   ENOENT	no such name
 *   EISDIR	it is a directory
 *   ESTALE	it is not a regular file, it has no map, its map differs
 *		from @map in any of the fields above, or it has an identity
 *		and @map names none or another: nothing is removed
 *   and what unlink(2) would return (EBUSY a mount point, ...).
 *
 * A famfs.ko without the call answers ENOTTY: its caller opens the file,
 * compares its map (MAP_GET_V3) and removes it with FAMFSIOC_NS.  A
 * famfs.ko without identities refuses FAMFS_IOC_MAP_IDENT with EINVAL;
 * none of its files has one, and the caller calls again without it.
 */
struct famfs_ioc_unlink_map {
	__u64 name;			/* user pointer: the name */
	__u32 name_len;			/* 1..FAMFS_NS_NAME_MAX */
	__u32 flags;			/* 0 */
	__u64 reserved[2];		/* 0 */
	struct famfs_ioc_map_v2 map;	/* the map the file has */
};

#define FAMFSIOC_UNLINK_MAP	_IOW(FAMFSIOC_MAGIC, 14, \
				     struct famfs_ioc_unlink_map)
#define FAMFS_IOC_UNLINK_MAP_SIZE	96

#endif /* _UAPI_LINUX_FAMFS_IOCTL_H */
