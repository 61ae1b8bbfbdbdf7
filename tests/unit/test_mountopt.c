// SPDX-License-Identifier: GPL-2.0
/* mount -o options: MS_* flags, fstab-only options dropped, famfs.ko's
 * options passed on, unknown ones refused (or dropped when sloppy). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "th.h"

#define NOSUID_NODEV (MS_NOSUID | MS_NODEV)

static struct famfs_mount_opts o;
static char reason[FAMFS_REASON_LEN];

static int parse(const char *s, bool sloppy)
{
	reason[0] = '\0';
	return famfs_mount_opts_parse(s, sloppy, &o, reason);
}

static void test_none(void **state)
{
	(void)state;
	assert_int_equal(parse(NULL, false), 0);
	assert_int_equal(o.flags, NOSUID_NODEV);	/* the default */
	assert_false(o.ro);
	assert_string_equal(o.data, "");
	assert_int_equal(parse("", false), 0);
	assert_int_equal(parse(",,", false), 0);
	assert_string_equal(o.data, "");
}

static void test_fstab_only_dropped(void **state)
{
	(void)state;
	assert_int_equal(parse("defaults,auto,noauto,user,nouser,users,owner,group,"
			       "nofail,_netdev,x-systemd.automount,comment=hi", false), 0);
	assert_int_equal(o.flags, NOSUID_NODEV);
	assert_string_equal(o.data, "");
}

static void test_ro_rw(void **state)
{
	(void)state;
	assert_int_equal(parse("ro", false), 0);
	assert_true(o.ro);
	assert_int_equal(o.flags & MS_RDONLY, 0);	/* made ro after replay */
	assert_int_equal(parse("ro,rw", false), 0);
	assert_false(o.ro);
	assert_int_equal(parse("rw,ro", false), 0);
	assert_true(o.ro);
}

static void test_flags(void **state)
{
	(void)state;
	assert_int_equal(parse("nosuid,nodev,noexec,noatime,sync,dirsync", false), 0);
	assert_int_equal(o.flags, MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME |
			 MS_SYNCHRONOUS | MS_DIRSYNC);
	assert_string_equal(o.data, "");
	assert_int_equal(parse("noexec,exec,nosuid,suid,relatime", false), 0);
	assert_int_equal(o.flags, MS_RELATIME | MS_NODEV);
}

static void test_kernel_options_passed(void **state)
{
	(void)state;
	assert_int_equal(parse("mode=0750,noexec,dax=always,defaults", false), 0);
	assert_string_equal(o.data, "mode=0750,dax=always");
	assert_int_equal(o.flags, MS_NOEXEC | NOSUID_NODEV);
}

static void test_unknown_refused(void **state)
{
	(void)state;
	assert_int_equal(parse("noexec,bogus=1", false), -EINVAL);
	assert_non_null(strstr(reason, "'bogus=1'"));
	assert_int_equal(parse("mode", false), -EINVAL);	/* needs a value */
	assert_int_equal(parse("modex=1", false), -EINVAL);
}

static void test_remount(void **state)
{
	(void)state;
	assert_int_equal(parse("rw,noatime,mode=0755,remount,ro", false), 0);
	assert_true(o.remount);
	assert_true(o.ro);
	assert_int_equal(o.flags, MS_NOATIME | NOSUID_NODEV);
	assert_string_equal(o.data, "mode=0755");
	assert_int_equal(parse("noatime", false), 0);
	assert_false(o.remount);
}

static void test_follow(void **state)
{
	(void)state;
	assert_int_equal(parse("noatime,follow", false), 0);
	assert_true(o.follow);
	assert_string_equal(o.data, "");	/* not for famfs.ko */
	assert_int_equal(parse("noatime", false), 0);
	assert_false(o.follow);
	/* follow creates files: a read-only mount cannot, a remount is none */
	assert_int_equal(parse("follow,ro", false), -EINVAL);
	assert_non_null(strstr(reason, "ro"));
	assert_int_equal(parse("follow,ro,rw", false), 0);
	assert_int_equal(parse("remount,follow", false), -EINVAL);
	assert_non_null(strstr(reason, "remount"));
}

static void test_sloppy_drops_unknown(void **state)
{
	(void)state;
	famfs_quiet = 1;
	assert_int_equal(parse("bogus,mode=0700,size=1G", true), 0);
	famfs_quiet = 0;
	assert_string_equal(o.data, "mode=0700");
}

static void test_too_long(void **state)
{
	char s[2048];
	size_t n = 0;

	(void)state;
	while (n + 12 < sizeof(s))
		n += (size_t)snprintf(s + n, sizeof(s) - n, "mode=0700,");
	assert_int_equal(parse(s, false), -E2BIG);
}

