// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: small files in 4 KiB pages: FAMFSIOC_MAP_CREATE_V3 with
 * FAMFS_IOC_MAP_PAGES (<linux/famfs_ioctl.h>).
 *
 * Valid page maps (1..16 page extents, each inside one 2 MiB unit, mostly in
 * a unit other page maps of this process share, or a free one, or the hot
 * window when several processes race) and maps broken in one or two fields
 * (other flag bits, reserved, extent and file types, counts 0 and 17..,
 * sizes of 2 MiB and more or past the extents, offsets and lengths not 4 KiB
 * multiples, extents that cross a 2 MiB boundary, lie past the device, in
 * its first unit, wrap, name another device, or sit on a page of another
 * small file or in the unit of a map made without the flag), through good
 * and bad pointers.  predict_pages() is the contract's order of checks as
 * code; the memory a page map holds is known per page (pbusy), and per unit
 * how many page extents touch it (pcnt): the model's unit count (ucnt,
 * model2.c) minus pcnt is what maps without the flag hold there.
 *
 * An accepted page map is the model's like any other (ff[], its vmap with
 * the flag in h.flags): MAP_GET_V3 shows the flag, MAP_GET, MAP_GETEXT and
 * MAP_GET_V2 get EOVERFLOW, st_blocks counts its pages, its pattern bytes
 * stay, and remap_pages() maps its freed extents again in reverse order to
 * check where its bytes were.
 */
#include "fuzz.h"

#define PG		4096ULL
#define UPAGES		(TWO_MiB / PG)

long nc_pages, nc_accept_pages;
static uint8_t *pbusy;		/* a bit per device page held by a page map */
static uint16_t *pcnt;		/* page extents touching each unit */
static uint64_t npages;

static void pinit(void)
{
	if (pbusy)
		return;
	npages = devsz / PG + 1;
	pbusy = calloc(npages / 8 + 1, 1);
	pcnt = calloc(devsz / TWO_MiB + 1, sizeof(*pcnt));
	if (!pbusy || !pcnt)
		die("calloc");
}

/* Page extent [@off, @off + @len) of a map is mapped (@d 1) or freed (-1). */
void pages_mark(uint64_t off, uint64_t len, int d)
{
	pinit();
	if (off / TWO_MiB > devsz / TWO_MiB || len > TWO_MiB)
		return;
	pcnt[off / TWO_MiB] += d;
	for (uint64_t p = off / PG; p < (off + len) / PG && p < npages; p++) {
		if (d > 0)
			pbusy[p / 8] |= (uint8_t)(1u << (p % 8));
		else
			pbusy[p / 8] &= (uint8_t)~(1u << (p % 8));
	}
}

static int page_busy(uint64_t p)
{
	return p < npages && (pbusy[p / 8] >> (p % 8)) & 1;
}

/* Does page extent [@off, @off + @len) (valid) meet known memory? */
static int pages_overlap(uint64_t off, uint64_t len)
{
	uint64_t u = off / TWO_MiB;

	pinit();
	if (units_count(u) > pcnt[u])	/* a map without the flag */
		return 1;
	for (uint64_t p = off / PG; p < (off + len) / PG; p++)
		if (page_busy(p))
			return 1;
	return 0;
}

/* ---- the contract ----------------------------------------------------------- */
#define PWHY(e, what)	(v2_why = pages_why = (what), (e))
static const char *pages_why;

/*
 * The errno MAP_CREATE_V3 of header @h (flag FAMFS_IOC_MAP_PAGES set) with
 * the v3 entries at h->ext_list must return, or 0 (*overlap: it meets known
 * memory or itself).  As predict_v2(); @read: the map as the kernel reads it.
 */
