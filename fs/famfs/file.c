// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - the data path: iomap, read/write, mmap and faults, fsync
 *
 * A mapped file's size is fixed by its map: reads past EOF return 0, a write
 * is cut short at EOF and a write that starts at or past EOF fails with
 * ENOSPC (as on a block device), so a write never extends a file.  A file
 * without a map yet reads as empty, refuses writes the same way, and refuses
 * mmap with ENODEV: there is no memory behind it.  fallocate is not
 * implemented (EOPNOTSUPP from the VFS); size changes are refused in
 * famfs_setattr().
 *
 * Maps never change while a file is open, so neither faults nor read/write
 * need more than the usual i_rwsem around dax_iomap_rw().
 *
 * Opens of a file without a map are counted, so that MAP_CREATE can give
 * memory only to a file nobody else holds open (ioctl.c); fsync and msync
 * write the CPU caches back and then flush the device (pmem).
 *
 * Layer "file" (scripts/layers.conf): owns the file and address space
 * operations; calls ioctl.c, cache.c, pud.c (1 GiB faults, their
 * writeback, mmap's placement, mprotect), map.c and backing.c (device
 * flushes).
 */

#include <linux/dax.h>
#include <linux/fs.h>
#include <linux/huge_mm.h>
#include <linux/iomap.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/uio.h>
#include <linux/writeback.h>
#include "famfs.h"
#include "trace.h"

static int famfs_iomap_begin(struct inode *inode, loff_t offset, loff_t length,
			     unsigned int flags, struct iomap *iomap,
			     struct iomap *srcmap)
{
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	struct famfs_fmap *fmap = famfs_inode_fmap(inode);
	struct famfs_backing *b;
	u64 dev_off, len;
	u32 dev;

	if (flags & IOMAP_FAULT) {
		/*
		 * A fault has locked its DAX entry by now.  Either it sees
		 * the mount failed, or famfs_backing_gone() (which sets the
		 * flag, then smp_mb__after_atomic()) sees the entry and waits
		 * for the fault to finish.
		 */
		smp_mb();
	}
	if (famfs_sb_failed(fsi))
		return -EIO;
	/* Only mapped files get here: read/write/mmap check first. */
	if (WARN_ON_ONCE(!fmap))
		return -EIO;

	iomap->offset = offset;
	iomap->dax_dev = fsi->backing.dax_dev;
	iomap->bdev = fsi->backing.bdev;
	iomap->flags = 0;

	if (famfs_fmap_resolve(fmap, offset, &dev, &dev_off, &len)) {
		/*
		 * Past the end of the map, so past EOF: only a read that
		 * straddles EOF asks, and dax stops it at i_size.  Writes are
		 * cut at EOF and faults past EOF never get here.
		 */
		if (WARN_ON_ONCE(flags & (IOMAP_WRITE | IOMAP_FAULT)))
			return -EIO;
		iomap->type = IOMAP_HOLE;
		iomap->addr = IOMAP_NULL_ADDR;
		iomap->length = length;
	} else {
		/* Its map names only attached devices (famfs_dev()). */
		b = famfs_dev(fsi, dev);
		iomap->type = IOMAP_MAPPED;
		iomap->dax_dev = b->dax_dev;
		iomap->bdev = b->bdev;
		iomap->addr = famfs_backing_daddr(b, dev_off);
		iomap->length = min_t(u64, length, len);
	}
	trace_famfs_iomap_begin(inode, offset, length, flags, iomap);
	return 0;
}

const struct iomap_ops famfs_iomap_ops = {
	.iomap_begin	= famfs_iomap_begin,
};

static ssize_t famfs_dax_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	int rc;

	if (famfs_sb_failed(fsi))
		return -EIO;
	/* Not coherent: the copy must read the memory, not this CPU's cache. */
	if (famfs_noncoherent(fsi)) {
		rc = famfs_cache_range(inode, "read", FAMFS_CACHE_INVALIDATE,
				       iocb->ki_pos, iov_iter_count(to));
		if (rc)
			return rc;
	}
	return dax_iomap_rw(iocb, to, &famfs_iomap_ops);
}

static ssize_t famfs_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	ssize_t ret;

	if (!iov_iter_count(to))
		return 0;

	if (iocb->ki_flags & IOCB_NOWAIT) {
		if (!inode_trylock_shared(inode))
			return -EAGAIN;
	} else {
		inode_lock_shared(inode);
	}

	if (!famfs_inode_fmap(inode) || iocb->ki_pos >= i_size_read(inode))
		ret = 0;
	else
		ret = famfs_dax_read(iocb, to);

	inode_unlock_shared(inode);
	file_accessed(iocb->ki_filp);
	return ret;
}

