// SPDX-License-Identifier: GPL-2.0
/* A FILE log entry's map as famfs.ko is given it (v1, fmap), and the file
 * an entry made removed by that map and its identity (FAMFSIOC_UNLINK_MAP,
 * through famfs_kernel: kernel.c). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dev/dev.h"

/* ---- the map of a log entry, as famfs.ko is given it ---- */
int famfs_map_from_entry(const struct famfs_log_entry *e,
			 struct famfs_ioc_map *map)
{
	unsigned n = le16toh(e->fm.nextents);

	memset(map, 0, sizeof(*map));
	if (famfs_entry_interleaved(e) || famfs_entry_pages(e) ||
	    n > FAMFS_MAX_EXTENTS ||
	    (n && famfs_entry_devindex(e, 0)) ||
	    (n > 1 && famfs_entry_devindex(e, 1)))
		return -EOVERFLOW;	/* v1 cannot express it (nor pages) */
	map->extent_type = SIMPLE_DAX_EXTENT;
	map->file_type = FAMFS_REG;
	map->file_size = le64toh(e->fm.size);
	map->ext_list_count = n;
	for (unsigned i = 0; i < n; i++) {
		map->ext_list[i].offset = le64toh(e->fm.ext.simple[i].offset);
		map->ext_list[i].len = le64toh(e->fm.ext.simple[i].len);
	}
	return 0;
}

/* ---- a file removed by its entry's map (FAMFSIOC_UNLINK_MAP) ---- */
/* the kernel ops whose module said ENOTTY: not asked again */
static const struct famfs_kernel_ops *no_unlink_map;

/* the module (its ops) that refused FAMFS_IOC_MAP_IDENT on
 * FAMFSIOC_UNLINK_MAP: not asked again (a process talks to one famfs.ko;
 * unit tests swap mocks) */
static const struct famfs_kernel_ops *no_ident_unlink;

static int entry_unlink(int dfd, const char *name,
			const struct famfs_log_entry *e, uint64_t id,
			bool strict);

int famfs_entry_unlink(int dfd, const char *name,
		       const struct famfs_log_entry *e, uint64_t id)
{
	return entry_unlink(dfd, name, e, id, false);
}

int famfs_entry_unlink_ident(int dfd, const char *name,
			     const struct famfs_log_entry *e, uint64_t id)
{
	return entry_unlink(dfd, name, e, id, true);
}

