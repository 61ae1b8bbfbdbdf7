// SPDX-License-Identifier: GPL-2.0
/*
 * famfs_stall_cache: holds famfs.ko's cache maintenance of a new map
 * (MAP_CREATE_V3 with FAMFS_IOC_MAP_INVALIDATE on a noncoherent mount:
 * famfs_cache_fmap(), the map in the extent tree and not yet published) for
 * as long as a test likes, to keep that window open on purpose
 * (tests/qemu/suites/module_poison.sh, progs/module_poison.c unpublished).
 * Only ever loaded inside a QEMU guest.
 *
 * While /sys/module/famfs_stall_cache/parameters/armed is 1 and go is 0,
 * every call that famfs.ko makes to dax_direct_access() is sent, with
 * ftrace as livepatch does, to famfs_stall_cache_dax_direct_access(), which
 * sleeps until 1 is written to go (at most 60 s, after which go is set: one
 * stall only) and then calls the real one; stalled counts the calls that
 * went to sleep.  Calls from anywhere else are left alone.
 */
#include <linux/atomic.h>
#include <linux/dax.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/string.h>

static bool armed;
module_param(armed, bool, 0644);
MODULE_PARM_DESC(armed, "1: stall famfs.ko's calls of dax_direct_access()");

static bool go;
module_param(go, bool, 0644);
MODULE_PARM_DESC(go, "1: let the stalled calls (and every later one) go on");

static atomic_t famfs_stall_count = ATOMIC_INIT(0);

static int famfs_stall_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&famfs_stall_count));
}

static const struct kernel_param_ops famfs_stall_ops = {
	.get	= famfs_stall_get,
};
module_param_cb(stalled, &famfs_stall_ops, NULL, 0444);
MODULE_PARM_DESC(stalled, "calls from famfs.ko that went to sleep");

static long famfs_stall_cache_dax_direct_access(struct dax_device *dax_dev,
						pgoff_t pgoff, long nr_pages,
						enum dax_access_mode mode,
						void **kaddr, pfn_t *pfn)
{
	int i;

	atomic_inc(&famfs_stall_count);
	pr_info("famfs_stall_cache: famfs.ko's call of dax_direct_access() sleeps until go\n");
	for (i = 0; i < 600 && !READ_ONCE(go); i++)
		msleep(100);
	/* One stall: a suite killed before it says go slows no later one. */
	WRITE_ONCE(go, true);
	/* From this module: the handler lets this call through. */
	return dax_direct_access(dax_dev, pgoff, nr_pages, mode, kaddr, pfn);
}

static void notrace famfs_stall_handler(unsigned long ip,
					unsigned long parent_ip,
					struct ftrace_ops *ops,
					struct ftrace_regs *fregs)
{
	unsigned long to = (unsigned long)famfs_stall_cache_dax_direct_access;
	char sym[KSYM_SYMBOL_LEN];

	if (!READ_ONCE(armed) || READ_ONCE(go))
		return;
	sprint_symbol(sym, parent_ip);
	if (strstr(sym, " [famfs]"))
		ftrace_instruction_pointer_set(fregs, to);
}

static struct ftrace_ops famfs_stall_fops = {
	.func	= famfs_stall_handler,
	.flags	= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
		  FTRACE_OPS_FL_RECURSION,
};

static int __init famfs_stall_init(void)
{
	static unsigned char name[] = "dax_direct_access";
	int rc;

	rc = ftrace_set_filter(&famfs_stall_fops, name, strlen(name), 0);
	if (rc) {
		pr_err("famfs_stall_cache: cannot trace dax_direct_access: %d\n",
		       rc);
		return rc;
	}
	rc = register_ftrace_function(&famfs_stall_fops);
	if (rc)
		pr_err("famfs_stall_cache: cannot redirect dax_direct_access: %d\n",
		       rc);
	return rc;
}

static void __exit famfs_stall_exit(void)
{
	unregister_ftrace_function(&famfs_stall_fops);
}

module_init(famfs_stall_init);
module_exit(famfs_stall_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("famfs tests: stall famfs.ko's dax_direct_access() calls until told to go");
