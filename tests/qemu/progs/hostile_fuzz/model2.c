// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: the model of v2 maps (FAMFSIOC_MAP_CREATE_V2, MAP_GET_V2).
 *
 * predict_v2() is the contract of famfs_ioctl.h and the lead's errno table
 * written as code: the checks in their order, the first that fails decides
 * the errno.  The memory a map holds is counted per 2 MiB unit of the
 * device: every range of a valid map starts 2 MiB aligned, so two ranges
 * overlap exactly when they touch a common unit.  walk() finds where a byte
 * of a file lives by walking chunk after chunk (deliberately not the O(1)
 * arithmetic of famfs_interleave.h, which the kernel uses).
 */
#include "fuzz.h"

uint64_t nunits;
static uint16_t *ucnt;		/* known ranges touching each unit */
static uint32_t *stamp, stamp_gen;	/* ranges of one map, during a check */
const char *v2_why;		/* the check predict_v2() found failing */
#define WHY(e, what)	(v2_why = (what), (e))
/* MAP_CREATE_V3 (calls4.c): the device fields of extent @i (strip @s of it,
 * @unused: a strip past nstrips), checked with that extent's (strip's) own
 * checks; NULL for v1 and v2 maps. */
int (*v3_dev)(uint32_t i, int il, uint32_t s, int unused);

int is_il(const struct vmap *m)
{
	return m->h.extent_type == FAMFS_INTERLEAVED_EXTENT;
}

size_t esize(uint32_t extent_type)
{
	return extent_type == FAMFS_INTERLEAVED_EXTENT ?
		sizeof(struct famfs_ioc_iext) : sizeof(struct famfs_extent);
}

/* The device ranges of a (valid) map: extents, or strips in order. */
int vm_ranges(const struct vmap *m, struct ext *out)
{
	int n = 0;

	if (!is_il(m)) {
		for (uint32_t i = 0; i < m->h.ext_count && i < MAXRANGES; i++) {
			out[n].off = m->u.se[i].offset;
			out[n++].len = m->u.se[i].len;
		}
		return n;
	}
	for (uint32_t i = 0; i < m->h.ext_count && i < FAMFS_IOC_MAX_IEXTENTS;
	     i++)
		for (uint32_t s = 0; s < m->u.ie[i].nstrips &&
		     s < FAMFS_IOC_MAX_STRIPS && n < MAXRANGES; s++) {
			out[n].off = m->u.ie[i].strips[s].offset;
			out[n++].len = m->u.ie[i].strips[s].len;
		}
	return n;
}

/* Bytes of the device the map claims (statfs, st_blocks). */
uint64_t vm_claim(const struct vmap *m)
{
	struct ext r[MAXRANGES];
	int n = vm_ranges(m, r);
	uint64_t c = 0;

	for (int i = 0; i < n; i++)	/* page extents: their pages */
		c += m->h.flags ? r[i].len :
		     (r[i].len + TWO_MiB - 1) & ~(TWO_MiB - 1);
	return c;
}

void vm_from_v1(struct vmap *vm, const struct famfs_ioc_map *m)
{
	memset(vm, 0, sizeof(*vm));
	vm->h.extent_type = m->extent_type;
	vm->h.file_type = m->file_type;
	vm->h.file_size = m->file_size;
	vm->h.ext_count = (uint32_t)m->ext_list_count;
	for (uint64_t i = 0; i < m->ext_list_count && i < FAMFS_MAX_EXTENTS; i++)
		vm->u.se[i] = m->ext_list[i];
}

/* The v1 view of a map; 1 if v1 can express it. */
int vm_v1(const struct vmap *vm, struct famfs_ioc_map *m)
{
	struct ext r[MAXRANGES];
	int n = vm_ranges(vm, r);

	memset(m, 0, sizeof(*m));
	m->extent_type = vm->h.extent_type;
	m->file_type = vm->h.file_type;
	m->file_size = vm->h.file_size;
	m->ext_list_count = vm->h.ext_count;
	for (int i = 0; i < n && i < FAMFS_MAX_EXTENTS; i++) {
		m->ext_list[i].offset = r[i].off;
		m->ext_list[i].len = r[i].len;
	}
	return !is_il(vm) && !vm->h.flags &&
	       vm->h.ext_count <= FAMFS_MAX_EXTENTS;
}

/* ---- memory the model knows is mapped ----------------------------------- */
static void units_init(void)
{
	if (ucnt)
		return;
	nunits = devsz / TWO_MiB + 1;
	ucnt = calloc(nunits, sizeof(*ucnt));
	stamp = calloc(nunits, sizeof(*stamp));
	if (!ucnt || !stamp)
		die("calloc");
}