static int entry_unlink(int dfd, const char *name,
			const struct famfs_log_entry *e, uint64_t id,
			bool strict)
{
	union {
		struct famfs_ioc_dext d[FAMFS_LOG_MAX_SIMPLE_EXT];
		struct famfs_ioc_iext_v3 x[1];
	} l;
	struct famfs_ioc_unlink_map a;
	size_t n = strlen(name);
	uint32_t count;
	int rc;

	if (!famfs_kernel->unlink_map || no_unlink_map == famfs_kernel)
		return -ENOTTY;
	if (strict && no_ident_unlink == famfs_kernel)
		return -EOPNOTSUPP;
	if (!n || n > FAMFS_NS_NAME_MAX)
		return -EINVAL;
	/* the map famfs_fmap_from_entry gives MAP_CREATE, as MAP_GET_V3
	 * reports it */
	memset(&a, 0, sizeof(a));
	a.name = (uint64_t)(uintptr_t)name;
	a.name_len = (uint32_t)n;
	a.map.file_type = FAMFS_REG;
	a.map.file_size = le64toh(e->fm.size);
	a.map.ext_list = (uint64_t)(uintptr_t)&l;
	if (famfs_entry_interleaved(e)) {
		const struct famfs_log_interleave_ext *ie = &e->fm.ext.interleave;
		uint32_t ns = le32toh(ie->nstrips);
		uint64_t slen = le64toh(ie->strip_len);

		if (!ns || ns > FAMFS_IOC_MAX_STRIPS)
			return -EINVAL;
		memset(&l.x[0], 0, sizeof(l.x[0]));
		a.map.extent_type = FAMFS_INTERLEAVED_EXTENT;
		a.map.ext_count = 1;
		l.x[0].nstrips = ns;
		l.x[0].chunk_size = le64toh(ie->chunk_size);
		l.x[0].nbytes = (uint64_t)ns * slen;
		for (uint32_t i = 0; i < ns; i++) {
			l.x[0].strips[i].offset = le64toh(ie->strip_off[i]);
			l.x[0].strips[i].len = slen;
			l.x[0].strips[i].devindex = famfs_entry_devindex(e, i);
		}
	} else {
		a.map.extent_type = SIMPLE_DAX_EXTENT;
		if (famfs_entry_pages(e))
			a.map.flags = FAMFS_IOC_MAP_PAGES;
		count = le16toh(e->fm.nextents);
		if (count > FAMFS_LOG_MAX_SIMPLE_EXT)
			count = FAMFS_LOG_MAX_SIMPLE_EXT;
		a.map.ext_count = count;
		for (uint32_t i = 0; i < count; i++) {
			l.d[i].offset = le64toh(e->fm.ext.simple[i].offset);
			l.d[i].len = le64toh(e->fm.ext.simple[i].len);
			l.d[i].devindex = famfs_entry_devindex(e, i);
			l.d[i].reserved = 0;
		}
	}
	/* the file that entry made: its identity (one made without is
	 * compared by its map; a famfs.ko without identities has none) */
	if (no_ident_unlink != famfs_kernel) {
		a.map.flags |= FAMFS_IOC_MAP_IDENT;
		a.map.reserved[0] = id;
	}
	rc = famfs_kernel->unlink_map(dfd, &a);
	/* strict: never by the map alone (it would take a later file on the
	 * same memory made without an identity) */
	if (strict && rc == -EINVAL && (a.map.flags & FAMFS_IOC_MAP_IDENT))
		return -EOPNOTSUPP;
	if (rc == -EINVAL && (a.map.flags & FAMFS_IOC_MAP_IDENT)) {
		a.map.flags &= ~FAMFS_IOC_MAP_IDENT;
		a.map.reserved[0] = 0;
		rc = famfs_kernel->unlink_map(dfd, &a);
		if (rc != -EINVAL)
			no_ident_unlink = famfs_kernel;
	}
	if (!rc)
		return 1;
	if (rc == -ENOENT || rc == -ESTALE || rc == -EISDIR)
		return 0;
	if (rc == -ENOTTY)
		no_unlink_map = famfs_kernel;
	return rc;
}

void famfs_fmap_from_entry(const struct famfs_log_entry *e,
			   struct famfs_fmap *m)
{
	const struct famfs_log_interleave_ext *ie = &e->fm.ext.interleave;

	memset(m, 0, sizeof(*m));
	m->file_type = FAMFS_REG;
	m->file_size = le64toh(e->fm.size);
	if (famfs_entry_interleaved(e)) {
		struct famfs_ioc_iext *x = &m->iext[0];
		uint32_t ns = le32toh(ie->nstrips);

		m->extent_type = FAMFS_INTERLEAVED_EXTENT;
		m->count = 1;
		x->nstrips = ns;
		x->chunk_size = le64toh(ie->chunk_size);
		x->nbytes = (uint64_t)ns * le64toh(ie->strip_len);
		for (uint32_t i = 0; i < ns && i < FAMFS_IOC_MAX_STRIPS; i++) {
			x->strips[i].offset = le64toh(ie->strip_off[i]);
			x->strips[i].len = le64toh(ie->strip_len);
			m->dev[i] = (uint8_t)famfs_entry_devindex(e, i);
		}
		return;
	}
	m->extent_type = SIMPLE_DAX_EXTENT;
	m->pages = famfs_entry_pages(e);
	m->count = le16toh(e->fm.nextents);
	if (m->count > FAMFS_LOG_MAX_SIMPLE_EXT)
		m->count = FAMFS_LOG_MAX_SIMPLE_EXT;
	for (uint32_t i = 0; i < m->count; i++) {
		m->ext[i].offset = le64toh(e->fm.ext.simple[i].offset);
		m->ext[i].len = le64toh(e->fm.ext.simple[i].len);
		m->dev[i] = (uint8_t)famfs_entry_devindex(e, i);
	}
}
