// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: the v2 calls.  MAP_CREATE_V2 of valid and broken maps
 * through good and bad pointers, compared with predict_v2(); MAP_GET_V2
 * with every kind of room (0, too little, enough, more) and pointer; and for
 * each accepted map: MAP_GET_V2 returns it, v1 MAP_GET/GETEXT return it or
 * EOVERFLOW, st_size/st_blocks, pattern bytes at random file offsets written
 * through pwrite or a shared mapping, and (remap_check) that those bytes
 * are on the device where a chunk-by-chunk walk of the map says.
 */
#include "fuzz.h"

long nc_create2, nc_accept2, nc_il2, nc_get2, nc_v1ovf, nc_remap;
long nerr2[NDOC + 1];

/* How often each check of the contract decided a MAP_CREATE_V2. */
static struct { const char *why; long n; } tally[48];

static void tally_add(const char *why)
{
	for (size_t i = 0; i < sizeof(tally) / sizeof(tally[0]); i++) {
		if (tally[i].why && strcmp(tally[i].why, why))
			continue;
		tally[i].why = why;
		tally[i].n++;
		return;
	}
}

void print_tally(void)
{
	char s[1200];
	size_t o = 0;

	for (size_t i = 0; i < sizeof(tally) / sizeof(tally[0]) &&
	     tally[i].why && o < sizeof(s); i++)
		o += (size_t)snprintf(s + o, sizeof(s) - o, "%s%s %ld",
				      i ? ", " : "", tally[i].why, tally[i].n);
	if (o)
		printf("info: %s[%d]: MAP_CREATE_V2 decided by: %s\n", label,
		       myid, s);
}

static const char *res(long rc, int e)
{
	return rc ? t_errname(e) : "0";
}

/* Bytes statfs says are mapped (-1 when others map memory meanwhile). */
static int64_t used_now(void)
{
	struct statfs sf;

	if (multi || failing || statfs(mpt, &sf))
		return -1;
	return (int64_t)((sf.f_blocks - sf.f_bfree) * sf.f_bsize);
}

/* Copy to user memory that may be the read-only pages. */
static void put(void *dst, const void *src, size_t n)
{
	int rdonly = (char *)dst >= ro_page && (char *)dst < ro_page + 2 * pg;

	if (rdonly)
		mprotect(ro_page, 2 * pg, PROT_READ | PROT_WRITE);
	memcpy(dst, src, n);
	if (rdonly)
		mprotect(ro_page, 2 * pg, PROT_READ);
}

/* Bytes from @p to the end of the mapping it is in (good kinds only). */
static size_t room_at(enum list_kind k, const char *p)
{
	if (k == L_RDONLY)
		return (size_t)(ro_page + 2 * pg - p);
	if (p >= arena32 && p < arena32 + ARENA32)
		return (size_t)(arena32 + ARENA32 - p);
	return (size_t)(larena + LARENA - p);
}

/* Does header @h (as MAP_GET_V2 wrote it) with list @list show @m?
 * @given: the ext_list the caller passed; @full: the entries were copied. */
static int same_map(const struct famfs_ioc_map_v2 *h, const char *list,
		    const struct vmap *m, uint64_t given, int full,
		    char *why_, size_t n)
{
	size_t es = esize(m->h.extent_type);

	if (h->extent_type != m->h.extent_type ||
	    h->file_type != m->h.file_type ||
	    h->file_size != m->h.file_size || h->ext_count != m->h.ext_count) {
		snprintf(why_, n, "header et %u ft %u size %#llx n %u, model et %u ft %u size %#llx n %u",
			 h->extent_type, h->file_type,
			 (unsigned long long)h->file_size, h->ext_count,
			 m->h.extent_type, m->h.file_type,
			 (unsigned long long)m->h.file_size, m->h.ext_count);
		return 0;
	}
	if (h->flags || h->reserved[0] || h->reserved[1] || h->reserved[2] ||
	    h->reserved[3] || h->ext_list != given) {
		snprintf(why_, n, "flags %#x, reserved not 0 or ext_list %#llx changed (was %#llx)",
			 h->flags, (unsigned long long)h->ext_list,
			 (unsigned long long)given);
		return 0;
	}
	if (full && memcmp(list, &m->u, m->h.ext_count * es)) {
		snprintf(why_, n, "the entries differ from the model's");
		return 0;
	}
	return 1;
}

