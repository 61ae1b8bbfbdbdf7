// SPDX-License-Identifier: GPL-2.0
/*
 * famfs_stall: holds calls that famfs.ko makes to a kernel function for as
 * long as a test likes, to keep a race window open on purpose.  Only ever
 * loaded inside a QEMU guest.
 *
 * Two stall points, each set at load time:
 *   target=NAME  the function whose calls from famfs.ko are held, one of
 *                get_dev_pagemap, dax_direct_access,
 *                vmf_insert_pfn_pud_prot, unmap_mapping_range
 *   caller=F,G   only calls made directly from one of these famfs.ko
 *                functions (default: any function of famfs.ko)
 *   path=F,G     only calls with one of these functions on the call stack
 *                (default: any)
 * and target2, caller2, path2 for the second point (unused by default).
 * The points' counters and switches, in /sys/module/famfs_stall/parameters:
 *   go, go2            1: let the held calls (and every later one) go on
 *   stalled, stalled2  the calls that went to sleep
 *   armed              0: hold nothing (yet); 1 by default
 *   once               1: a stall sets go when it ends (one stall only)
 *
 * A held call is sent, with ftrace as livepatch does, to this module's stand-in
 * for the target, which sleeps until go (at most 60 s) and then calls the
 * real one (from this module: the handler lets that call through).
 *
 * The suites: hostile_pins (target=get_dev_pagemap: a pmem device's removal,
 * once famfs has let go of its holder lock), pud (vmf_insert_pfn_pud_prot,
 * and unmap_mapping_range from famfs's PUD fault) and module_poison
 * (dax_direct_access on the path of famfs_cache_fmap(), armed=0 once=1).
 */
#include <linux/atomic.h>
#include <linux/dax.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/huge_mm.h>
#include <linux/kallsyms.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pfn_t.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#define STALL_DEPTH	32

struct stall_point {
	char *target;
	char *caller;
	char *path;
	bool go;
	atomic_t count;
	int to;				/* index in stall_targets[] */
	bool registered;
	struct ftrace_ops fops;
};

static bool armed = true;
module_param(armed, bool, 0644);
MODULE_PARM_DESC(armed, "0: hold nothing (yet)");

static bool once;
module_param(once, bool, 0644);
MODULE_PARM_DESC(once, "1: a stall sets go when it ends");

static int stall_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops stall_count_ops = {
	.get	= stall_get,
};

