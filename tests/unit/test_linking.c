// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process costs (issue 17): every famfs command is a new process, so
 * what the loader does before main counts for each.  Only famfs mkfs
 * probes other signatures with libblkid (lib/dev/probe.c): it loads it then
 * (dlopen), no other command pays for it.  Checked on the built tool's
 * dynamic section (readelf -d), and that the probe still works (the
 * probe tests in test_probe.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

/* the NEEDED libraries of the famfs-cli next to this test (build/unit/..) */
static void needed(char *out, size_t n)
{
	char self[4096], cmd[4300], line[512];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *p;

	assert_true(len > 0);
	self[len] = '\0';
	*strrchr(self, '/') = '\0';	/* build/unit */
	snprintf(cmd, sizeof(cmd), "readelf -d '%s/../famfs-cli'", self);
	p = popen(cmd, "r");
	assert_non_null(p);
	out[0] = '\0';
	while (fgets(line, sizeof(line), p))
		if (strstr(line, "(NEEDED)"))
			strncat(out, line, n - strlen(out) - 1);
	assert_int_equal(pclose(p), 0);
}

static void test_no_blkid_at_load(void **state)
{
	char libs[4096];

	(void)state;
	needed(libs, sizeof(libs));
	print_message("# NEEDED: %s", libs);
	assert_non_null(strstr(libs, "libc.so"));	/* it did read them */
	assert_null(strstr(libs, "libblkid"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_blkid_at_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