/* The whole map through MAP_GET_V2 and v1 MAP_GET/GETEXT, st_size and
 * st_blocks: they must show the model's map of @f. */
static void check_map(struct ffile *f, int c, const char *what)
{
	static struct vmap got;	/* list in got.u */
	struct famfs_ioc_map_v2 h;
	struct famfs_ioc_map v1;
	struct famfs_extent ext[FAMFS_MAX_EXTENTS + 1];
	size_t es = esize(f->vm.h.extent_type), used = f->vm.h.ext_count * es;
	char s[600], w[300];
	struct stat st;
	long rc;

	vm_str(&f->vm, s, sizeof(s));
	/* a page map: MAP_GET_V2 says EOVERFLOW, MAP_GET_V3 shows it */
	if (f->vm.h.flags) {
		check_map_pages(f, c, what);
	} else {
		memset(&h, 0, sizeof(h));
		memset(&got.u, 0xa5, sizeof(got.u));
		h.ext_count = is_il(&f->vm) ? FAMFS_IOC_MAX_IEXTENTS :
					      FAMFS_IOC_MAX_EXTENTS_V2;
		h.ext_list = (uintptr_t)&got.u;
		rc = ioctl(f->fd, FAMFSIOC_MAP_GET_V2, &h);
		if (rc)
			bad(c, "%s %s: MAP_GET_V2: %s", what, s, t_errname(errno));
		else if (!same_map(&h, (char *)&got.u, &f->vm, (uintptr_t)&got.u, 1,
				   w, sizeof(w)))
			bad(c, "%s %s: MAP_GET_V2: %s", what, s, w);
		else if (used < sizeof(got.u) &&
			 ((unsigned char *)&got.u)[used] != 0xa5)
			bad(c, "%s %s: MAP_GET_V2 wrote past %u entries", what, s,
			    f->vm.h.ext_count);
	}
	rc = ioctl(f->fd, FAMFSIOC_MAP_GET, &v1);
	if (!f->v1ok) {
		nc_v1ovf++;
		ncheck[C_V1_EOVERFLOW]++;
		if (rc != -1 || errno != EOVERFLOW)
			bad(C_V1_EOVERFLOW, "%s %s: v1 MAP_GET: %s, expected EOVERFLOW",
			    what, s, res(rc, errno));
		rc = ioctl(f->fd, FAMFSIOC_MAP_GETEXT, ext);
		if (rc != -1 || errno != EOVERFLOW)
			bad(C_V1_EOVERFLOW, "%s %s: v1 MAP_GETEXT: %s, expected EOVERFLOW",
			    what, s, res(rc, errno));
	} else if (rc || !map_eq(&v1, &f->map)) {
		bad(c, "%s %s: v1 MAP_GET: %s", what, s,
		    rc ? t_errname(errno) : "another map");
	}
	if (fstat(f->fd, &st) || (uint64_t)st.st_size != f->vm.h.file_size ||
	    (uint64_t)st.st_blocks != vm_claim(&f->vm) / 512)
		bad(c, "%s %s: st_size %lld st_blocks %lld, expected %llu and %llu",
		    what, s, (long long)st.st_size, (long long)st.st_blocks,
		    (unsigned long long)f->vm.h.file_size,
		    (unsigned long long)vm_claim(&f->vm) / 512);
}

void accepted_v2(struct ffile *f, const struct vmap *m)
{
	char s[600], w[160];

	nc_accept2++;
	nc_il2 += is_il(m);
	nc_gib_ok += m->h.file_size >= GiB;
	model_map(f, m, 1);
	f->pat = rnd();
	ncheck[C_ACCEPTED2]++;
	if (!vm_sane(m, w, sizeof(w))) {
		vm_str(m, s, sizeof(s));
		bad(C_ACCEPTED2, "accepted an invalid map %s: %s", s, w);
	}
	check_map(f, C_ACCEPTED2, "after accepting");
	pat_write_v2(f);
}

