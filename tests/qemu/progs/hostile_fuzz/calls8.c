// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: FAMFSIOC_UNLINK_MAP, the removal of a file known by its
 * map (a DELETE's replay).
 *
 * The map given is the file's own (MAP_GET_V3 of it, asked for its
 * identity), so that a call with
 * nothing broken removes it (the model marks it unlinked: still open, it
 * keeps its memory).  Now and then one thing is broken -- the header's
 * pointer, flags, reserved fields, the map's flags, reserved fields,
 * extent type or count, the descriptor (a file, not a directory), the
 * name's length, bytes or pointer, the list's pointer, an entry's reserved
 * field or device, or the map itself (one offset or the size differs:
 * ESTALE, the file stays), the identity (another one, or none, for a file
 * made with one: ESTALE; any, for a file made without: removed by its
 * map), or the name (nothing there: ENOENT) -- and the
 * call must fail with the errno of the first failing check of the contract
 * (EPERM first for uid 65534, EROFS on a read-only mount after the checks
 * of the argument).
 */
#include "fuzz.h"

long nc_um, nc_um_ok;

enum um_break { U_NONE, U_HDRPTR, U_FLAGS, U_RESERVED, U_MFLAGS,
		U_MRESERVED, U_ETYPE, U_COUNT0, U_COUNTBIG, U_ONFILE,
		U_NAMELEN, U_NAMEBYTES, U_NAMEPTR, U_LISTPTR, U_ENTRY,
		U_DIFFER, U_SIZE, U_NOENT, U_IDENT, U_NOIDENT, U_NBREAK };

static union {
	struct famfs_ioc_dext d[FAMFS_IOC_MAX_EXTENTS_V2];
	struct famfs_ioc_iext_v3 x[FAMFS_IOC_MAX_IEXTENTS];
} ul;

static enum ptr_kind bad_kind(void)
{
	enum ptr_kind k;

	do {
		k = (enum ptr_kind)below(P_NKINDS);
	} while (k == P_OK || k == P_MISALIGNED || k == P_RDONLY ||
		 k == P_STRADDLE);
	return k;
}