void units_add(const struct ext *r, int n, int d)
{
	units_init();
	for (int i = 0; i < n; i++)
		for (uint64_t u = r[i].off / TWO_MiB;
		     u < nunits && u * TWO_MiB < r[i].off + r[i].len; u++)
			ucnt[u] += d;
}

/* Does [off, off+len) meet a known map?  Exact for a 2 MiB aligned @off
 * inside the device (every known map starts its ranges aligned too). */
int units_busy(uint64_t off, uint64_t len)
{
	units_init();
	if (off % TWO_MiB || off + len < off || off + len > devsz) {
		for (int i = 0; i < nstat; i++)	/* not a valid range anyway */
			if (overlaps(off, len, stat_ext[i].off, stat_ext[i].len))
				return 1;
		return 0;
	}
	for (uint64_t u = off / TWO_MiB; u * TWO_MiB < off + len; u++)
		if (ucnt[u])
			return 1;
	return 0;
}

/* Known ranges touching unit @u (page extents included, see calls5.c). */
unsigned int units_count(uint64_t u)
{
	units_init();
	return u < nunits ? ucnt[u] : 0;
}

uint64_t units_free(void)
{
	uint64_t n = 0;

	units_init();
	for (uint64_t u = 0; u < devsz / TWO_MiB; u++)
		n += !ucnt[u];
	return n;
}

/* @f now has the map @m (or, model_unmap, gives it back). */
void model_map(struct ffile *f, const struct vmap *m, int v2)
{
	struct ext r[MAXRANGES];

	f->vm = *m;
	f->vm.h.ext_list = 0;
	f->v1ok = vm_v1(m, &f->map);
	f->v2 = v2;
	f->mapped = 1;
	units_add(r, vm_ranges(m, r), 1);
	for (uint32_t i = 0; m->h.flags && i < m->h.ext_count; i++)
		pages_mark(m->u.se[i].offset, m->u.se[i].len, 1);
}

void model_unmap(struct ffile *f)
{
	struct ext r[MAXRANGES];

	units_add(r, vm_ranges(&f->vm, r), -1);
	for (uint32_t i = 0; f->vm.h.flags && i < f->vm.h.ext_count; i++)
		pages_mark(f->vm.u.se[i].offset, f->vm.u.se[i].len, -1);
}

/* ---- MAP_CREATE_V2: the first check that fails ------------------------- */
static int check_simple(const struct famfs_ioc_map_v2 *h,
			const struct famfs_extent *se, uint64_t *total)
{
	uint32_t n = h->ext_count;
	int sb = h->file_type == FAMFS_SUPERBLOCK;

	/* exactly v1's rules, in v1's order (fs/famfs/ioctl.c of v1) */
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = se[i].offset, len = se[i].len;
		int e = v3_dev ? v3_dev(i, 0, 0, 0) : 0;

		if (e)
			return WHY(e, "device field");
		if (!len || off % TWO_MiB || (i + 1 < n && len % TWO_MiB))
			return WHY(EINVAL, "extent len 0/offset/len");
		if (off + len < off)
			return WHY(EOVERFLOW, "extent off+len wraps");
		if (off + len > devsz)
			return WHY(ENXIO, "extent past device end");
		if (off == 0 && !sb)
			return WHY(EINVAL, "extent at offset 0");
	}
	if (sb && se[0].offset != 0)
		return WHY(EINVAL, "superblock not at 0");
	for (uint32_t i = 0; i < n; i++) {
		if (*total + se[i].len < *total)
			return WHY(EOVERFLOW, "extent lengths sum wraps");
		*total += se[i].len;
	}
	return 0;
}

/* Whole chunks strip @s must hold: counted, not famfs_interleave.h. */
uint64_t strip_need(uint64_t nbytes, uint64_t chunk, uint32_t ns,
			   uint32_t s)
{
	uint64_t nchunks = nbytes / chunk + (nbytes % chunk != 0);

	return nchunks / ns + (s < nchunks % ns);
}

