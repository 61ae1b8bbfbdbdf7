// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - 1 GiB (PUD) mappings
 *
 * A PUD-size fault (mm/memory.c create_huge_pud() and wp_huge_pud(), in a
 * VMA that may have huge pages) is answered with one 1 GiB mapping,
 * vmf_insert_pfn_pud_prot() as device-dax does (drivers/dax/device.c,
 * __dev_dax_pud_fault()), when
 *   - the aligned GiB of the address lies inside the VMA,
 *   - its file offset is a multiple of 1 GiB (famfs_get_unmapped_area()
 *     keeps addresses congruent to file offsets modulo 1 GiB) and the whole
 *     GiB is inside the file (i_size),
 *   - the map puts the whole GiB in one run of one device (an extent, or a
 *     chunk of an interleaved extent) whose memory is 1 GiB-aligned in
 *     physical memory (the pfn; device offset 1 GiB-aligned alone is not
 *     enough: a namespace made with a 2 MiB --align may start anywhere),
 *     with struct pages (pfn_t_devmap), and no page of it poisoned,
 *   - the mapping is not a private one that can be written (to, or with
 *     FOLL_FORCE: is_cow_mapping()): its first copy on write gives it an
 *     anon_vma, and 6.1's mm has no huge PUD beside one (device-dax refuses
 *     private mappings): swapoff's walk (unuse_pud_range()) takes a huge
 *     PUD for a bad table, logs "bad pud" and clears it unflushed;
 * else it answers VM_FAULT_FALLBACK, and the PMD path (fs/dax.c) runs as
 * before, then the PTE path.  Each answer is traced (famfs:famfs_pud_fault:
 * NOPAGE, or FALLBACK with the reason).
 *
 * Tracking.  fs/dax.c (6.1) has no PUD entries, and its entries are the
 * page cache's record of what is mapped: dirty state for fsync, referenced
 * pages for eviction (pins.c), the file a failed page belongs to for memory
 * failure.  A 1 GiB mapping gets no DAX entry; famfs keeps its own record
 * instead, per inode (famfs_inode_info.pud_gibs, under pud_lock):
 *   - an entry for every GiB of the file that has been PUD-mapped since the
 *     inode was loaded (dropped at eviction only);
 *   - the mark FAMFS_PUD_DIRTY on a GiB mapped writable since its last
 *     writeback: a write fault marks it (and the inode I_DIRTY_PAGES) before
 *     it inserts the writable entry; a read fault inserts a read-only entry
 *     (write-notify keeps vm_page_prot read-only), so the first store takes
 *     a write fault, as fs/dax.c's PMD entries do.
 * Writeback (fsync, msync, writepages; sync(2), syncfs(2) and unmount
 * through famfs_sync_fs(): famfs inodes are on no writeback list, so
 * I_DIRTY_PAGES alone brings no writepages): for each dirty GiB of the range,
 * under pud_lock, clear the mark and zap every mapping of that GiB of the
 * file (unmap_mapping_range(); fs/dax.c write-protects instead, which 6.1
 * cannot do for a PUD: dax_entry_mkclean() walks PTEs and PMDs only), then,
 * outside the lock, write back the CPU caches of the whole GiB
 * (famfs_cache_range(), 2 MiB per dax_read_lock section).  A store after
 * the zap faults again and marks the GiB again, so nothing stored before
 * the writeback is missed and nothing after it is lost from the next one.
 * A mapping has no finer dirty record than its entry: writeback of a PUD
 * mapping costs a write-back of 1 GiB, as a PMD's costs 2 MiB.  The small
 * range path of fsync (file.c, line by line) is unchanged.
 *
 * Referenced pages: get_user_pages() works on PUD mappings (vmsplice,
 * O_DIRECT), so eviction looks at every page of every GiB in the record
 * (famfs_pud_next_busy(), called by famfs_pins_evict()), skipping devices
 * whose pages are gone as famfs_next_busy() does.  page->mapping of a
 * PUD-mapped page stays NULL (fs/dax.c WARNs if a PMD fault of another VMA
 * finds it set).
 *
 * Memory failure: mf_dax_kill_procs() finds no DAX entry for a PUD-mapped
 * page and kills nobody, so famfs_kill_range() (removal.c) also calls
 * famfs_pud_kill(), which sends SIGBUS (BUS_MCEERR_AR to the current task if
 * the failure is action required, else BUS_MCEERR_AO; si_addr the failed
 * page's address in that VMA, si_addr_lsb PUD_SHIFT) to every process whose
 * page tables map a recorded GiB that holds the failed page with a PUD entry
 * (famfs_pud_mapped()); then the mount fails and every mapping goes
 * (removal.c).
 *
 * Device removal and memory failure: removal.c sets the mount failed, then
 * for each file waits for the PUD faults in flight (famfs_pud_quiesce():
 * they hold pud_lock from their check of the flag until their entry is in)
 * and zaps every mapping after them; a later fault sees the flag under
 * pud_lock and inserts nothing.  So when the removal goes on to wait for
 * the device's pages by pfn, no 1 GiB entry maps them any more.  (A fault
 * also checks the flag again after inserting, smp_mb() pairing with the
 * one after the flag is set, and zaps its own GiB and answers SIGBUS.)
 *
 * mprotect(): see famfs_pud_mprotect(); mremap(): famfs_pud_vma_open().
 *
 * MAP_SYNC needs nothing (famfs dirties no metadata in a fault); a
 * non-coherent mount's cache maintenance works on file ranges (cache.c),
 * whatever size maps them.
 *
 * Locking: mmap_lock (fault) -> pud_lock -> i_mmap_rwsem -> page table
 * locks; writeback takes pud_lock -> i_mmap_rwsem; sync (famfs_sync_fs())
 * and removal.c (famfs_pud_quiesce()) take pud_lock under s_umount.
 *
 * Layer "pud" (scripts/layers.conf), above "cache" and below "pins": owns
 * the record of 1 GiB mappings (pud_gibs, pud_lock); calls cache.c (the
 * writeback of a dirty GiB's caches), map.c and backing.c (where a GiB is).
 * pins.c (eviction), removal.c (memory failures), file.c (faults, fsync,
 * writepages, mmap, mprotect) and super.c (inode set-up) call it.
 */

#include <linux/dax.h>
#include <linux/fs.h>
#include <linux/huge_mm.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/pfn_t.h>
#include <linux/sched/signal.h>
#include <linux/writeback.h>
#include <linux/xarray.h>
#include "famfs.h"
#include "trace.h"

#define FAMFS_PUD_PAGES		(PUD_SIZE >> PAGE_SHIFT)
#define FAMFS_PUD_DIRTY		XA_MARK_0

void famfs_pud_init(struct famfs_inode_info *fi)
{
	xa_init(&fi->pud_gibs);
	xa_init(&fi->pud_small);
	mutex_init(&fi->pud_lock);
}

/* At eviction, once famfs_pins_evict() has looked at the pages. */
void famfs_pud_forget(struct famfs_inode_info *fi)
{
	xa_destroy(&fi->pud_gibs);
	xa_destroy(&fi->pud_small);
}

/**
 * famfs_pud_quiesce() - wait for the PUD faults of a file in flight
 * @inode: a file of a mount whose failed flag is set (removal.c)
 *
 * A PUD fault holds pud_lock from its check of the flag until its entry is
 * in (and zapped again if it saw the flag set after all): once this
 * returns, every fault that saw the mount alive has its entry in, for the
 * caller's zap that follows, and every later one sees the flag.
 */
void famfs_pud_quiesce(struct inode *inode)
{
	struct famfs_inode_info *fi = FAMFS_I(inode);

	mutex_lock(&fi->pud_lock);
	mutex_unlock(&fi->pud_lock);
}

/* Has any GiB of @inode been mapped with a PUD entry? */
bool famfs_pud_tracked(struct inode *inode)
{
	return !xa_empty(&FAMFS_I(inode)->pud_gibs);
}

/* Zap the mappings of the recorded GiBs @first..@last of @inode's file. */
static void famfs_pud_zap(struct inode *inode, unsigned long first,
			  unsigned long last)
{
	struct famfs_inode_info *fi = FAMFS_I(inode);
	unsigned long gib;
	void *entry;

	xa_for_each_range(&fi->pud_gibs, gib, entry, first, last)
		unmap_mapping_range(inode->i_mapping, (loff_t)gib << PUD_SHIFT,
				    PUD_SIZE, 0);
}

/*
 * Where 1 GiB mappings of a file can be: an address congruent to the file
 * offset modulo 1 GiB, when the mapping covers at least one whole aligned
 * GiB of the file; else as thp_get_unmapped_area() (2 MiB).
 *
 * mremap() asks here too, for the address it moves a range of a mapping
 * to (MAP_FIXED with MREMAP_FIXED), before 6.1's move_page_tables(), which
 * moves a huge PUD only to a 1 GiB-aligned address: for any other, it takes
 * the entry for a bad table (get_old_pud()), logs "bad pud" and clears it
 * without a TLB flush.  So when the address is not congruent to the file
 * offset, the 1 GiB mappings of the GiBs wholly inside the range go first
 * (every process's: famfs cannot tell an mremap() from an mmap(); they
 * fault again).  A range that starts or ends inside a GiB splits its VMA
 * there first: famfs_pud_may_split().
 */
unsigned long famfs_get_unmapped_area(struct file *filp, unsigned long addr,
				      unsigned long len, unsigned long pgoff,
				      unsigned long flags)
{
	u64 off = (u64)pgoff << PAGE_SHIFT, off_end, off_align;
	struct inode *inode = file_inode(filp);
	unsigned long len_pad, ret;

	if (!IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD) ||
	    len < PUD_SIZE || (off >> PAGE_SHIFT) != pgoff ||
	    check_add_overflow(off, (u64)len, &off_end))
		goto thp;
	off_align = round_up(off, PUD_SIZE);
	if (off_end <= off_align || off_end - off_align < PUD_SIZE)
		goto thp;
	len_pad = len + PUD_SIZE;
	ret = -ENOMEM;
	if (!addr && !(flags & MAP_FIXED) && len_pad > len &&
	    len_pad <= TASK_SIZE)
		ret = current->mm->get_unmapped_area(filp, 0, len_pad, pgoff,
						     flags);
	if (!IS_ERR_VALUE(ret))
		return ret + ((off - ret) & (PUD_SIZE - 1));
	ret = thp_get_unmapped_area(filp, addr, len, pgoff, flags);
	/* a hint is an mmap(): only MAP_FIXED or none can be an mremap() */
	if ((!addr || (flags & MAP_FIXED)) && !IS_ERR_VALUE(ret) &&
	    ((ret - off) & (PUD_SIZE - 1)) && famfs_pud_tracked(inode))
		famfs_pud_zap(inode, off_align >> PUD_SHIFT,
			      (off_end >> PUD_SHIFT) - 1);
	return ret;
thp:
	return thp_get_unmapped_area(filp, addr, len, pgoff, flags);
}

