// SPDX-License-Identifier: GPL-2.0
/*
 * famfs_stall_pud: holds a 1 GiB (PUD) fault of famfs.ko at two points, for
 * as long as a test likes, to keep a race window with a device removal
 * open on purpose (tests/qemu/suites/pud.sh, "holdrace").  Only ever loaded
 * inside a QEMU guest.
 *
 * While it is loaded, famfs.ko's calls of
 *   - vmf_insert_pfn_pud_prot() (the fault has checked that the mount has
 *     not failed, and is about to insert its entry) sleep until 1 is written
 *     to /sys/module/famfs_stall_pud/parameters/go_insert;
 *   - unmap_mapping_range() from its PUD fault (the fault inserted its
 *     entry, then found the mount failed, and zaps its own GiB) sleep until
 *     1 is written to .../go_zap;
 * at most 60 s each, then they call the real function.  stalled_insert and
 * stalled_zap count the calls that went to sleep.  They are sent there
 * with ftrace, as famfs_stall.ko does; calls from anywhere else are left
 * alone.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/huge_mm.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pfn_t.h>
#include <linux/string.h>

static bool go_insert;
module_param(go_insert, bool, 0644);
MODULE_PARM_DESC(go_insert, "1: let the stalled PUD inserts (and every later one) go on");

static bool go_zap;
module_param(go_zap, bool, 0644);
MODULE_PARM_DESC(go_zap, "1: let the stalled zaps of a PUD fault (and every later one) go on");

static atomic_t stalled_insert_count = ATOMIC_INIT(0);
static atomic_t stalled_zap_count = ATOMIC_INIT(0);

static int stall_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops stall_count_ops = {
	.get	= stall_get,
};
module_param_cb(stalled_insert, &stall_count_ops, &stalled_insert_count,
		0444);
MODULE_PARM_DESC(stalled_insert, "PUD inserts of famfs.ko that went to sleep");
module_param_cb(stalled_zap, &stall_count_ops, &stalled_zap_count, 0444);
MODULE_PARM_DESC(stalled_zap, "zaps of famfs.ko's PUD fault that went to sleep");

static void stall_wait(bool *go, atomic_t *count, const char *what)
{
	int i;

	atomic_inc(count);
	pr_info("famfs_stall_pud: famfs.ko's call of %s() sleeps until go\n",
		what);
	for (i = 0; i < 600 && !READ_ONCE(*go); i++)
		msleep(100);
}

static vm_fault_t stall_insert(struct vm_fault *vmf, pfn_t pfn,
			       pgprot_t pgprot, bool write)
{
	stall_wait(&go_insert, &stalled_insert_count,
		   "vmf_insert_pfn_pud_prot");
	/* From this module: the handler lets this call through. */
	return vmf_insert_pfn_pud_prot(vmf, pfn, pgprot, write);
}

static void stall_zap(struct address_space *mapping, loff_t const holebegin,
		      loff_t const holelen, int even_cows)
{
	stall_wait(&go_zap, &stalled_zap_count, "unmap_mapping_range");
	unmap_mapping_range(mapping, holebegin, holelen, even_cows);
}

static void notrace stall_handler(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *ops,
				  struct ftrace_regs *fregs)
{
	char sym[KSYM_SYMBOL_LEN], parent[KSYM_SYMBOL_LEN];

	sprint_symbol(parent, parent_ip);
	if (!strstr(parent, " [famfs]"))
		return;
	sprint_symbol(sym, ip);
	if (!strncmp(sym, "vmf_insert_pfn_pud_prot+", 24)) {
		if (!READ_ONCE(go_insert))
			ftrace_instruction_pointer_set(fregs,
					(unsigned long)stall_insert);
	} else if (!strncmp(sym, "unmap_mapping_range+", 20) &&
		   (!strncmp(parent, "famfs_pud_insert+", 17) ||
		    !strncmp(parent, "famfs_pud_fault+", 16))) {
		if (!READ_ONCE(go_zap))
			ftrace_instruction_pointer_set(fregs,
					(unsigned long)stall_zap);
	}
}

static struct ftrace_ops stall_fops = {
	.func	= stall_handler,
	.flags	= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
		  FTRACE_OPS_FL_RECURSION,
};

static int __init stall_init(void)
{
	static unsigned char insert[] = "vmf_insert_pfn_pud_prot";
	static unsigned char zap[] = "unmap_mapping_range";
	int rc;

	rc = ftrace_set_filter(&stall_fops, insert, strlen(insert), 0);
	if (!rc)
		rc = ftrace_set_filter(&stall_fops, zap, strlen(zap), 0);
	if (rc) {
		pr_err("famfs_stall_pud: cannot trace %s and %s: %d\n",
		       insert, zap, rc);
		return rc;
	}
	rc = register_ftrace_function(&stall_fops);
	if (rc)
		pr_err("famfs_stall_pud: cannot redirect them: %d\n", rc);
	return rc;
}

static void __exit stall_exit(void)
{
	unregister_ftrace_function(&stall_fops);
}

module_init(stall_init);
module_exit(stall_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("famfs tests: stall famfs.ko's PUD fault before its insert and in its own zap until told to go");
