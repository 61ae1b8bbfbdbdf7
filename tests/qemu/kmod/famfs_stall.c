// SPDX-License-Identifier: GPL-2.0
/*
 * famfs_stall: holds famfs.ko at one point of a pmem device's removal for
 * as long as a test likes, to keep a race window open on purpose
 * (tests/qemu/suites/hostile_pins.sh).  Only ever loaded inside a QEMU
 * guest.
 *
 * While it is loaded, every call that famfs.ko makes to get_dev_pagemap()
 * (famfs_hold_pgmap(): the removal of a pmem device, once famfs has found
 * the device's holder and let go of its holder lock) is sent, with ftrace as
 * livepatch does, to famfs_stall_get_dev_pagemap(), which sleeps until 1 is
 * written to /sys/module/famfs_stall/parameters/go (at most 60 s) and then
 * calls the real one.  /sys/module/famfs_stall/parameters/stalled counts
 * the calls that went to sleep.  Calls from anywhere else are left alone.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/memremap.h>
#include <linux/module.h>
#include <linux/string.h>

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

static struct dev_pagemap *famfs_stall_get_dev_pagemap(unsigned long pfn,
						       struct dev_pagemap *pgmap)
{
	int i;

	atomic_inc(&famfs_stall_count);
	pr_info("famfs_stall: famfs.ko's call of get_dev_pagemap() sleeps until go\n");
	for (i = 0; i < 600 && !READ_ONCE(go); i++)
		msleep(100);
	/* From this module: the handler lets this call through. */
	return get_dev_pagemap(pfn, pgmap);
}

static void notrace famfs_stall_handler(unsigned long ip,
					unsigned long parent_ip,
					struct ftrace_ops *ops,
					struct ftrace_regs *fregs)
{
	char sym[KSYM_SYMBOL_LEN];

	if (READ_ONCE(go))
		return;
	sprint_symbol(sym, parent_ip);
	if (strstr(sym, " [famfs]"))
		ftrace_instruction_pointer_set(fregs,
				(unsigned long)famfs_stall_get_dev_pagemap);
}

static struct ftrace_ops famfs_stall_fops = {
	.func	= famfs_stall_handler,
	.flags	= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
		  FTRACE_OPS_FL_RECURSION,
};

static int __init famfs_stall_init(void)
{
	static unsigned char name[] = "get_dev_pagemap";
	int rc;

	rc = ftrace_set_filter(&famfs_stall_fops, name, strlen(name), 0);
	if (rc) {
		pr_err("famfs_stall: cannot trace get_dev_pagemap: %d\n", rc);
		return rc;
	}
	rc = register_ftrace_function(&famfs_stall_fops);
	if (rc)
		pr_err("famfs_stall: cannot redirect get_dev_pagemap: %d\n", rc);
	return rc;
}

static void __exit famfs_stall_exit(void)
{
	unregister_ftrace_function(&famfs_stall_fops);
}

module_init(famfs_stall_init);
module_exit(famfs_stall_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("famfs tests: stall famfs.ko's get_dev_pagemap() calls until told to go");
