// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: v2 maps to throw at MAP_CREATE_V2 (valid ones, on free
 * memory when that is easy to find, and ones broken in one or two fields),
 * and where their extent lists go (good and bad user pointers).
 */
#include "fuzz.h"

char *larena;

/* The first of @k free units from a random start on (in the hot window
 * for 30 % of the ranges when several processes race; anywhere, free or
 * not, for @keep_pct %). */
uint64_t free_unit(uint64_t k, int keep_pct)
{
	uint64_t nu = small_units(), span = nu > k + 1 ? nu - k - 1 : 1;
	uint64_t u = 1 + below(span);

	if (multi && chance(30))
		return hot_unit + below(8);
	if (chance(keep_pct))
		return u;
	for (uint64_t i = 0; i < span; i++) {
		uint64_t c = 1 + (u - 1 + i) % span;

		if (!units_busy(c * TWO_MiB, k * TWO_MiB))
			return c;
	}
	return u;
}

/* Memory for one more range of the map being made: marked busy meanwhile
 * so that the map's own ranges do not meet (unless a clash is kept). */
static uint64_t take(struct ext *got, int *ng, uint64_t len, int keep_pct)
{
	uint64_t u = free_unit((len + TWO_MiB - 1) / TWO_MiB, keep_pct);

	got[*ng].off = u * TWO_MiB;
	got[*ng].len = len;
	units_add(&got[*ng], 1, 1);
	(*ng)++;
	return u * TWO_MiB;
}

static void valid_simple(struct vmap *m, struct ext *got, int *ng,
			 uint64_t *total)
{
	uint32_t n;

	switch (below(10)) {
	case 0: case 1: case 2: case 3: n = 1 + (uint32_t)below(3); break;
	case 4: case 5: case 6: n = 1 + (uint32_t)below(16); break;
	case 7: case 8: n = 17 + (uint32_t)below(48); break;
	default: n = 65 + (uint32_t)below(192); break;
	}
	m->h.ext_count = n;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t len = TWO_MiB * (n > 16 ? 1 : 1 + below(chance(80) ? 2 : 8));

		if (i + 1 == n && chance(40))
			len -= 1 + below(TWO_MiB - 1);
		m->u.se[i].len = len;
		m->u.se[i].offset = take(got, ng, len, 0);
		*total += len;
	}
	if (m->h.file_type == FAMFS_SUPERBLOCK)
		m->u.se[0].offset = 0;
}

static void valid_iexts(struct vmap *m, struct ext *got, int *ng,
			uint64_t *total)
{
	static const uint64_t cu[] = { 1, 1, 1, 2, 3, 4, 8 };
	uint32_t n = chance(70) ? 1 : chance(70) ? 2 + (uint32_t)below(3) :
					   5 + (uint32_t)below(12);

	m->h.ext_count = n;
	for (uint32_t i = 0; i < n; i++) {
		struct famfs_ioc_iext *ie = &m->u.ie[i];
		uint32_t ns = 1 + (uint32_t)below(chance(30) ? 4 : 16);
		uint64_t c = cu[below(7)], per, cap;

		if (n > 4)
			ns = 1 + (uint32_t)below(4);
		while (c * ns > 32 && c > 1)
			c /= 2;
		per = 1 + below(c * ns > 16 || n > 1 ? 1 : 3);
		ie->nstrips = ns;
		ie->chunk_size = c * TWO_MiB;
		cap = ns * per * ie->chunk_size;
		if (i + 1 < n)
			ie->nbytes = TWO_MiB * (1 + below(cap / TWO_MiB));
		else if (chance(30))
			ie->nbytes = cap - (chance(50) ? 0 : below(ie->chunk_size));
		else
			ie->nbytes = 1 + below(cap);
		for (uint32_t s = 0; s < ns; s++) {
			uint64_t len = ie->chunk_size *
				strip_need(ie->nbytes, ie->chunk_size, ns, s);

			if (!len || chance(10))	/* room to spare */
				len += TWO_MiB * (1 + below(2));
			ie->strips[s].len = len;
			ie->strips[s].offset = take(got, ng, len, 0);
		}
		*total += ie->nbytes;
	}
}

