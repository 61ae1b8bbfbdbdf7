// SPDX-License-Identifier: GPL-2.0
/*
 * Provokes kernel failures on purpose, so that the test harness can prove it
 * notices them (tests/qemu/suites/selftest.sh).  Only ever loaded inside a
 * QEMU guest.  mode=warn: WARN() once; mode=oops: NULL dereference.
 * Loading always fails with -EAGAIN afterwards, so it can be loaded again.
 */
#include <linux/module.h>
#include <linux/string.h>

static char *mode = "warn";
module_param(mode, charp, 0444);

static int __init famfs_selftest_init(void)
{
	if (!strcmp(mode, "warn"))
		WARN(1, "famfs_selftest: deliberate warning\n");
	if (!strcmp(mode, "oops"))
		*(volatile int *)NULL = 1;
	return -EAGAIN;
}
module_init(famfs_selftest_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("famfs test harness self-test: deliberate WARN or oops");
