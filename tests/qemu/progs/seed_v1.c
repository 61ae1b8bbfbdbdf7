// SPDX-License-Identifier: GPL-2.0
/*
 * seed_v1: what the 2024 famfs user space does to make a file, which a
 * mount made with plain mount(2) and no famfs option must keep allowing
 * (the seed's contract; issue 29 item 3): as root, open(O_CREAT | O_EXCL)
 * a new name, give it memory with the v1 FAMFSIOC_MAP_CREATE, write and
 * read it back through a mapping, then unlink it.
 *
 *   seed_v1 FILE OFFSET	OFFSET: a 2 MiB-aligned device offset that no
 *				other file of the mount uses
 */
#include "module_test.h"

int main(int argc, char **argv)
{
	struct famfs_ioc_map map = { 0 };
	unsigned char *p;
	int fd, ok;

	if (argc != 3) {
		fprintf(stderr, "usage: seed_v1 FILE OFFSET\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_EXCL, 0644);
	if (!t_ok("seed-ocreat", fd))
		return t_done(1);
	map.extent_type = SIMPLE_DAX_EXTENT;
	map.file_type = FAMFS_REG;
	map.file_size = TWO_MiB;
	map.ext_list_count = 1;
	map.ext_list[0].offset = strtoull(argv[2], NULL, 0);
	map.ext_list[0].len = TWO_MiB;
	if (!t_ok("seed-map-create-v1", ioctl(fd, FAMFSIOC_MAP_CREATE, &map)))
		return t_done(1);
	p = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("seed-mmap", "%s", strerror(errno));
		return t_done(1);
	}
	t_pass("seed-mmap");
	memset(p, 0x5a, 4096);
	ok = p[0] == 0x5a && p[4095] == 0x5a;
	if (ok)
		t_pass("seed-readback");
	else
		t_fail("seed-readback", "read 0x%02x", p[0]);
	munmap(p, TWO_MiB);
	close(fd);
	t_ok("seed-unlink", unlink(argv[1]));
	return t_done(0);
}