/* The kernel mapped a file the model did not expect to be: learn its map. */
void learn(struct ffile *f)
{
	static struct vmap got;
	struct famfs_ioc_map_v2 h;

	memset(&h, 0, sizeof(h));
	memset(&got, 0, sizeof(got));
	h.ext_count = FAMFS_IOC_MAX_EXTENTS_V2;
	h.ext_list = (uintptr_t)&got.u;
	if (ioctl(f->fd, FAMFSIOC_MAP_GET_V2, &h) == 0 &&
	    h.ext_count <= MAXRANGES) {
		got.h = h;
		got.h.ext_list = 0;
		model_map(f, &got, 1);
		f->haspat = 0;
	} else if (errno == EOVERFLOW && !get_v3_vmap(f->fd, &got)) {
		model_map(f, &got, 1);	/* a page map */
		f->haspat = 0;
	}
	ident_read(f);
}

void do_create_v2(struct ffile *f, int valid_only)
{
	static struct vmap m, rd;
	struct famfs_ioc_map_v2 *hp;
	enum ptr_kind k = P_OK;
	enum list_kind lk = pick_list_kind();
	int il = chance(45), br, bw, lbr, lbw, overlap, want, e, c, early;
	int via32 = compat_ok && chance(4);
	int64_t used0;
	size_t built, need, maxc;
	char *list, s[600];
	long rc;

	valid_v2(&m, il);
	built = m.h.ext_count * esize(m.h.extent_type);
	if (!valid_only && chance(55))
		mutate_v2(&m);
	/* what the kernel reads: ext_count entries of the header's kind */
	maxc = m.h.extent_type == FAMFS_INTERLEAVED_EXTENT ?
		FAMFS_IOC_MAX_IEXTENTS : FAMFS_IOC_MAX_EXTENTS_V2;
	need = m.h.ext_count <= maxc ? m.h.ext_count * esize(m.h.extent_type) : 0;
	if (via32 && (lk == L_OK || lk == L_MISALIGNED)) {
		list = arena32 + 256 + (lk == L_MISALIGNED ? 1 + below(7) : 0);
		lbr = lbw = 0;
	} else {
		list = place_list(lk, need, &lbr, &lbw);
	}
	if (lk == L_OK || lk == L_MISALIGNED || lk == L_RDONLY ||
	    lk == L_STRADDLE) {
		size_t r = room_at(lk, list);

		put(list, &m.u, built < r ? built : r);
	}
	m.h.ext_list = (uintptr_t)list;

	if (chance(6))
		k = P_MISALIGNED;
	else if (chance(6))
		k = (enum ptr_kind)(P_NULL + below(P_NKINDS - P_NULL));
	hp = place(k, sizeof(m.h), &br, &bw);
	if (!br)
		put(hp, &m.h, sizeof(m.h));
	else if (k == P_STRADDLE)	/* the bytes that fit */
		memcpy(hp, &m.h, (size_t)(arena + pg - (char *)hp));
	if (br)
		via32 = 0;

	want = predict_v2(&m.h, br, lbr, f->mapped, f->others, &overlap, &rd);
	tally_add(v2_why);
	nc_create2++;
	nc_efault += br || (want == EFAULT);
	used0 = used_now();
	if (via32) {
		memcpy(arena32, &m.h, sizeof(m.h));
		nc_compat++;
		rc = ioctl32(f->fd, FAMFSIOC_MAP_CREATE_V2,
			     (uint32_t)(uintptr_t)arena32);
	} else {
		rc = ioctl(f->fd, FAMFSIOC_MAP_CREATE_V2, hp);
	}
	e = errno;
	/* a refused map claims nothing, an accepted one exactly its memory */
	if (used0 >= 0) {
		int64_t d = used_now() - used0, exp = 0;

		if (!rc)
			exp = (int64_t)vm_claim(want ? &m : &rd);
		ncheck[rc ? C_UNMAPPED_AFTER : C_ACCEPTED2]++;
		if (d != exp)
			bad(rc ? C_UNMAPPED_AFTER : C_ACCEPTED2,
			    "MAP_CREATE_V2 (%s): statfs used grew by %lld bytes, expected %lld",
			    res(rc, e), (long long)d, (long long)exp);
	}
	count_errno(nerr2, rc, e);
	vm_str(&m, s, sizeof(s));
	c = nonroot ? C_EPERM : br ? C_EFAULT : via32 ? C_COMPAT : C_CREATE2;
	ncheck[c]++;
	/* -F: after the failure every create gets EIO, or what comes first */
	early = nonroot || br || ro || f->mapped;
	if (failing && !early && rc == -1 && e == EIO) {
		if (!f->mapped)
			check_unmapped(f);
		return;
	}
	if (!br && scanner_busy(f, rc, e))
		return;
	if (want) {
		if (rc == 0) {
			bad(c, "MAP_CREATE_V2 %s (hdr kind %d, list kind %d) succeeded, expected %s",
			    s, k, lk, t_errname(want));
			if (!f->mapped)
				learn(f);
		} else if (e != want) {
			bad(c, "MAP_CREATE_V2 %s%s (hdr kind %d, list kind %d): %s, expected %s",
			    s, via32 ? " via int80" : "", k, lk, t_errname(e),
			    t_errname(want));
		} else if (!f->mapped) {
			check_unmapped(f);
		}
		return;
	}
	if (rc == 0) {
		if (overlap)
			bad(c, "MAP_CREATE_V2 %s: accepted, but it overlaps a known map or itself",
			    s);
		accepted_v2(f, &rd);
		return;
	}
	if (e == EADDRINUSE && (overlap || multi)) {
		check_unmapped(f);
		return;
	}
	bad(c, "MAP_CREATE_V2 %s%s (list kind %d): %s, expected %s", s,
	    via32 ? " via int80" : "", lk, t_errname(e),
	    overlap ? "EADDRINUSE" : "success");
	if (!f->mapped)
		check_unmapped(f);
}