/**
 * famfs_pud_may_split() - vm_operations_struct.may_split of famfs files
 * @vma: the VMA split at @addr (munmap, mprotect, mremap, madvise, mlock)
 * @addr: where
 *
 * 6.1 splits huge PMDs at a VMA split (vma_adjust_trans_huge()), not huge
 * PUDs: one would straddle the two VMAs, and the mremap() of either part
 * would meet it in move_page_tables() ("bad pud", see
 * famfs_get_unmapped_area()).  So the 1 GiB mappings of the GiB around
 * @addr go first, when @vma could hold one there (device-dax refuses such
 * a split instead: a file's mapping may be split anywhere).
 * Context: mmap_lock held for write.
 *
 * Return: 0.
 */
int famfs_pud_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	struct inode *inode = file_inode(vma->vm_file);
	unsigned long start = addr & PUD_MASK;
	u64 pos;

	if (!IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD) ||
	    addr == start || start < vma->vm_start ||
	    vma->vm_end - start < PUD_SIZE || !famfs_pud_tracked(inode))
		return 0;
	pos = (u64)linear_page_index(vma, start) << PAGE_SHIFT;
	if (IS_ALIGNED(pos, PUD_SIZE))
		famfs_pud_zap(inode, pos >> PUD_SHIFT, pos >> PUD_SHIFT);
	return 0;
}

