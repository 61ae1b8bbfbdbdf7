// SPDX-License-Identifier: GPL-2.0
/* fsck.famfs's fsck(8) conventions: -n/-y/-a/-p modes (only one of them),
 * -f/-v, anything else refused; famfs fsck results as fsck(8) exit codes. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "th.h"

static char reason[FAMFS_REASON_LEN];

/* opts "nyf": feed each option in turn; 0 or the first error */
static int feed(struct famfs_fsck8 *o, const char *opts)
{
	memset(o, 0, sizeof(*o));
	reason[0] = '\0';
	for (; *opts; opts++) {
		int rc = famfs_fsck8_opt(o, *opts, reason);

		if (rc)
			return rc;
	}
	return 0;
}

static void test_no_option_checks(void **state)
{
	struct famfs_fsck8 o;

	(void)state;
	assert_int_equal(feed(&o, ""), 0);
	assert_int_equal(o.mode, FAMFS_FSCK8_CHECK);
	assert_false(o.force);
	assert_int_equal(o.verbose, 0);
}

static void test_modes(void **state)
{
	struct famfs_fsck8 o;

	(void)state;
	assert_int_equal(feed(&o, "n"), 0);
	assert_int_equal(o.mode, FAMFS_FSCK8_NO);
	assert_int_equal(o.mode_opt, 'n');
	assert_int_equal(feed(&o, "y"), 0);
	assert_int_equal(o.mode, FAMFS_FSCK8_YES);
	assert_int_equal(feed(&o, "a"), 0);
	assert_int_equal(o.mode, FAMFS_FSCK8_AUTO);
	assert_int_equal(o.mode_opt, 'a');
	assert_int_equal(feed(&o, "p"), 0);
	assert_int_equal(o.mode, FAMFS_FSCK8_AUTO);
	assert_int_equal(o.mode_opt, 'p');
}

static void test_same_mode_twice_ok(void **state)
{
	struct famfs_fsck8 o;

	(void)state;
	assert_int_equal(feed(&o, "nn"), 0);
	assert_int_equal(o.mode, FAMFS_FSCK8_NO);
	assert_int_equal(feed(&o, "ap"), 0);	/* -a and -p are one mode */
	assert_int_equal(o.mode, FAMFS_FSCK8_AUTO);
	assert_int_equal(feed(&o, "pa"), 0);
	assert_int_equal(o.mode, FAMFS_FSCK8_AUTO);
}

static void test_two_modes_refused(void **state)
{
	static const char *const bad[] = { "ny", "yn", "na", "an", "yp", "py", "nfy" };
	struct famfs_fsck8 o;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(feed(&o, bad[i]), -EINVAL);
		assert_non_null(strstr(reason, "only one of -n, -y, -a/-p"));
	}
	feed(&o, "ny");
	assert_string_equal(reason, "-n and -y: only one of -n, -y, -a/-p may be given");
}

static void test_force_verbose(void **state)
{
	struct famfs_fsck8 o;

	(void)state;
	assert_int_equal(feed(&o, "fvvn"), 0);
	assert_true(o.force);
	assert_int_equal(o.verbose, 2);
	assert_int_equal(o.mode, FAMFS_FSCK8_NO);
}

static void test_unknown_refused(void **state)
{
	struct famfs_fsck8 o;

	(void)state;
	assert_int_equal(feed(&o, "r"), -EINVAL);
	assert_non_null(strstr(reason, "-r"));
	assert_int_equal(feed(&o, "nC"), -EINVAL);
	assert_int_equal(famfs_fsck8_opt(&o, 'x', NULL), -EINVAL);	/* no reason buffer */
}

static void test_exit_codes(void **state)
{
	(void)state;
	assert_int_equal(famfs_fsck8_exit(FAMFS_EXIT_OK), 0);
	assert_int_equal(famfs_fsck8_exit(FAMFS_EXIT_PROBLEM), 4);
	assert_int_equal(famfs_fsck8_exit(FAMFS_EXIT_ERROR), 8);
	assert_int_equal(famfs_fsck8_exit(FAMFS_EXIT_USAGE), 16);
	assert_int_equal(famfs_fsck8_exit(42), 8);
	/* fsck(8)'s values, by name */
	assert_int_equal(FSCK_EX_CORRECTED | FSCK_EX_REBOOT | FSCK_EX_UNCORRECTED |
			 FSCK_EX_ERROR | FSCK_EX_USAGE | FSCK_EX_CANCELED | FSCK_EX_LIBRARY, 191);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_option_checks),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_same_mode_twice_ok),
		cmocka_unit_test(test_two_modes_refused),
		cmocka_unit_test(test_force_verbose),
		cmocka_unit_test(test_unknown_refused),
		cmocka_unit_test(test_exit_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
