// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - pages still referenced when their memory is let go
 *
 * A page of a famfs file can be referenced by more than the file's
 * mappings: get_user_pages() on a mapping (vmsplice into a pipe, O_DIRECT to
 * or from a mapped buffer, process_vm_readv, ...) takes a reference that
 * outlives munmap, close and unlink.  An fs-dax page is idle at refcount 1,
 * and put_page() wakes the waiters on page->_refcount when it gets back
 * there (mm/memremap.c).  A mapping holds no reference of its own (6.1), so
 * "every page idle" covers every holder but the mappings, which famfs zaps.
 *
 * Two rules: no page is shown to anyone after its memory went to another
 * file, and no page is referenced when the device's struct pages go away.
 *
 * Eviction (the last name and the last open file gone): a file whose pages
 * are all idle gives its memory back at once.  Otherwise its extents stay in
 * the mount's extent tree as a "zombie": counted as used by statfs, refused
 * to MAP_CREATE with EADDRINUSE, until the last recorded reference is
 * dropped.  Eviction does not wait: the holder can be any process that could
 * read the file, a pipe can hold a page for ever, and rm or close must not
 * hang on that.  No new reference can appear once a file is evicted (nothing
 * maps it and its DAX entries are gone), so the recorded pages only become
 * idle; zombies are reaped lazily by MAP_CREATE and statfs, which look at the
 * recorded pages only.  mainline (6.15, dax_break_layout_final()) instead
 * waits in evict; famfs has no blocks to free, so it need not.
 *
 * Unmount waits for the zombies: the device is released when unmount
 * returns, and a new mount would hand the memory out again.  That wait ends
 * on SIGKILL, and a task that exits or a kernel thread does not wait at all
 * (the pipe may be the exiting task's own): then a worker waits instead and
 * keeps the device (and the module) held until the pages are released
 * (famfs_zombies_unmount()).  Removal of the device waits until every page
 * of it is idle (famfs_wait_range_idle()), uninterruptibly, since removal
 * cannot fail and giving up means use-after-free (removal.c says where it
 * waits).  The waits log what they wait for (the file whose memory the
 * first referenced page is, see famfs_pfn_owner()), and again every 10 s
 * (the wakeups also keep the hung task detector quiet).  Whoever holds the
 * page ends the wait by letting go of it; root can kill it.
 *
 * The removal of one device of a mount drops only the DAX entries for that
 * device's memory (famfs_detach_dev()): the entries for the other devices
 * stay, so eviction still finds their referenced pages and keeps the file's
 * memory there as a zombie, as on any mount.
 *
 * The DAX entries of a file with referenced pages are dropped with
 * invalidate_inode_pages2() after a writeback (invalidation skips dirty
 * entries), not truncated: fs/dax.c WARNs when truncation meets a referenced
 * page, which is right where the blocks are freed at once; ours stay
 * reserved.
 *
 * Locking.  The zombie list (map.c) is under fsi->map_lock.
 * fsi->pages_rwsem is held for read while an eviction looks at the
 * device's pages, and for write by device removal when it declares them
 * gone (famfs_backing's pages_gone: one device of the mount, see
 * members.c), after it waited for every page; a fault that fails after
 * that can leave an empty DAX entry, whose eviction must not look at any
 * page of that device.  Order: s_umount -> pages_rwsem -> map_lock.
 *
 * The waits hold no famfs mutex.  Unmount's holds s_umount (as unmount
 * always does).  The removal's holds the device lock (devdax), or runs in a
 * worker while the remover waits for the page map (pmem, see removal.c).
 * Eviction waits only if a writeback failed, with pages_rwsem held for
 * read, which removal takes for write only after its own wait for the same
 * pages.  Nothing that releases a page takes any of these.
 *
 * Layer "pins" (scripts/layers.conf): owns the looking at the pages of the
 * files (fsi->pages_rwsem) and the unmount's wait and worker (the famfs_pins
 * workqueue, which removal.c queues on too); calls map.c, pud.c (the pages
 * of 1 GiB mappings, which have no DAX entry), backing.c (to close an
 * unmounted mount's devices) and pages.c.
 */

#include <linux/dax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/writeback.h>
#include <linux/xarray.h>
#include "famfs.h"

#ifdef CONFIG_MEMCG
/*
 * ", mapped by pid N (comm)" for a process that still maps file page @idx
 * of @mapping (mm->owner exists with CONFIG_MEMCG only), else nothing.
 * The VMAs of the file are walked in the mapping's i_mmap tree (its
 * interval tree iterators are not exported): removal is rare.
 */
static void famfs_mapper(struct address_space *mapping, pgoff_t idx,
			 char *buf, size_t size)
{
	char comm[TASK_COMM_LEN] = "";
	struct task_struct *t;
	struct rb_node *n;
	pid_t pid = 0;

	if (!mapping_mapped(mapping))
		return;
	i_mmap_lock_read(mapping);
	for (n = rb_first_cached(&mapping->i_mmap); n && !pid; n = rb_next(n)) {
		struct vm_area_struct *vma = rb_entry(n, struct vm_area_struct,
						      shared.rb);

		if (idx < vma->vm_pgoff || idx - vma->vm_pgoff >= vma_pages(vma))
			continue;
		rcu_read_lock();
		t = rcu_dereference(vma->vm_mm->owner);
		if (t) {
			pid = task_pid_nr(t);
			__get_task_comm(comm, sizeof(comm), t);
		}
		rcu_read_unlock();
	}
	i_mmap_unlock_read(mapping);
	if (pid)
		scnprintf(buf, size, ", mapped by pid %d (%s)", pid, comm);
}
#else
static void famfs_mapper(struct address_space *mapping, pgoff_t idx,
			 char *buf, size_t size)
{
}
#endif

/*
 * For the log: whose page @pfn (of a device of the mount @ctx) is, as far
 * as famfs can tell cheaply: the file whose memory it is, by its path in
 * the mount if it still has a name and by its inode number, with a process
 * that still maps the page; or an evicted file's inode number.  What holds
 * the reference itself (a pipe, O_DIRECT in flight) leaves no record to
 * read.  Context: no famfs lock held; the mount stays (an active
 * reference, or the unmount that waits).
 */
static void famfs_pfn_owner(void *ctx, unsigned long pfn, char *buf,
			    size_t size)
{
	struct famfs_sb_info *fsi = ctx;
	const struct famfs_kext *ext = NULL, *found;
	struct famfs_kext_copy copy;
	struct famfs_backing *b = NULL;
	struct inode *inode = NULL;
	struct dentry *dentry;
	unsigned long ino = 0;
	char *pbuf, *path = NULL;
	u64 off, foff, end;
	int n;
	u32 i;

	for (i = 0; i < FAMFS_MAX_DEVS; i++) {
		b = famfs_dev(fsi, i);
		if (b && pfn >= b->pfn && pfn - b->pfn < (b->size >> PAGE_SHIFT))
			break;
	}
	if (i == FAMFS_MAX_DEVS) {
		scnprintf(buf, size, "not memory of the mount");
		return;
	}
	off = (u64)(pfn - b->pfn) << PAGE_SHIFT;
	mutex_lock(&fsi->map_lock);
	found = famfs_ext_first_overlap(fsi, i, off, off + PAGE_SIZE);
	if (found) {
		/*
		 * Still in the tree: the inode is not freed yet; but the map
		 * may be freed while it lives (an unpublished one, see
		 * famfs_kext_snap()): only the copy is used after the unlock.
		 */
		famfs_kext_snap(&copy, found);
		ext = &copy.ext;
		inode = found->fmap->inode;
		ino = inode ? inode->i_ino : found->fmap->ino;
		inode = inode ? igrab(inode) : NULL;
	}
	mutex_unlock(&fsi->map_lock);
	n = scnprintf(buf, size, "device %u byte %llu", i, off);
	if (!ext) {
		scnprintf(buf + n, size - n, ", in no file's memory");
		return;
	}
	if (!inode) {
		scnprintf(buf + n, size - n, ", memory of evicted inode %lu",
			  ino);
		return;
	}
	/* Its file offsets are the file's only in its published map. */
	if (!famfs_kext_copy_published(&copy, inode)) {
		scnprintf(buf + n, size - n,
			  ", memory of inode %lu whose map is not published",
			  ino);
		iput(inode);
		return;
	}
	pbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	dentry = pbuf ? d_find_alias(inode) : NULL;
	if (dentry) {
		path = dentry_path_raw(dentry, pbuf, PATH_MAX);
		if (IS_ERR(path))
			path = NULL;
	}
	n += scnprintf(buf + n, size - n, ", file %s (inode %lu)",
		       path ?: "without a name", ino);
	dput(dentry);
	kfree(pbuf);
	if (famfs_kext_file_off(ext, off, &foff, &end)) {
		n += scnprintf(buf + n, size - n, " byte %llu", foff);
		famfs_mapper(inode->i_mapping, foff >> PAGE_SHIFT, buf + n,
			     size - n);
	}
	iput(inode);
}

/*
 * The first referenced page that a DAX entry of @inode names, at or after
 * file page *@index; NULL if none, else *@index is its file page.  The page
 * is found through the file's map: the entries' format is fs/dax.c's own.
 */
static struct page *famfs_next_busy(struct inode *inode, pgoff_t *index)
{
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	const struct famfs_fmap *fmap = FAMFS_I(inode)->fmap;
	XA_STATE(xas, &inode->i_mapping->i_pages, *index);
	struct page *found = NULL;
	void *entry;

	rcu_read_lock();
	xas_for_each(&xas, entry, ULONG_MAX) {
		pgoff_t base, nr, i;

		if (xas_retry(&xas, entry) || !xa_is_value(entry))
			continue;
		/* A PMD entry covers 2 MiB of the file. */
		nr = 1UL << xa_get_order(xas.xa, xas.xa_index);
		base = round_down(xas.xa_index, nr);
		for (i = max(base, *index); i < base + nr; ) {
			struct famfs_backing *b;
			u64 dev_off, len;
			pgoff_t run, j;
			u32 dev;

			if (famfs_fmap_resolve(fmap, (u64)i << PAGE_SHIFT,
					       &dev, &dev_off, &len))
				break;
			b = famfs_dev(fsi, dev);
			/* one lookup per run of pages contiguous on the device */
			run = min_t(u64, base + nr - i,
				    max_t(u64, len >> PAGE_SHIFT, 1));
			/* Gone: none of its pages may be looked at. */
			for (j = 0; j < run && !READ_ONCE(b->pages_gone); j++) {
				struct page *page = pfn_to_page(b->pfn + j +
						(dev_off >> PAGE_SHIFT));

				if (famfs_page_busy(page)) {
					*index = i + j;
					found = page;
					goto out;
				}
			}
			i += run;
		}
		if (need_resched()) {
			xas_pause(&xas);
			cond_resched_rcu();
		}
	}
out:
	rcu_read_unlock();
	return found;
}

/**
 * famfs_detach_entries() - drop a file's DAX entries, referenced or not
 * @inode: a file with a map
 *
 * Writes the entries back (invalidation skips dirty ones), invalidates them,
 * and waits for the pages of any entry still there (its writeback failed)
 * before the caller truncates it.  No mapping may be left (zap them first).
 */
static void famfs_detach_entries(struct inode *inode)
{
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	struct address_space *mapping = inode->i_mapping;
	struct writeback_control wbc = {
		.sync_mode	= WB_SYNC_ALL,
		.nr_to_write	= LONG_MAX,
		.range_end	= LLONG_MAX,
	};
	pgoff_t index = 0;
	struct page *page;

	if (mapping_empty(mapping))
		return;
	dax_writeback_mapping_range(mapping, famfs_wb_dax_dev(fsi), &wbc);
	invalidate_inode_pages2(mapping);
	while ((page = famfs_next_busy(inode, &index)))
		famfs_wait_page_idle(page, inode->i_sb->s_id, NULL, false);
}

/* Is any file page of [@first, @end) on device @dev? */
static bool famfs_pages_on_dev(const struct famfs_fmap *fmap, pgoff_t first,
			       pgoff_t end, u32 dev)
{
	pgoff_t i = first;

	while (i < end) {
		u64 dev_off, len;
		u32 d;

		if (famfs_fmap_resolve(fmap, (u64)i << PAGE_SHIFT, &d, &dev_off,
				       &len))
			return false;
		if (d == dev)
			return true;
		/* one lookup per run of pages contiguous on a device */
		i += max_t(u64, len >> PAGE_SHIFT, 1);
	}
	return false;
}

/*
 * The first DAX entry of @inode at or after file page *@index that is for
 * memory of device @dev (by the file's map: an empty entry names no page
 * but is for the same memory): true, its first file page in *@index and
 * its pages in *@nr.
 */
static bool famfs_next_dev_entry(struct inode *inode, u32 dev, pgoff_t *index,
				 pgoff_t *nr)
{
	const struct famfs_fmap *fmap = FAMFS_I(inode)->fmap;
	XA_STATE(xas, &inode->i_mapping->i_pages, *index);
	bool found = false;
	void *entry;

	rcu_read_lock();
	xas_for_each(&xas, entry, ULONG_MAX) {
		pgoff_t base, n;

		if (xas_retry(&xas, entry) || !xa_is_value(entry))
			continue;
		/* A PMD entry covers 2 MiB of the file. */
		n = 1UL << xa_get_order(xas.xa, xas.xa_index);
		base = round_down(xas.xa_index, n);
		if (famfs_pages_on_dev(fmap, base, base + n, dev)) {
			*index = base;
			*nr = n;
			found = true;
			break;
		}
		if (need_resched()) {
			xas_pause(&xas);
			cond_resched_rcu();
		}
	}
	rcu_read_unlock();
	return found;
}

/**
 * famfs_detach_dev() - drop a file's DAX entries for one device's memory
 * @inode: a file with a map, on a failed mount; no mapping of it left
 * @dev: the device going away
 *
 * For the removal of device @dev (removal.c): every entry for memory of
 * @dev goes, referenced or not, so nothing looks at its pages once they are
 * gone; the removal waits for them itself.  The file's entries for the
 * other devices stay: eviction must still see which of their pages are
 * referenced (famfs_pins_evict()), else the file's memory there would be
 * given back while a pipe shows it.  (No entry is for memory of two
 * devices: a PMD entry needs 2 MiB contiguous on one device.)
 *
 * Each entry is invalidated after a writeback (invalidation skips dirty
 * entries).  One that a fault in flight from before the failure dirtied
 * again is written back once more; one whose writeback keeps failing is
 * truncated once its pages are idle (truncation WARNs on a referenced page).
 */
void famfs_detach_dev(struct inode *inode, u32 dev)
{
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	struct address_space *mapping = inode->i_mapping;
	struct writeback_control wbc = {
		.sync_mode	= WB_SYNC_ALL,
		.nr_to_write	= LONG_MAX,
		.range_end	= LLONG_MAX,
	};
	pgoff_t index = 0, nr, i;
	struct page *page;
	int tries = 0;

	if (mapping_empty(mapping))
		return;
	dax_writeback_mapping_range(mapping, famfs_wb_dax_dev(fsi), &wbc);
	while (famfs_next_dev_entry(inode, dev, &index, &nr)) {
		loff_t start = (loff_t)index << PAGE_SHIFT;
		loff_t end = ((loff_t)(index + nr) << PAGE_SHIFT) - 1;

		if (invalidate_inode_pages2_range(mapping, index,
						  index + nr - 1) &&
		    ++tries < 3) {
			wbc.nr_to_write = LONG_MAX;
			wbc.range_start = start;
			wbc.range_end = end;
			dax_writeback_mapping_range(mapping,
						    famfs_wb_dax_dev(fsi), &wbc);
			continue;
		}
		if (tries >= 3) {
			for (i = index;
			     (page = famfs_next_busy(inode, &i)) && i < index + nr;)
				famfs_wait_page_idle(page, inode->i_sb->s_id,
						     NULL, false);
			truncate_inode_pages_range(mapping, start, end);
		}
		index += nr;
		tries = 0;
	}
}

/* Remember @pfn as referenced in @fmap; -ENOMEM if there is no room. */
static int famfs_note_busy(struct famfs_fmap *fmap, unsigned long pfn)
{
	if (fmap->nr_busy == fmap->max_busy) {
		unsigned int max = max(16U, 2 * fmap->max_busy);
		unsigned long *p;

		if (max <= fmap->max_busy)
			return -ENOMEM;
		p = kvrealloc(fmap->busy_pfns, fmap->max_busy * sizeof(*p),
			      max * sizeof(*p), GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		fmap->busy_pfns = p;
		fmap->max_busy = max;
	}
	fmap->busy_pfns[fmap->nr_busy++] = pfn;
	return 0;
}

/**
 * famfs_pins_evict() - see which pages of a file being evicted are in use
 * @inode: the file, with a map; nothing maps it any more
 *
 * Records the referenced pages in the map and drops the DAX entries without
 * truncate's WARN.  If the record cannot grow, that page is waited for.
 *
 * Return: true if the map must stay reserved (famfs_zombie_add()).
 */
bool famfs_pins_evict(struct inode *inode)
{
	struct famfs_sb_info *fsi = FAMFS_SB(inode->i_sb);
	struct famfs_fmap *fmap = FAMFS_I(inode)->fmap;
	pgoff_t index = 0;
	struct page *page;

	/* Files whose pages were never mapped (1 GiB mappings: pud.c). */
	if (mapping_empty(inode->i_mapping) && !famfs_pud_tracked(inode))
		return false;
	/*
	 * Once a device is gone its entries are all gone too, but a fault
	 * that failed since may have left an empty one: no page of it to look
	 * at, and none must be looked at (famfs_zombies_gone(),
	 * famfs_next_busy() skips them).
	 */
	down_read(&fsi->pages_rwsem);
	while ((page = famfs_next_busy(inode, &index))) {
		if (famfs_note_busy(fmap, page_to_pfn(page)))
			famfs_wait_page_idle(page, inode->i_sb->s_id, NULL,
					     false);
		index++;
	}
	/* Pages of 1 GiB mappings have no DAX entry. */
	for (index = 0; (page = famfs_pud_next_busy(inode, &index)); index++)
		if (famfs_note_busy(fmap, page_to_pfn(page)))
			famfs_wait_page_idle(page, inode->i_sb->s_id, NULL,
					     false);
	if (fmap->nr_busy)
		famfs_detach_entries(inode);
	up_read(&fsi->pages_rwsem);
	return fmap->nr_busy;
}

/*
 * Wait until no zombie is left.  With @may_stop, a task that must not wait
 * (see famfs_zombies_unmount()) does not, and a fatal signal ends the wait:
 * -EINTR, and zombies are left.
 */
static int famfs_zombies_wait(struct famfs_sb_info *fsi, bool may_stop)
{
	bool logged = false;

	for (;;) {
		struct famfs_fmap *fmap;
		struct page *page = NULL;
		unsigned long n = 0, ino = 0;
		char what[40];

		mutex_lock(&fsi->map_lock);
		famfs_zombies_reap(fsi);
		list_for_each_entry(fmap, &fsi->zombies, zombie) {
			n += fmap->nr_busy;
			if (!page) {
				page = pfn_to_page(fmap->busy_pfns[fmap->nr_busy - 1]);
				ino = fmap->ino;
			}
		}
		mutex_unlock(&fsi->map_lock);
		if (!page)
			return 0;
		if (may_stop && (fatal_signal_pending(current) ||
				 (current->flags & (PF_EXITING | PF_KTHREAD))))
			return -EINTR;
		snprintf(what, sizeof(what), "memory of evicted inode %lu", ino);
		if (!logged)
			pr_warn("famfs (%s): unmount waiting for %lu referenced pages of evicted files (held by a pipe, O_DIRECT or another pin), the first %#lx in the %s\n",
				fsi->id, n, page_to_pfn(page), what);
		logged = true;
		if (famfs_wait_page_idle(page, fsi->id, what, may_stop))
			return -EINTR;
	}
}

static struct workqueue_struct *famfs_pins_wq;

/* An unmount that could not wait for its zombies: see famfs_zombies_unmount(). */
static void famfs_zombies_work(struct work_struct *work)
{
	struct famfs_sb_info *fsi = container_of(work, struct famfs_sb_info,
						 zombie_work);

	famfs_zombies_wait(fsi, false);
	pr_info("famfs (%s): the last referenced page of the unmounted file system was released: the device is free\n",
		fsi->id);
	WARN_ON_ONCE(!RB_EMPTY_ROOT(&fsi->ext_tree) || fsi->mapped_bytes);
	famfs_backing_close(fsi);
	kfree(fsi);
	/* famfs_pins_exit() waits for the rest of this function. */
	module_put(THIS_MODULE);
}

/**
 * famfs_zombies_unmount() - unmount: wait until no zombie is left
 * @fsi: the mount, every inode evicted; its super block is going away
 *
 * The backing is still open, so the pages are there to look at; device
 * removal meanwhile waits for the backing to be closed.
 *
 * The wait ends on SIGKILL, and a task that is exiting or a kernel thread
 * does not wait at all: the page may be held by the exiting task's own pipe,
 * closed only after this (the last mntput() and the last fput() of an exit
 * both run as task work, the later one first), and a kworker (lazy unmount)
 * must not be blocked for as long as user space likes.  Then @fsi outlives
 * its super block: a worker waits for the pages and closes the backing, so
 * the device stays held (a new mount of it gets EBUSY) and the module
 * loaded until the pages are released.
 *
 * Return: true if @fsi is the caller's to close and free, false if the
 * worker has it.
 */
bool famfs_zombies_unmount(struct famfs_sb_info *fsi)
{
	unsigned long n = 0;
	struct famfs_fmap *fmap;

	strscpy(fsi->id, fsi->sb->s_id, sizeof(fsi->id));
	if (!famfs_zombies_wait(fsi, true))
		return true;

	mutex_lock(&fsi->map_lock);
	list_for_each_entry(fmap, &fsi->zombies, zombie)
		n += fmap->nr_busy;
	mutex_unlock(&fsi->map_lock);
	pr_warn("famfs (%s): unmount not waiting (%s): the device stays held until %lu referenced pages of evicted files are released\n",
		fsi->id, current->flags & PF_KTHREAD ? "kernel thread" :
		current->flags & PF_EXITING ? "task exiting" : "killed", n);
	/* The super block goes now (famfs_backing_gone(), famfs_fail_range()). */
	mutex_lock(&famfs_holder_lock);
	fsi->sb = NULL;
	mutex_unlock(&famfs_holder_lock);
	/* Still held by the unmount, through the file system type. */
	__module_get(THIS_MODULE);
	INIT_WORK(&fsi->zombie_work, famfs_zombies_work);
	queue_work(famfs_pins_wq, &fsi->zombie_work);
	return false;
}

int famfs_pins_init(void)
{
	famfs_pins_wq = alloc_workqueue("famfs_pins", WQ_UNBOUND, 0);
	return famfs_pins_wq ? 0 : -ENOMEM;
}

/* Every worker has dropped its module reference, maybe not returned yet. */
void famfs_pins_exit(void)
{
	destroy_workqueue(famfs_pins_wq);
}

/**
 * famfs_zombies_gone() - a device is gone: forget the zombies' pages on it
 * @fsi: the mount
 * @b: the device (the primary or a member)
 *
 * The caller waited for every page of the device (famfs_wait_range_idle());
 * from now on no page of it may be looked at.  Pages of the mount's other
 * devices are still waited for.
 */
void famfs_zombies_gone(struct famfs_sb_info *fsi, struct famfs_backing *b)
{
	/* Waits for evictions looking at pages (famfs_pins_evict()). */
	down_write(&fsi->pages_rwsem);
	mutex_lock(&fsi->map_lock);
	WRITE_ONCE(b->pages_gone, true);
	famfs_zombies_reap(fsi);
	mutex_unlock(&fsi->map_lock);
	up_write(&fsi->pages_rwsem);
}

/**
 * famfs_wait_range_idle() - wait until no page of a device is referenced
 * @fsi: the mount whose device it is, to say whose pages are waited for;
 *	 NULL if there is none (an unmount let go of it)
 * @who: the device, for messages
 * @pfn: its first page
 * @nr: its pages
 *
 * famfs_wait_pages_idle(), naming the file whose memory a page is.
 */
void famfs_wait_range_idle(struct famfs_sb_info *fsi, const char *who,
			   unsigned long pfn, unsigned long nr)
{
	famfs_wait_pages_idle(who, pfn, nr, fsi ? famfs_pfn_owner : NULL, fsi);
}

/* Queue @work where famfs_pins_exit() waits for it (removal.c's removals). */
void famfs_pins_queue(struct work_struct *work)
{
	queue_work(famfs_pins_wq, work);
}
