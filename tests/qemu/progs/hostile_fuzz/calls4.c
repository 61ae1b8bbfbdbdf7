// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: the calls of several memory devices (issue 16), numbers
 * 8..11 of famfs_ioctl.h: FAMFSIOC_DEV_ADD, FAMFSIOC_DEV_GET (on files and
 * on the directory), FAMFSIOC_MAP_CREATE_V3 and FAMFSIOC_MAP_GET_V3.
 *
 * The fuzzer's mount has the primary only (which devices are attached is
 * asked with DEV_GET at the start), so DEV_ADD is refused, each time with
 * the errno of the first failing check of its contract: EPERM, EFAULT,
 * EINVAL (flags, reserved, index, size), EBADF, ENOTBLK, EIO (-F),
 * EALREADY (the primary's own device node, made with mknod), EOPNOTSUPP
 * (/dev/null: a character device that is no dax device bound to famfs).
 * DEV_GET tells the primary's size and device number, ENXIO for the rest.
 *
 * MAP_CREATE_V3 takes the valid and broken v2 maps of gen2.c as v3 lists
 * (device 0), some with a device field broken (reserved, an unattached or
 * out-of-range devindex, an unused strip's devindex): the errno is the
 * first failing check, each extent's (strip's) device fields checked just
 * before its own v2 checks; an accepted map is the model's like a v2 one.
 * A quarter of them (of the page maps of calls5.c too) carry
 * FAMFS_IOC_MAP_INVALIDATE, which changes no errno and is no part of the
 * map (the model predicts without it; MAP_GET_V3 never shows it).  A
 * quarter carry FAMFS_IOC_MAP_IDENT with an identity in reserved[0] (0
 * now and then), which changes no errno either, and a few have it wrong
 * (reserved[0] without the flag, reserved[1..3] with it: EINVAL where the
 * header's flags are checked).  MAP_GET_V3 shows every map with device 0
 * and reserved 0 -- the identity and its flag for a file made with one,
 * only to a caller that asks (FAMFS_IOC_MAP_IDENT the one flag it is
 * given; half the calls ask) -- with MAP_GET_V2's rules for room, flags
 * (any other, or reserved[] not 0: EINVAL) and pointers.
 */
#include "fuzz.h"
#include <sys/sysmacros.h>

long nc_dev, nc_create3, nc_get3;
long nc_inval, nc_accept_inval;

void inval_flag(struct famfs_ioc_map_v2 *h)
{
	if (chance(25))
		h->flags |= FAMFS_IOC_MAP_INVALIDATE;
}
void ident_flag(struct famfs_ioc_map_v2 *h)
{
	if (chance(25)) {
		h->flags |= FAMFS_IOC_MAP_IDENT;
		h->reserved[0] = chance(20) ? 0 : rnd();
		if (chance(5))	/* wrong: reserved[1..3] not 0 */
			h->reserved[1 + below(3)] = 1ULL << below(64);
	} else if (chance(4)) {	/* wrong: an identity without the flag */
		h->reserved[0] = rnd() | 1;
	}
}

/* An accepted map's identity, as its header gave it. */
void ident_learn(struct ffile *f, const struct famfs_ioc_map_v2 *h)
{
	f->has_ident = !!(h->flags & FAMFS_IOC_MAP_IDENT);
	f->ident = f->has_ident ? h->reserved[0] : 0;
}

/* The identity of a file the model did not make (MAP_GET_V3's header,
 * asked for it). */
void ident_read(struct ffile *f)
{
	struct famfs_ioc_map_v2 h;

	memset(&h, 0, sizeof(h));
	h.flags = FAMFS_IOC_MAP_IDENT;
	if (!ioctl(f->fd, FAMFSIOC_MAP_GET_V3, &h))
		ident_learn(f, &h);
}

static int attached[FAMFS_MAX_DEVS];
static struct famfs_ioc_dev_info primary;
static int primary_fd = -1, null_fd = -1, opath_fd = -1;

/* Which devices the mount has; the primary's own node (EALREADY). */
void multidev_init(int dirfd)
{
	char node[64];

	for (unsigned int i = 0; i < FAMFS_MAX_DEVS; i++) {
		struct famfs_ioc_dev_info d;

		memset(&d, 0, sizeof(d));
		d.index = i;
		attached[i] = !ioctl(dirfd, FAMFSIOC_DEV_GET, &d);
		if (!i && attached[i])
			primary = d;
	}
	null_fd = open("/dev/null", O_RDONLY);
	opath_fd = open("/dev/null", O_PATH);
	if (!attached[0] || nonroot)
		return;
	snprintf(node, sizeof(node), "/tmp/hostile-fuzz-primary.%d.%d",
		 (int)getpid(), myid);
	unlink(node);
	if (!mknod(node, (primary.flags & FAMFS_DEV_DEVDAX ? S_IFCHR : S_IFBLK) |
		   0600, makedev(primary.major, primary.minor)))
		primary_fd = open(node, O_RDONLY);
	unlink(node);
}

/* Copy to user memory that may be the read-only pages. */
static void put4(void *dst, const void *src, size_t n)
{
	int rdonly = (char *)dst >= ro_page && (char *)dst < ro_page + 2 * pg;

	if (rdonly)
		mprotect(ro_page, 2 * pg, PROT_READ | PROT_WRITE);
	memcpy(dst, src, n);
	if (rdonly)
		mprotect(ro_page, 2 * pg, PROT_READ);
}

/* ---- DEV_ADD / DEV_GET -------------------------------------------------- */
static void do_dev_add(int fd, const char *on)
{
	static const uint32_t idx[] = { 0, 1, 2, FAMFS_MAX_DEVS - 1,
					FAMFS_MAX_DEVS, 255, 0xffffffffu };
	static const uint64_t sizes[] = { 0, 4096, TWO_MiB - 1, TWO_MiB,
					  TWO_MiB + 4096, 1ULL << 30, U64_MAX };
	enum { F_BAD, F_HUGE, F_OPATH, F_FILE, F_NULL, F_PRIMARY, F_N };
	struct famfs_ioc_dev_add a, *p;
	int br, bw, want, e, fk = (int)below(F_N);
	enum ptr_kind k = chance(90) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	long rc;

	memset(&a, 0, sizeof(a));
	a.index = chance(70) ? 1 + (uint32_t)below(FAMFS_MAX_DEVS - 1) :
		  idx[below(7)];
	a.size = chance(60) ? TWO_MiB * (1 + below(512)) : sizes[below(7)];
	if (chance(8))
		a.flags = 1u << below(32);
	if (chance(8))
		a.reserved = (uint32_t)rnd() | 1;
	if (chance(8))
		a.reserved2[below(3)] = 1ULL << below(64);
	if (fk == F_PRIMARY && primary_fd < 0)
		fk = F_NULL;
	switch (fk) {
	case F_BAD: a.fd = -1 - (int)below(3); break;
	case F_HUGE: a.fd = 1 << 20; break;
	case F_OPATH: a.fd = opath_fd; break;
	case F_FILE: a.fd = fd; break;
	case F_NULL: a.fd = null_fd; break;
	default: a.fd = primary_fd; break;
	}
	p = place(k, sizeof(a), &br, &bw);
	if (!br)
		put4(p, &a, sizeof(a));

	if (nonroot)
		want = EPERM;
	else if (br)
		want = EFAULT;
	else if (a.flags || a.reserved || a.reserved2[0] || a.reserved2[1] ||
		 a.reserved2[2])
		want = EINVAL;
	else if (!a.index || a.index >= FAMFS_MAX_DEVS)
		want = EINVAL;
	else if (!a.size || a.size % TWO_MiB)
		want = EINVAL;
	else if (fk == F_BAD || fk == F_HUGE || fk == F_OPATH)
		want = EBADF;
	else if (fk == F_FILE)
		want = ENOTBLK;	/* a famfs file or the directory */
	else if (attached[a.index])
		want = EEXIST;
	else if (fk == F_PRIMARY)
		want = EALREADY;
	else
		want = EOPNOTSUPP;
	nc_dev++;
	ncheck[C_DEV]++;
	rc = ioctl(fd, FAMFSIOC_DEV_ADD, p);
	e = rc ? errno : 0;
	/* -F: after the failure EIO comes right after the fd checks. */
	if (failing && e == EIO && want != EPERM && want != EFAULT &&
	    want != EINVAL && want != EBADF && want != ENOTBLK)
		return;
	if (e != want)
		bad(C_DEV, "DEV_ADD on a %s: fd kind %d index %u size %#llx flags %#x reserved %u/%llx (hdr kind %d): %s, expected %s",
		    on, fk, a.index, (unsigned long long)a.size, a.flags,
		    a.reserved, (unsigned long long)(a.reserved2[0] |
		    a.reserved2[1] | a.reserved2[2]), k, rc ? t_errname(e) : "0",
		    t_errname(want));
}

static void do_dev_get(int fd, const char *on)
{
	struct famfs_ioc_dev_info d, *p;
	enum ptr_kind k = chance(90) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	int br, bw, want, e;
	long rc;

	memset(&d, 0, sizeof(d));
	d.index = chance(80) ? (uint32_t)below(FAMFS_MAX_DEVS) :
		  (uint32_t)rnd();
	switch (below(12)) {
	case 0: d.flags = 1u << below(32); break;
	case 1: d.size = rnd() | 1; break;
	case 2: d.major = 1 + (uint32_t)below(300); break;
	case 3: d.reserved[below(2)] = 1ULL << below(64); break;
	default: break;
	}
	p = place(k, sizeof(d), &br, &bw);
	if (!br)
		put4(p, &d, sizeof(d));
	if (br)
		want = EFAULT;
	else if (d.flags || d.size || d.major || d.minor || d.reserved[0] ||
		 d.reserved[1] || d.index >= FAMFS_MAX_DEVS)
		want = EINVAL;
	else if (!attached[d.index])
		want = ENXIO;
	else
		want = bw ? EFAULT : 0;
	nc_dev++;
	ncheck[C_DEV]++;
	rc = ioctl(fd, FAMFSIOC_DEV_GET, p);
	e = rc ? errno : 0;
	if (e != want) {
		bad(C_DEV, "DEV_GET on a %s: index %u (hdr kind %d): %s, expected %s",
		    on, d.index, k, rc ? t_errname(e) : "0", t_errname(want));
		return;
	}
	if (rc || d.index)
		return;
	memcpy(&d, p, sizeof(d));
	if (d.size != devsz || d.major != primary.major ||
	    d.minor != primary.minor || d.reserved[0] || d.reserved[1] ||
	    (d.flags & ~(uint32_t)(FAMFS_DEV_FAILED | FAMFS_DEV_CAUSE)) !=
	    (primary.flags & ~(uint32_t)(FAMFS_DEV_FAILED | FAMFS_DEV_CAUSE)) ||
	    (!failing && (d.flags & FAMFS_DEV_FAILED)))
		bad(C_DEV, "DEV_GET on a %s: primary %#llx bytes %u:%u flags %#x, expected %#llx bytes %u:%u flags %#x",
		    on, (unsigned long long)d.size, d.major, d.minor, d.flags,
		    (unsigned long long)devsz, primary.major, primary.minor,
		    primary.flags);
}

/* ---- MAP_CREATE_V3 ------------------------------------------------------ */
union v3list {
	struct famfs_ioc_dext se[FAMFS_IOC_MAX_EXTENTS_V2];
	struct famfs_ioc_iext_v3 ie[FAMFS_IOC_MAX_IEXTENTS];
};

static size_t esize3(uint32_t extent_type)
{
	return extent_type == FAMFS_INTERLEAVED_EXTENT ?
		sizeof(struct famfs_ioc_iext_v3) : sizeof(struct famfs_ioc_dext);
}

static void dext_from(struct famfs_ioc_dext *d, const struct famfs_extent *e)
{
	memset(d, 0, sizeof(*d));
	d->offset = e->offset;
	d->len = e->len;
}

/* The v3 form of the model's map @m, every extent on device 0. */
static uint32_t to_v3(const struct vmap *m, union v3list *l)
{
	int il = is_il(m);
	uint32_t n = m->h.ext_count, max = il ? FAMFS_IOC_MAX_IEXTENTS :
					       FAMFS_IOC_MAX_EXTENTS_V2;

	memset(l, 0, sizeof(*l));
	if (n > max)
		n = max;
	for (uint32_t i = 0; i < n; i++) {
		if (!il) {
			dext_from(&l->se[i], &m->u.se[i]);
			continue;
		}
		l->ie[i].nstrips = m->u.ie[i].nstrips;
		l->ie[i].reserved = m->u.ie[i].reserved;
		l->ie[i].chunk_size = m->u.ie[i].chunk_size;
		l->ie[i].nbytes = m->u.ie[i].nbytes;
		for (uint32_t s = 0; s < FAMFS_IOC_MAX_STRIPS; s++)
			dext_from(&l->ie[i].strips[s], &m->u.ie[i].strips[s]);
	}
	return n;
}

/* Back: what the kernel reads of the list (the header may lie over it). */
static void from_v3(const union v3list *l, struct vmap *m, uint32_t n)
{
	int il = is_il(m);

	for (uint32_t i = 0; i < n; i++) {
		if (!il) {
			m->u.se[i].offset = l->se[i].offset;
			m->u.se[i].len = l->se[i].len;
			continue;
		}
		m->u.ie[i].nstrips = l->ie[i].nstrips;
		m->u.ie[i].reserved = l->ie[i].reserved;
		m->u.ie[i].chunk_size = l->ie[i].chunk_size;
		m->u.ie[i].nbytes = l->ie[i].nbytes;
		for (uint32_t s = 0; s < FAMFS_IOC_MAX_STRIPS; s++) {
			m->u.ie[i].strips[s].offset = l->ie[i].strips[s].offset;
			m->u.ie[i].strips[s].len = l->ie[i].strips[s].len;
		}
	}
}

static uint32_t bad_devindex(void)
{
	static const uint32_t v[] = { FAMFS_MAX_DEVS, 255, 256, 0xffffffffu };

	for (int t = 0; t < 8; t++) {
		uint32_t d = chance(60) ? 1 + (uint32_t)below(FAMFS_MAX_DEVS - 1)
					: v[below(4)];

		if (d >= FAMFS_MAX_DEVS || !attached[d])
			return d;
	}
	return FAMFS_MAX_DEVS;
}

/* Break one device field of entry @n of the list (n entries). */
static void break_dev(union v3list *l, int il, uint32_t n)
{
	uint32_t i = (uint32_t)below(n);
	struct famfs_ioc_dext *d;

	if (!il) {
		d = &l->se[i];
	} else {
		uint32_t s = (uint32_t)below(FAMFS_IOC_MAX_STRIPS);

		if (chance(50) && l->ie[i].nstrips &&
		    l->ie[i].nstrips <= FAMFS_IOC_MAX_STRIPS)
			s = (uint32_t)below(l->ie[i].nstrips);
		d = &l->ie[i].strips[s];
	}
	if (chance(35))
		d->reserved = chance(50) ? 1u << below(32) : (uint32_t)rnd() | 1;
	else
		d->devindex = bad_devindex();
}

/* The first device-field error of the list, for the message only. */
static int dev_errno(const union v3list *l, int il, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct famfs_ioc_dext *d;
		uint32_t used, s;

		if (!il) {
			d = &l->se[i];
			if (d->reserved)
				return EINVAL;
			if (d->devindex >= FAMFS_MAX_DEVS || !attached[d->devindex])
				return ENODEV;
			continue;
		}
		used = l->ie[i].nstrips < FAMFS_IOC_MAX_STRIPS ?
		       l->ie[i].nstrips : FAMFS_IOC_MAX_STRIPS;
		for (s = 0; s < used; s++) {
			d = &l->ie[i].strips[s];
			if (d->reserved)
				return EINVAL;
			if (d->devindex >= FAMFS_MAX_DEVS || !attached[d->devindex])
				return ENODEV;
		}
		for (; s < FAMFS_IOC_MAX_STRIPS; s++)
			if (l->ie[i].strips[s].devindex ||
			    l->ie[i].strips[s].reserved)
				return EINVAL;
	}
	return 0;
}

/* predict_v2()'s hook for the device fields of the list being created */
static const union v3list *v3_cur;

static int v3_dev_field(uint32_t i, int il, uint32_t s, int unused)
{
	const struct famfs_ioc_dext *d = il ? &v3_cur->ie[i].strips[s] :
					      &v3_cur->se[i];

	if (unused)
		return d->devindex || d->reserved ? EINVAL : 0;
	if (d->reserved)
		return EINVAL;
	if (d->devindex >= FAMFS_MAX_DEVS || !attached[d->devindex])
		return ENODEV;
	return 0;
}

static void do_create_v3(struct ffile *f, int valid_only)
{
	static struct vmap m, rd;
	static union v3list l;
	struct famfs_ioc_map_v2 hv2, *hp;
	enum ptr_kind k = chance(90) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	enum list_kind lk = pick_list_kind();
	int il = chance(45), br, bw, lbr, lbw, overlap, want, dev_e, e;
	uint32_t n;
	size_t need;
	char *list, s[600];
	long rc;

	valid_v2(&m, il);
	if (!valid_only && chance(40))
		mutate_v2(&m);
	il = is_il(&m);
	n = to_v3(&m, &l);
	if (!valid_only && n && chance(30))
		break_dev(&l, il, n);
	inval_flag(&m.h);
	ident_flag(&m.h);
	need = n == m.h.ext_count ? n * esize3(m.h.extent_type) : 0;
	list = place_list(lk, need, &lbr, &lbw);
	if (lk == L_OK || lk == L_MISALIGNED || lk == L_RDONLY ||
	    (lk == L_STRADDLE && !lbr)) {
		put4(list, &l, need);
	} else if (lk == L_STRADDLE) {
		lbr = 1;	/* what fits is not written: unreadable anyway */
	}
	m.h.ext_list = (uintptr_t)list;
	hp = place(k, sizeof(m.h), &br, &bw);
	if (!br)
		put4(hp, &m.h, sizeof(m.h));
	/* Both on the read-only pages: the header may overwrite the list. */
	if (!lbr && need) {
		memcpy(&l, list, need);
		from_v3(&l, &m, n);
	}

	hv2 = m.h;
	hv2.ext_list = (uintptr_t)&m.u;
	/* taken by v3 whatever else the header says; not part of the map */
	hv2.flags &= ~FAMFS_IOC_MAP_INVALIDATE;
	/* so is a well-formed identity (one without its flag, or with
	 * reserved[1..3] not 0, stays for v2's reserved check: EINVAL) */
	if (hv2.flags & FAMFS_IOC_MAP_IDENT) {
		hv2.flags &= ~FAMFS_IOC_MAP_IDENT;
		hv2.reserved[0] = 0;
	}
	/* v2's checks with each extent's (strip's) device fields checked
	 * just before its own (famfs_ioctl.h) */
	v3_cur = &l;
	v3_dev = v3_dev_field;
	if (hv2.flags & FAMFS_IOC_MAP_PAGES) {	/* a mutated flag: pages */
		hv2.ext_list = (uintptr_t)&l;
		want = predict_pages(&hv2, br, lbr, f->mapped, f->others,
				     &overlap, &rd);
	} else {
		want = predict_v2(&hv2, br, lbr, f->mapped, f->others,
				  &overlap, &rd);
	}
	v3_dev = NULL;
	dev_e = dev_errno(&l, il, n);
	nc_create3++;
	ncheck[C_CREATE3]++;
	rc = ioctl(f->fd, FAMFSIOC_MAP_CREATE_V3, hp);
	e = rc ? errno : 0;
	if (!br && (m.h.flags & FAMFS_IOC_MAP_INVALIDATE)) {
		nc_inval++;
		nc_accept_inval += !rc;
	}
	if (failing && !(nonroot || br || ro || f->mapped) && e == EIO) {
		if (!f->mapped)
			check_unmapped(f);
		return;
	}
	if (!br && scanner_busy(f, rc, e))
		return;
	vm_str(&m, s, sizeof(s));
	if (want) {
		if (e != want)
			bad(C_CREATE3, "MAP_CREATE_V3 %s (device error %s, hdr kind %d, list kind %d): %s, expected %s (%s)",
			    s, dev_e ? t_errname(dev_e) : "none", k, lk,
			    rc ? t_errname(e) : "0", t_errname(want),
			    v2_why);
		if (!f->mapped && !rc)
			learn(f);
		else if (!f->mapped)
			check_unmapped(f);
		return;
	}
	if (rc == 0) {
		if (overlap)
			bad(C_CREATE3, "MAP_CREATE_V3 %s: accepted, but it overlaps a known map or itself",
			    s);
		ident_learn(f, hp);
		accepted_v2(f, &rd);
		return;
	}
	if (e == EADDRINUSE && (overlap || multi)) {
		check_unmapped(f);
		return;
	}
	bad(C_CREATE3, "MAP_CREATE_V3 %s (list kind %d): %s, expected %s", s,
	    lk, t_errname(e), overlap ? "EADDRINUSE" : "success");
	if (!f->mapped)
		check_unmapped(f);
}

/* ---- MAP_GET_V3 --------------------------------------------------------- */
static void do_get_v3(struct ffile *f)
{
	static union v3list model;
	enum ptr_kind k = chance(85) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	enum list_kind lk = pick_list_kind();
	struct famfs_ioc_map_v2 in, got, *hp;
	uint32_t actual = f->mapped ? f->vm.h.ext_count : 0, room;
	size_t es = f->mapped ? esize3(f->vm.h.extent_type) : 24, wneed;
	int br, bw, lbr, lbw, want, e, canary, ask;
	char *list, s[600];
	long rc;

	memset(&in, 0, sizeof(in));
	if (chance(50))		/* asks for the identity */
		in.flags = FAMFS_IOC_MAP_IDENT;
	if (chance(4))		/* another flag (or it alone) */
		in.flags |= 1u << below(32);
	else if (chance(3))
		in.reserved[below(4)] = 1ULL << below(64);
	ask = in.flags == FAMFS_IOC_MAP_IDENT;
	switch (below(6)) {
	case 0: room = 0; break;
	case 1: room = actual > 1 ? 1 + (uint32_t)below(actual - 1) : 1; break;
	case 2: room = actual + 1 + (uint32_t)below(4); break;
	default: room = actual; break;
	}
	in.ext_count = room;
	wneed = room && room >= actual ? actual * es : 0;
	list = place_list(lk, wneed, &lbr, &lbw);
	canary = lk == L_OK || lk == L_MISALIGNED;
	if (canary)
		memset(list, 0x5a, wneed + 64);
	in.ext_list = (uintptr_t)list;
	hp = place(k, sizeof(in), &br, &bw);
	if (!br)
		put4(hp, &in, sizeof(in));

	if (!f->mapped)
		want = ENODATA;
	else if (br)
		want = EFAULT;
	else if ((in.flags && !ask) || in.reserved[0] || in.reserved[1] ||
		 in.reserved[2] || in.reserved[3])
		want = EINVAL;
	else if (bw)
		want = EFAULT;
	else if (!room)
		want = 0;
	else if (room < actual)
		want = E2BIG;
	else
		want = lbw ? EFAULT : 0;
	nc_get3++;
	ncheck[C_GET3]++;
	rc = ioctl(f->fd, FAMFSIOC_MAP_GET_V3, hp);
	e = rc ? errno : 0;
	if (e != want) {
		bad(C_GET3, "MAP_GET_V3 (room %u of %u, flags %#x, hdr kind %d, list kind %d): %s, expected %s",
		    room, actual, in.flags, k, lk, rc ? t_errname(e) : "0",
		    t_errname(want));
		return;
	}
	if (want && want != E2BIG)
		return;
	memcpy(&got, hp, sizeof(got));
	vm_str(&f->vm, s, sizeof(s));
	if (got.extent_type != f->vm.h.extent_type ||
	    got.file_type != f->vm.h.file_type ||
	    got.file_size != f->vm.h.file_size || got.ext_count != actual ||
	    got.flags != (f->vm.h.flags |
			  (ask && f->has_ident ? FAMFS_IOC_MAP_IDENT : 0)) ||
	    got.reserved[0] != (ask ? f->ident : 0) || got.reserved[1] ||
	    got.reserved[2] || got.reserved[3] ||
	    got.ext_list != in.ext_list) {
		bad(C_GET3, "MAP_GET_V3 of %s (identity %s): header et %u ft %u size %#llx n %u flags %#x identity %#llx (model: %s %#llx)",
		    s, ask ? "asked" : "not asked", got.extent_type,
		    got.file_type,
		    (unsigned long long)got.file_size, got.ext_count,
		    got.flags, (unsigned long long)got.reserved[0],
		    f->has_ident ? "has" : "none",
		    (unsigned long long)f->ident);
		return;
	}
	if (!want && room) {
		to_v3(&f->vm, &model);
		if (memcmp(list, &model, wneed))
			bad(C_GET3, "MAP_GET_V3 of %s: the entries differ from the model's (device 0, reserved 0)",
			    s);
	}
	if (canary && (list[want || !room ? 0 : wneed] != 0x5a ||
		       list[wneed + 63] != 0x5a))
		bad(C_GET3, "MAP_GET_V3 (room %u of %u) of %s wrote past what it may",
		    room, actual, s);
}

/* Is device @i attached to the mount (asked at the start)? */
int dev_attached(uint32_t i)
{
	return i < FAMFS_MAX_DEVS && attached[i];
}

int is_dev_cmd(unsigned int cmd)
{
	return cmd == FAMFSIOC_DEV_ADD || cmd == FAMFSIOC_DEV_GET;
}

/* One call of this file's kind: a share of the fuzz loop's calls. */
void do_multidev(int dirfd)
{
	int r = (int)below(100);
	struct ffile *f;

	if (r < 40) {
		f = pick(ro || nonroot ? -1 : 0, 0);
		if (f)
			do_create_v3(f, chance(30));
	} else if (r < 65) {
		f = pick(chance(85) ? 1 : 0, 1);
		if (f)
			do_get_v3(f);
	} else if (r < 85) {
		f = pick(-1, 1);
		if (chance(50) || !f)
			do_dev_add(dirfd, "directory");
		else
			do_dev_add(f->fd, "file");
	} else {
		f = pick(-1, 1);
		if (chance(50) || !f)
			do_dev_get(dirfd, "directory");
		else
			do_dev_get(f->fd, "file");
	}
}
