// SPDX-License-Identifier: GPL-2.0
/* A file's map given to famfs.ko and read from it (MAP_CREATE and MAP_GET,
 * v1, v2 and v3, through famfs_kernel: kernel.c), which of them the module
 * has (famfs_kernel_v2), and maps compared.
 *
 * A famfs.ko without the v2 ioctls (the 2024 module: numbers 1..4) is
 * found once per process (famfs_kernel_v2).  Its MAP_GET filled in
 * file_size and ext_list_count only -- extent_type, file_type and ext_list
 * stayed 0 -- and a file without a map got EINVAL; the extents come from
 * MAP_GETEXT.  What v1 cannot express (interleaved, more than
 * FAMFS_MAX_EXTENTS extents) is refused by the callers before they log it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dev/dev.h"

void famfs_fmap_from_v1(struct famfs_fmap *m, const struct famfs_ioc_map *v1)
{
	memset(m, 0, sizeof(*m));
	m->extent_type = v1->extent_type;
	m->file_type = v1->file_type;
	m->file_size = v1->file_size;
	m->count = (uint32_t)(v1->ext_list_count > FAMFS_MAX_EXTENTS ?
			      FAMFS_MAX_EXTENTS : v1->ext_list_count);
	for (uint32_t i = 0; i < m->count; i++)
		m->ext[i] = v1->ext_list[i];
}

/* ---- v3: maps whose extents and strips name a device (issue 16) ---- */
union v3_list {
	struct famfs_ioc_dext d[FAMFS_IOC_MAX_EXTENTS_V2];
	struct famfs_ioc_iext_v3 x[FAMFS_IOC_MAX_IEXTENTS];
};

static void v3_hdr(struct famfs_ioc_map_v2 *h, const struct famfs_fmap *m,
		   union v3_list *l)
{
	memset(h, 0, sizeof(*h));
	h->extent_type = m->extent_type;
	h->file_type = m->file_type;
	h->file_size = m->file_size;
	h->ext_count = m->count;
	h->ext_list = (uint64_t)(uintptr_t)l;
}

/* MAP_CREATE_V3's header for m: FAMFS_IOC_MAP_PAGES for a small file,
 * and flags (with FAMFS_IOC_MAP_IDENT, m's identity in reserved[0]) */
static void v3_create_hdr(struct famfs_ioc_map_v2 *h,
			  const struct famfs_fmap *m, union v3_list *l,
			  uint32_t flags)
{
	v3_hdr(h, m, l);
	h->flags = flags;
	if (m->pages)
		h->flags |= FAMFS_IOC_MAP_PAGES;
	if (flags & FAMFS_IOC_MAP_IDENT)
		h->reserved[0] = m->ident;
}

static int fmap_create_v3(int fd, const struct famfs_fmap *m, uint32_t flags)
{
	struct famfs_ioc_map_v2 h;
	union v3_list *l;
	int rc;

	if (!famfs_kernel->map_create_v3)
		return -ENOTTY;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	v3_create_hdr(&h, m, l, flags);
	for (uint32_t i = 0; i < m->count; i++) {
		if (m->extent_type != FAMFS_INTERLEAVED_EXTENT) {
			if (i >= FAMFS_IOC_MAX_EXTENTS_V2)
				break;
			l->d[i].offset = m->ext[i].offset;
			l->d[i].len = m->ext[i].len;
			l->d[i].devindex = m->dev[i];
			continue;
		}
		if (i >= FAMFS_IOC_MAX_IEXTENTS)
			break;
		l->x[i].nstrips = m->iext[i].nstrips;
		l->x[i].chunk_size = m->iext[i].chunk_size;
		l->x[i].nbytes = m->iext[i].nbytes;
		for (uint32_t s = 0; s < m->iext[i].nstrips &&
		     s < FAMFS_IOC_MAX_STRIPS; s++) {
			l->x[i].strips[s].offset = m->iext[i].strips[s].offset;
			l->x[i].strips[s].len = m->iext[i].strips[s].len;
			l->x[i].strips[s].devindex =
				m->dev[i * FAMFS_IOC_MAX_STRIPS + s];
		}
	}
	rc = famfs_kernel->map_create_v3(fd, &h);
	free(l);
	return rc;
}

