// SPDX-License-Identifier: GPL-2.0
/*
 * unlink_map: FAMFSIOC_UNLINK_MAP, the removal of a file known by its map
 * (a DELETE's replay), for suites/module_unlink_map.sh.
 *
 *   unlink_map errors MPT OFF
 *	files at OFF (2 MiB, and a 4 MiB interleaved one 8 MiB after it):
 *	every refusal with its errno, in the documented order (EFAULT,
 *	EINVAL, E2BIG, ENOTDIR, the name, the list, each entry), then under
 *	the directory's lock ENOENT, EISDIR and ESTALE for a map that differs
 *	in any field (the file stays); then the exact map removes the file,
 *	simple and interleaved, and a second call says ENOENT.
 *   unlink_map eperm MPT
 *	EPERM, before any other check (run as a user).
 *   unlink_map prep MPT OFF
 *	files "p" (at OFF) and "r" (at OFF + 2 MiB) for the two below.
 *   unlink_map protected MPT OFF
 *	on a protected mount unlink(2) of "p" is refused, the call removes it.
 *   unlink_map erofs MPT OFF
 *	on a read-only mount: EROFS for "r", which stays.
 *   unlink_map ident MPT OFF
 *	a file's identity (FAMFS_IOC_MAP_IDENT): MAP_CREATE_V3 takes it
 *	(0 too) and refuses reserved[0] without the flag, reserved[1..3]
 *	with it, the flag on MAP_CREATE_V2; MAP_GET_V3 reports it when
 *	asked (the flag in), MAP_GET_V2 refuses the flag; then
 *	UNLINK_MAP: EINVAL for reserved[0] without the flag, ESTALE (the
 *	file stays) for another identity or none, removed with its own; a
 *	file made at the same path on the same memory after the first was
 *	removed is not removed by the first's identity; a file made without
 *	one is removed by its map, whatever identity is named.
 */
#include "module_test.h"

static char pbuf[512];

static const char *P(const char *mpt, const char *rel)
{
	snprintf(pbuf, sizeof(pbuf), "%s/%s", mpt, rel);
	return pbuf;
}

/* What the call is given: the name and the map MAP_GET_V3 reports of fd,
 * asked for its identity. */
struct um {
	struct famfs_ioc_unlink_map a;
	union {
		struct famfs_ioc_dext d[FAMFS_IOC_MAX_EXTENTS_V2 + 1];
		struct famfs_ioc_iext_v3 x[FAMFS_IOC_MAX_IEXTENTS + 1];
	} l;
};

static void um_name(struct um *u, const char *name)
{
	u->a.name = (uintptr_t)name;
	u->a.name_len = strlen(name);
}

static void um_of(struct um *u, int fd, const char *name)
{
	memset(u, 0, sizeof(*u));
	u->a.map.ext_list = (uintptr_t)&u->l;
	u->a.map.ext_count = FAMFS_IOC_MAX_IEXTENTS;
	u->a.map.flags = FAMFS_IOC_MAP_IDENT;
	if (ioctl(fd, FAMFSIOC_MAP_GET_V3, &u->a.map))
		die("MAP_GET_V3");
	um_name(u, name);
}

static int um(int dfd, struct um *u)
{
	return ioctl(dfd, FAMFSIOC_UNLINK_MAP, &u->a);
}

static int open_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		die(path);
	return fd;
}

static void exists(const char *name, const char *path, int want)
{
	struct stat st;

	t_equ(name, want, stat(path, &st) == 0);
}

/* a file at @off (2 MiB, one extent) */
static int simple_file(const char *mpt, const char *name,
		       unsigned long long off)
{
	struct t_loc l = { 0, off };
	int fd = mkfile(mpt, name);

	if (t_map_locs(fd, &l, 1))
		die("MAP_CREATE_V3");
	return fd;
}