/* issue 15.10: set-uid files and device nodes from another host do not
 * count unless asked for: nosuid,nodev unless suid or dev is given */
static void test_nosuid_nodev_default(void **state)
{
	(void)state;
	assert_int_equal(parse("defaults", false), 0);
	assert_int_equal(o.flags & NOSUID_NODEV, NOSUID_NODEV);
	assert_int_equal(parse("follow", false), 0);
	assert_int_equal(o.flags & NOSUID_NODEV, NOSUID_NODEV);
	assert_int_equal(parse("remount,ro", false), 0);
	assert_int_equal(o.flags & NOSUID_NODEV, NOSUID_NODEV);
	assert_int_equal(parse("suid", false), 0);
	assert_int_equal(o.flags & NOSUID_NODEV, MS_NODEV);
	assert_int_equal(parse("dev", false), 0);
	assert_int_equal(o.flags & NOSUID_NODEV, MS_NOSUID);
	assert_int_equal(parse("suid,dev", false), 0);
	assert_int_equal(o.flags & NOSUID_NODEV, 0);
	assert_int_equal(parse("suid,dev,nosuid", false), 0);	/* last wins */
	assert_int_equal(o.flags & NOSUID_NODEV, MS_NOSUID);
}

/* issue 18: coherent / noncoherent are famfs.ko options, kept aside until
 * the superblock is known */
static void test_coherency_parsed(void **state)
{
	(void)state;
	assert_int_equal(parse("noatime,noncoherent", false), 0);
	assert_int_equal(o.coherency, FAMFS_COHERENCY_NONCOHERENT);
	assert_string_equal(o.data, "");
	assert_int_equal(parse("noncoherent,coherent", false), 0);	/* last wins */
	assert_int_equal(o.coherency, FAMFS_COHERENCY_COHERENT);
	assert_int_equal(parse("noatime", false), 0);
	assert_int_equal(o.coherency, FAMFS_COHERENCY_UNSET);
	assert_int_equal(parse("noncoherent=1", false), -EINVAL);	/* a flag */
}

static struct famfs_superblock sb;
static char note[FAMFS_REASON_LEN];

static int merge(const char *opts, bool sb_bit, bool with_sb)
{
	assert_int_equal(parse(opts, false), 0);
	memset(&sb, 0, sizeof(sb));
	if (sb_bit)
		sb.feature_incompat = htole32(FAMFS_FEATURE_INCOMPAT_NONCOHERENT);
	note[0] = '\0';
	return famfs_mount_opts_coherency(&o, with_sb ? &sb : NULL, note);
}

static void test_coherency_from_superblock(void **state)
{
	(void)state;
	assert_int_equal(merge("mode=0700", true, true), 0);
	assert_string_equal(o.data, "mode=0700,noncoherent");
	assert_string_equal(note, "");
	assert_int_equal(merge("mode=0700", false, true), 0);
	assert_string_equal(o.data, "mode=0700");
	assert_int_equal(merge("noncoherent", true, true), 0);	/* agrees */
	assert_string_equal(o.data, "noncoherent");
	assert_string_equal(note, "");
	assert_int_equal(merge("coherent", false, true), 0);
	assert_string_equal(o.data, "coherent");
}

static void test_coherency_override(void **state)
{
	(void)state;
	assert_int_equal(merge("coherent", true, true), 1);
	assert_string_equal(o.data, "coherent");
	assert_non_null(strstr(note, "-o coherent overrides"));
	assert_non_null(strstr(note, "not cache-coherent"));
	assert_int_equal(merge("noatime,noncoherent", false, true), 1);
	assert_string_equal(o.data, "noncoherent");
	assert_non_null(strstr(note, "-o noncoherent overrides"));
}

static void test_coherency_remount(void **state)
{
	(void)state;
	/* no superblock (remount): only what the user asked for */
	assert_int_equal(merge("remount,noncoherent", true, false), 0);
	assert_string_equal(o.data, "noncoherent");
	assert_int_equal(merge("remount", true, false), 0);
	assert_string_equal(o.data, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_nosuid_nodev_default),
		cmocka_unit_test(test_fstab_only_dropped),
		cmocka_unit_test(test_ro_rw),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_kernel_options_passed),
		cmocka_unit_test(test_unknown_refused),
		cmocka_unit_test(test_remount),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_sloppy_drops_unknown),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_coherency_parsed),
		cmocka_unit_test(test_coherency_from_superblock),
		cmocka_unit_test(test_coherency_override),
		cmocka_unit_test(test_coherency_remount),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