int predict_pages(const struct famfs_ioc_map_v2 *h, int hdr_bad, int list_bad,
		  int mapped, int busy, int *overlap, struct vmap *read)
{
	const struct famfs_ioc_dext *d = (const void *)(uintptr_t)h->ext_list;
	int il = h->extent_type == FAMFS_INTERLEAVED_EXTENT;
	uint64_t total = 0;

	*overlap = 0;
	pages_why = "valid";
	if (nonroot)
		return PWHY(EPERM, "not root");
	if (hdr_bad)
		return PWHY(EFAULT, "header unreadable");
	if (ro)
		return PWHY(EROFS, "read-only");
	if (mapped)
		return PWHY(EEXIST, "already mapped");
	if (busy)
		return PWHY(EBUSY, "another opener or name");
	if ((h->flags & ~FAMFS_IOC_MAP_PAGES) || h->reserved[0] ||
	    h->reserved[1] || h->reserved[2] || h->reserved[3])
		return PWHY(EINVAL, "flags/reserved");
	if ((!il && h->extent_type != SIMPLE_DAX_EXTENT) ||
	    h->file_type > FAMFS_LOG || (il && h->file_type != FAMFS_REG))
		return PWHY(EOPNOTSUPP, "extent/file type");
	if (il || h->file_type != FAMFS_REG)
		return PWHY(EINVAL, "pages: interleaved or not a regular file");
	if (!h->ext_count)
		return PWHY(EINVAL, "ext_count 0");
	if (h->ext_count > FAMFS_IOC_MAX_PAGE_EXTENTS)
		return PWHY(E2BIG, "more than 16 page extents");
	if (h->file_size >= FAMFS_IOC_SMALL_MAX)
		return PWHY(EFBIG, "file size 2 MiB or more");
	if (list_bad)
		return PWHY(EFAULT, "list unreadable");
	if (read) {
		memset(read, 0, sizeof(*read));
		read->h = *h;
		read->h.ext_list = 0;
	}
	for (uint32_t i = 0; i < h->ext_count; i++) {
		uint64_t off = d[i].offset, len = d[i].len, end = off + len;

		if (read) {
			read->u.se[i].offset = off;
			read->u.se[i].len = len;
		}
		if (d[i].reserved)
			return PWHY(EINVAL, "extent reserved");
		if (!dev_attached(d[i].devindex))
			return PWHY(ENODEV, "devindex");
		if (!len || off % PG || len % PG)
			return PWHY(EINVAL, "page extent len 0/offset/len");
		if (end < off)
			return PWHY(EOVERFLOW, "page extent wraps");
		if (off / TWO_MiB != (end - 1) / TWO_MiB)
			return PWHY(EINVAL, "page extent crosses a unit");
		if (end > devsz)
			return PWHY(ENXIO, "page extent past device end");
		if (off < TWO_MiB)
			return PWHY(EINVAL, "page extent in the first unit");
	}
	for (uint32_t i = 0; i < h->ext_count; i++)
		total += d[i].len;	/* each at most 2 MiB */
	if (h->file_size > total)
		return PWHY(EFBIG, "file_size > extents");
	for (uint32_t i = 0; i < h->ext_count && !*overlap; i++) {
		*overlap = pages_overlap(d[i].offset, d[i].len);
		for (uint32_t j = 0; j < i; j++)
			if (overlaps(d[i].offset, d[i].len, d[j].offset,
				     d[j].len))
				*overlap = 1;
	}
	if (*overlap)
		pages_why = "overlap";
	return 0;
}

/* Rules every page map read back must obey (vm_sane() for the flag). */
int pages_sane(const struct vmap *m, char *why_, size_t n)
{
	uint64_t total = 0;

	if (m->h.flags != FAMFS_IOC_MAP_PAGES ||
	    m->h.extent_type != SIMPLE_DAX_EXTENT ||
	    m->h.file_type != FAMFS_REG || !m->h.ext_count ||
	    m->h.ext_count > FAMFS_IOC_MAX_PAGE_EXTENTS ||
	    m->h.file_size >= FAMFS_IOC_SMALL_MAX) {
		snprintf(why_, n, "bad page map header");
		return 0;
	}
	for (uint32_t i = 0; i < m->h.ext_count; i++) {
		uint64_t off = m->u.se[i].offset, len = m->u.se[i].len;

		if (!len || off % PG || len % PG || off + len < off ||
		    off / TWO_MiB != (off + len - 1) / TWO_MiB ||
		    off + len > devsz || off < TWO_MiB) {
			snprintf(why_, n, "page extent %u %#llx+%#llx breaks a rule",
				 i, (unsigned long long)off,
				 (unsigned long long)len);
			return 0;
		}
		total += len;
	}
	if (m->h.file_size > total) {
		snprintf(why_, n, "size %#llx > extents %#llx",
			 (unsigned long long)m->h.file_size,
			 (unsigned long long)total);
		return 0;
	}
	return 1;
}