#ifdef CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD
/*
 * The pfn of the GiB at file offset @pos, or NULL (a reason) if it cannot be
 * mapped whole.  Context: dax_read_lock() held.
 */
static const char *famfs_pud_pfn(struct inode *inode, u64 pos, pfn_t *pfn)
{
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	const struct famfs_fmap *fmap = famfs_inode_fmap(inode);
	struct famfs_backing *b;
	u64 dev_off, len, daddr;
	long avail;
	u32 dev;

	if (!fmap || famfs_fmap_resolve(fmap, pos, &dev, &dev_off, &len))
		return "no-map";
	if (len < PUD_SIZE)
		return "extent";
	b = famfs_dev(fsi, dev);
	if (!b)
		return "no-device";
	daddr = famfs_backing_daddr(b, dev_off);
	/* cheap first: direct_access may look at every page (devdax.c) */
	if (!IS_ALIGNED(daddr, PAGE_SIZE) ||
	    !IS_ALIGNED(b->pfn + (dev_off >> PAGE_SHIFT), FAMFS_PUD_PAGES))
		return "unaligned";
	avail = dax_direct_access(b->dax_dev, daddr >> PAGE_SHIFT,
				  FAMFS_PUD_PAGES, DAX_ACCESS, NULL, pfn);
	if (avail < 0)
		return "no-access";
	if (avail < FAMFS_PUD_PAGES)
		return "short";
	if (!pfn_t_devmap(*pfn))
		return "no-devmap";
	if (!IS_ALIGNED(pfn_t_to_pfn(*pfn), FAMFS_PUD_PAGES))
		return "unaligned";
	return NULL;
}