void do_get_v2(struct ffile *f)
{
	enum ptr_kind k = chance(85) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	enum list_kind lk = pick_list_kind();
	struct famfs_ioc_map_v2 in, got, *hp;
	uint32_t actual = f->mapped ? f->vm.h.ext_count : 0, room;
	size_t es = f->mapped ? esize(f->vm.h.extent_type) : 16, wneed;
	int br, bw, lbr, lbw, want, e, c, via32 = 0, canary;
	char *list, s[600], w[300];
	long rc;

	nc_get2++;
	memset(&in, 0, sizeof(in));
	if (chance(4))
		in.flags = chance(50) ? 1u << below(32) : (uint32_t)rnd();
	else if (chance(3))
		in.reserved[below(4)] = chance(50) ? 1ULL << below(64) : rnd();
	if (chance(30)) {	/* outputs: whatever is there is overwritten */
		in.extent_type = (uint32_t)rnd();
		in.file_type = (uint32_t)rnd();
		in.file_size = rnd();
	}
	switch (below(8)) {
	case 0: room = 0; break;
	case 1: room = actual > 1 ? 1 + (uint32_t)below(actual - 1) : 1; break;
	case 2: room = actual + 1 + (uint32_t)below(4); break;
	case 3: room = chance(50) ? 0xffffffff : (uint32_t)rnd(); break;
	default: room = actual; break;
	}
	in.ext_count = room;
	wneed = room && room >= actual ? actual * es : 0;
	via32 = compat_ok && chance(5) && (lk == L_OK || lk == L_MISALIGNED);
	if (via32) {
		list = arena32 + 256 + (lk == L_MISALIGNED ? 1 + below(7) : 0);
		lbr = lbw = 0;
	} else {
		list = place_list(lk, wneed, &lbr, &lbw);
	}
	canary = lk == L_OK || lk == L_MISALIGNED;
	if (canary)
		memset(list, 0x5a, wneed + 64);
	in.ext_list = (uintptr_t)list;
	hp = place(k, sizeof(in), &br, &bw);
	if (!br)
		put(hp, &in, sizeof(in));
	if (via32 && !bw) {
		hp = (void *)arena32;
		memcpy(hp, &in, sizeof(in));
		k = P_OK;
		br = bw = 0;
	} else {
		via32 = 0;
	}

	if (!f->mapped)
		want = ENODATA;
	else if (br)
		want = EFAULT;
	else if (in.flags || in.reserved[0] || in.reserved[1] ||
		 in.reserved[2] || in.reserved[3])
		want = EINVAL;
	else if (f->vm.h.flags)	/* a page map: v2 cannot say so */
		want = EOVERFLOW;
	else if (bw)
		want = EFAULT;
	else if (!room)
		want = 0;
	else if (room < actual)
		want = E2BIG;
	else
		want = lbw ? EFAULT : 0;

	if (via32) {
		nc_compat++;
		rc = ioctl32(f->fd, FAMFSIOC_MAP_GET_V2, (uint32_t)(uintptr_t)hp);
	} else {
		rc = ioctl(f->fd, FAMFSIOC_MAP_GET_V2, hp);
	}
	e = errno;
	c = want == EFAULT ? C_EFAULT : via32 ? C_COMPAT : C_GET2;
	nc_efault += want == EFAULT;
	ncheck[c]++;
	if (rc == 0 ? want != 0 : e != want) {
		bad(c, "MAP_GET_V2 (room %u of %u, flags %#x, hdr kind %d, list kind %d%s): %s, expected %s",
		    room, actual, in.flags, k, lk, via32 ? ", int80" : "",
		    res(rc, e), want ? t_errname(want) : "0");
		return;
	}
	if (want && want != E2BIG)
		return;
	memcpy(&got, hp, sizeof(got));
	vm_str(&f->vm, s, sizeof(s));
	if (!same_map(&got, list, &f->vm, in.ext_list, !want && room,
		      w, sizeof(w)))
		bad(c, "MAP_GET_V2 (room %u of %u%s) of %s: %s", room, actual,
		    via32 ? ", int80" : "", s, w);
	else if (canary && (list[want || !room ? 0 : wneed] != 0x5a ||
			    list[wneed + 63] != 0x5a))
		bad(c, "MAP_GET_V2 (room %u of %u) of %s wrote past what it may",
		    room, actual, s);
}