/* ---- maps read back ------------------------------------------------------- */
/* @fd's map through MAP_GET_V3 as a vmap (device 0 assumed): 0 or errno. */
int get_v3_vmap(int fd, struct vmap *vm)
{
	static struct famfs_ioc_dext d[FAMFS_IOC_MAX_EXTENTS_V2];
	static struct famfs_ioc_iext_v3 ie[FAMFS_IOC_MAX_IEXTENTS];
	struct famfs_ioc_map_v2 h;

	memset(vm, 0, sizeof(*vm));
	memset(&h, 0, sizeof(h));
	h.ext_count = FAMFS_IOC_MAX_IEXTENTS;
	h.ext_list = (uintptr_t)ie;
	if (ioctl(fd, FAMFSIOC_MAP_GET_V3, &h)) {
		if (errno != E2BIG)
			return errno;
		h.ext_count = FAMFS_IOC_MAX_EXTENTS_V2;
		h.ext_list = (uintptr_t)d;
		if (ioctl(fd, FAMFSIOC_MAP_GET_V3, &h))
			return errno;
	}
	vm->h = h;
	vm->h.ext_list = 0;
	/* the identity is the file's, not the map's (ffile.ident) */
	vm->h.flags &= ~FAMFS_IOC_MAP_IDENT;
	vm->h.reserved[0] = 0;
	for (uint32_t i = 0; i < h.ext_count; i++) {
		if (h.extent_type != FAMFS_INTERLEAVED_EXTENT) {
			const struct famfs_ioc_dext *s = h.ext_list ==
				(uintptr_t)d ? &d[i] :
				&((const struct famfs_ioc_dext *)ie)[i];

			vm->u.se[i].offset = s->offset;
			vm->u.se[i].len = s->len;
			continue;
		}
		vm->u.ie[i].nstrips = ie[i].nstrips;
		vm->u.ie[i].chunk_size = ie[i].chunk_size;
		vm->u.ie[i].nbytes = ie[i].nbytes;
		for (uint32_t s = 0; s < FAMFS_IOC_MAX_STRIPS; s++) {
			vm->u.ie[i].strips[s].offset = ie[i].strips[s].offset;
			vm->u.ie[i].strips[s].len = ie[i].strips[s].len;
		}
	}
	return 0;
}

/* check_map() of a page map: v2 EOVERFLOW, v3 the model's map. */
void check_map_pages(struct ffile *f, int c, const char *what)
{
	static struct vmap got;
	struct famfs_ioc_map_v2 h;
	char s[600];
	int e;

	vm_str(&f->vm, s, sizeof(s));
	memset(&h, 0, sizeof(h));
	h.ext_count = FAMFS_IOC_MAX_EXTENTS_V2;
	h.ext_list = (uintptr_t)&got.u;
	nc_v1ovf++;
	ncheck[C_V1_EOVERFLOW]++;
	if (ioctl(f->fd, FAMFSIOC_MAP_GET_V2, &h) != -1 || errno != EOVERFLOW)
		bad(C_V1_EOVERFLOW, "%s %s: MAP_GET_V2 of a page map: %s, expected EOVERFLOW",
		    what, s, errno == EOVERFLOW ? "0" : t_errname(errno));
	e = get_v3_vmap(f->fd, &got);
	if (e)
		bad(c, "%s %s: MAP_GET_V3: %s", what, s, t_errname(e));
	else if (memcmp(&got.h, &f->vm.h, sizeof(got.h)) ||
		 memcmp(&got.u, &f->vm.u, f->vm.h.ext_count * sizeof(got.u.se[0])))
		bad(c, "%s %s: MAP_GET_V3 shows another map (flags %#x, %u extents)",
		    what, s, got.h.flags, got.h.ext_count);
}

/* ---- generators ------------------------------------------------------------- */
/* A unit for a page map: one other page maps share, the hot window, or a
 * free one (any, for a few). */
static uint64_t pick_unit(void)
{
	for (int t = 0; chance(45) && t < 8; t++) {
		struct ffile *f = pick(1, 1);

		if (f && f->vm.h.flags)
			return f->vm.u.se[below(f->vm.h.ext_count)].offset /
			       TWO_MiB;
	}
	return free_unit(1, 8);
}

