/* SPDX-License-Identifier: GPL-2.0 */
/*
 * famfs tracepoints (events/famfs in tracefs).  Faults themselves are
 * traced by the fs_dax events; these show what famfs decided.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM famfs

#if !defined(_FS_FAMFS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FS_FAMFS_TRACE_H

#include <linux/iomap.h>
#include <linux/tracepoint.h>
#include "famfs.h"

#ifndef FAMFS_TRACE_HELPERS
#define FAMFS_TRACE_HELPERS
/* The first extent (or strip) of a map request, if it has been read. */
static inline struct famfs_extent
famfs_trace_first(const struct famfs_map_req *req)
{
	struct famfs_extent none = { 0, 0 };

	if (!req->count)
		return none;
	if (req->extent_type == FAMFS_INTERLEAVED_EXTENT)
		return req->iext ? req->iext[0].strips[0] : none;
	return req->ext ? req->ext[0] : none;
}
#endif

/* MAP_CREATE and MAP_CREATE_V2; off0/len0: the first extent or strip. */
TRACE_EVENT(famfs_map_create,
	    TP_PROTO(struct inode *inode, const struct famfs_map_req *req,
		     int rc),
	    TP_ARGS(inode, req, rc),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(ino_t, ino)
			     __field(u32, extent_type)
			     __field(u32, file_type)
			     __field(u64, file_size)
			     __field(u64, count)
			     __field(u64, off0)
			     __field(u64, len0)
			     __field(int, rc)),
	    TP_fast_assign(struct famfs_extent first = famfs_trace_first(req);

			   __entry->dev = inode->i_sb->s_dev;
			   __entry->ino = inode->i_ino;
			   __entry->extent_type = req->extent_type;
			   __entry->file_type = req->file_type;
			   __entry->file_size = req->file_size;
			   __entry->count = req->count;
			   __entry->off0 = first.offset;
			   __entry->len0 = first.len;
			   __entry->rc = rc;),
	    TP_printk("dev %d:%d ino %#lx type %u extent_type %u size %llu extents %llu first %#llx+%#llx rc %d",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      (unsigned long)__entry->ino, __entry->file_type,
		      __entry->extent_type, __entry->file_size,
		      __entry->count, __entry->off0, __entry->len0,
		      __entry->rc)
);

TRACE_EVENT(famfs_iomap_begin,
	    TP_PROTO(struct inode *inode, loff_t pos, loff_t len,
		     unsigned int flags, const struct iomap *iomap),
	    TP_ARGS(inode, pos, len, flags, iomap),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(ino_t, ino)
			     __field(loff_t, pos)
			     __field(loff_t, len)
			     __field(unsigned int, flags)
			     __field(u64, addr)
			     __field(u64, length)
			     __field(u16, type)),
	    TP_fast_assign(__entry->dev = inode->i_sb->s_dev;
			   __entry->ino = inode->i_ino;
			   __entry->pos = pos;
			   __entry->len = len;
			   __entry->flags = flags;
			   __entry->addr = iomap->addr;
			   __entry->length = iomap->length;
			   __entry->type = iomap->type;),
	    TP_printk("dev %d:%d ino %#lx pos %#llx len %#llx flags %#x -> type %u addr %#llx length %#llx",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      (unsigned long)__entry->ino, __entry->pos, __entry->len,
		      __entry->flags, __entry->type, __entry->addr,
		      __entry->length)
);

/*
 * famfs_cache: CPU cache maintenance a non-coherent mount did (cache.c):
 * @why is what asked for it, @op FAMFS_CACHE_WRITEBACK or _INVALIDATE;
 * @len bytes of the file from @pos.  Guest suites sum @len per @why/@op.
 */