/* ---- pattern bytes -------------------------------------------------------- */
/* Pattern bytes at NSPOT file offsets (start, end, across the first chunk
 * boundary, random), each written through pwrite or a shared mapping. */
void pat_write_v2(struct ffile *f)
{
	uint64_t sz = f->vm.h.file_size;
	uint8_t b[64], *p = NULL;
	int n = 0;

	f->haspat = !nopat;
	f->nspot = 0;
	if (nopat || sz < 64)
		return;
	f->spot[n++] = 0;
	f->spot[n++] = sz - 64;
	if (is_il(&f->vm) && f->vm.u.ie[0].chunk_size + 32 <= sz)
		f->spot[n++] = f->vm.u.ie[0].chunk_size - 32;
	/* -G: across GiB boundaries, where one 1 GiB mapping meets the next */
	for (uint64_t g = GiB; gib && n < NSPOT - 1 && g + 32 <= sz; g += GiB)
		f->spot[n++] = g - 32;
	while (n < NSPOT)
		f->spot[n++] = below(sz - 64 + 1);
	f->nspot = n;
	if (!failing && chance(gib ? 70 : 50)) {
		p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
		if (p == MAP_FAILED) {
			bad(C_DATA, "%s: shared writable mmap of %llu bytes: %s",
			    f->path, (unsigned long long)sz, t_errname(errno));
			p = NULL;
		} else {
			nc_mmap++;
		}
	}
	for (int i = 0; i < n; i++) {
		pat_fill(f->pat, f->spot[i], b, sizeof(b));
		ncheck[C_DATA]++;
		if (p && chance(70)) {
			memcpy(p + f->spot[i], b, sizeof(b));
		} else if (pwrite(f->fd, b, sizeof(b), (off_t)f->spot[i]) !=
			   sizeof(b) && !(failing && errno == EIO)) {
			bad(C_DATA, "%s: pwrite at %llu: %s", f->path,
			    (unsigned long long)f->spot[i], t_errname(errno));
		}
	}
	if (p)
		munmap(p, sz);
}