/* A valid page map (maybe overlapping known memory when the dice say). */
static void valid_pages(struct vmap *m)
{
	uint32_t n = chance(60) ? 1 + (uint32_t)below(3) :
		     1 + (uint32_t)below(FAMFS_IOC_MAX_PAGE_EXTENTS);
	uint64_t u = pick_unit(), total = 0;

	memset(m, 0, sizeof(*m));
	m->h.extent_type = SIMPLE_DAX_EXTENT;
	m->h.file_type = FAMFS_REG;
	m->h.flags = FAMFS_IOC_MAP_PAGES;
	m->h.ext_count = n;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t np = chance(70) ? 1 + below(4) : 1 + below(64), at = 0;

		if (chance(20))
			u = pick_unit();
		if (chance(3))
			np = UPAGES;
		/* a few tries for pages nobody holds, this map included */
		for (int t = 0; t < 6; t++) {
			int clash = 0;

			at = u * TWO_MiB + below(UPAGES - np + 1) * PG;
			clash = pages_overlap(at, np * PG);
			for (uint32_t j = 0; j < i && !clash; j++)
				clash = overlaps(at, np * PG,
						 m->u.se[j].offset,
						 m->u.se[j].len);
			if (!clash || chance(5))
				break;
		}
		m->u.se[i].offset = at;
		m->u.se[i].len = np * PG;
		total += np * PG;
	}
	if (total >= FAMFS_IOC_SMALL_MAX)
		total = FAMFS_IOC_SMALL_MAX - 1;
	switch (below(5)) {
	case 0: m->h.file_size = 0; break;
	case 1: m->h.file_size = total; break;
	case 2: m->h.file_size = total - below(PG); break;
	default: m->h.file_size = below(total + 1); break;
	}
}

/* Break one or two fields of a page map. */
static void mutate_pages(struct vmap *m, struct famfs_ioc_dext *d)
{
	uint32_t n = m->h.ext_count, i = n ? (uint32_t)below(n) : 0;

	for (int k = chance(70) ? 1 : 2; k; k--) {
		switch (below(22)) {
		case 0: m->h.flags |= 2u << below(31); break;
		case 1: m->h.reserved[below(4)] = 1ULL << below(64); break;
		case 2: m->h.extent_type = FAMFS_INTERLEAVED_EXTENT; break;
		case 3: m->h.extent_type = boundary32(); break;
		case 4: m->h.file_type = chance(50) ? FAMFS_LOG :
				chance(50) ? FAMFS_SUPERBLOCK : boundary32();
			break;
		case 5: m->h.ext_count = 0; break;
		case 6: m->h.ext_count = FAMFS_IOC_MAX_PAGE_EXTENTS + 1 +
				(uint32_t)below(4);
			break;
		case 7: m->h.file_size = FAMFS_IOC_SMALL_MAX +
				(chance(50) ? 0 : boundary64());
			break;
		case 8: m->h.file_size += 1 + below(3 * PG); break;
		case 9: d[i].offset += 1 + below(PG - 1); break;
		case 10: d[i].len = 0; break;
		case 11: d[i].len += 1 + below(PG - 1); break;
		case 12: d[i].offset = (d[i].offset | (TWO_MiB - 1)) + 1 -
				PG * (1 + below(4));
			d[i].len = PG * (5 + below(4));
			break;
		case 13: d[i].offset = (devsz & ~(TWO_MiB - 1)) +
				PG * below(UPAGES);
			break;
		case 14: d[i].offset = PG * below(UPAGES); break;
		case 15: d[i].offset = ~(PG - 1) - PG * below(4);
			d[i].len = PG * (1 + below(8));
			break;
		case 16: d[i].reserved = chance(50) ? 1u << below(32) :
				(uint32_t)rnd() | 1;
			break;
		case 17: d[i].devindex = chance(50) ? 1 + (uint32_t)below(15) :
				boundary32() | 1;
			break;
		case 18: {	/* a page of another small file */
			struct ffile *f = pick(1, 1);

			if (f && f->vm.h.flags)
				d[i].offset = f->vm.u.se[below(f->vm.h.ext_count)].offset;
			break;
		}
		case 19: {	/* the unit of a map without the flag */
			struct ffile *f = pick(1, 1);
			struct ext r[MAXRANGES];

			if (f && !f->vm.h.flags && vm_ranges(&f->vm, r))
				d[i].offset = r[0].off + PG * below(UPAGES -
						d[i].len / PG);
			else if (nstat)
				d[i].offset = (stat_ext[below(nstat)].off &
					       ~(TWO_MiB - 1)) + PG * below(8);
			break;
		}
		default: d[i].offset = boundary64(); break;
		}
	}
}

/* ---- the calls ---------------------------------------------------------------- */
static int64_t used_bytes(void)
{
	struct statfs sf;

	if (multi || failing || statfs(mpt, &sf))
		return -1;
	return (int64_t)((sf.f_blocks - sf.f_bfree) * sf.f_bsize);
}