static int do_errors(const char *mpt, unsigned long long off)
{
	unsigned long long offs[2] = { off + 8 * MiB, off + 10 * MiB };
	struct famfs_ioc_iext ie;
	struct um u, v;
	int root = open_dir(mpt), fd, ifd, nfd;
	char longname[FAMFS_NS_NAME_MAX + 2];

	fd = simple_file(mpt, "a", off);
	ifd = mkfile(mpt, "i");
	ie = iext_mk(2, TWO_MiB, 4 * MiB, TWO_MiB, offs);
	if (mapv2(ifd, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, 4 * MiB, 1, &ie))
		die("MAP_CREATE_V2 interleaved");
	nfd = mkfile(mpt, "nomap");
	if (mkdir(P(mpt, "d"), 0755))
		die("mkdir");

	/* the argument */
	t_errno("efault", ioctl(root, FAMFSIOC_UNLINK_MAP, (void *)8), EFAULT);
	um_of(&u, fd, "a");
	u.a.flags = 1;
	t_errno("flags", um(root, &u), EINVAL);
	u.a.flags = 0x80000000u;
	t_errno("flags-high", um(root, &u), EINVAL);
	u.a.flags = 0;
	u.a.reserved[1] = 1;
	t_errno("reserved", um(root, &u), EINVAL);
	u.a.reserved[1] = 0;
	u.a.map.flags = FAMFS_IOC_MAP_INVALIDATE;
	t_errno("map-flags", um(root, &u), EINVAL);
	u.a.map.flags = 0;
	u.a.map.reserved[3] = 1;
	t_errno("map-reserved", um(root, &u), EINVAL);
	u.a.map.reserved[3] = 0;
	u.a.map.extent_type = INVALID_EXTENT_TYPE;
	t_errno("extent-type", um(root, &u), EINVAL);
	u.a.map.extent_type = SIMPLE_DAX_EXTENT;
	u.a.map.ext_count = 0;
	t_errno("count-0", um(root, &u), EINVAL);
	u.a.map.ext_count = FAMFS_IOC_MAX_EXTENTS_V2 + 1;
	t_errno("e2big", um(root, &u), E2BIG);
	u.a.map.ext_count = ~0u;
	t_errno("e2big-huge", um(root, &u), E2BIG);
	u.a.map.extent_type = FAMFS_INTERLEAVED_EXTENT;
	u.a.map.ext_count = FAMFS_IOC_MAX_IEXTENTS + 1;
	t_errno("e2big-interleaved", um(root, &u), E2BIG);
	/* E2BIG comes before ENOTDIR, ENOTDIR before the name */
	t_errno("e2big-before-enotdir", um(fd, &u), E2BIG);
	um_of(&u, fd, "a");
	t_errno("enotdir", um(fd, &u), ENOTDIR);
	um_name(&u, "x/y");
	t_errno("enotdir-before-name", um(fd, &u), ENOTDIR);

	/* the name */
	u.a.name_len = 0;
	t_errno("name-len-0", um(root, &u), EINVAL);
	memset(longname, 'n', sizeof(longname));
	longname[FAMFS_NS_NAME_MAX + 1] = '\0';
	um_name(&u, longname);
	t_errno("name-too-long", um(root, &u), EINVAL);
	um_name(&u, "x/y");
	t_errno("name-slash", um(root, &u), EINVAL);
	um_name(&u, ".");
	t_errno("name-dot", um(root, &u), EINVAL);
	um_name(&u, "..");
	t_errno("name-dotdot", um(root, &u), EINVAL);
	u.a.name = (uintptr_t)"a\0b";
	u.a.name_len = 3;
	t_errno("name-nul", um(root, &u), EINVAL);
	u.a.name = 8;
	u.a.name_len = 1;
	t_errno("name-efault", um(root, &u), EFAULT);
	um_name(&u, "a");

	/* the list */
	u.a.map.ext_list = 8;
	t_errno("list-efault", um(root, &u), EFAULT);
	u.a.map.ext_list = (uintptr_t)&u.l;
	u.l.d[0].reserved = 1;
	t_errno("dext-reserved", um(root, &u), EINVAL);
	u.l.d[0].reserved = 0;
	u.l.d[0].devindex = FAMFS_MAX_DEVS;
	t_errno("dext-devindex", um(root, &u), EINVAL);
	u.l.d[0].devindex = ~0u;
	t_errno("dext-devindex-huge", um(root, &u), EINVAL);
	/* a bad list is refused before the name is looked up */
	um_name(&u, "nosuch");
	t_errno("dext-before-enoent", um(root, &u), EINVAL);

	um_of(&v, ifd, "i");
	v.l.x[0].reserved = 1;
	t_errno("iext-reserved", um(root, &v), EINVAL);
	um_of(&v, ifd, "i");
	v.l.x[0].nstrips = 0;
	t_errno("iext-nstrips-0", um(root, &v), EINVAL);
	v.l.x[0].nstrips = FAMFS_IOC_MAX_STRIPS + 1;
	t_errno("iext-nstrips-big", um(root, &v), EINVAL);
	um_of(&v, ifd, "i");
	v.l.x[0].strips[1].reserved = 1;
	t_errno("strip-reserved", um(root, &v), EINVAL);
	um_of(&v, ifd, "i");
	v.l.x[0].strips[0].devindex = FAMFS_MAX_DEVS;
	t_errno("strip-devindex", um(root, &v), EINVAL);
	um_of(&v, ifd, "i");
	v.l.x[0].strips[2].len = TWO_MiB;
	t_errno("unused-strip", um(root, &v), EINVAL);
	um_of(&v, ifd, "i");
	v.l.x[0].strips[FAMFS_IOC_MAX_STRIPS - 1].devindex = 1;
	t_errno("unused-strip-dev", um(root, &v), EINVAL);

	/* under the directory's lock */
	um_of(&u, fd, "nosuch");
	t_errno("enoent", um(root, &u), ENOENT);
	um_name(&u, "d");
	t_errno("eisdir", um(root, &u), EISDIR);
	um_name(&u, "nomap");
	t_errno("estale-no-map", um(root, &u), ESTALE);
	um_name(&u, "i");
	t_errno("estale-other-file", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.l.d[0].offset += TWO_MiB;
	t_errno("estale-offset", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.l.d[0].len += TWO_MiB;
	t_errno("estale-len", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.l.d[0].devindex = 1;
	t_errno("estale-devindex", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.a.map.file_size--;
	t_errno("estale-size", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.a.map.file_type = FAMFS_LOG;
	t_errno("estale-file-type", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.a.map.flags = FAMFS_IOC_MAP_PAGES;
	t_errno("estale-pages", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.a.map.ext_count = 2;
	u.l.d[1] = u.l.d[0];
	u.l.d[1].offset += TWO_MiB;
	t_errno("estale-count", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.a.map.extent_type = FAMFS_INTERLEAVED_EXTENT;
	memset(&u.l, 0, sizeof(u.l));
	u.l.x[0].nstrips = 1;
	u.l.x[0].chunk_size = TWO_MiB;
	u.l.x[0].nbytes = TWO_MiB;
	u.l.x[0].strips[0].offset = off;
	u.l.x[0].strips[0].len = TWO_MiB;
	t_errno("estale-extent-type", um(root, &u), ESTALE);
	um_of(&v, ifd, "i");
	v.l.x[0].chunk_size *= 2;
	t_errno("estale-chunk", um(root, &v), ESTALE);
	um_of(&v, ifd, "i");
	v.l.x[0].strips[1].offset += TWO_MiB;
	t_errno("estale-strip", um(root, &v), ESTALE);
	exists("estale-kept-a", P(mpt, "a"), 1);
	exists("estale-kept-i", P(mpt, "i"), 1);

	/* the file it is: removed (open and mapped or not) */
	um_of(&u, fd, "a");
	t_ok("removed", um(root, &u));
	exists("removed-gone", P(mpt, "a"), 0);
	t_errno("removed-again", um(root, &u), ENOENT);
	um_of(&v, ifd, "i");
	t_ok("removed-interleaved", um(root, &v));
	exists("removed-interleaved-gone", P(mpt, "i"), 0);
	/* once its last descriptor is closed the memory is free again: a
	 * new file there takes it */
	close(fd);
	close(ifd);
	fd = simple_file(mpt, "a2", off);
	close(fd);
	t_pass("memory-free-after-close");
	close(nfd);
	close(root);
	return t_failed;
}

static int do_eperm(const char *mpt)
{
	struct um u;
	int root = open_dir(mpt);

	memset(&u, 0, sizeof(u));
	um_name(&u, "a2");
	t_errno("eperm", um(root, &u), EPERM);
	t_errno("eperm-before-efault",
		ioctl(root, FAMFSIOC_UNLINK_MAP, (void *)8), EPERM);
	close(root);
	return t_failed;
}

static int do_prep(const char *mpt, unsigned long long off)
{
	close(simple_file(mpt, "p", off));
	close(simple_file(mpt, "r", off + TWO_MiB));
	return t_failed;
}

static int do_one(const char *mpt, const char *name, int want)
{
	int root = open_dir(mpt), fd;
	struct um u;

	fd = open(P(mpt, name), O_RDONLY);
	if (fd < 0)
		die(name);
	um_of(&u, fd, name);
	close(fd);
	if (!want) {
		t_errno("unlink-refused", unlink(P(mpt, name)), EPERM);
		t_ok("protected-removed", um(root, &u));
		exists("protected-gone", P(mpt, name), 0);
	} else {
		t_errno("erofs", um(root, &u), want);
		exists("erofs-kept", P(mpt, name), 1);
	}
	close(root);
	return t_failed;
}

/* a 2 MiB file at @off with identity @id (flag @flags) by MAP_CREATE_V3 */
static int ident_map(int fd, unsigned long long off, __u32 flags,
		     __u64 r0, __u64 r1)
{
	struct famfs_ioc_dext d;
	struct famfs_ioc_map_v2 m;

	memset(&d, 0, sizeof(d));
	d.offset = off;
	d.len = TWO_MiB;
	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1, &d);
	m.flags = flags;
	m.reserved[0] = r0;
	m.reserved[1] = r1;
	return ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m);
}

static int ident_file(const char *mpt, const char *name,
		      unsigned long long off, __u64 id)
{
	int fd = mkfile(mpt, name);

	if (ident_map(fd, off, FAMFS_IOC_MAP_IDENT, id, 0))
		die("MAP_CREATE_V3 with FAMFS_IOC_MAP_IDENT");
	return fd;
}

/* the header MAP_GET_V3 writes of fd, asked for the identity */
static void ident_get(const char *name, int fd, __u32 flags, __u64 id)
{
	struct famfs_ioc_map_v2 h;
	char n[64];

	memset(&h, 0, sizeof(h));
	h.flags = FAMFS_IOC_MAP_IDENT;
	snprintf(n, sizeof(n), "%s-get", name);
	t_ok(n, ioctl(fd, FAMFSIOC_MAP_GET_V3, &h));
	snprintf(n, sizeof(n), "%s-flags", name);
	t_equ(n, flags, h.flags);
	snprintf(n, sizeof(n), "%s-ident", name);
	t_equ(n, id, h.reserved[0]);
}

static int do_ident(const char *mpt, unsigned long long off)
{
	int root = open_dir(mpt), fd, zfd, nfd, xfd;
	struct famfs_ioc_map_v2 h;
	struct famfs_ioc_dext d;
	struct um u;

	/* MAP_CREATE_V3's checks, on a file that stays unmapped */
	xfd = mkfile(mpt, "x");
	t_errno("create-r0-no-flag", ident_map(xfd, off, 0, 7, 0), EINVAL);
	t_errno("create-r1", ident_map(xfd, off, FAMFS_IOC_MAP_IDENT, 7, 1),
		EINVAL);
	memset(&d, 0, sizeof(d));
	d.offset = off;
	d.len = TWO_MiB;
	h = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1, &d);
	h.flags = FAMFS_IOC_MAP_IDENT;
	h.reserved[0] = 7;
	t_errno("create-v2-flag", ioctl(xfd, FAMFSIOC_MAP_CREATE_V2, &h), EINVAL);
	close(xfd);
	unlink(P(mpt, "x"));

	fd = ident_file(mpt, "a", off, 7);
	ident_get("get-a", fd, FAMFS_IOC_MAP_IDENT, 7);
	zfd = ident_file(mpt, "z", off + TWO_MiB, 0);
	ident_get("get-zero", zfd, FAMFS_IOC_MAP_IDENT, 0);
	nfd = simple_file(mpt, "n", off + 2 * TWO_MiB);
	ident_get("get-none", nfd, 0, 0);
	/* asked with the flag alone: any other flag, or reserved[] not 0,
	 * is refused */
	memset(&h, 0, sizeof(h));
	h.flags = FAMFS_IOC_MAP_IDENT | FAMFS_IOC_MAP_PAGES;
	t_errno("get-flag-pages-in", ioctl(fd, FAMFSIOC_MAP_GET_V3, &h),
		EINVAL);
	memset(&h, 0, sizeof(h));
	h.flags = FAMFS_IOC_MAP_IDENT;
	h.reserved[0] = 7;
	t_errno("get-r0-in", ioctl(fd, FAMFSIOC_MAP_GET_V3, &h), EINVAL);
	memset(&h, 0, sizeof(h));
	h.flags = FAMFS_IOC_MAP_IDENT;
	t_errno("get-flag-v2", ioctl(fd, FAMFSIOC_MAP_GET_V2, &h), EINVAL);

	/* UNLINK_MAP */
	um_of(&u, fd, "a");
	t_equ("um-of-ident", 7, u.a.map.reserved[0]);
	u.a.map.flags = 0;
	t_errno("um-r0-no-flag", um(root, &u), EINVAL);
	um_of(&u, fd, "a");
	u.a.map.reserved[1] = 7;
	t_errno("um-r1", um(root, &u), EINVAL);
	um_of(&u, fd, "a");
	u.a.map.reserved[0] = 8;
	t_errno("um-other-ident", um(root, &u), ESTALE);
	um_of(&u, fd, "a");
	u.a.map.flags = 0;
	u.a.map.reserved[0] = 0;
	t_errno("um-no-ident", um(root, &u), ESTALE);
	exists("um-estale-kept", P(mpt, "a"), 1);
	um_of(&u, fd, "a");
	t_ok("um-own-ident", um(root, &u));
	exists("um-own-gone", P(mpt, "a"), 0);
	um_of(&u, zfd, "z");
	u.a.map.flags = 0;
	t_errno("um-zero-no-flag", um(root, &u), ESTALE);
	um_of(&u, zfd, "z");
	t_ok("um-zero-ident", um(root, &u));
	exists("um-zero-gone", P(mpt, "z"), 0);

	/* a new a on the old a's memory: the old a's identity leaves it */
	close(fd);
	fd = ident_file(mpt, "a", off, 9);
	um_of(&u, fd, "a");
	u.a.map.reserved[0] = 7;
	t_errno("um-reused-old-ident", um(root, &u), ESTALE);
	exists("um-reused-kept", P(mpt, "a"), 1);
	um_of(&u, fd, "a");
	t_ok("um-reused-own-ident", um(root, &u));

	/* made without an identity: removed by its map */
	um_of(&u, nfd, "n");
	u.a.map.flags = FAMFS_IOC_MAP_IDENT;
	u.a.map.reserved[0] = 12345;
	t_ok("um-none-by-map", um(root, &u));
	exists("um-none-gone", P(mpt, "n"), 0);
	close(fd);
	close(zfd);
	close(nfd);
	close(root);
	return t_failed;
}

/*
 * rident: what the identity does to callers that never asked for it, and
 * a file with one under FAMFSIOC_NS RENAME, link(2) and a page map.
 *
 * identold: MAP_GET_V3 of a file made with an identity, by a caller that
 * knows only the flags it knew before (the famfs tool before this change:
 * fmap_get_v3 answered EPROTO for a flag other than FAMFS_IOC_MAP_PAGES,
 * so its getmap, check, replay and DELETE fallback fail on every file the
 * new tool made).  Nothing in the header it sends asks for the identity.
 */
static int do_identold(const char *mpt, unsigned long long off)
{
	struct famfs_ioc_map_v2 h;
	int fd = ident_file(mpt, "old", off, 5);

	memset(&h, 0, sizeof(h));
	t_ok("old-get", ioctl(fd, FAMFSIOC_MAP_GET_V3, &h));
	t_equ("old-reader-unknown-flags", 0, h.flags & ~FAMFS_IOC_MAP_PAGES);
	t_equ("old-reader-reserved0", 0, h.reserved[0]);
	close(fd);
	unlink(P(mpt, "old"));
	return t_failed;
}

/* identmore: an identity survives FAMFSIOC_NS RENAME (UNLINK_MAP at the
 * new name needs it); link(2) of a file with one: UNLINK_MAP removes the
 * one name; a small file's page map takes an identity too */
static int do_identmore(const char *mpt, unsigned long long off)
{
	int root = open_dir(mpt), fd, pfd;
	struct famfs_ioc_ns ns;
	struct famfs_ioc_map_v2 h;
	struct famfs_ioc_dext d;
	struct um u;
	struct stat st;

	fd = ident_file(mpt, "ra", off, 11);
	memset(&ns, 0, sizeof(ns));
	ns.op = FAMFS_NS_RENAME;
	ns.name = (uintptr_t)"ra";
	ns.name_len = 2;
	ns.new_name = (uintptr_t)"rb";
	ns.new_name_len = 2;
	ns.new_dir_fd = root;
	t_ok("ns-rename", ioctl(root, FAMFSIOC_NS, &ns));
	ident_get("renamed", fd, FAMFS_IOC_MAP_IDENT, 11);
	um_of(&u, fd, "rb");
	u.a.map.reserved[0] = 12;
	t_errno("renamed-other-ident", um(root, &u), ESTALE);
	um_of(&u, fd, "rb");
	t_ok("renamed-own-ident", um(root, &u));
	exists("renamed-gone", P(mpt, "rb"), 0);
	close(fd);

	fd = ident_file(mpt, "la", off, 13);
	if (link(P(mpt, "la"), P(mpt, "lb")) == 0) {
		um_of(&u, fd, "la");
		t_ok("link-um", um(root, &u));
		exists("link-la-gone", P(mpt, "la"), 0);
		exists("link-lb-kept", P(mpt, "lb"), 1);
		t_ok("link-fstat", fstat(fd, &st));
		t_equ("link-nlink", 1, st.st_nlink);
		um_of(&u, fd, "lb");
		t_ok("link-um-lb", um(root, &u));
	} else {
		t_pass("link-refused");
		unlink(P(mpt, "la"));
	}
	close(fd);

	/* a page map (one 4 KiB page) with an identity */
	pfd = mkfile(mpt, "pg");
	memset(&d, 0, sizeof(d));
	d.offset = off;
	d.len = 4096;
	h = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, 4096, 1, &d);
	h.flags = FAMFS_IOC_MAP_PAGES | FAMFS_IOC_MAP_IDENT;
	h.reserved[0] = 17;
	t_ok("pages-create", ioctl(pfd, FAMFSIOC_MAP_CREATE_V3, &h));
	ident_get("pages", pfd, FAMFS_IOC_MAP_PAGES | FAMFS_IOC_MAP_IDENT, 17);
	um_of(&u, pfd, "pg");
	u.a.map.reserved[0] = 18;
	t_errno("pages-other-ident", um(root, &u), ESTALE);
	um_of(&u, pfd, "pg");
	t_ok("pages-own-ident", um(root, &u));
	close(pfd);
	close(root);
	return t_failed;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "errors"))
		return t_done(do_errors(argv[2], t_num(argv[3])));
	if (argc >= 3 && !strcmp(argv[1], "eperm"))
		return t_done(do_eperm(argv[2]));
	if (argc >= 4 && !strcmp(argv[1], "prep"))
		return t_done(do_prep(argv[2], t_num(argv[3])));
	if (argc >= 3 && !strcmp(argv[1], "protected"))
		return t_done(do_one(argv[2], "p", 0));
	if (argc >= 3 && !strcmp(argv[1], "erofs"))
		return t_done(do_one(argv[2], "r", EROFS));
	if (argc >= 4 && !strcmp(argv[1], "ident"))
		return t_done(do_ident(argv[2], t_num(argv[3])));
	if (argc >= 4 && !strcmp(argv[1], "identold"))
		return t_done(do_identold(argv[2], t_num(argv[3])));
	if (argc >= 4 && !strcmp(argv[1], "identmore"))
		return t_done(do_identmore(argv[2], t_num(argv[3])));
	fprintf(stderr, "usage: unlink_map errors|eperm|prep|protected|erofs|ident|identold|identmore MPT [OFF]\n");
	return 2;
}
