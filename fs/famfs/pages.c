// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - waiting until nothing references a device's pages
 *
 * An fs-dax page is idle at refcount 1 (famfs_page_busy()), and put_page()
 * wakes the waiters on page->_refcount when it gets back there
 * (mm/memremap.c).  Whoever holds the page ends a wait by letting go of
 * it; root can kill it.  The waits log what they wait for, and again every
 * 10 s (the wakeups also keep the hung task detector quiet).
 *
 * Layer "dev" (scripts/layers.conf): knows pages and nothing of mounts;
 * calls no other file of famfs.  Who references a page is for the caller
 * to say (famfs_wait_pages_idle()'s @describe: pins.c names the file).
 */

#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include "famfs.h"

#define FAMFS_PIN_LOG_INTERVAL	(10 * HZ)

/**
 * famfs_wait_page_idle() - wait until nobody but its owner holds a page
 * @page: the page
 * @who: the waiter, for messages
 * @what: whose page it is, for messages; may be NULL
 * @killable: whether a fatal signal ends the wait
 *
 * Return: 0 once the page is idle, -EINTR if a fatal signal ended the wait.
 */
int famfs_wait_page_idle(struct page *page, const char *who, const char *what,
			 bool killable)
{
	unsigned int state = killable ? TASK_KILLABLE : TASK_UNINTERRUPTIBLE;
	unsigned long secs = 0;
	long rc;

	/* wait_var_event_timeout(), in @state: > 0 idle, 0 timeout, < 0 killed */
	while (!(rc = ___wait_var_event(&page->_refcount,
					___wait_cond_timeout(!famfs_page_busy(page)),
					state, 0, FAMFS_PIN_LOG_INTERVAL,
					__ret = schedule_timeout(__ret)))) {
		secs += FAMFS_PIN_LOG_INTERVAL / HZ;
		pr_warn("famfs (%s): still waiting after %lus for page %#lx (%d references)%s%s\n",
			who, secs, page_to_pfn(page), page_ref_count(page) - 1,
			what ? ": " : "", what ?: "");
	}
	return rc < 0 ? -EINTR : 0;
}

/**
 * famfs_wait_pages_idle() - wait until no page of a device is referenced
 * @who: the device, for messages
 * @pfn: its first page
 * @nr: its pages
 * @describe: writes whose page a pfn is into a buffer of FAMFS_OWNER_LEN
 *	      bytes, for messages; NULL if there is nobody to name
 * @ctx: passed on to @describe
 *
 * For removal of the device, once nothing can map its pages any more (every
 * mapping zapped, faults failing): then a page found idle stays idle, but
 * the scan is repeated anyway until a whole pass finds every page idle.
 * Linear in the size of the device; removal is rare.  Uninterruptible:
 * giving up would free the pages' memory map under the reference.
 */
void famfs_wait_pages_idle(const char *who, unsigned long pfn,
			   unsigned long nr,
			   void (*describe)(void *ctx, unsigned long pfn,
					    char *buf, size_t size),
			   void *ctx)
{
	unsigned long i, busy;
	char *what;

	what = describe ? kmalloc(FAMFS_OWNER_LEN, GFP_KERNEL) : NULL;
	do {
		busy = 0;
		for (i = 0; i < nr; i++) {
			struct page *page = pfn_to_page(pfn + i);

			if (famfs_page_busy(page)) {
				if (what)
					describe(ctx, pfn + i, what,
						 FAMFS_OWNER_LEN);
				if (!busy++)
					pr_warn("famfs (%s): removal waiting for referenced pages (held by a pipe, O_DIRECT or another pin), the first at %#lx: %s\n",
						who, pfn + i,
						what ?: "no mounted file to name");
				famfs_wait_page_idle(page, who, what, false);
			}
			if (!(i % 4096))
				cond_resched();
		}
	} while (busy);
	kfree(what);
}