/* A valid v2 map (simple, or interleaved if @il). */
void valid_v2(struct vmap *m, int il)
{
	struct ext got[MAXRANGES];
	uint64_t total = 0;
	int ng = 0;

	if (gib && chance(60)) {
		valid_gib(m, il);
		return;
	}
	memset(m, 0, sizeof(*m));
	m->h.extent_type = il ? FAMFS_INTERLEAVED_EXTENT : SIMPLE_DAX_EXTENT;
	m->h.file_type = il || chance(92) ? FAMFS_REG :
			 chance(50) ? FAMFS_LOG : FAMFS_SUPERBLOCK;
	if (il)
		valid_iexts(m, got, &ng, &total);
	else
		valid_simple(m, got, &ng, &total);
	units_add(got, ng, -1);
	if (chance(8) && ng) {	/* one range on memory that is mapped */
		struct ffile *f = pick(1, 1);
		uint64_t busy = nstat && (!f || chance(50)) ?
			stat_ext[below(nstat)].off : f ? f->map.ext_list[0].offset :
			TWO_MiB;
		int i = (int)below(ng);

		if (il) {
			for (uint32_t x = 0; x < m->h.ext_count; x++)
				for (uint32_t y = 0; y < m->u.ie[x].nstrips; y++)
					if (i-- == 0)
						m->u.ie[x].strips[y].offset = busy;
		} else if (m->h.file_type != FAMFS_SUPERBLOCK || i) {
			m->u.se[i].offset = busy;
		}
	}
	switch (below(5)) {
	case 0: m->h.file_size = 0; break;
	case 1: m->h.file_size = total; break;
	case 2: m->h.file_size = total - 1; break;
	case 3: m->h.file_size = 1; break;
	default: m->h.file_size = below(total + 1); break;
	}
}

static uint64_t chunk_boundary(void)
{
	static const uint64_t v[] = {
		0, 4096, TWO_MiB - 1, TWO_MiB + 4096, 3 * MiB, 1ULL << 62,
		U64_MAX - TWO_MiB + 1, 1ULL << 63, (1ULL << 60) + TWO_MiB,
	};

	return chance(70) ? v[below(sizeof(v) / sizeof(v[0]))] : boundary64();
}

/* @n: the extents the map was made with (ext_count may lie by now) */
static void mutate_strip(struct vmap *m, uint32_t n)
{
	struct famfs_ioc_iext *ie = &m->u.ie[below(n)];
	uint32_t ns = ie->nstrips - 1 < FAMFS_IOC_MAX_STRIPS ? ie->nstrips : 1;
	struct famfs_extent *st = &ie->strips[below(ns)];
	const struct famfs_ioc_iext *o = &m->u.ie[below(n)];
	uint32_t ons = o->nstrips - 1 < FAMFS_IOC_MAX_STRIPS ? o->nstrips : 1;

	switch (below(7)) {
	case 0:	/* the same memory as another strip */
		st->offset = o->strips[below(ons)].offset;
		break;
	case 1:	/* past the end of the device */
		st->offset = devsz - TWO_MiB * below(2);
		st->len = chance(50) ? st->len : 2 * TWO_MiB;
		break;
	case 2:
		st->offset = chance(50) ? 0 : boundary64();
		break;
	case 3:	/* short, wrapping past 2^64, anything */
		st->len = chance(40) ? st->len - TWO_MiB :
			  chance(50) ? U64_MAX - TWO_MiB + 1 : boundary64();
		break;
	case 4:	/* one chunk short, or a half chunk more */
		st->len = chance(50) ? st->len - ie->chunk_size :
				       st->len + ie->chunk_size / 2;
		break;
	case 5:
		st->offset += chance(50) ? 4096 : TWO_MiB;
		break;
	default:
		st->len = boundary64();
		st->offset = boundary64();
		break;
	}
}

static void mutate_iext(struct vmap *m, uint32_t n)
{
	struct famfs_ioc_iext *ie = &m->u.ie[below(n)];

	switch (below(4)) {
	case 0:	/* reserved, or a strip past nstrips */
		if (chance(40) || ie->nstrips >= FAMFS_IOC_MAX_STRIPS)
			ie->reserved = chance(50) ? 1 : (uint32_t)rnd();
		else if (chance(50))
			ie->strips[ie->nstrips + below(FAMFS_IOC_MAX_STRIPS -
				   ie->nstrips)].offset = TWO_MiB * below(4);
		else
			ie->strips[ie->nstrips + below(FAMFS_IOC_MAX_STRIPS -
				   ie->nstrips)].len = 1 + below(TWO_MiB * 2);
		break;
	case 1: {
		static const uint32_t v[] = { 0, 17, 18, 20, 0xffffffff,
					      0x80000000 };

		ie->nstrips = chance(30) ? ie->nstrips + (uint32_t)below(3) - 1 :
			      chance(80) ? v[below(6)] : boundary32();
		if (!ie->nstrips && chance(50))	/* and no strips at all */
			memset(ie->strips, 0, sizeof(ie->strips));
		break;
	}
	case 2:
		ie->chunk_size = chance(20) ? ie->chunk_size * 2 :
				 chunk_boundary();
		break;
	default: {
		uint64_t cap = ie->nstrips * ie->chunk_size;

		switch (below(6)) {
		case 0: ie->nbytes = 0; break;
		case 1: ie->nbytes += 1; break;
		case 2: ie->nbytes += TWO_MiB; break;
		case 3: ie->nbytes = cap + 1; break;
		case 4: ie->nbytes = U64_MAX - below(TWO_MiB); break;
		default: ie->nbytes = boundary64(); break;
		}
		break;
	}
	}
}