static void do_create_pages(struct ffile *f, int valid_only)
{
	static struct vmap m, rd;
	static struct famfs_ioc_dext d[FAMFS_IOC_MAX_PAGE_EXTENTS + 8];
	struct famfs_ioc_map_v2 *hp;
	enum ptr_kind k = chance(92) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	enum list_kind lk = pick_list_kind();
	int br, bw, lbr, lbw, overlap, want, e;
	uint32_t n;
	size_t need;
	int64_t used0;
	char *list, s[600];
	long rc;

	valid_pages(&m);
	memset(d, 0, sizeof(d));
	for (uint32_t i = 0; i < m.h.ext_count; i++) {
		d[i].offset = m.u.se[i].offset;
		d[i].len = m.u.se[i].len;
	}
	if (!valid_only && chance(55))
		mutate_pages(&m, d);
	inval_flag(&m.h);
	ident_flag(&m.h);
	n = m.h.ext_count;
	need = n <= FAMFS_IOC_MAX_PAGE_EXTENTS ? n * sizeof(*d) : 0;
	list = place_list(lk, need, &lbr, &lbw);
	if (lk == L_OK || lk == L_MISALIGNED || lk == L_RDONLY ||
	    (lk == L_STRADDLE && !lbr)) {
		int rdonly = list >= ro_page && list < ro_page + 2 * pg;

		if (rdonly)
			mprotect(ro_page, 2 * pg, PROT_READ | PROT_WRITE);
		memcpy(list, d, need);
		if (rdonly)
			mprotect(ro_page, 2 * pg, PROT_READ);
	} else if (lk == L_STRADDLE) {
		lbr = 1;
	}
	m.h.ext_list = (uintptr_t)list;
	hp = place(k, sizeof(m.h), &br, &bw);
	if (!br) {
		int rdonly = (char *)hp >= ro_page && (char *)hp < ro_page + 2 * pg;

		if (rdonly)
			mprotect(ro_page, 2 * pg, PROT_READ | PROT_WRITE);
		memcpy(hp, &m.h, sizeof(m.h));
		if (rdonly)
			mprotect(ro_page, 2 * pg, PROT_READ);
	}
	{	/* what the kernel reads: the header may lie over the list */
		struct famfs_ioc_map_v2 h = br ? m.h : *hp;

		if (!lbr && need)
			memcpy(d, list, need);
		h.ext_list = (uintptr_t)d;
		h.flags &= ~FAMFS_IOC_MAP_INVALIDATE;	/* no part of the map */
		if (h.flags & FAMFS_IOC_MAP_IDENT) {	/* the file's, not the map's */
			h.flags &= ~FAMFS_IOC_MAP_IDENT;
			h.reserved[0] = 0;
		}
		want = predict_pages(&h, br, lbr, f->mapped, f->others,
				     &overlap, &rd);
	}
	nc_pages++;
	ncheck[C_PAGES]++;
	used0 = used_bytes();
	rc = ioctl(f->fd, FAMFSIOC_MAP_CREATE_V3, hp);
	e = rc ? errno : 0;
	if (!br && (m.h.flags & FAMFS_IOC_MAP_INVALIDATE)) {
		nc_inval++;
		nc_accept_inval += !rc;
	}
	if (used0 >= 0) {
		int64_t dl = used_bytes() - used0;
		int64_t exp = rc ? 0 : (int64_t)vm_claim(&rd);

		if (dl != exp)
			bad(C_PAGES, "MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES (%s): statfs used grew by %lld bytes, expected %lld",
			    rc ? t_errname(e) : "0", (long long)dl,
			    (long long)exp);
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
			bad(C_PAGES, "MAP_CREATE_V3 pages %s (hdr kind %d, list kind %d): %s, expected %s (%s)",
			    s, k, lk, rc ? t_errname(e) : "0",
			    t_errname(want), pages_why);
		if (!f->mapped && !rc)
			learn(f);
		else if (!f->mapped)
			check_unmapped(f);
		return;
	}
	if (rc == 0) {
		if (overlap)
			bad(C_PAGES, "MAP_CREATE_V3 pages %s: accepted, but it overlaps a known map or itself",
			    s);
		nc_accept_pages++;
		ident_learn(f, hp);
		accepted_v2(f, &rd);
		return;
	}
	if (e == EADDRINUSE && (overlap || multi)) {
		check_unmapped(f);
		return;
	}
	bad(C_PAGES, "MAP_CREATE_V3 pages %s (list kind %d): %s, expected %s",
	    s, lk, t_errname(e), overlap ? "EADDRINUSE" : "success");
	if (!f->mapped)
		check_unmapped(f);
}