/* the module (its ops) that refused FAMFS_IOC_MAP_IDENT on MAP_GET_V3 (a
 * famfs.ko without identities: EINVAL): not asked again (a process talks
 * to one famfs.ko; unit tests swap mocks) */
static const struct famfs_kernel_ops *no_ident_get;

/* MAP_GET_V3 of fd's header into h (ext_list and ext_count as h has them),
 * asking for the file's identity (FAMFS_IOC_MAP_IDENT in the flags it is
 * given: famfs.ko reports it only when asked); a famfs.ko that refuses the
 * flag (EINVAL) is asked again without it, and never again with it */
static int map_get_v3_ident(int fd, struct famfs_ioc_map_v2 *h)
{
	struct famfs_ioc_map_v2 in = *h;
	int rc;

	if (no_ident_get == famfs_kernel)
		return famfs_kernel->map_get_v3(fd, h);
	h->flags = FAMFS_IOC_MAP_IDENT;
	rc = famfs_kernel->map_get_v3(fd, h);
	if (rc != -EINVAL)
		return rc;
	*h = in;
	rc = famfs_kernel->map_get_v3(fd, h);
	if (rc != -EINVAL)	/* the flag was what it refused */
		no_ident_get = famfs_kernel;
	return rc;
}

/* MAP_GET_V3 into m (m's header fields from a v2 answer are replaced) */
static int fmap_get_v3(int fd, struct famfs_fmap *m)
{
	struct famfs_ioc_map_v2 h;
	union v3_list *l;
	uint32_t room;
	int rc;

	if (!famfs_kernel->map_get_v3)
		return -EOVERFLOW;
	memset(m, 0, sizeof(*m));
	memset(&h, 0, sizeof(h));
	rc = map_get_v3_ident(fd, &h);
	if (rc)
		return rc;
	room = h.extent_type == FAMFS_INTERLEAVED_EXTENT ?
	       FAMFS_IOC_MAX_IEXTENTS : FAMFS_IOC_MAX_EXTENTS_V2;
	if ((h.extent_type != SIMPLE_DAX_EXTENT &&
	     h.extent_type != FAMFS_INTERLEAVED_EXTENT))
		return -EPROTO;
	if (h.ext_count > room)
		return -E2BIG;
	if (h.flags & ~(FAMFS_IOC_MAP_PAGES | FAMFS_IOC_MAP_IDENT))
		return -EPROTO;
	m->extent_type = h.extent_type;
	m->file_type = h.file_type;
	m->file_size = h.file_size;
	m->count = h.ext_count;
	m->pages = h.flags & FAMFS_IOC_MAP_PAGES;
	m->has_ident = h.flags & FAMFS_IOC_MAP_IDENT;
	m->ident = m->has_ident ? h.reserved[0] : 0;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	v3_hdr(&h, m, l);
	rc = map_get_v3_ident(fd, &h);
	if (!rc && (h.extent_type != m->extent_type || h.ext_count != m->count ||
		    h.file_size != m->file_size || h.file_type != m->file_type ||
		    (h.flags & FAMFS_IOC_MAP_PAGES) != (m->pages ? FAMFS_IOC_MAP_PAGES : 0) ||
		    !(h.flags & FAMFS_IOC_MAP_IDENT) != !m->has_ident ||
		    (m->has_ident && h.reserved[0] != m->ident)))
		rc = -EBADE;		/* the two calls disagree */
	for (uint32_t i = 0; !rc && i < m->count; i++) {
		if (m->extent_type != FAMFS_INTERLEAVED_EXTENT) {
			m->ext[i].offset = l->d[i].offset;
			m->ext[i].len = l->d[i].len;
			m->dev[i] = (uint8_t)l->d[i].devindex;
			continue;
		}
		m->iext[i].nstrips = l->x[i].nstrips;
		m->iext[i].chunk_size = l->x[i].chunk_size;
		m->iext[i].nbytes = l->x[i].nbytes;
		for (uint32_t s = 0; s < l->x[i].nstrips &&
		     s < FAMFS_IOC_MAX_STRIPS; s++) {
			m->iext[i].strips[s].offset = l->x[i].strips[s].offset;
			m->iext[i].strips[s].len = l->x[i].strips[s].len;
			m->dev[i * FAMFS_IOC_MAX_STRIPS + s] =
				(uint8_t)l->x[i].strips[s].devindex;
		}
	}
	free(l);
	return rc;
}