static int check_iext(const struct famfs_ioc_iext *ie, uint32_t i, int last)
{
	uint32_t ns = ie->nstrips;
	int e;

	if (ie->reserved)
		return WHY(EINVAL, "iext reserved");
	for (uint32_t s = ns; s < FAMFS_IOC_MAX_STRIPS; s++)
		if (ie->strips[s].offset || ie->strips[s].len ||
		    (v3_dev && v3_dev(i, 1, s, 1)))
			return WHY(EINVAL, "iext unused strip");
	if (!ns)
		return WHY(EINVAL, "nstrips 0");
	if (ns > FAMFS_IOC_MAX_STRIPS)
		return WHY(E2BIG, "nstrips > 16");
	if (!ie->chunk_size || ie->chunk_size % TWO_MiB)
		return WHY(EINVAL, "chunk_size");
	if (ie->chunk_size * ns / ns != ie->chunk_size)
		return WHY(EOVERFLOW, "chunk_size*nstrips wraps");
	if (!ie->nbytes || (!last && ie->nbytes % TWO_MiB))
		return WHY(EINVAL, "nbytes");
	for (uint32_t s = 0; s < ns; s++) {
		uint64_t off = ie->strips[s].offset, len = ie->strips[s].len;

		e = v3_dev ? v3_dev(i, 1, s, 0) : 0;
		if (e)
			return WHY(e, "device field");
		if (!len || off % TWO_MiB || len % TWO_MiB || !off)
			return WHY(EINVAL, "strip len 0/offset/len");
		if (off + len < off)
			return WHY(EOVERFLOW, "strip off+len wraps");
		if (off + len > devsz)
			return WHY(ENXIO, "strip past device end");
		if (len / ie->chunk_size <
		    strip_need(ie->nbytes, ie->chunk_size, ns, s))
			return WHY(EFBIG, "strip short of chunks");
	}
	return 0;
}

/* Does a range of the map meet another one of it, or known memory? */
static int map_overlap(const struct vmap *m)
{
	struct ext r[MAXRANGES];
	int n = vm_ranges(m, r), hit = 0;

	if (!++stamp_gen) {
		memset(stamp, 0, nunits * sizeof(*stamp));
		stamp_gen = 1;
	}
	for (int i = 0; i < n; i++) {
		if (units_busy(r[i].off, r[i].len))
			hit = 1;
		for (uint64_t u = r[i].off / TWO_MiB;
		     u * TWO_MiB < r[i].off + r[i].len; u++) {
			if (stamp[u] == stamp_gen)
				hit = 1;
			stamp[u] = stamp_gen;
		}
	}
	return hit;
}

static struct vmap scratch;

/*
 * The errno MAP_CREATE_V2 of header @h must fail with, or 0.  @hdr_bad: the
 * header cannot be read; @list_bad: the ext_count entries at h->ext_list
 * cannot be (else they are read from there, as the kernel reads them).
 * @busy: another open file or name reaches the file.
 * *overlap: the map is valid but meets known memory or itself.  EIO (a
 * failed mount) is the caller's business.  @read (if not NULL): the map as
 * the kernel reads it (once it gets to read the list).
 */
int predict_v2(const struct famfs_ioc_map_v2 *h, int hdr_bad, int list_bad,
	       int mapped, int busy, int *overlap, struct vmap *read)
{
	int il = h->extent_type == FAMFS_INTERLEAVED_EXTENT, e = 0;
	uint64_t total = 0;

	*overlap = 0;
	v2_why = "valid";
	if (nonroot)
		return WHY(EPERM, "not root");
	if (hdr_bad)
		return WHY(EFAULT, "header unreadable");
	if (ro)
		return WHY(EROFS, "read-only");
	if (mapped)
		return WHY(EEXIST, "already mapped");
	if (busy)
		return WHY(EBUSY, "another opener or name");
	if (h->flags || h->reserved[0] || h->reserved[1] || h->reserved[2] ||
	    h->reserved[3])
		return WHY(EINVAL, "flags/reserved");
	if ((!il && h->extent_type != SIMPLE_DAX_EXTENT) ||
	    h->file_type > FAMFS_LOG || (il && h->file_type != FAMFS_REG))
		return WHY(EOPNOTSUPP, "extent/file type");
	if (!h->ext_count)
		return WHY(EINVAL, "ext_count 0");
	if (h->ext_count > (il ? FAMFS_IOC_MAX_IEXTENTS :
				 FAMFS_IOC_MAX_EXTENTS_V2))
		return WHY(E2BIG, "ext_count too big");
	if (list_bad)
		return WHY(EFAULT, "list unreadable");
	memset(&scratch, 0, sizeof(scratch));
	scratch.h = *h;
	memcpy(&scratch.u, (const void *)(uintptr_t)h->ext_list,
	       h->ext_count * esize(h->extent_type));
	scratch.h.ext_list = 0;
	if (read)
		*read = scratch;
	if (!il) {
		e = check_simple(h, scratch.u.se, &total);
	} else {
		for (uint32_t i = 0; i < h->ext_count && !e; i++)
			e = check_iext(&scratch.u.ie[i], i, i + 1 == h->ext_count);
		for (uint32_t i = 0; i < h->ext_count && !e; i++) {
			if (total + scratch.u.ie[i].nbytes < total)
				e = WHY(EOVERFLOW, "nbytes sum wraps");
			total += scratch.u.ie[i].nbytes;
		}
	}
	if (e)
		return e;
	if (h->file_size > total)
		return WHY(EFBIG, "file_size > extents");
	*overlap = map_overlap(&scratch);
	if (*overlap)
		v2_why = "overlap";
	return 0;
}