/* One call of this file's kind: a share of the fuzz loop's calls. */
void do_pages(void)
{
	struct ffile *f = pick(ro || nonroot ? -1 : 0, 0);

	if (f)
		do_create_pages(f, chance(40));
}

/*
 * remap_check() of a page map: free @f, map its extents again in reverse
 * order to a new file, and find each pattern byte where its extent went.
 */
int remap_pages(struct ffile *f)
{
	static struct vmap fm, r;
	static struct famfs_ioc_dext d[FAMFS_IOC_MAX_PAGE_EXTENTS];
	uint64_t spot[NSPOT], fpat = f->pat, total = 0;
	int ns = f->nspot, overlap, want;
	uint32_t n = f->vm.h.ext_count;
	struct ffile *g;
	char s[600];
	uint8_t *p;

	if (!f->haspat || !ns || multi || failing || nopat || ro || nonroot ||
	    !chance(30))
		return 0;
	pat_check(f);
	fm = f->vm;
	memcpy(spot, f->spot, sizeof(spot));
	if (unlink(f->path))
		bad(C_DATA, "unlink %s: %s", f->path, t_errname(errno));
	f->unlinked = 1;
	close_file(f);
	g = new_file();
	if (!g)
		return 1;
	memset(&r, 0, sizeof(r));
	memset(d, 0, sizeof(d));
	r.h.extent_type = SIMPLE_DAX_EXTENT;
	r.h.file_type = FAMFS_REG;
	r.h.flags = FAMFS_IOC_MAP_PAGES;
	r.h.ext_count = n;
	for (uint32_t i = 0; i < n; i++) {
		d[i].offset = fm.u.se[n - 1 - i].offset;
		d[i].len = fm.u.se[n - 1 - i].len;
		total += d[i].len;
	}
	r.h.file_size = total < FAMFS_IOC_SMALL_MAX ? total :
			FAMFS_IOC_SMALL_MAX - 1;
	r.h.ext_list = (uintptr_t)d;
	vm_str(&fm, s, sizeof(s));
	want = predict_pages(&r.h, 0, 0, 0, 0, &overlap, NULL);
	ncheck[C_PLACE]++;
	if (want || overlap) {
		bad(C_PLACE, "the model finds the memory of page map %s not free (%s)",
		    s, want ? t_errname(want) : "overlap");
		return 1;
	}
	if (ioctl(g->fd, FAMFSIOC_MAP_CREATE_V3, &r.h)) {
		bad(C_PLACE, "%s: MAP_CREATE_V3 pages over the freed pages of %s: %s",
		    g->path, s, t_errname(errno));
		check_unmapped(g);
		return 1;
	}
	nc_remap++;
	r.h.ext_list = 0;
	for (uint32_t i = 0; i < n; i++) {
		r.u.se[i].offset = d[i].offset;
		r.u.se[i].len = d[i].len;
	}
	p = mmap(NULL, r.h.file_size, PROT_READ, MAP_SHARED, g->fd, 0);
	if (p == MAP_FAILED) {
		bad(C_PLACE, "%s: mmap: %s", g->path, t_errname(errno));
		accepted_v2(g, &r);
		return 1;
	}
	for (int i = 0; i < ns; i++) {
		uint8_t b[64];

		pat_fill(fpat, spot[i], b, sizeof(b));
		for (int j = 0; j < 64; j++) {
			uint64_t x = spot[i] + j, base = 0, at;
			uint32_t e = 0;

			/* extent e of the old map holds x; it is extent
			 * n-1-e of the new one, after the ones behind it */
			while (e < n && x >= fm.u.se[e].len) {
				x -= fm.u.se[e].len;
				e++;
			}
			for (uint32_t t = e + 1; t < n; t++)
				base += fm.u.se[t].len;
			at = base + x;
			if (e == n || at >= r.h.file_size)
				continue;
			if (p[at] != b[j]) {
				bad(C_PLACE, "file byte %llu of page map %s is not at byte %llu of its extents in reverse order",
				    (unsigned long long)(spot[i] + j), s,
				    (unsigned long long)at);
				i = ns;
				break;
			}
		}
	}
	munmap(p, r.h.file_size);
	accepted_v2(g, &r);
	return 1;
}
