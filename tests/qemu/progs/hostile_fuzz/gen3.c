// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz -G: maps laid out on 1 GiB boundaries, which famfs.ko maps
 * with one 1 GiB (PUD) entry per aligned GiB when the device's memory is
 * 1 GiB-aligned (profiles/nvdimm-1g.sh, issue 31), and the faults through
 * their mappings.
 *
 * valid_gib() makes v2 maps whose ranges start on a 1 GiB boundary of the
 * device: simple extents of 1 or 2 GiB, interleaved extents of 1 to 3
 * strips with 1 GiB chunks (or 2 GiB, 1 GiB +- 2 MiB), and around them the
 * edges: a last extent one page longer or shorter than its GiBs (valid:
 * only a last extent may end off a 2 MiB boundary) and the same on an
 * extent that is not the last (EINVAL), a range 4 KiB off the boundary
 * (EINVAL), a range that runs past the device end from its last GiB or half
 * GiB (ENXIO), file sizes a page or a byte short of the extents or one page
 * past a GiB; predict_v2() says what each must get, as for every map.
 *
 * do_fault() maps a mapped file whole (or from 2 MiB in: a PMD head, then
 * PUD faults) and reads every pattern spot through the mapping (write
 * faults too: the same bytes stored again), and compares the bytes at
 * each GiB boundary through the mapping with what pread() reads there: a
 * 1 GiB entry of the wrong memory shows there.
 */
#include "fuzz.h"

int gib;	/* -G */
long nc_gib, nc_gib_ok, nc_fault;

/* GiBs of the device that no known map touches. */
long free_gibs(void)
{
	long n = 0;

	for (uint64_t g = 0; g + GiB <= devsz; g += GiB)
		n += !units_busy(g, GiB);
	return n;
}

/*
 * The 2 MiB units where the maps that are not on 1 GiB boundaries go: with
 * -G mostly the device's first GiB (where the superblock and log are
 * anyway), else a few small files anywhere would leave no GiB free.
 */
uint64_t small_units(void)
{
	uint64_t nu = devsz / TWO_MiB;

	return gib && chance(95) && nu > GiB / TWO_MiB ? GiB / TWO_MiB : nu;
}

/* Does map @m hold memory past the device's first GiB? */
static int past_gib0(const struct vmap *m)
{
	struct ext r[MAXRANGES];
	int n = vm_ranges(m, r);

	for (int i = 0; i < n; i++)
		if (r[i].off + r[i].len > GiB)
			return 1;
	return 0;
}

/* A mapped file that holds 1 GiB of memory or more (with zombies: unlinked,
 * still open), or with @holders any that holds memory past the first GiB
 * (a small map there, e.g. a mutated offset, keeps a GiB from being
 * whole); any mapped file if there is none. */
struct ffile *pick_big(int holders)
{
	int idx[MAXF], n = 0;

	for (int i = 0; i < MAXF; i++)
		if (ff[i].used && ff[i].mapped &&
		    (vm_claim(&ff[i].vm) >= GiB ||
		     (holders && past_gib0(&ff[i].vm))))
			idx[n++] = i;
	return n ? &ff[idx[below(n)]] : pick(1, 1);
}

/* A GiB-aligned device offset for @len bytes, free and inside the device
 * if one is found (racing processes: any); marked taken in @got. */
static uint64_t gib_slot(uint64_t len, struct ext *got, int *ng)
{
	uint64_t n = devsz / GiB, k = 1 + below(n > 1 ? n - 1 : 1);

	for (uint64_t i = 0; !multi && n > 1 && i < n - 1; i++) {
		uint64_t c = 1 + (k - 1 + i) % (n - 1);

		if (c * GiB + len <= devsz && !units_busy(c * GiB, len)) {
			k = c;
			break;
		}
	}
	got[*ng].off = k * GiB;
	got[*ng].len = len;
	units_add(&got[*ng], 1, 1);
	(*ng)++;
	return k * GiB;
}

/* Sometimes an edge on range [@off, @off + @len): 4 KiB off the boundary,
 * or running past the device end from its last (half) GiB. */
static void gib_edge(uint64_t *off, uint64_t *len)
{
	uint64_t last = devsz / GiB ? devsz / GiB - 1 : 0;

	if (chance(4)) {
		*off += 4096;
	} else if (chance(6)) {
		*off = last * GiB + (chance(50) ? GiB / 2 : 0);
		*len = 2 * GiB;
	}
}

static void gib_simple(struct vmap *m, struct ext *got, int *ng,
		       uint64_t *total)
{
	uint32_t n = chance(75) ? 1 : 2;

	m->h.ext_count = n;
	for (uint32_t i = 0; i < n; i++) {
		int last = i + 1 == n;
		uint64_t len = GiB * (1 + below(2)), off;

		switch (below(10)) {
		case 0:	/* a page more or less: the last only, else EINVAL */
			if (last || chance(20))
				len += 4096;
			break;
		case 1:
			if (last || chance(20))
				len -= 4096;
			break;
		case 2:
			len += TWO_MiB;
			break;
		case 3:
			len -= TWO_MiB;
			break;
		}
		off = gib_slot(len, got, ng);
		gib_edge(&off, &len);
		m->u.se[i].offset = off;
		m->u.se[i].len = len;
		*total += len;
	}
}