bool famfs_fmap_multidev(const struct famfs_fmap *m)
{
	for (unsigned i = 0; i < FAMFS_IOC_MAX_EXTENTS_V2; i++)
		if (m->dev[i])
			return true;
	return false;
}

/* the module (its ops) that refused FAMFS_IOC_MAP_IDENT on MAP_CREATE_V3
 * (or has no v3): not asked again (a process talks to one famfs.ko; unit
 * tests swap mocks) */
static const struct famfs_kernel_ops *no_ident;

/* MAP_CREATE_V3 with flags, and m's identity if it has one: a famfs.ko
 * that refuses the identity (EINVAL, and the map taken without it) makes
 * the file without one, and is not asked again */
static int fmap_create_v3_ident(int fd, const struct famfs_fmap *m,
				uint32_t flags)
{
	int rc;

	if (!m->has_ident || no_ident == famfs_kernel)
		return fmap_create_v3(fd, m, flags);
	rc = fmap_create_v3(fd, m, flags | FAMFS_IOC_MAP_IDENT);
	if (rc == -ENOTTY)
		no_ident = famfs_kernel;
	if (rc != -EINVAL)
		return rc;
	rc = fmap_create_v3(fd, m, flags);
	if (!rc)
		no_ident = famfs_kernel;
	return rc;
}

static int fmap_create_noident(int fd, const struct famfs_fmap *m);

int famfs_fmap_create(int fd, const struct famfs_fmap *m)
{
	int rc;

	/* an identity: only v3 takes it; a famfs.ko that refuses it (EINVAL
	 * for the flag, the map taken the old way) is not asked again */
	if (!m->has_ident || !famfs_kernel->map_create_v3 ||
	    no_ident == famfs_kernel)
		return fmap_create_noident(fd, m);
	rc = fmap_create_v3(fd, m, FAMFS_IOC_MAP_IDENT);
	if (rc != -EINVAL && rc != -ENOTTY)
		return rc;
	rc = fmap_create_noident(fd, m);
	if (!rc)
		no_ident = famfs_kernel;
	return rc;
}

static int fmap_create_noident(int fd, const struct famfs_fmap *m)
{
	struct famfs_ioc_map_v2 v2;

	/* a small file's page extents: only v3 takes them (with the flag) */
	if (famfs_fmap_multidev(m) || m->pages)
		return fmap_create_v3(fd, m, 0);
	if (m->extent_type == SIMPLE_DAX_EXTENT && m->count <= FAMFS_MAX_EXTENTS) {
		struct famfs_ioc_map v1;

		/* v1 stays the way for what it can express */
		memset(&v1, 0, sizeof(v1));
		v1.extent_type = m->extent_type;
		v1.file_type = m->file_type;
		v1.file_size = m->file_size;
		v1.ext_list_count = m->count;
		for (uint32_t i = 0; i < m->count; i++)
			v1.ext_list[i] = m->ext[i];
		return famfs_kernel->map_create(fd, &v1);
	}
	if (!famfs_kernel->map_create_v2)
		return -ENOTTY;
	memset(&v2, 0, sizeof(v2));
	v2.extent_type = m->extent_type;
	v2.file_type = m->file_type;
	v2.file_size = m->file_size;
	v2.ext_count = m->count;
	v2.ext_list = (uint64_t)(uintptr_t)(m->extent_type == FAMFS_INTERLEAVED_EXTENT ?
					    (const void *)m->iext :
					    (const void *)m->ext);
	return famfs_kernel->map_create_v2(fd, &v2);
}

/* the module (its ops) that refused FAMFS_IOC_MAP_INVALIDATE or has no
 * v3: not asked again (a process talks to one famfs.ko; unit tests swap
 * mocks), and why (-EINVAL, -ENOTTY); the module the fallback was said
 * for */
static const struct famfs_kernel_ops *no_invalidate, *fallback_said;
static int no_invalidate_rc;