static vm_fault_t famfs_pud_insert(struct vm_fault *vmf, struct inode *inode,
				   u64 pos, bool write, const char **why)
{
	struct famfs_inode_info *fi = FAMFS_I(inode);
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	unsigned long gib = pos >> PUD_SHIFT;
	vm_fault_t ret;
	pfn_t pfn;
	int id, rc;

	mutex_lock(&fi->pud_lock);
	if (famfs_sb_failed(fsi)) {
		/* the PMD path answers SIGBUS */
		*why = "failed";
		ret = VM_FAULT_FALLBACK;
		goto out_unlock;
	}
	if (xa_load(&fi->pud_small, gib)) {
		*why = "small";
		ret = VM_FAULT_FALLBACK;
		goto out_unlock;
	}
	id = dax_read_lock();
	*why = famfs_pud_pfn(inode, pos, &pfn);
	if (*why) {
		ret = VM_FAULT_FALLBACK;
		goto out_dax;
	}
	rc = xa_err(xa_store(&fi->pud_gibs, gib, xa_mk_value(0), GFP_KERNEL));
	if (rc) {
		*why = "no-memory";
		ret = VM_FAULT_FALLBACK;
		goto out_dax;
	}
	if (write) {
		xa_set_mark(&fi->pud_gibs, gib, FAMFS_PUD_DIRTY);
		__mark_inode_dirty(inode, I_DIRTY_PAGES);
	}
	ret = vmf_insert_pfn_pud_prot(vmf, pfn, vmf->vma->vm_page_prot, write);
out_dax:
	dax_read_unlock(id);
	if (!*why) {
		/* Pairs with smp_mb__after_atomic() in famfs_backing_gone(). */
		smp_mb();
		if (famfs_sb_failed(fsi)) {
			unmap_mapping_range(inode->i_mapping, pos, PUD_SIZE, 0);
			*why = "failed";
			ret = VM_FAULT_SIGBUS;
		}
	}
out_unlock:
	mutex_unlock(&fi->pud_lock);
	return ret;
}