static ssize_t famfs_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct inode *inode = file_inode(file);
	loff_t size;
	ssize_t ret;

	if (iocb->ki_flags & IOCB_NOWAIT) {
		if (!inode_trylock(inode))
			return -EAGAIN;
	} else {
		inode_lock(inode);
	}

	ret = generic_write_checks(iocb, from);
	if (ret <= 0)
		goto out_unlock;

	size = i_size_read(inode);
	if (!famfs_inode_fmap(inode) || iocb->ki_pos >= size) {
		ret = -ENOSPC;
		goto out_unlock;
	}
	if (famfs_sb_failed(FAMFS_SB(inode->i_sb))) {
		ret = -EIO;
		goto out_unlock;
	}
	iov_iter_truncate(from, size - iocb->ki_pos);

	ret = file_modified(file);
	if (ret)
		goto out_unlock;

	ret = dax_iomap_rw(iocb, from, &famfs_iomap_ops);
	if (ret > 0 && famfs_noncoherent(FAMFS_SB(inode->i_sb))) {
		int rc = famfs_cache_range(inode, "write", FAMFS_CACHE_WRITEBACK,
					   iocb->ki_pos - ret, ret);

		if (rc)
			ret = rc;
	}
	/* Order the cache-bypassing copy before anything that announces it. */
	wmb();

out_unlock:
	inode_unlock(inode);
	if (ret > 0)
		ret = generic_write_sync(iocb, ret);
	return ret;
}

static vm_fault_t famfs_dax_huge_fault(struct vm_fault *vmf,
				       enum page_entry_size pe_size)
{
	struct file *file = vmf->vma->vm_file;
	struct super_block *sb = file_inode(file)->i_sb;
	/* A write to a MAP_PRIVATE mapping copies: it changes no file. */
	bool write = (vmf->flags & FAULT_FLAG_WRITE) &&
		     (vmf->vma->vm_flags & VM_SHARED);
	const struct famfs_fmap *fmap = famfs_inode_fmap(file_inode(file));
	vm_fault_t ret;
	pfn_t pfn;

	/*
	 * A small file (page extents): 4 KiB faults only.  The rest of its
	 * 2 MiB is other files' pages; iomap would stop a PMD at its extent
	 * anyway (famfs_iomap_begin() reports the extent as it is), but no
	 * 2 MiB or 1 GiB mapping is ever tried.
	 */
	if (pe_size != PE_SIZE_PTE && fmap && famfs_fmap_pages(fmap))
		return VM_FAULT_FALLBACK;
	if (write) {
		sb_start_pagefault(sb);
		file_update_time(file);
	}
	/* 1 GiB: famfs's own (pud.c), fs/dax.c falls back for PUDs in 6.1 */
	if (pe_size == PE_SIZE_PUD)
		ret = famfs_pud_fault(vmf);
	else
		ret = (write ? famfs_pud_exclude(vmf) : 0) ?:
		      dax_iomap_fault(vmf, pe_size, &pfn, NULL,
				      &famfs_iomap_ops);
	/*
	 * famfs never dirties metadata in a fault (maps are fixed), so a
	 * MAP_SYNC fault never needs a sync; handled for correctness anyway.
	 */
	if (ret & VM_FAULT_NEEDDSYNC)
		ret = dax_finish_sync_fault(vmf, pe_size, pfn);
	if (write)
		sb_end_pagefault(sb);
	return ret;
}

static vm_fault_t famfs_dax_fault(struct vm_fault *vmf)
{
	return famfs_dax_huge_fault(vmf, PE_SIZE_PTE);
}

static const struct vm_operations_struct famfs_dax_vm_ops = {
	.fault		= famfs_dax_fault,
	.huge_fault	= famfs_dax_huge_fault,
	.page_mkwrite	= famfs_dax_fault,
	.pfn_mkwrite	= famfs_dax_fault,
	.mprotect	= famfs_pud_mprotect,
	.may_split	= famfs_pud_may_split,
	/* mremap() of 1 GiB mappings (pud.c) */
	.open		= famfs_pud_vma_open,
	.close		= famfs_pud_vma_close,
};

/* daxdev_mapping_supported() for every device of the mount. */
static bool famfs_mapping_supported(struct vm_area_struct *vma,
				    struct famfs_sb_info *fsi)
{
	u32 i;

	for (i = 0; i < FAMFS_MAX_DEVS; i++) {
		struct famfs_backing *b = famfs_dev(fsi, i);

		if (b && !daxdev_mapping_supported(vma, b->dax_dev))
			return false;
	}
	return true;
}

static int famfs_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct inode *inode = file_inode(file);

	if (!famfs_inode_fmap(inode))
		return -ENODEV;
	if (famfs_sb_failed(FAMFS_SB(inode->i_sb)))
		return -EIO;
	/* MAP_SYNC only where a CPU cache flush reaches the memory. */
	if (!famfs_mapping_supported(vma, FAMFS_SB(inode->i_sb)))
		return -EOPNOTSUPP;

	file_accessed(file);
	vma->vm_ops = &famfs_dax_vm_ops;
	vma->vm_flags |= VM_HUGEPAGE;
	return 0;
}