void do_unlink_map(int dirfd)
{
	struct ffile *f = pick(1, 0);
	enum um_break b = chance(60) ? (enum um_break)(1 + below(U_NBREAK - 1)) :
					U_NONE;
	struct famfs_ioc_unlink_map a, *ap = &a;
	char name[PATH_MAX], *slash;
	int fd = dirfd, e, want = 0, br, bw;
	long rc;

	if (!f || dirfd < 0 || f->fd < 0)
		return;
	slash = strrchr(f->path, '/');
	snprintf(name, sizeof(name), "%s", slash ? slash + 1 : f->path);
	memset(&a, 0, sizeof(a));
	memset(&ul, 0, sizeof(ul));
	a.map.ext_list = (uintptr_t)&ul;
	a.map.ext_count = FAMFS_IOC_MAX_EXTENTS_V2;
	a.map.flags = FAMFS_IOC_MAP_IDENT;	/* its identity too */
	if (ioctl(f->fd, FAMFSIOC_MAP_GET_V3, &a.map))
		return;		/* not mapped (yet): nothing to compare */
	a.name = (uintptr_t)name;
	a.name_len = (uint32_t)strlen(name);

	switch (b) {
	case U_FLAGS:
		a.flags = chance(50) ? 1 : boundary32() | 1;
		break;
	case U_RESERVED:
		a.reserved[below(2)] = 1 + below(1000);
		break;
	case U_MFLAGS:
		a.map.flags |= chance(50) ? FAMFS_IOC_MAP_INVALIDATE :
					    boundary32() | 8;
		break;
	case U_MRESERVED:	/* reserved[0] is the identity's with the flag */
		a.map.reserved[(a.map.flags & FAMFS_IOC_MAP_IDENT ? 1 : 0) +
			       below(a.map.flags & FAMFS_IOC_MAP_IDENT ? 3 : 4)] =
			1 + below(1000);
		break;
	case U_IDENT:		/* another identity (or one, if none) */
		a.map.flags |= FAMFS_IOC_MAP_IDENT;
		a.map.reserved[0] = f->has_ident ? f->ident + 1 + below(1000) :
						   rnd();
		break;
	case U_NOIDENT:
		a.map.flags &= ~FAMFS_IOC_MAP_IDENT;
		a.map.reserved[0] = 0;
		break;
	case U_ETYPE:
		a.map.extent_type = chance(50) ? INVALID_EXTENT_TYPE :
						 boundary32();
		if (a.map.extent_type == SIMPLE_DAX_EXTENT ||
		    a.map.extent_type == FAMFS_INTERLEAVED_EXTENT)
			a.map.extent_type = 0;
		break;
	case U_COUNT0:
		a.map.ext_count = 0;
		break;
	case U_COUNTBIG:
		a.map.ext_count = (a.map.extent_type == SIMPLE_DAX_EXTENT ?
				   FAMFS_IOC_MAX_EXTENTS_V2 :
				   FAMFS_IOC_MAX_IEXTENTS) + 1 +
				  (chance(50) ? (uint32_t)below(8) :
						boundary32() % (1U << 31));
		break;
	case U_ONFILE:
		fd = f->fd;
		break;
	case U_NAMELEN:
		a.name_len = chance(50) ? 0 : FAMFS_NS_NAME_MAX + 1 +
					      (uint32_t)below(1000);
		break;
	case U_NAMEBYTES:
		name[below(a.name_len)] = chance(50) ? '/' : '\0';
		break;
	case U_NAMEPTR:
		a.name = (uintptr_t)place(bad_kind(), a.name_len, &br, &bw);
		break;
	case U_LISTPTR:
		a.map.ext_list = (uintptr_t)place(bad_kind(), 64, &br, &bw);
		break;
	case U_ENTRY: {
		uint32_t i = (uint32_t)below(a.map.ext_count);
		struct famfs_ioc_dext *d = &ul.d[i];

		if (a.map.extent_type == FAMFS_INTERLEAVED_EXTENT) {
			if (chance(30)) {
				ul.x[i].nstrips = chance(50) ? 0 :
					FAMFS_IOC_MAX_STRIPS + 1 + (uint32_t)below(100);
				break;
			}
			d = &ul.x[i].strips[below(FAMFS_IOC_MAX_STRIPS)];
			if (!d->len) {		/* an unused strip: not 0 */
				d->offset = 1 + below(1000);
				break;
			}
		}
		if (chance(50))
			d->reserved = 1 + (uint32_t)below(1000);
		else
			d->devindex = FAMFS_MAX_DEVS + boundary32() % 1000;
		break;
	}
	case U_DIFFER:
		if (a.map.extent_type == FAMFS_INTERLEAVED_EXTENT)
			ul.x[0].strips[0].offset += 2 * MiB;
		else
			ul.d[below(a.map.ext_count)].offset += 2 * MiB;
		break;
	case U_SIZE:
		a.map.file_size ^= 1 + below(4096);
		break;
	case U_NOENT:
		snprintf(name, sizeof(name), "um-nosuch.%llu",
			 (unsigned long long)below(1000000));
		a.name_len = (uint32_t)strlen(name);
		break;
	default:
		break;
	}
	if (b == U_HDRPTR)
		ap = place(bad_kind(), sizeof(a), &br, &bw);

	/* the contract's order */
	if (nonroot)
		want = EPERM;
	else if (b == U_HDRPTR)
		want = EFAULT;
	else if (b >= U_FLAGS && b <= U_COUNT0)
		want = EINVAL;
	else if (b == U_COUNTBIG)
		want = E2BIG;
	else if (b == U_ONFILE)
		want = ENOTDIR;
	else if (b == U_NAMELEN || b == U_NAMEBYTES)
		want = EINVAL;
	else if (b == U_NAMEPTR || b == U_LISTPTR)
		want = EFAULT;
	else if (b == U_ENTRY)
		want = EINVAL;
	else if (ro)
		want = EROFS;
	else if (b == U_DIFFER || b == U_SIZE ||
		 ((b == U_IDENT || b == U_NOIDENT) && f->has_ident))
		want = ESTALE;
	else if (b == U_NOENT)
		want = ENOENT;

	nc_um++;
	ncheck[C_UNLINK_MAP]++;
	rc = ioctl(fd, FAMFSIOC_UNLINK_MAP, ap);
	e = rc < 0 ? errno : 0;
	if (!e)
		f->unlinked = 1;	/* open still: it keeps its memory */
	if (e != want) {
		bad(C_UNLINK_MAP, "UNLINK_MAP of %s (%s, %u extents) break %d on a %s: %s, expected %s",
		    f->path, a.map.extent_type == FAMFS_INTERLEAVED_EXTENT ?
		    "interleaved" : "simple", a.map.ext_count, b,
		    fd == dirfd ? "directory" : "file", t_errname(e),
		    t_errname(want));
		return;
	}
	if (!e) {
		struct stat st;

		nc_um_ok++;
		if (!stat(f->path, &st))
			bad(C_UNLINK_MAP, "UNLINK_MAP of %s: 0, but it is still there",
			    f->path);
	} else if (want == ESTALE) {
		struct stat st;

		if (stat(f->path, &st))
			bad(C_UNLINK_MAP, "UNLINK_MAP of %s: ESTALE, but it is gone: %s",
			    f->path, t_errname(errno));
	}
}