/* For the tracepoint */
static const char *famfs_pud_result(vm_fault_t ret)
{
	if (ret & VM_FAULT_FALLBACK)
		return "FALLBACK";
	if (ret & VM_FAULT_SIGBUS)
		return "SIGBUS";
	if (ret & VM_FAULT_NOPAGE)
		return "NOPAGE";
	return "OTHER";
}

/**
 * famfs_pud_exclude() - before a 2 MiB or 4 KiB write fault: no 1 GiB mapping
 * @vmf: the fault, a write in a shared mapping (fs/dax.c's path runs next)
 *
 * A GiB of a file is mapped whole (a huge PUD) or has dirty DAX entries
 * (fs/dax.c's), never both at once: writing back a DAX entry walks every
 * VMA of its range (dax_writeback_one() -> pfn_mkclean_range() ->
 * page_vma_mapped_walk()), and 6.1's walk takes a huge PUD for a page
 * table -- the file's own bytes read as PMDs, a lock and a write at any
 * address they name.  Only a write fault in a shared mapping (page_mkwrite
 * and pfn_mkwrite too) dirties an entry, so the first one in pages of a GiB
 * zaps the GiB's 1 GiB mappings and then records it in pud_small (its PUD
 * faults fall back from then on, until eviction), under pud_lock; later
 * ones see the record.
 *
 * Return: 0, or VM_FAULT_OOM.
 */
vm_fault_t famfs_pud_exclude(struct vm_fault *vmf)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	struct famfs_inode_info *fi = FAMFS_I(inode);
	unsigned long gib = vmf->pgoff / FAMFS_PUD_PAGES;
	u64 pos = (u64)gib << PUD_SHIFT;
	vm_fault_t ret = 0;

	/* a GiB that no PUD fault would map: nothing to record */
	if (!IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD) ||
	    pos >= i_size_read(inode) || i_size_read(inode) - pos < PUD_SIZE ||
	    xa_load(&fi->pud_small, gib))
		return 0;
	mutex_lock(&fi->pud_lock);
	if (!xa_load(&fi->pud_small, gib)) {
		/*
		 * The 1 GiB mappings go before the record: a fault that finds
		 * the GiB recorded (without the lock) goes on to its DAX entry
		 * at once.  No PUD fault maps it again meanwhile (pud_lock).
		 */
		if (xa_load(&fi->pud_gibs, gib))
			unmap_mapping_range(inode->i_mapping, pos, PUD_SIZE, 0);
		if (xa_err(xa_store(&fi->pud_small, gib, xa_mk_value(0),
				    GFP_KERNEL_ACCOUNT)))
			ret = VM_FAULT_OOM;
	}
	mutex_unlock(&fi->pud_lock);
	return ret;
}

/**
 * famfs_pud_fault() - a PUD-size fault on a famfs file
 * @vmf: the fault
 *
 * Return: VM_FAULT_NOPAGE with the GiB mapped, VM_FAULT_FALLBACK (the PMD
 * path runs next), or VM_FAULT_SIGBUS if the mount failed meanwhile.
 */
vm_fault_t famfs_pud_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct inode *inode = file_inode(vma->vm_file);
	unsigned long addr = vmf->address & PUD_MASK;
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	const char *why = NULL;
	vm_fault_t ret = VM_FAULT_FALLBACK;
	u64 pos = 0;

	if (is_cow_mapping(vma->vm_flags)) {
		why = "private";
		goto out;
	}
	if (addr < vma->vm_start || vma->vm_end - addr < PUD_SIZE) {
		why = "vma";
		goto out;
	}
	pos = (u64)linear_page_index(vma, addr) << PAGE_SHIFT;
	if (!IS_ALIGNED(pos, PUD_SIZE)) {
		why = "offset";
		goto out;
	}
	if (pos >= i_size_read(inode) || i_size_read(inode) - pos < PUD_SIZE) {
		why = "eof";
		goto out;
	}
	ret = famfs_pud_insert(vmf, inode, pos, write, &why);