static void gib_iexts(struct vmap *m, struct ext *got, int *ng,
		      uint64_t *total)
{
	uint32_t n = chance(85) ? 1 : 2;

	m->h.ext_count = n;
	for (uint32_t i = 0; i < n; i++) {
		struct famfs_ioc_iext *ie = &m->u.ie[i];
		uint32_t ns = 1 + (uint32_t)below(n > 1 ? 2 : 3);
		uint64_t c = GiB, cap;

		switch (below(10)) {
		case 0: c = 2 * GiB; break;
		case 1: c = GiB + TWO_MiB; break;
		case 2: c = GiB - TWO_MiB; break;
		}
		cap = ns * c;
		ie->nstrips = ns;
		ie->chunk_size = c;
		if (i + 1 < n) {
			ie->nbytes = chance(70) ? cap : cap - TWO_MiB;
		} else {
			switch (below(6)) {
			case 0: ie->nbytes = cap - 4096; break;
			case 1: ie->nbytes = GiB + 4096; break;
			case 2: ie->nbytes = c * (ns - 1) + 4096; break;
			case 3: ie->nbytes = TWO_MiB * (1 + below(cap / TWO_MiB));
				break;
			default: ie->nbytes = cap; break;
			}
		}
		for (uint32_t s = 0; s < ns; s++) {
			uint64_t len = c * strip_need(ie->nbytes, c, ns, s), off;

			if (!len) {	/* no chunk for it: still a strip */
				len = TWO_MiB;
				off = free_unit(1, 0) * TWO_MiB;
				got[*ng].off = off;
				got[*ng].len = len;
				units_add(&got[(*ng)++], 1, 1);
			} else {
				off = gib_slot(len, got, ng);
			}
			if (chance(30))
				gib_edge(&off, &len);
			ie->strips[s].offset = off;
			ie->strips[s].len = len;
		}
		*total += ie->nbytes;
	}
}

/* A map on 1 GiB boundaries (simple, or interleaved if @il), mostly valid. */
void valid_gib(struct vmap *m, int il)
{
	struct ext got[MAXRANGES];
	uint64_t total = 0;
	int ng = 0;

	nc_gib++;
	memset(m, 0, sizeof(*m));
	m->h.extent_type = il ? FAMFS_INTERLEAVED_EXTENT : SIMPLE_DAX_EXTENT;
	m->h.file_type = FAMFS_REG;
	if (il)
		gib_iexts(m, got, &ng, &total);
	else
		gib_simple(m, got, &ng, &total);
	units_add(got, ng, -1);
	switch (below(7)) {
	case 0: m->h.file_size = total - 4096; break;
	case 1: m->h.file_size = total - 1; break;
	case 2: m->h.file_size = GiB + 4096; break;
	case 3: m->h.file_size = GiB - 4096; break;
	case 4: m->h.file_size = below(total + 1); break;
	default: m->h.file_size = total; break;
	}
	if (m->h.file_size > total && chance(80))
		m->h.file_size = total;
}

/* Through a mapping: what pread() reads at @off, 64 bytes (fewer at EOF). */
static void same_as_pread(struct ffile *f, const uint8_t *p, uint64_t base,
			  uint64_t off)
{
	uint64_t sz = f->vm.h.file_size;
	size_t n = sz - off < 64 ? (size_t)(sz - off) : 64;
	uint8_t b[64];

	ncheck[C_FAULT]++;
	if (pread(f->fd, b, n, (off_t)off) != (ssize_t)n)
		bad(C_FAULT, "%s: pread of %zu bytes at %#llx: %s", f->path, n,
		    (unsigned long long)off, t_errname(errno));
	else if (memcmp(p + (off - base), b, n))
		bad(C_FAULT, "%s: the mapping shows other bytes at %#llx than read(2)",
		    f->path, (unsigned long long)off);
}

/* Faults through a mapping of @f (see the header). */
void do_fault(struct ffile *f)
{
	uint64_t sz = f->vm.h.file_size, base = 0, len;
	int rw = !ro && (fcntl(f->fd, F_GETFL) & O_ACCMODE) != O_RDONLY;
	uint8_t w[64], *p;

	if (!f->mapped || failing || nopat || !f->haspat || sz < 64)
		return;
	if (sz > 2 * TWO_MiB && chance(25))
		base = TWO_MiB;
	len = sz - base;
	nc_fault++;
	ncheck[C_FAULT]++;
	p = mmap(NULL, len, PROT_READ | (rw ? PROT_WRITE : 0), MAP_SHARED,
		 f->fd, (off_t)base);
	if (p == MAP_FAILED) {
		bad(C_FAULT, "%s: mmap of %#llx bytes from %#llx%s: %s", f->path,
		    (unsigned long long)len, (unsigned long long)base,
		    rw ? " read-write" : "", t_errname(errno));
		return;
	}
	for (int i = 0; i < f->nspot; i++) {
		uint64_t at = f->spot[i];

		if (at < base)
			continue;
		pat_fill(f->pat, at, w, sizeof(w));
		ncheck[C_FAULT]++;
		if (memcmp(p + (at - base), w, sizeof(w))) {
			bad(C_FAULT, "%s: pattern bytes at %#llx differ through a mapping from %#llx",
			    f->path, (unsigned long long)at,
			    (unsigned long long)base);
			continue;
		}
		if (rw && chance(50))	/* a write fault, the same bytes */
			memcpy(p + (at - base), w, sizeof(w));
	}
	for (uint64_t g = 0; g < sz; g += GiB)
		if (g >= base)
			same_as_pread(f, p, base, g);
	same_as_pread(f, p, base, sz - (sz - base < 64 ? sz - base : 64));
	if (sz - base > 64)
		same_as_pread(f, p, base, base + below(sz - base - 64));
	munmap(p, len);
}
