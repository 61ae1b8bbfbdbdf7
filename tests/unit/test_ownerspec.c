// SPDX-License-Identifier: GPL-2.0
/* famfs chown's OWNER[:GROUP] (lib/base/ownerspec.c): names and numbers;
 * OWNER: gives OWNER's login group as chown(1) does -- for a number too
 * (looked up), and one with no login group here is refused, never taken
 * as group 0. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "th.h"

static void test_owner_forms(void **state)
{
	uint32_t v, u, g;

	(void)state;
	assert_int_equal(famfs_owner_parse("1234", &v, &u, &g, NULL), 0);
	assert_int_equal(v, FAMFS_SETATTR_UID);
	assert_int_equal(u, 1234);
	assert_int_equal(famfs_owner_parse("1234:55", &v, &u, &g, NULL), 0);
	assert_int_equal(v, FAMFS_SETATTR_UID | FAMFS_SETATTR_GID);
	assert_int_equal(g, 55);
	assert_int_equal(famfs_owner_parse(":55", &v, &u, &g, NULL), 0);
	assert_int_equal(v, FAMFS_SETATTR_GID);
	assert_int_equal(famfs_owner_parse("root", &v, &u, &g, NULL), 0);
	assert_int_equal(u, 0);
	assert_int_equal(famfs_owner_parse(":", &v, &u, &g, NULL), -EINVAL);
	assert_int_equal(famfs_owner_parse("4294967295", &v, &u, &g, NULL), -EINVAL);
	assert_int_equal(famfs_owner_parse("no-such-user-here", &v, &u, &g, NULL), -EINVAL);
}

/* a user of this host whose login group is not 0, by name and by number */
static void test_owner_login_group(void **state)
{
	struct passwd *p;
	uint32_t v, u, g, uid = 0, gid = 0;
	char name[64] = "", spec[80];

	(void)state;
	setpwent();
	while ((p = getpwent()))
		if (p->pw_gid && p->pw_uid != UINT32_MAX && strlen(p->pw_name) < 40) {
			snprintf(name, sizeof(name), "%s", p->pw_name);
			uid = p->pw_uid;
			gid = p->pw_gid;
			break;
		}
	endpwent();
	if (!name[0])
		skip();
	snprintf(spec, sizeof(spec), "%s:", name);
	assert_int_equal(famfs_owner_parse(spec, &v, &u, &g, NULL), 0);
	assert_int_equal(v, FAMFS_SETATTR_UID | FAMFS_SETATTR_GID);
	assert_int_equal(u, uid);
	assert_int_equal(g, gid);
	snprintf(spec, sizeof(spec), "%u:", uid);
	assert_int_equal(famfs_owner_parse(spec, &v, &u, &g, NULL), 0);
	assert_int_equal(u, uid);
	assert_int_equal(g, gid);
}

/* a number no user of this host has: OWNER: has no login group */
static void test_owner_number_without_login_group(void **state)
{
	uint32_t v, u, g, n = 3999999;
	char spec[32];

	(void)state;
	while (getpwuid(n))
		n++;
	snprintf(spec, sizeof(spec), "%u:", n);
	assert_int_equal(famfs_owner_parse(spec, &v, &u, &g, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_forms),
		cmocka_unit_test(test_owner_login_group),
		cmocka_unit_test(test_owner_number_without_login_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