out:
	trace_famfs_pud_fault(inode, vmf->address, pos, write,
			      famfs_pud_result(ret), why);
	return ret;
}
#else
vm_fault_t famfs_pud_fault(struct vm_fault *vmf)
{
	return VM_FAULT_FALLBACK;
}
#endif

/**
 * famfs_pud_mprotect() - vm_operations_struct.mprotect of famfs files
 * @vma: the VMA whose protection changes
 * @start: first address
 * @end: end address (exclusive)
 * @newflags: the new vm_flags
 *
 * 6.1's change_pud_range() takes a huge PUD for a bad table entry: it logs
 * "bad pud" and clears it without a TLB flush (device-dax has the same
 * problem on 6.1; mainline fixed it in 6.10).  So the 1 GiB mappings of the
 * range go first, properly (unmap_mapping_range(): every VMA of that file
 * range, which only fault again), and mprotect() never meets one.
 * Context: mmap_lock held for write.
 *
 * Return: 0.
 */
int famfs_pud_mprotect(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, unsigned long newflags)
{
	struct inode *inode = file_inode(vma->vm_file);

	if (IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD) &&
	    end > start && famfs_pud_tracked(inode))
		unmap_mapping_range(inode->i_mapping,
				    (loff_t)linear_page_index(vma, start) <<
				    PAGE_SHIFT, end - start, 0);
	return 0;
}

/**
 * famfs_pud_vma_open() - vm_operations_struct.open of famfs files
 * @vma: a VMA copied from another of this process's
 *
 * 6.1's move_page_tables() (mremap() moving a mapping) takes a 1 GiB entry
 * for a bad page table as change_pud_range() does: get_old_pud() logs "bad
 * pud" and clears it without a TLB flush, and the old address keeps
 * reaching the memory, also once the file is gone and the memory is
 * another file's (device-dax with align=1G has the same problem on 6.1).
 * mremap() calls this for its new VMA (copy_vma()) before it moves the page
 * tables, with the old VMA still in the file's tree: the 1 GiB mappings of
 * the file range go first, properly (unmap_mapping_range(): every VMA of
 * that range, which only fault again), and move_page_tables() never meets
 * one.  A part split off a VMA (__split_vma()) comes here too and only
 * faults again; a child's VMA at fork (dup_mmap()) does not (its mm is not
 * current's), so fork leaves the parent's mappings alone.  copy_vma() may
 * instead merge the new range into a neighbouring VMA of the file without
 * calling anything: famfs_pud_vma_close() keeps famfs VMAs from merging.
 * Context: mmap_lock held for write.
 */
void famfs_pud_vma_open(struct vm_area_struct *vma)
{
	struct inode *inode = file_inode(vma->vm_file);

	if (IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD) &&
	    vma->vm_mm == current->mm && famfs_pud_tracked(inode))
		unmap_mapping_range(inode->i_mapping,
				    (loff_t)vma->vm_pgoff << PAGE_SHIFT,
				    vma->vm_end - vma->vm_start, 0);
}

/**
 * famfs_pud_vma_close() - vm_operations_struct.close of famfs files
 * @vma: the VMA going away
 *
 * Nothing to do: that there is a close keeps famfs VMAs from merging
 * (is_mergeable_vma()), so that mremap() always gets a new VMA, and calls
 * famfs_pud_vma_open(), before it moves the page tables.
 */
void famfs_pud_vma_close(struct vm_area_struct *vma)
{
}

/**
 * famfs_pud_writeback() - write back the dirty GiBs of a file range
 * @inode: a file with a map
 * @start: first byte
 * @end: last byte (inclusive)
 *
 * Return: 0, or the first error of famfs_cache_range() (-EIO, -EINTR); the
 * GiB it failed on stays dirty.
 */