/* Break one or two fields of a v2 map (the header, the list, a count). */
void mutate_v2(struct vmap *m)
{
	int il = is_il(m), fields = chance(75) ? 1 : 2;
	uint32_t n = m->h.ext_count, max = il ? FAMFS_IOC_MAX_IEXTENTS :
					      FAMFS_IOC_MAX_EXTENTS_V2;

	if (chance(4)) {	/* random bytes */
		uint64_t *w = (uint64_t *)&m->u;

		m->h.extent_type = chance(50) ? m->h.extent_type : boundary32();
		m->h.file_size = rnd();
		for (size_t i = 0; i < 16 * (1 + below(8)) &&
		     i < sizeof(m->u) / 8; i++)
			w[below(sizeof(m->u) / 8)] = chance(50) ? rnd() :
							     boundary64();
		return;
	}
	while (fields--) {
		switch (below(il ? 16 : 10)) {
		case 0:
			m->h.flags = chance(50) ? 1u << below(32) : boundary32();
			break;
		case 1:
			m->h.reserved[below(4)] = chance(50) ? 1ULL << below(64) :
						  rnd();
			break;
		case 2:	/* the list read as the other kind */
			m->h.extent_type = chance(50) ?
				(il ? SIMPLE_DAX_EXTENT : FAMFS_INTERLEAVED_EXTENT) :
				boundary32();
			break;
		case 3:
			m->h.file_type = chance(50) ? (uint32_t)below(4) :
						      boundary32();
			break;
		case 4:
			m->h.file_size = chance(50) ? boundary64() :
					 m->h.file_size + below(3) - 1;
			break;
		case 5: {	/* the count lies */
			const uint32_t v[] = { 0, n - 1, n + 1, n + 2, max,
				max + 1, 300, 20, 17, 257, 0xffffffff, 1 };

			m->h.ext_count = chance(85) ? v[below(12)] :
						      (uint32_t)rnd();
			break;
		}
		case 6: case 7:
			if (il)
				mutate_strip(m, n);
			else if (chance(30) && n > 1)	/* overlap */
				m->u.se[below(n)].offset =
					m->u.se[below(n)].offset +
					TWO_MiB * below(2);
			else
				m->u.se[below(n)].offset = boundary64();
			break;
		case 8: case 9:
			if (il)
				mutate_strip(m, n);
			else
				m->u.se[below(n)].len = chance(30) ?
					m->u.se[below(n)].len + 1 :
					boundary64();
			break;
		default:
			mutate_iext(m, n);
			break;
		}
	}
}

/* ---- where the list goes -------------------------------------------------- */
enum list_kind pick_list_kind(void)
{
	if (chance(88))
		return L_OK;
	if (chance(40))
		return L_MISALIGNED;
	return (enum list_kind)(L_NULL + below(L_NKINDS - L_NULL));
}

/* A user address for a list of @need bytes; *bad_read / *bad_write: the
 * kernel cannot read / write all of them there. */
char *place_list(enum list_kind k, size_t need, int *bad_read, int *bad_write)
{
	*bad_read = *bad_write = 1;
	switch (k) {
	case L_NULL:
		return NULL;
	case L_LOW:
		return (char *)(uintptr_t)(8 + below(4000));
	case L_KERNEL:
		return chance(50) ? (char *)0xffff888000000000ULL :
				    (char *)(uintptr_t)(U64_MAX - 8 * below(64));
	case L_NONCANON:	/* above the user address space */
		return (char *)(uintptr_t)((1ULL << 47) - 4096 +
					   4096 * below(1 << 20));
	case L_PROTNONE:
		return larena + LARENA + 8 * below(pg / 8 - 8);
	case L_STRADDLE: {	/* the end of the list falls off the mapping */
		size_t cut = need && chance(75) ? 1 + below(need) : 0;

		*bad_read = *bad_write = cut > 0;
		return larena + LARENA - need + cut;
	}
	case L_RDONLY:
		*bad_read = 0;
		return ro_page + 8 * below(8);
	case L_MISALIGNED:
		*bad_read = *bad_write = 0;
		return larena + 1 + below(7);
	default:
		*bad_read = *bad_write = 0;
		return larena + 8 * below(64);
	}
}