/* once per module: what the fallback does for a file on reclaimed memory */
static void say_fallback(int cache_rc)
{
	const char *lacks = no_invalidate_rc == -EINVAL ?
		"does not take FAMFS_IOC_MAP_INVALIDATE" :
		"has no MAP_CREATE_V3 (so no FAMFS_IOC_MAP_INVALIDATE)";

	if (fallback_said == famfs_kernel)
		return;
	if (!cache_rc) {
		fallback_said = famfs_kernel;
		famfs_note("this famfs.ko %s: a file made on memory a deleted file had gets this host's cache lines of it dropped only after it is mapped (FAMFSIOC_CACHE); a reader that opens it in between may load stale lines (update famfs.ko)",
			   lacks);
	} else if (cache_rc == -ENOTTY) {
		fallback_said = famfs_kernel;
		famfs_warn("this famfs.ko %s and has no FAMFSIOC_CACHE: this host's cache lines of reclaimed memory (a deleted file's, now a new file's) are not dropped, and a read of such a file may return the deleted file's data from them (update famfs.ko)",
			   lacks);
	}
}

int famfs_fmap_create_fresh(int fd, const struct famfs_fmap *m, int *cache_rc)
{
	int rc = -ENOTTY;

	*cache_rc = 0;
	if (famfs_kernel->map_create_v3 && no_invalidate != famfs_kernel)
		rc = fmap_create_v3_ident(fd, m, FAMFS_IOC_MAP_INVALIDATE);
	if (!rc) {
		famfs_flush_stats.file_invalidates++;
		return 0;
	}
	if (rc != -ENOTTY && rc != -EINVAL)
		return rc;
	/* no v3 (the 2024 module), a famfs.ko older than the flag, or a
	 * map it refuses anyway (then refused again here) */
	if (no_invalidate != famfs_kernel) {
		no_invalidate_rc = rc;
		rc = famfs_fmap_create(fd, m);
		if (rc)
			return rc;
		no_invalidate = famfs_kernel;
	} else {
		rc = famfs_fmap_create(fd, m);
		if (rc)
			return rc;
	}
	*cache_rc = famfs_file_cache(fd, true);
	if (!*cache_rc)
		famfs_flush_stats.file_invalidates++;
	else
		famfs_flush_stats.file_stale++;
	say_fallback(*cache_rc);
	return 0;
}

/* Set by the first famfs_kernel_v2 that learnt something, for the
 * famfs_kernel it asked (a unit test that swaps famfs_kernel asks again). */
static const struct famfs_kernel_ops *probed_ops;
static bool probed_v2, probed_v3;

/* the header only (ext_count 0): any answer but ENOTTY is the ioctl's */
static bool kernel_answers(int (*get)(int, struct famfs_ioc_map_v2 *), int fd)
{
	struct famfs_ioc_map_v2 h;

	memset(&h, 0, sizeof(h));
	return get && get(fd, &h) != -ENOTTY;
}

/*
 * v3 is asked first: it reads every map, where v2 refuses a small file's
 * or a member's map with EOVERFLOW -- and famfs.ko logs each refusal, so a
 * tool that asked v2 first filled the kernel log with "use MAP_GET_V3".
 */
int famfs_kernel_v2(int fd)
{
	struct famfs_ioc_map v1;

	if (probed_ops == famfs_kernel)
		return probed_v2;
	probed_v3 = kernel_answers(famfs_kernel->map_get_v3, fd);
	if (probed_v3 || kernel_answers(famfs_kernel->map_get_v2, fd)) {
		probed_v2 = true;	/* every v3 module has v2 */
	} else {
		/* ENOTTY from v1 too: fd is no famfs file, nothing learnt */
		if (famfs_kernel->map_get(fd, &v1) == -ENOTTY)
			return -ENOTTY;
		probed_v2 = false;
	}
	probed_ops = famfs_kernel;
	return probed_v2;
}

const char *famfs_fmap_needs_v2(const struct famfs_fmap *m)
{
	if (m->extent_type == FAMFS_INTERLEAVED_EXTENT)
		return "an interleaved file";
	if (m->pages)
		return "a small file (4 KiB page extents: MAP_CREATE_V3)";
	if (m->count > FAMFS_MAX_EXTENTS)
		return "more than 2 extents";
	return NULL;
}