int famfs_pud_writeback(struct inode *inode, loff_t start, loff_t end)
{
	struct famfs_inode_info *fi = FAMFS_I(inode);
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	unsigned long gib, last;
	bool flush;
	int rc;
	u32 i;

	if (start < 0 || end < start || xa_empty(&fi->pud_gibs))
		return 0;
	gib = start >> PUD_SHIFT;
	last = end >> PUD_SHIFT;
	/*
	 * As famfs_wb_dax_dev() decides for DAX entries: dax_flush() writes
	 * nothing back unless some device of the mount has a write cache.
	 */
	flush = false;
	for (i = 0; i < FAMFS_MAX_DEVS && !flush; i++) {
		struct famfs_backing *b = famfs_dev(fsi, i);

		flush = b && b->dax_dev && dax_write_cache_enabled(b->dax_dev);
	}
	while (xa_find(&fi->pud_gibs, &gib, last, FAMFS_PUD_DIRTY)) {
		u64 pos = (u64)gib << PUD_SHIFT;

		mutex_lock(&fi->pud_lock);
		if (!xa_get_mark(&fi->pud_gibs, gib, FAMFS_PUD_DIRTY)) {
			mutex_unlock(&fi->pud_lock);
			goto next;
		}
		xa_clear_mark(&fi->pud_gibs, gib, FAMFS_PUD_DIRTY);
		/* the next store faults and marks it again */
		unmap_mapping_range(inode->i_mapping, pos, PUD_SIZE, 0);
		mutex_unlock(&fi->pud_lock);

		rc = flush ? famfs_cache_range(inode, NULL, FAMFS_CACHE_WRITEBACK,
					       pos, PUD_SIZE) : 0;
		trace_famfs_pud_writeback(inode, pos, flush, rc);
		if (rc) {
			mutex_lock(&fi->pud_lock);
			xa_set_mark(&fi->pud_gibs, gib, FAMFS_PUD_DIRTY);
			mutex_unlock(&fi->pud_lock);
			return rc;
		}
next:
		if (gib == last)
			break;
		gib++;
		cond_resched();
	}
	return 0;
}

/**
 * famfs_pud_dirty() - whether a file has a GiB to write back
 * @inode: a regular famfs file
 *
 * Return: true if a GiB of it was mapped writable since its last writeback.
 */
bool famfs_pud_dirty(struct inode *inode)
{
	return xa_marked(&FAMFS_I(inode)->pud_gibs, FAMFS_PUD_DIRTY);
}

/**
 * famfs_pud_next_busy() - the next referenced page of a PUD-mapped GiB
 * @inode: a file being evicted (nothing maps it)
 * @index: file page to start at; set to the page found
 *
 * Looks at every page of every GiB in the record, skipping devices whose
 * pages are gone.  Context: fsi->pages_rwsem held for read.
 *
 * Return: the page, or NULL.
 */
struct page *famfs_pud_next_busy(struct inode *inode, pgoff_t *index)
{
	struct famfs_inode_info *fi = FAMFS_I(inode);
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	const struct famfs_fmap *fmap = fi->fmap;
	unsigned long gib = *index / FAMFS_PUD_PAGES;
	void *entry;

	if (!fmap)
		return NULL;
	xa_for_each_start(&fi->pud_gibs, gib, entry, gib) {
		pgoff_t first = (pgoff_t)gib * FAMFS_PUD_PAGES, i;
		struct famfs_backing *b;
		u64 dev_off, len;
		u32 dev;

		if (famfs_fmap_resolve(fmap, (u64)gib << PUD_SHIFT, &dev,
				       &dev_off, &len) || len < PUD_SIZE)
			continue;	/* never recorded so */
		b = famfs_dev(fsi, dev);
		if (!b || READ_ONCE(b->pages_gone))
			continue;
		for (i = max(first, *index); i < first + FAMFS_PUD_PAGES; i++) {
			struct page *page = pfn_to_page(b->pfn +
					(dev_off >> PAGE_SHIFT) + (i - first));

			if (page_ref_count(page) > 1) {
				*index = i;
				return page;
			}
		}
		cond_resched();
	}
	return NULL;
}

/*
 * Does @vma map the GiB around @addr with a huge PUD entry now?  As
 * memory-failure.c's dev_pagemap_mapping_shift() looks: without the page
 * table locks, under i_mmap_rwsem, which keeps @vma's page tables (their
 * freeing unlinks @vma from the file first).
 */
