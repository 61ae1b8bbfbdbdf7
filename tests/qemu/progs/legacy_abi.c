// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_abi MPT: famfs.ko built with FAMFS_LEGACY_ABI=y answers as the
 * 2024 module did (fs/famfs/ioctl.c, famfs_legacy_ioctl): numbers 1..4
 * only; MAP_GET fills in file_size and ext_list_count alone; the extents
 * come from MAP_GETEXT; EINVAL for a file without a map.  MPT: a fresh
 * famfs mount (famfs mkfs + mount) of a device of at least 512 MiB; the
 * program maps MPT/legacy-2ext to 256..260 MiB and 264..266 MiB of it, which
 * nothing logs: run famfs mkfs again before the tool allocates there.
 */
#include "module_test.h"

static void check_v1_only(int fd)
{
	struct famfs_ioc_map_v2 h = mapv2_mk(0, 0, 0, 0, NULL);
	struct famfs_extent e = { 0 };

	t_ok("nop", ioctl(fd, FAMFSIOC_NOP));
	t_errno("map-get-v2-enotty", ioctl(fd, FAMFSIOC_MAP_GET_V2, &h), ENOTTY);
	h = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, 1, 1, &e);
	t_errno("map-create-v2-enotty", ioctl(fd, FAMFSIOC_MAP_CREATE_V2, &h),
		ENOTTY);
	t_errno("number-7-enotty", ioctl(fd, _IO(FAMFSIOC_MAGIC, 7)), ENOTTY);
}

/* MAP_GET: size and count only; MAP_GETEXT: the extents */
static void check_get(const char *name, int fd, unsigned long long size,
		      unsigned int n, const struct famfs_extent *want)
{
	struct famfs_ioc_map m;
	struct famfs_extent ext[FAMFS_MAX_EXTENTS];
	const struct famfs_extent zero[FAMFS_MAX_EXTENTS] = { 0 };
	char id[96];

	memset(&m, 0xa5, sizeof(m));
	snprintf(id, sizeof(id), "%s-map-get", name);
	if (!t_ok(id, ioctl(fd, FAMFSIOC_MAP_GET, &m)))
		return;
	snprintf(id, sizeof(id), "%s-map-get-size", name);
	t_equ(id, size, m.file_size);
	snprintf(id, sizeof(id), "%s-map-get-count", name);
	t_equ(id, n, m.ext_list_count);
	snprintf(id, sizeof(id), "%s-map-get-types-0", name);
	t_true(id, m.extent_type == 0 && m.file_type == 0,
	       "extent_type or file_type is not 0");
	snprintf(id, sizeof(id), "%s-map-get-ext-list-0", name);
	t_true(id, !memcmp(m.ext_list, zero, sizeof(zero)),
	       "ext_list is not zeroed");
	memset(ext, 0, sizeof(ext));
	snprintf(id, sizeof(id), "%s-map-getext", name);
	if (!t_ok(id, ioctl(fd, FAMFSIOC_MAP_GETEXT, ext)))
		return;
	snprintf(id, sizeof(id), "%s-map-getext-extents", name);
	t_true(id, !memcmp(ext, want, n * sizeof(ext[0])),
	       "MAP_GETEXT returned other extents");
}

int main(int argc, char **argv)
{
	struct famfs_extent want[2];
	struct famfs_ioc_map m;
	struct famfs_extent e[FAMFS_MAX_EXTENTS];
	struct stat st;
	char p[512];
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: legacy_abi MPT\n");
		return 2;
	}
	snprintf(p, sizeof(p), "%s/.meta/.log", argv[1]);
	fd = open(p, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(p);
	check_v1_only(fd);
	want[0].offset = 2 * MiB;	/* FAMFS_LOG_OFFSET */
	want[0].len = st.st_size;
	check_get("log", fd, st.st_size, 1, want);
	close(fd);

	fd = mkfile(argv[1], "legacy-unmapped");
	t_errno("unmapped-map-get-einval", ioctl(fd, FAMFSIOC_MAP_GET, &m),
		EINVAL);
	t_errno("unmapped-map-getext-einval", ioctl(fd, FAMFSIOC_MAP_GETEXT, e),
		EINVAL);
	close(fd);

	fd = mkfile(argv[1], "legacy-2ext");
	want[0].offset = 256 * MiB;
	want[0].len = 4 * MiB;
	want[1].offset = 264 * MiB;
	want[1].len = TWO_MiB;
	if (t_ok("map-create-2ext", map2(fd, FAMFS_REG, 5 * MiB, 2,
					 want[0].offset, want[0].len,
					 want[1].offset, want[1].len)))
		check_get("2ext", fd, 5 * MiB, 2, want);
	close(fd);
	return t_done(0);
}
