// SPDX-License-Identifier: GPL-2.0
/* famfs_kernel_held() (lib/dev/kernel.c, issue 29): FAMFSIOC_HELD through
 * famfs_kernel->held with the header the contract asks for (count, flags
 * 0, a pointer to the caller's ranges), each range's outputs cleared
 * first, the answers left in the caller's ranges; -E2BIG above
 * FAMFS_HELD_MAX and 0 for no ranges without asking; -ENOTTY from a module
 * without the call; the module's errors as they are. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "th.h"

static struct famfs_kernel_ops ops;
static struct famfs_ioc_held seen;
static struct famfs_ioc_held_range seen_r[4];
static int calls, answer;

static int m_held(int fd, struct famfs_ioc_held *h)
{
	struct famfs_ioc_held_range *r = (void *)(uintptr_t)h->ranges;

	(void)fd;
	calls++;
	seen = *h;
	for (uint32_t i = 0; i < h->count && i < 4; i++) {
		seen_r[i] = r[i];
		r[i].held = r[i].len / 2;
		r[i].flags = FAMFS_HELD_ZOMBIE;
	}
	return answer;
}

static int setup(void **state)
{
	(void)state;
	ops = th_mock_kernel;
	ops.held = m_held;
	famfs_kernel = &ops;
	calls = answer = 0;
	memset(&seen, 0, sizeof(seen));
	memset(seen_r, 0, sizeof(seen_r));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	famfs_kernel = &th_mock_kernel;
	return 0;
}

static void test_through_ioctl(void **state)
{
	struct famfs_ioc_held_range r[2] = {
		{ .dev = 1, .flags = 7, .offset = 4096, .len = 8192, .held = 99 },
		{ .dev = 0, .offset = 1 << 21, .len = 1 << 21 },
	};

	(void)state;
	assert_int_equal(famfs_kernel_held(5, r, 2), 0);
	assert_int_equal(calls, 1);
	assert_int_equal(seen.count, 2);
	assert_int_equal(seen.flags, 0);
	assert_true(seen.ranges == (uint64_t)(uintptr_t)r);
	/* the outputs were cleared before the call, the inputs kept */
	assert_int_equal(seen_r[0].flags, 0);
	assert_int_equal(seen_r[0].held, 0);
	assert_int_equal(seen_r[0].dev, 1);
	assert_int_equal(seen_r[0].offset, 4096);
	assert_int_equal(seen_r[0].len, 8192);
	/* the answers are the caller's */
	assert_int_equal(r[0].held, 4096);
	assert_int_equal(r[0].flags, FAMFS_HELD_ZOMBIE);
	assert_int_equal(r[1].held, 1 << 20);
}

static void test_limits(void **state)
{
	static struct famfs_ioc_held_range r[FAMFS_HELD_MAX + 1];

	(void)state;
	assert_int_equal(famfs_kernel_held(5, r, FAMFS_HELD_MAX + 1), -E2BIG);
	assert_int_equal(famfs_kernel_held(5, r, 0), 0);
	assert_int_equal(calls, 0);
	r[0].len = 4096;
	assert_int_equal(famfs_kernel_held(5, r, FAMFS_HELD_MAX), 0);
	assert_int_equal(calls, 1);
	assert_int_equal(seen.count, FAMFS_HELD_MAX);
}

static void test_errors(void **state)
{
	struct famfs_ioc_held_range r = { .len = 4096 };

	(void)state;
	answer = -EINVAL;
	assert_int_equal(famfs_kernel_held(5, &r, 1), -EINVAL);
	answer = -EPERM;
	assert_int_equal(famfs_kernel_held(5, &r, 1), -EPERM);
	/* an older famfs.ko: no such call */
	ops.held = NULL;
	assert_int_equal(famfs_kernel_held(5, &r, 1), -ENOTTY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_through_ioctl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
