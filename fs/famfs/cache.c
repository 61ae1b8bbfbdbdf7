// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - CPU cache maintenance for memory that is not cache-coherent
 * between hosts (mount option "noncoherent", see README.md)
 *
 * Another host's stores do not invalidate this CPU's cache lines, and this
 * CPU's dirty lines are invisible to other hosts until written back.  On a
 * non-coherent mount famfs therefore
 *   - invalidates the lines a read(2) is about to copy, so the copy reads
 *     the memory and not what this CPU cached before;
 *   - writes back the lines a write(2) stored (the copy already bypasses
 *     the cache; the write-back makes that a property of the mount, not of
 *     the backing's copy routine);
 *   - on fsync/fdatasync/msync(MS_SYNC), after the dirty DAX pages are
 *     written back, writes back and invalidates the range, so the next
 *     loads through a mapping read the memory;
 *   - does what FAMFSIOC_CACHE asks, for applications that manage their own
 *     mappings;
 *   - drops the lines of a new map's memory before the map is published,
 *     when MAP_CREATE_V3 asks (FAMFS_IOC_MAP_INVALIDATE: memory that was
 *     another file's, which this host may have cached).
 * A coherent mount (the default) does none of it, at the cost of one flag
 * test per call.
 *
 * "Invalidate" is always write back and invalidate: dropping a dirty line
 * without writing it back would lose this host's stores (an unprivileged
 * reader's read(2) or FAMFSIOC_CACHE must never do that to a writer).
 *
 * Layer "cache" (scripts/layers.conf), just above "map": owns FAMFSIOC_CACHE
 * and the cache maintenance of the data path; calls map.c.  Below pud.c,
 * whose writeback of a dirty GiB writes back its caches here; ioctl.c and
 * file.c call it from above.
 */

#include <linux/dax.h>
#include <linux/fs.h>
#include <linux/libnvdimm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include "famfs.h"
#include "trace.h"

/*
 * Bytes [dev_off, dev_off + len) of @b, at most one extent's worth, done
 * @done.  A whole file can be a device's size: SIGKILL stops it between two
 * chunks (-EINTR; what was done stays done, nothing is undone).
 */
static int famfs_cache_dev(const struct famfs_backing *b, u64 dev_off,
			   u64 len, unsigned int op, u64 *done)
{
	u64 daddr = famfs_backing_daddr(b, dev_off);
	int id, rc = 0;

	while (len) {
		u64 in_page = daddr & ~PAGE_MASK, n;
		/* at most 2 MiB per srcu section: kill_dax() waits for it */
		long nr = min_t(u64, DIV_ROUND_UP(in_page + len, PAGE_SIZE),
				SZ_2M >> PAGE_SHIFT);
		void *kaddr;
		long avail;

		if (fatal_signal_pending(current)) {
			rc = -EINTR;
			break;
		}
		id = dax_read_lock();
		avail = dax_direct_access(b->dax_dev,
					  daddr >> PAGE_SHIFT, nr, DAX_ACCESS,
					  &kaddr, NULL);
		if (avail <= 0) {
			/* poisoned, or the device is going away (-ENXIO) */
			dax_read_unlock(id);
			rc = -EIO;
			break;
		}
		n = min_t(u64, len, ((u64)avail << PAGE_SHIFT) - in_page);
		/*
		 * x86's arch_invalidate_pmem() is clflush(opt): write back and
		 * invalidate.  Elsewhere (arm64: dc ivac) it may drop a dirty
		 * line, i.e. this host's stores: write back first there.
		 */
		if (op != FAMFS_CACHE_INVALIDATE || !IS_ENABLED(CONFIG_X86))
			arch_wb_cache_pmem(kaddr + in_page, n);
		if (op == FAMFS_CACHE_INVALIDATE)
			arch_invalidate_pmem(kaddr + in_page, n);
		dax_read_unlock(id);
		daddr += n;
		len -= n;
		*done += n;
		cond_resched();
	}
	return rc;
}

/**
 * famfs_cache_range - cache maintenance over bytes of a mapped file
 * @inode: the file; its map must be set and must not change meanwhile
 * @why:   for the tracepoint: "read", "write", "fsync" or "ioctl"; NULL:
 *         not traced (a coherent mount's fsync of a small range, which is
 *         the DAX write-back, not cache maintenance between hosts)
 * @op:    FAMFS_CACHE_WRITEBACK or FAMFS_CACHE_INVALIDATE
 * @pos:   file offset
 * @len:   bytes; the range is cut at the end of the map
 *
 * Returns 0, -EIO when the mount has failed or a page is poisoned, or -EINTR
 * when a fatal signal stopped it (checked every 2 MiB: a whole file on a
 * large device takes long, and a killed process must not wait for it).
 */
int famfs_cache_range(struct inode *inode, const char *why, unsigned int op,
		      u64 pos, u64 len)
{
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	const struct famfs_fmap *fmap = famfs_inode_fmap(inode);
	u64 end, done = 0;
	int rc = 0;

	if (WARN_ON_ONCE(!fmap))
		return -EIO;
	end = min_t(u64, i_size_read(inode), pos + min(len, U64_MAX - pos));
	while (pos + done < end) {
		u64 dev_off, n;
		u32 dev;

		if (famfs_sb_failed(fsi)) {
			rc = -EIO;
			break;
		}
		if (famfs_fmap_resolve(fmap, pos + done, &dev, &dev_off, &n)) {
			rc = -EIO;
			break;
		}
		n = min(n, end - pos - done);
		rc = famfs_cache_dev(famfs_dev(fsi, dev), dev_off, n, op,
				     &done);
		if (rc)
			break;
	}
	if (op == FAMFS_CACHE_WRITEBACK && done) {
		/*
		 * clwb is not ordered with later stores (arch_invalidate_pmem()
		 * fences, arch_wb_cache_pmem() does not): without this, the
		 * caller's next store ("the data is ready") could reach the
		 * memory before the lines written back here.
		 */
		wmb();
	}
	if (done && why)
		trace_famfs_cache(inode, why, op, pos, done);
	return rc;
}

/**
 * famfs_cache_fmap - drop this host's cache lines of a new map's memory
 * @inode: the file being mapped (for the tracepoint)
 * @fmap:  its map, inserted (the memory claimed) and not yet published
 *
 * MAP_CREATE_V3 with FAMFS_IOC_MAP_INVALIDATE (ioctl.c): every extent and
 * strip, its length rounded up to a page (where famfs_fmap_resolve() lets
 * a fault reach), written back and invalidated as FAMFSIOC_CACHE does it.
 * Nothing to do on a coherent mount.
 *
 * Return: 0, -EIO (the mount failed, a page is poisoned) or -EINTR (a
 * fatal signal, checked every 2 MiB).
 */
int famfs_cache_fmap(struct inode *inode, const struct famfs_fmap *fmap)
{
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	u64 done = 0;
	int rc = 0;
	u32 i;

	if (!famfs_noncoherent(fsi))
		return 0;
	for (i = 0; !rc && i < fmap->nr_extents; i++) {
		const struct famfs_kext *ext = &fmap->ext[i];

		if (famfs_sb_failed(fsi))
			rc = -EIO;
		else
			rc = famfs_cache_dev(famfs_dev(fsi, ext->dev),
					     ext->dev_off,
					     round_up(ext->len, PAGE_SIZE),
					     FAMFS_CACHE_INVALIDATE, &done);
	}
	if (done)
		trace_famfs_cache(inode, "map", FAMFS_CACHE_INVALIDATE, 0, done);
	return rc;
}

/* FAMFSIOC_CACHE; the contract is in <linux/famfs_ioctl.h>. */
int famfs_ioc_cache(struct file *file, struct famfs_ioc_cache __user *uarg)
{
	struct inode *inode = file_inode(file);
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	struct famfs_ioc_cache arg;
	const char *why = NULL;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (!arg.flags ||
	    arg.flags & ~(FAMFS_CACHE_WRITEBACK | FAMFS_CACHE_INVALIDATE))
		why = "flags";
	else if (arg.reserved)
		why = "reserved";
	else if (!famfs_inode_fmap(inode))
		return -ENODEV;
	else if (!arg.length || arg.offset + arg.length < arg.offset ||
		 arg.offset + arg.length > (u64)i_size_read(inode))
		why = "range";
	if (why) {
		famfs_err(inode->i_sb, "ino %lu: FAMFSIOC_CACHE: bad %s",
			  inode->i_ino, why);
		return -EINVAL;
	}
	if (famfs_sb_failed(fsi))
		return -EIO;
	if (!famfs_noncoherent(fsi))
		return 0;
	return famfs_cache_range(inode, "ioctl",
				 arg.flags & FAMFS_CACHE_INVALIDATE ?
				 FAMFS_CACHE_INVALIDATE : FAMFS_CACHE_WRITEBACK,
				 arg.offset, arg.length);
}