TRACE_EVENT(famfs_cache,
	    TP_PROTO(struct inode *inode, const char *why, unsigned int op,
		     u64 pos, u64 len),
	    TP_ARGS(inode, why, op, pos, len),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(ino_t, ino)
			     __string(why, why)
			     __field(unsigned int, op)
			     __field(u64, pos)
			     __field(u64, len)),
	    TP_fast_assign(__entry->dev = inode->i_sb->s_dev;
			   __entry->ino = inode->i_ino;
			   __assign_str(why, why);
			   __entry->op = op;
			   __entry->pos = pos;
			   __entry->len = len;),
	    TP_printk("dev %d:%d ino %#lx %s %s pos %#llx len %llu",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      (unsigned long)__entry->ino, __get_str(why),
		      __entry->op == FAMFS_CACHE_INVALIDATE ? "invalidate" :
		      "writeback", __entry->pos, __entry->len)
);

/* fsync or msync of a small range, written back line by line (file.c) */
TRACE_EVENT(famfs_fsync_lines,
	    TP_PROTO(struct inode *inode, u64 pos, u64 len),
	    TP_ARGS(inode, pos, len),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(ino_t, ino)
			     __field(u64, pos)
			     __field(u64, len)),
	    TP_fast_assign(__entry->dev = inode->i_sb->s_dev;
			   __entry->ino = inode->i_ino;
			   __entry->pos = pos;
			   __entry->len = len;),
	    TP_printk("dev %d:%d ino %#lx pos %#llx len %llu",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      (unsigned long)__entry->ino, __entry->pos, __entry->len)
);

/*
 * A PUD-size fault (pud.c): NOPAGE (one 1 GiB mapping), FALLBACK (the PMD
 * path runs next; @why says what ruled the GiB out) or SIGBUS.  Guest
 * suites count them beside fs_dax:dax_pmd_fault_done.
 */
TRACE_EVENT(famfs_pud_fault,
	    TP_PROTO(struct inode *inode, unsigned long address, u64 pos,
		     bool write, const char *result, const char *why),
	    TP_ARGS(inode, address, pos, write, result, why),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(ino_t, ino)
			     __field(unsigned long, address)
			     __field(u64, pos)
			     __field(bool, write)
			     __string(result, result)
			     __string(why, why ?: "")),
	    TP_fast_assign(__entry->dev = inode->i_sb->s_dev;
			   __entry->ino = inode->i_ino;
			   __entry->address = address;
			   __entry->pos = pos;
			   __entry->write = write;
			   __assign_str(result, result);
			   __assign_str(why, why ?: "");),
	    TP_printk("dev %d:%d ino %#lx address %#lx pos %#llx %s %s %s",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      (unsigned long)__entry->ino, __entry->address,
		      __entry->pos, __entry->write ? "write" : "read",
		      __get_str(result), __get_str(why))
);

/* A dirty GiB of a PUD mapping written back (pud.c); @flushed: caches too */
TRACE_EVENT(famfs_pud_writeback,
	    TP_PROTO(struct inode *inode, u64 pos, bool flushed, int rc),
	    TP_ARGS(inode, pos, flushed, rc),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(ino_t, ino)
			     __field(u64, pos)
			     __field(bool, flushed)
			     __field(int, rc)),
	    TP_fast_assign(__entry->dev = inode->i_sb->s_dev;
			   __entry->ino = inode->i_ino;
			   __entry->pos = pos;
			   __entry->flushed = flushed;
			   __entry->rc = rc;),
	    TP_printk("dev %d:%d ino %#lx pos %#llx flushed %d rc %d",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      (unsigned long)__entry->ino, __entry->pos,
		      __entry->flushed, __entry->rc)
);

TRACE_EVENT(famfs_notify_failure,
	    TP_PROTO(struct super_block *sb, u64 off, u64 len, int mf_flags),
	    TP_ARGS(sb, off, len, mf_flags),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(u64, off)
			     __field(u64, len)
			     __field(int, mf_flags)),
	    TP_fast_assign(__entry->dev = sb ? sb->s_dev : 0;
			   __entry->off = off;
			   __entry->len = len;
			   __entry->mf_flags = mf_flags;),
	    TP_printk("dev %d:%d dax bytes %#llx+%#llx mf_flags %#x",
		      MAJOR(__entry->dev), MINOR(__entry->dev), __entry->off,
		      __entry->len, __entry->mf_flags)
);

#endif /* _FS_FAMFS_TRACE_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