/* A point's parameters: its fields, named with the point's suffix */
#define STALL_POINT(sfx)						\
	static struct stall_point stall_point##sfx;			\
	module_param_named(target##sfx, stall_point##sfx.target, charp, 0444); \
	MODULE_PARM_DESC(target##sfx, "the function whose calls are held"); \
	module_param_named(caller##sfx, stall_point##sfx.caller, charp, 0444); \
	MODULE_PARM_DESC(caller##sfx, "F,G: only calls made directly from these"); \
	module_param_named(path##sfx, stall_point##sfx.path, charp, 0444); \
	MODULE_PARM_DESC(path##sfx, "F,G: only calls with one of these on the stack"); \
	module_param_named(go##sfx, stall_point##sfx.go, bool, 0644);	\
	MODULE_PARM_DESC(go##sfx, "1: let the held calls (and every later one) go on"); \
	module_param_cb(stalled##sfx, &stall_count_ops, &stall_point##sfx.count, \
			0444);						\
	MODULE_PARM_DESC(stalled##sfx, "calls from famfs.ko that went to sleep")

STALL_POINT();
STALL_POINT(2);

static struct stall_point *const points[] = { &stall_point, &stall_point2 };

/* @sym ("name+0x../0x.. [mod]") is one of the functions in @list ("F,G"). */
static bool stall_sym_in(const char *sym, const char *list)
{
	size_t n;

	while (*list) {
		n = strcspn(list, ",");
		if (n && !strncmp(sym, list, n) && sym[n] == '+')
			return true;
		list += n;
		if (*list)
			list++;
	}
	return false;
}

/* One of @list's functions is on the current call stack. */
static bool stall_on_path(const char *list)
{
	unsigned long entries[STALL_DEPTH];
	char sym[KSYM_SYMBOL_LEN];
	unsigned int i, nr;

	nr = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < nr; i++) {
		sprint_symbol(sym, entries[i]);
		if (stall_sym_in(sym, list))
			return true;
	}
	return false;
}

/* The stand-ins call this first: the point whose target they stand for. */
static void stall_wait(int to)
{
	struct stall_point *p = NULL;
	int i;

	for (i = 0; i < ARRAY_SIZE(points); i++)
		if (points[i]->registered && points[i]->to == to)
			p = points[i];
	if (!p || (p->path && *p->path && !stall_on_path(p->path)))
		return;
	atomic_inc(&p->count);
	pr_info("famfs_stall: famfs.ko's call of %s() sleeps until go\n",
		p->target);
	for (i = 0; i < 600 && !READ_ONCE(p->go); i++)
		msleep(100);
	/* One stall: a suite killed before it says go slows no later one. */
	if (READ_ONCE(once))
		WRITE_ONCE(p->go, true);
}

static struct dev_pagemap *stall_get_dev_pagemap(unsigned long pfn,
						 struct dev_pagemap *pgmap)
{
	stall_wait(0);
	return get_dev_pagemap(pfn, pgmap);
}

static long stall_dax_direct_access(struct dax_device *dax_dev, pgoff_t pgoff,
				    long nr_pages, enum dax_access_mode mode,
				    void **kaddr, pfn_t *pfn)
{
	stall_wait(1);
	return dax_direct_access(dax_dev, pgoff, nr_pages, mode, kaddr, pfn);
}

static vm_fault_t stall_insert_pud(struct vm_fault *vmf, pfn_t pfn,
				   pgprot_t pgprot, bool write)
{
	stall_wait(2);
	return vmf_insert_pfn_pud_prot(vmf, pfn, pgprot, write);
}

static void stall_unmap(struct address_space *mapping, loff_t const holebegin,
			loff_t const holelen, int even_cows)
{
	stall_wait(3);
	unmap_mapping_range(mapping, holebegin, holelen, even_cows);
}

/* The targets a point may name, in stall_wait()'s numbering. */
static const struct {
	const char *name;
	void *to;
} stall_targets[] = {
	{ "get_dev_pagemap", stall_get_dev_pagemap },
	{ "dax_direct_access", stall_dax_direct_access },
	{ "vmf_insert_pfn_pud_prot", stall_insert_pud },
	{ "unmap_mapping_range", stall_unmap },
};

static void notrace stall_handler(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *ops,
				  struct ftrace_regs *fregs)
{
	struct stall_point *p = container_of(ops, struct stall_point, fops);
	char parent[KSYM_SYMBOL_LEN];

	if (!READ_ONCE(armed) || READ_ONCE(p->go))
		return;
	sprint_symbol(parent, parent_ip);
	if (!strstr(parent, " [famfs]"))
		return;
	if (p->caller && *p->caller && !stall_sym_in(parent, p->caller))
		return;
	ftrace_instruction_pointer_set(fregs,
				       (unsigned long)stall_targets[p->to].to);
}

static void stall_unregister(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(points); i++) {
		if (points[i]->registered)
			unregister_ftrace_function(&points[i]->fops);
		points[i]->registered = false;
	}
}

static int stall_register(struct stall_point *p)
{
	int rc, i;

	for (i = 0; i < ARRAY_SIZE(stall_targets); i++)
		if (!strcmp(p->target, stall_targets[i].name))
			break;
	if (i == ARRAY_SIZE(stall_targets)) {
		pr_err("famfs_stall: cannot hold %s\n", p->target);
		return -EINVAL;
	}
	if (p == points[1] && points[0]->registered && points[0]->to == i) {
		pr_err("famfs_stall: %s twice\n", p->target);
		return -EINVAL;
	}
	p->to = i;
	p->fops.func = stall_handler;
	p->fops.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
			FTRACE_OPS_FL_RECURSION;
	rc = ftrace_set_filter(&p->fops, (unsigned char *)p->target,
			       strlen(p->target), 0);
	if (rc) {
		pr_err("famfs_stall: cannot trace %s: %d\n", p->target, rc);
		return rc;
	}
	rc = register_ftrace_function(&p->fops);
	if (rc) {
		pr_err("famfs_stall: cannot redirect %s: %d\n", p->target, rc);
		return rc;
	}
	p->registered = true;
	return 0;
}

static int __init stall_init(void)
{
	int rc = 0, i;

	if (!points[0]->target) {
		pr_err("famfs_stall: no target\n");
		return -EINVAL;
	}
	for (i = 0; !rc && i < ARRAY_SIZE(points); i++)
		if (points[i]->target && *points[i]->target)
			rc = stall_register(points[i]);
	if (rc)
		stall_unregister();
	return rc;
}

static void __exit stall_exit(void)
{
	stall_unregister();
}

module_init(stall_init);
module_exit(stall_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("famfs tests: hold famfs.ko's calls of a kernel function until told to go");