/* ---- maps read back ------------------------------------------------------ */
/* Rules every map the kernel shows must obey. */
int vm_sane(const struct vmap *m, char *why_, size_t n)
{
	int il = is_il(m), e = 0;
	uint64_t total = 0;

	if (m->h.flags == FAMFS_IOC_MAP_PAGES)
		return pages_sane(m, why_, n);
	if ((!il && m->h.extent_type != SIMPLE_DAX_EXTENT) ||
	    m->h.file_type > FAMFS_LOG || (il && m->h.file_type != FAMFS_REG) ||
	    !m->h.ext_count || m->h.flags ||
	    m->h.ext_count > (il ? FAMFS_IOC_MAX_IEXTENTS :
				   FAMFS_IOC_MAX_EXTENTS_V2)) {
		snprintf(why_, n, "bad header");
		return 0;
	}
	if (!il) {
		e = check_simple(&m->h, m->u.se, &total);
	} else {
		for (uint32_t i = 0; i < m->h.ext_count && !e; i++) {
			e = check_iext(&m->u.ie[i], i, i + 1 == m->h.ext_count);
			total += m->u.ie[i].nbytes;
		}
	}
	if (e) {
		snprintf(why_, n, "breaks a rule of MAP_CREATE_V2 (%s)",
			 t_errname(e));
		return 0;
	}
	if (m->h.file_size > total) {
		snprintf(why_, n, "size %#llx > extents %#llx",
			 (unsigned long long)m->h.file_size,
			 (unsigned long long)total);
		return 0;
	}
	return 1;
}

void vm_str(const struct vmap *m, char *out, size_t n)
{
	size_t o;

	o = (size_t)snprintf(out, n, "{et %u ft %u size %#llx n %u fl %#x rsv %#llx",
			     m->h.extent_type, m->h.file_type,
			     (unsigned long long)m->h.file_size, m->h.ext_count,
			     m->h.flags,
			     (unsigned long long)(m->h.reserved[0] |
			     m->h.reserved[1] | m->h.reserved[2] |
			     m->h.reserved[3]));
	for (uint32_t i = 0; i < m->h.ext_count && i < 3 && o < n; i++) {
		if (!is_il(m)) {
			o += (size_t)snprintf(out + o, n - o, " [%#llx+%#llx]",
				(unsigned long long)m->u.se[i].offset,
				(unsigned long long)m->u.se[i].len);
			continue;
		}
		const struct famfs_ioc_iext *ie = &m->u.ie[i];

		o += (size_t)snprintf(out + o, n - o, " [ns %u rsv %u chunk %#llx nbytes %#llx:",
			ie->nstrips, ie->reserved,
			(unsigned long long)ie->chunk_size,
			(unsigned long long)ie->nbytes);
		for (uint32_t s = 0; s < FAMFS_IOC_MAX_STRIPS && o < n; s++)
			if (s < ie->nstrips || ie->strips[s].offset ||
			    ie->strips[s].len)
				o += (size_t)snprintf(out + o, n - o, " %#llx+%#llx",
					(unsigned long long)ie->strips[s].offset,
					(unsigned long long)ie->strips[s].len);
		if (o < n)
			o += (size_t)snprintf(out + o, n - o, "]");
	}
	if (o < n)
		snprintf(out + o, n - o, "%s}", m->h.ext_count > 3 ? " ..." : "");
}

/*
 * Where byte @x of the file of map @m lives: its offset in the ranges of
 * the map laid end to end (vm_ranges order), found by dealing the chunks
 * out to the strips one after another; U64_MAX past the map.
 */
uint64_t walk(const struct vmap *m, uint64_t x)
{
	uint64_t base = 0;

	for (uint32_t i = 0; i < m->h.ext_count; i++) {
		if (!is_il(m)) {
			if (x < m->u.se[i].len)
				return base + x;
			x -= m->u.se[i].len;
			base += m->u.se[i].len;
			continue;
		}
		const struct famfs_ioc_iext *ie = &m->u.ie[i];
		uint64_t fill[FAMFS_IOC_MAX_STRIPS] = { 0 };
		uint32_t s = 0;

		if (x >= ie->nbytes) {
			x -= ie->nbytes;
			for (uint32_t t = 0; t < ie->nstrips; t++)
				base += ie->strips[t].len;
			continue;
		}
		while (x >= ie->chunk_size) {	/* next chunk, next strip */
			fill[s] += ie->chunk_size;
			x -= ie->chunk_size;
			s = (s + 1) % ie->nstrips;
		}
		for (uint32_t t = 0; t < s; t++)
			base += ie->strips[t].len;
		return base + fill[s] + x;
	}
	return U64_MAX;
}