/*
 * Free @f (a v2 map with pattern bytes), map its memory again to a new
 * file as one simple extent per range (strips in order), and check that
 * every pattern byte is where walk() says.  Only when nothing else maps
 * memory meanwhile.  1 if it freed @f.
 */
int remap_check(struct ffile *f)
{
	static struct vmap fm, r;
	struct ext rg[MAXRANGES];
	uint64_t spot[NSPOT], fpat = f->pat;
	int n, ns = f->nspot, overlap, want;
	struct ffile *g;
	char s[600];
	uint8_t *p;

	if (f->vm.h.flags)
		return remap_pages(f);
	if (!f->v2 || !f->haspat || !ns || multi || failing || nopat || ro ||
	    nonroot || !chance(30))
		return 0;
	pat_check(f);
	fm = f->vm;
	memcpy(spot, f->spot, sizeof(spot));
	if (unlink(f->path))
		bad(C_DATA, "unlink %s: %s", f->path, t_errname(errno));
	f->unlinked = 1;
	close_file(f);		/* its memory is free now */
	g = new_file();
	if (!g)
		return 1;
	n = vm_ranges(&fm, rg);
	memset(&r, 0, sizeof(r));
	r.h.extent_type = SIMPLE_DAX_EXTENT;
	r.h.file_type = FAMFS_REG;
	r.h.ext_count = (uint32_t)n;
	for (int i = 0; i < n; i++) {
		r.u.se[i].offset = rg[i].off;
		r.u.se[i].len = rg[i].len;
		r.h.file_size += rg[i].len;
	}
	r.h.ext_list = (uintptr_t)&r.u;
	vm_str(&fm, s, sizeof(s));
	want = predict_v2(&r.h, 0, 0, 0, 0, &overlap, NULL);
	ncheck[C_PLACE]++;
	if (want || overlap) {
		bad(C_PLACE, "the model finds the memory of %s not free (%s)",
		    s, want ? t_errname(want) : "overlap");
		return 1;
	}
	if (ioctl(g->fd, FAMFSIOC_MAP_CREATE_V2, &r.h)) {
		bad(C_PLACE, "%s: MAP_CREATE_V2 over the freed memory of %s: %s",
		    g->path, s, t_errname(errno));
		check_unmapped(g);
		return 1;
	}
	nc_remap++;
	r.h.ext_list = 0;
	p = mmap(NULL, r.h.file_size, PROT_READ, MAP_SHARED, g->fd, 0);
	if (p == MAP_FAILED) {
		bad(C_PLACE, "%s: mmap: %s", g->path, t_errname(errno));
	} else {
		for (int i = 0; i < ns; i++) {
			uint8_t b[64];
			int j;

			uint64_t at = 0;

			pat_fill(fpat, spot[i], b, sizeof(b));
			for (j = 0; j < 64; j++) {
				/* maps change course at 2 MiB boundaries only */
				if (!j || (spot[i] + j) % TWO_MiB == 0)
					at = walk(&fm, spot[i] + j);
				else
					at++;
				if (at >= r.h.file_size || p[at] != b[j])
					break;
			}
			if (j < 64) {
				bad(C_PLACE, "file byte %llu of %s is not at byte %llu of its ranges laid end to end",
				    (unsigned long long)(spot[i] + j), s,
				    (unsigned long long)walk(&fm, spot[i] + j));
				break;
			}
		}
		munmap(p, r.h.file_size);
	}
	accepted_v2(g, &r);
	return 1;
}