/*
 * Count the opens of a file that has no map yet (famfs_inode_info), under
 * i_rwsem: MAP_CREATE holds it from its check of the count until the map is
 * in place, so an open either is counted before that check or comes after
 * the map, as an open of a mapped file (which is not counted).
 * private_data marks a counted file for famfs_file_release().  O_PATH opens
 * do not get here (and reach no data).
 */
static int famfs_file_open(struct inode *inode, struct file *file)
{
	struct famfs_inode_info *fi = FAMFS_I(inode);

	if (famfs_inode_fmap(inode))
		return 0;
	inode_lock(inode);
	if (!famfs_inode_fmap(inode)) {
		atomic_inc(&fi->unmapped_opens);
		file->private_data = fi;
	}
	inode_unlock(inode);
	return 0;
}

static int famfs_file_release(struct inode *inode, struct file *file)
{
	/* Lowering it without the lock can only make MAP_CREATE stricter. */
	if (file->private_data)
		atomic_dec(&FAMFS_I(inode)->unmapped_opens);
	return 0;
}

/* fsync ranges of at most this are written back line by line */
#define FAMFS_FSYNC_EXACT_MAX	SZ_256K

static int famfs_file_fsync(struct file *file, loff_t start, loff_t end,
			    int datasync)
{
	struct inode *inode = file_inode(file);
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	int rc;

	if (famfs_sb_failed(fsi))
		return -EIO;
	/*
	 * A small range (an msync of a few lines, e.g. the tool's log entry
	 * and header): write back exactly its lines, not every dirty DAX
	 * entry it touches, which under a PMD mapping is 2 MiB each.  The
	 * entries stay dirty: a later fsync of more writes them back.
	 */
	if (start <= end && (u64)end - start < FAMFS_FSYNC_EXACT_MAX &&
	    famfs_inode_fmap(inode)) {
		bool nc = famfs_noncoherent(fsi);

		trace_famfs_fsync_lines(inode, start, (u64)end - start + 1);
		rc = file_check_and_advance_wb_err(file);
		if (!rc)
			rc = famfs_cache_range(inode, nc ? "fsync" : NULL,
					       nc ? FAMFS_CACHE_INVALIDATE :
					       FAMFS_CACHE_WRITEBACK,
					       start, (u64)end - start + 1);
		return rc ? rc : famfs_flush_devs(fsi);
	}
	/*
	 * No metadata to write: flush the CPU caches of the dirty GiBs of 1 GiB
	 * mappings (pud.c) and of dirty DAX pages...
	 */
	rc = famfs_pud_writeback(inode, start, end);
	if (!rc)
		rc = file_write_and_wait_range(file, start, end);
	/*
	 * Not coherent: also drop what this CPU cached of the range, so that
	 * the next loads (through any mapping) read what other hosts wrote.
	 */
	if (!rc && famfs_noncoherent(fsi) && famfs_inode_fmap(inode) &&
	    start <= end)
		rc = famfs_cache_range(inode, "fsync", FAMFS_CACHE_INVALIDATE,
				       start, (u64)end - start + 1);
	if (rc)
		return rc;
	/* ...then the devices, as ext4 and xfs do (nvdimm_flush()). */
	return famfs_flush_devs(fsi);
}

static int famfs_dax_writepages(struct address_space *mapping,
				struct writeback_control *wbc)
{
	struct famfs_sb_info *fsi = FAMFS_SB(mapping->host->i_sb);
	int rc;

	if (famfs_sb_failed(fsi))
		return -EIO;
	/*
	 * The GiBs of 1 GiB mappings too (sync(2) and syncfs(2) do not come
	 * here: famfs inodes are on no writeback list; famfs_sync_fs())
	 */
	rc = famfs_pud_writeback(mapping->host,
				 wbc->range_cyclic ? 0 : wbc->range_start,
				 wbc->range_cyclic ? LLONG_MAX : wbc->range_end);
	if (rc)
		return rc;
	return dax_writeback_mapping_range(mapping, famfs_wb_dax_dev(fsi), wbc);
}

const struct address_space_operations famfs_dax_aops = {
	.writepages	= famfs_dax_writepages,
	.direct_IO	= noop_direct_IO,
	.dirty_folio	= noop_dirty_folio,
};

const struct file_operations famfs_file_operations = {
	.open			= famfs_file_open,
	.release		= famfs_file_release,
	.llseek			= generic_file_llseek,
	.read_iter		= famfs_file_read_iter,
	.write_iter		= famfs_file_write_iter,
	.mmap			= famfs_file_mmap,
	.mmap_supported_flags	= MAP_SYNC,
	.get_unmapped_area	= famfs_get_unmapped_area,
	.fsync			= famfs_file_fsync,
	.unlocked_ioctl		= famfs_file_ioctl,
	.compat_ioctl		= compat_ptr_ioctl,
	.splice_read		= generic_file_splice_read,
	.splice_write		= iter_file_splice_write,
};