/* The map through v1: MAP_GET, then the extents from MAP_GETEXT. */
static int fmap_get_v1(int fd, struct famfs_fmap *m)
{
	static const struct famfs_extent zero[FAMFS_MAX_EXTENTS];
	struct famfs_extent ext[FAMFS_MAX_EXTENTS];
	struct famfs_ioc_map v1;
	uint32_t n;
	int rc;

	rc = famfs_kernel->map_get(fd, &v1);
	if (rc == -EINVAL)
		return -ENODATA;	/* the 2024 module: no map */
	if (rc)
		return rc;
	/* the only kind v1 maps; 0: not said */
	if (v1.extent_type && v1.extent_type != SIMPLE_DAX_EXTENT)
		return -EPROTO;
	if (v1.ext_list_count > FAMFS_MAX_EXTENTS)
		return -E2BIG;
	n = (uint32_t)v1.ext_list_count;
	memset(ext, 0, sizeof(ext));
	if (n) {
		rc = famfs_kernel->map_getext(fd, ext);
		if (rc)
			return rc;
	}
	/* a module that fills ext_list in as well must agree with itself */
	if (memcmp(v1.ext_list, zero, sizeof(zero)) &&
	    memcmp(v1.ext_list, ext, sizeof(ext)))
		return -EBADE;
	m->extent_type = SIMPLE_DAX_EXTENT;
	m->file_type = v1.file_type;
	m->file_type_unknown = v1.file_type == FAMFS_REG;
	m->file_size = v1.file_size;
	m->count = n;
	memcpy(m->ext, ext, n * sizeof(ext[0]));
	return 0;
}

int famfs_fmap_get(int fd, struct famfs_fmap *m)
{
	struct famfs_ioc_map_v2 v2;
	uint32_t room;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = famfs_kernel_v2(fd);
	if (rc < 0)
		return rc;
	if (!rc)
		return fmap_get_v1(fd, m);
	if (probed_v3)
		return fmap_get_v3(fd, m);
	memset(&v2, 0, sizeof(v2));
	rc = famfs_kernel->map_get_v2(fd, &v2);
	if (rc == -EOVERFLOW)		/* a map on a member, or page extents */
		return fmap_get_v3(fd, m);
	if (rc)
		return rc;
	switch (v2.extent_type) {
	case SIMPLE_DAX_EXTENT:
		room = FAMFS_IOC_MAX_EXTENTS_V2;
		break;
	case FAMFS_INTERLEAVED_EXTENT:
		room = FAMFS_IOC_MAX_IEXTENTS;
		break;
	default:
		return -EPROTO;		/* a map this tool cannot read */
	}
	if (v2.ext_count > room)
		return -E2BIG;
	m->extent_type = v2.extent_type;
	m->file_type = v2.file_type;
	m->file_size = v2.file_size;
	m->count = v2.ext_count;
	if (!v2.ext_count)
		return 0;
	memset(&v2, 0, sizeof(v2));
	v2.ext_count = m->count;
	v2.ext_list = (uint64_t)(uintptr_t)(m->extent_type == FAMFS_INTERLEAVED_EXTENT ?
					    (void *)m->iext : (void *)m->ext);
	rc = famfs_kernel->map_get_v2(fd, &v2);
	if (rc)
		return rc;
	if (v2.extent_type != m->extent_type || v2.ext_count != m->count ||
	    v2.file_size != m->file_size || v2.file_type != m->file_type)
		return -EBADE;		/* the two calls disagree */
	return 0;
}

bool famfs_fmap_is_entry(const struct famfs_fmap *want,
			 const struct famfs_fmap *have, uint64_t id)
{
	return famfs_fmap_equal(want, have) &&
	       (!have->has_ident || have->ident == id);
}

bool famfs_fmap_equal(const struct famfs_fmap *a, const struct famfs_fmap *b)
{
	if (a->extent_type != b->extent_type || a->file_type != b->file_type ||
	    a->file_size != b->file_size || a->count != b->count || a->pages != b->pages ||
	    memcmp(a->dev, b->dev, sizeof(a->dev)))
		return false;
	if (a->extent_type == FAMFS_INTERLEAVED_EXTENT)
		return a->count <= FAMFS_IOC_MAX_IEXTENTS &&
		       !memcmp(a->iext, b->iext, a->count * sizeof(a->iext[0]));
	return a->count <= FAMFS_IOC_MAX_EXTENTS_V2 &&
	       !memcmp(a->ext, b->ext, a->count * sizeof(a->ext[0]));
}