static bool famfs_pud_mapped(struct vm_area_struct *vma, unsigned long addr)
{
#ifdef CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD
	pgd_t *pgd = pgd_offset(vma->vm_mm, addr);
	p4d_t *p4d;
	pud_t pud;

	if (!pgd_present(READ_ONCE(*pgd)))
		return false;
	p4d = p4d_offset(pgd, addr);
	if (!p4d_present(READ_ONCE(*p4d)))
		return false;
	pud = READ_ONCE(*pud_offset(p4d, addr));
	return pud_present(pud) && pud_devmap(pud);
#else
	return false;
#endif
}

/*
 * Signal the processes of @vma, which maps file page @pgoff (a failed page
 * of a PUD-mapped GiB), at the page's address, if @vma maps that GiB with
 * a PUD entry: memory-failure.c signals only a process whose page tables
 * map the page (one that maps it with a PMD or PTE entry has a DAX entry,
 * by which mf_dax_kill_procs() finds it; one that maps none gets SIGBUS
 * when it touches the file, now that the mount failed).
 */
static void famfs_pud_signal(struct vm_area_struct *vma, pgoff_t pgoff,
			     int mf_flags)
{
	unsigned long addr = vma->vm_start +
			     ((pgoff - vma->vm_pgoff) << PAGE_SHIFT);
	struct task_struct *t;

	/* Only a VMA that holds the whole aligned GiB can map it whole. */
	if ((addr & PUD_MASK) < vma->vm_start ||
	    vma->vm_end - (addr & PUD_MASK) < PUD_SIZE ||
	    !famfs_pud_mapped(vma, addr))
		return;
	rcu_read_lock();
	for_each_process(t) {
		struct task_struct *to = t;
		int code = BUS_MCEERR_AO;

		if (READ_ONCE(t->mm) != vma->vm_mm)
			continue;
		/* the access that found the failure: the thread that made it */
		if ((mf_flags & MF_ACTION_REQUIRED) &&
		    same_thread_group(t, current)) {
			code = BUS_MCEERR_AR;
			to = current;
		}
		pr_err_ratelimited("famfs: memory failure: SIGBUS to pid %d (%s) at %#lx in a 1 GiB mapping\n",
				   task_tgid_nr(t), t->comm, addr);
		send_sig_mceerr(code, (void __user *)addr, PUD_SHIFT, to);
	}
	rcu_read_unlock();
}

/**
 * famfs_pud_kill() - SIGBUS to whoever maps failed file bytes with a PUD
 * @inode: the file
 * @start: first failed byte of the file
 * @end: end of the failed bytes (exclusive)
 * @mf_flags: memory failure flags
 *
 * One signal per process and VMA, at the first failed page in each
 * recorded GiB.  Called before the mount's mappings are zapped.
 */
void famfs_pud_kill(struct inode *inode, u64 start, u64 end, int mf_flags)
{
	struct famfs_inode_info *fi = FAMFS_I(inode);
	struct address_space *mapping = inode->i_mapping;
	unsigned long gib;
	void *entry;

	if (start >= end || xa_empty(&fi->pud_gibs))
		return;
	xa_for_each_range(&fi->pud_gibs, gib, entry, start >> PUD_SHIFT,
			  (end - 1) >> PUD_SHIFT) {
		u64 pos = max(start, (u64)gib << PUD_SHIFT);
		pgoff_t pgoff = pos >> PAGE_SHIFT;
		struct rb_node *n;

		i_mmap_lock_read(mapping);
		/* The interval tree's iterators are not exported. */
		for (n = rb_first_cached(&mapping->i_mmap); n; n = rb_next(n)) {
			struct vm_area_struct *vma =
				rb_entry(n, struct vm_area_struct, shared.rb);

			if (pgoff < vma->vm_pgoff ||
			    pgoff - vma->vm_pgoff >= vma_pages(vma))
				continue;
			famfs_pud_signal(vma, pgoff, mf_flags);
		}
		i_mmap_unlock_read(mapping);
	}
}
