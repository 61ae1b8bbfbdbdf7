/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * famfs - the arithmetic of interleaved extents (seed 003)
 *
 * Pure functions of the extent's geometry, shared by famfs.ko (fault and
 * read/write paths), the tools (allocation, fsck, verify) and the host unit
 * tests, so that the code the tests check is the code the module runs.  No
 * loops: resolving an offset is O(1).
 *
 * Callers guarantee chunk_size > 0 and nstrips > 0 (MAP_CREATE_V2 and the
 * log reader validate them before anything else uses them).
 */
#ifndef _UAPI_LINUX_FAMFS_INTERLEAVE_H
#define _UAPI_LINUX_FAMFS_INTERLEAVE_H

#include <linux/types.h>

#ifdef __KERNEL__
#include <linux/math64.h>
#define famfs_div64(a, b)	div64_u64((a), (b))
#else
#define famfs_div64(a, b)	((a) / (b))
#endif

/* Where one byte of an interleaved extent lives. */
struct famfs_ipos {
	__u32 strip;			/* index of the strip */
	__u32 pad;
	__u64 strip_off;		/* byte offset in that strip */
	__u64 chunk_left;		/* bytes from there to the chunk's end */
};

/*
 * famfs_interleave_pos() - resolve an offset in an interleaved extent
 * @off: byte offset from the start of the extent
 *
 * E.g. 4 strips of 2 MiB chunks: offset 0 is strip 0 offset 0, 4 MiB is
 * strip 2 offset 0, 15 MiB (chunk 7) is strip 3 offset 3 MiB.
 */
static inline struct famfs_ipos
famfs_interleave_pos(__u64 off, __u64 chunk_size, __u32 nstrips)
{
	__u64 chunk = famfs_div64(off, chunk_size);
	__u64 in_chunk = off - chunk * chunk_size;
	__u64 stripe = famfs_div64(chunk, nstrips);
	struct famfs_ipos pos = {
		.strip = (__u32)(chunk - stripe * nstrips),
		.strip_off = stripe * chunk_size + in_chunk,
		.chunk_left = chunk_size - in_chunk,
	};

	return pos;
}

/*
 * famfs_interleave_strip_chunks() - chunks of strip @strip that an extent of
 * @nbytes uses (its last chunk may be partly used; it still counts whole).
 * The strip must be at least that many chunks long.
 */
static inline __u64 famfs_interleave_strip_chunks(__u64 nbytes,
						  __u64 chunk_size,
						  __u32 nstrips, __u32 strip)
{
	__u64 nchunks, full;

	if (!nbytes)
		return 0;
	nchunks = famfs_div64(nbytes - 1, chunk_size) + 1;
	full = famfs_div64(nchunks, nstrips);
	return full + (strip < nchunks - full * nstrips ? 1 : 0);
}

/*
 * famfs_interleave_strip_off() - the byte of the extent that a byte of a
 * strip holds: the inverse of famfs_interleave_pos()
 * @strip_off: byte offset in strip @strip
 * @nbytes: the extent's size
 * @run: returns how many bytes from @strip_off on hold consecutive bytes of
 *	 the extent (to the end of the chunk, or of the extent); 0 if the byte
 *	 holds none: it lies past the strip's last chunk, or in the unused end
 *	 of the extent's last chunk, and so does every later byte of the strip
 *
 * E.g. 2 strips of 2 MiB chunks, nbytes 3 MiB: strip 1 offset 512 KiB is
 * extent offset 2.5 MiB (run 512 KiB); strip 1 offset 1 MiB and strip 0
 * offset 2 MiB hold nothing.  nbytes + chunk_size must fit in 64 bits.
 *
 * Return: the offset from the start of the extent, or @nbytes if *@run is 0.
 */
static inline __u64 famfs_interleave_strip_off(__u64 strip_off,
					       __u64 chunk_size,
					       __u32 nstrips, __u32 strip,
					       __u64 nbytes, __u64 *run)
{
	__u64 stripe = famfs_div64(strip_off, chunk_size);
	__u64 in_chunk = strip_off - stripe * chunk_size;
	__u64 off, left;

	*run = 0;
	/* past the chunks the strip holds: no multiplication can overflow */
	if (stripe >= famfs_interleave_strip_chunks(nbytes, chunk_size,
						    nstrips, strip))
		return nbytes;
	off = (stripe * nstrips + strip) * chunk_size + in_chunk;
	if (off >= nbytes)
		return nbytes;
	left = nbytes - off;
	*run = chunk_size - in_chunk < left ? chunk_size - in_chunk : left;
	return off;
}

#endif /* _UAPI_LINUX_FAMFS_INTERLEAVE_H */
