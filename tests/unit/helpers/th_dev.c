// SPDX-License-Identifier: GPL-2.0
/* Unit-test helpers: the member-device ioctls of the mock famfs.ko
 * (FAMFSIOC_DEV_ADD, DEV_GET, MAP_CREATE_V3) with the errors
 * famfs_ioctl.h lists that a plain-file world can reach.  Plain files
 * stand for devices (the real module wants block or dax devices). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

struct th_mock_dev th_mock_devs[FAMFS_MAX_DEVS];
unsigned long th_mock_dev_adds, th_mock_v3_creates, th_mock_v3_invalidates;

void th_mock_devs_reset(void)
{
	memset(th_mock_devs, 0, sizeof(th_mock_devs));
	th_mock_dev_adds = th_mock_v3_creates = th_mock_v3_invalidates = 0;
	th_mock_node_numbers = th_mock_dev_gets = 0;
}

int th_mock_dev_add(int fd, const struct famfs_ioc_dev_add *a)
{
	struct stat st;

	(void)fd;
	if (a->flags || a->reserved || a->reserved2[0] || a->reserved2[1] ||
	    a->reserved2[2])
		return -EINVAL;
	if (!a->index || a->index >= FAMFS_MAX_DEVS)
		return -EINVAL;
	if (!a->size || a->size % FAMFS_ALLOC_UNIT)
		return -EINVAL;
	if (fstat(a->fd, &st))
		return -EBADF;
	if (th_mock_devs[a->index].on)
		return -EEXIST;
	for (unsigned i = 1; i < FAMFS_MAX_DEVS; i++)
		if (th_mock_devs[i].on && th_mock_devs[i].dev == st.st_dev &&
		    th_mock_devs[i].ino == st.st_ino)
			return -EALREADY;
	if ((uint64_t)st.st_size < a->size)
		return -ENOSPC;
	th_mock_devs[a->index] = (struct th_mock_dev){
		.on = true, .dev = st.st_dev, .ino = st.st_ino, .size = a->size };
	/* the device number DEV_GET reports, as famfs.ko would of a node */
	assert_true(th_mock_node_number(&st, &th_mock_devs[a->index].major,
				      &th_mock_devs[a->index].minor,
				      &th_mock_devs[a->index].flags));
	th_mock_dev_adds++;
	return 0;
}

/* famfs_kernel's node_number: a node's number as famfs_node_number says
 * it; a plain file, which stands for a device here, its inode number (the
 * high 32 bits as major, the low as minor).  Counted. */
unsigned long th_mock_node_numbers, th_mock_dev_gets;

bool th_mock_node_number(const struct stat *st, uint32_t *major,
			 uint32_t *minor, uint32_t *flags)
{
	th_mock_node_numbers++;
	if (!S_ISREG(st->st_mode))
		return famfs_node_number(st, major, minor, flags);
	*flags = 0;
	*major = (uint32_t)((uint64_t)st->st_ino >> 32);
	*minor = (uint32_t)st->st_ino;
	return true;
}

int th_mock_dev_get(int fd, struct famfs_ioc_dev_info *i)
{
	(void)fd;
	th_mock_dev_gets++;
	if (i->flags || i->size || i->major || i->minor || i->reserved[0] ||
	    i->reserved[1] || i->index >= FAMFS_MAX_DEVS)
		return -EINVAL;
	if (i->index && !th_mock_devs[i->index].on)
		return -ENXIO;
	i->size = th_mock_devs[i->index].size;
	i->major = th_mock_devs[i->index].major;
	i->minor = th_mock_devs[i->index].minor;
	i->flags = th_mock_devs[i->index].flags;
	return 0;
}

/* ENODEV for an extent or strip on a device not attached, then the
 * checks of MAP_CREATE_V2 (th.c) on the map with its device indexes */
int th_mock_map_create_v3(int fd, const struct famfs_ioc_map_v2 *h)
{
	const struct famfs_ioc_dext *d = (const void *)(uintptr_t)h->ext_list;
	const struct famfs_ioc_iext_v3 *x = (const void *)(uintptr_t)h->ext_list;
	struct famfs_fmap *m;
	int rc;

	bool pages = h->flags & FAMFS_IOC_MAP_PAGES;

	if (h->flags & ~(FAMFS_IOC_MAP_PAGES | FAMFS_IOC_MAP_INVALIDATE |
			 FAMFS_IOC_MAP_IDENT))
		return -EINVAL;
	/* an identity in reserved[0] with FAMFS_IOC_MAP_IDENT only */
	if ((h->reserved[0] && !(h->flags & FAMFS_IOC_MAP_IDENT)) ||
	    h->reserved[1] || h->reserved[2] || h->reserved[3])
		return -EINVAL;
	if (pages && (h->extent_type != SIMPLE_DAX_EXTENT ||
		      h->file_type != FAMFS_REG))
		return -EINVAL;
	if (!h->ext_list || !h->ext_count ||
	    h->ext_count > (h->extent_type == SIMPLE_DAX_EXTENT ?
			    FAMFS_IOC_MAX_EXTENTS_V2 : FAMFS_IOC_MAX_IEXTENTS))
		return -EINVAL;
	if (pages && h->ext_count > FAMFS_IOC_MAX_PAGE_EXTENTS)
		return -E2BIG;
	if (pages && h->file_size >= FAMFS_IOC_SMALL_MAX)
		return -EFBIG;
	for (uint32_t i = 0; pages && i < h->ext_count; i++)
		if (!d[i].len || (d[i].offset | d[i].len) % FAMFS_IOC_PAGE_SIZE ||
		    d[i].offset / FAMFS_ALLOC_UNIT !=
		    (d[i].offset + d[i].len - 1) / FAMFS_ALLOC_UNIT ||
		    d[i].offset < FAMFS_ALLOC_UNIT)
			return -EINVAL;
	m = calloc(1, sizeof(*m));
	assert_non_null(m);
	m->pages = pages;
	m->has_ident = h->flags & FAMFS_IOC_MAP_IDENT;
	m->ident = h->reserved[0];
	m->extent_type = h->extent_type;
	m->file_type = h->file_type;
	m->file_size = h->file_size;
	m->count = h->ext_count;
	rc = 0;
	for (uint32_t i = 0; !rc && i < h->ext_count; i++) {
		if (h->extent_type == SIMPLE_DAX_EXTENT) {
			if (d[i].reserved)
				rc = -EINVAL;
			else if (d[i].devindex >= FAMFS_MAX_DEVS ||
				 (d[i].devindex && !th_mock_devs[d[i].devindex].on))
				rc = -ENODEV;
			m->ext[i].offset = d[i].offset;
			m->ext[i].len = d[i].len;
			m->dev[i] = (uint8_t)d[i].devindex;
			continue;
		}
		m->iext[i].nstrips = x[i].nstrips;
		m->iext[i].chunk_size = x[i].chunk_size;
		m->iext[i].nbytes = x[i].nbytes;
		for (uint32_t s = 0; !rc && s < x[i].nstrips &&
		     s < FAMFS_IOC_MAX_STRIPS; s++) {
			const struct famfs_ioc_dext *k = &x[i].strips[s];

			if (k->reserved)
				rc = -EINVAL;
			else if (k->devindex >= FAMFS_MAX_DEVS ||
				 (k->devindex && !th_mock_devs[k->devindex].on))
				rc = -ENODEV;
			m->iext[i].strips[s].offset = k->offset;
			m->iext[i].strips[s].len = k->len;
			m->dev[i * FAMFS_IOC_MAX_STRIPS + s] = (uint8_t)k->devindex;
		}
	}
	if (!rc && th_mock_before_create)
		th_mock_before_create(fd, m);
	if (!rc)
		rc = th_mock_add(fd, m);
	if (!rc)
		th_mock_v3_creates++;
	if (!rc && (h->flags & FAMFS_IOC_MAP_INVALIDATE))
		th_mock_v3_invalidates++;
	free(m);
	return rc;
}

int th_mock_map_create_v3_old(int fd, const struct famfs_ioc_map_v2 *h)
{
	if (h->flags & (FAMFS_IOC_MAP_INVALIDATE | FAMFS_IOC_MAP_IDENT) ||
	    h->reserved[0])
		return -EINVAL;
	return th_mock_map_create_v3(fd, h);
}

unsigned long th_mock_v3_gets, th_mock_v3_ident_gets;

/* a famfs.ko without identities: MAP_GET_V3 refuses every flag (EINVAL),
 * FAMFS_IOC_MAP_IDENT (asked, counted) too */
int th_mock_map_get_v3_old(int fd, struct famfs_ioc_map_v2 *h)
{
	if (h->flags & FAMFS_IOC_MAP_IDENT)
		th_mock_v3_ident_gets++;
	if (h->flags)
		return -EINVAL;
	return th_mock_map_get_v3(fd, h);
}

int th_mock_map_get_v3(int fd, struct famfs_ioc_map_v2 *h)
{
	struct famfs_fmap m;
	struct famfs_ioc_dext *d = (void *)(uintptr_t)h->ext_list;
	struct famfs_ioc_iext_v3 *x = (void *)(uintptr_t)h->ext_list;
	uint32_t room = h->ext_count;
	/* the identity only for a caller that asks, as famfs.ko */
	bool want_ident = h->flags == FAMFS_IOC_MAP_IDENT;
	int rc;

	th_mock_v3_gets++;
	if ((h->flags && !want_ident) || h->reserved[0] || h->reserved[1] ||
	    h->reserved[2] || h->reserved[3])
		return -EINVAL;
	rc = th_mock_fmap_of(fd, &m);
	if (rc)
		return rc;
	h->extent_type = m.extent_type;
	h->file_type = m.file_type;
	h->file_size = m.file_size;
	h->ext_count = m.count;
	h->flags = m.pages ? FAMFS_IOC_MAP_PAGES : 0;
	if (want_ident && m.has_ident) {
		h->flags |= FAMFS_IOC_MAP_IDENT;
		h->reserved[0] = m.ident;
	}
	if (!room)
		return 0;
	if (room < m.count)
		return -E2BIG;
	for (uint32_t i = 0; m.extent_type == FAMFS_INTERLEAVED_EXTENT &&
	     i < m.count; i++) {
		x[i].nstrips = m.iext[i].nstrips;
		x[i].chunk_size = m.iext[i].chunk_size;
		x[i].nbytes = m.iext[i].nbytes;
		for (uint32_t s = 0; s < m.iext[i].nstrips; s++) {
			x[i].strips[s].offset = m.iext[i].strips[s].offset;
			x[i].strips[s].len = m.iext[i].strips[s].len;
			x[i].strips[s].devindex = m.dev[i * FAMFS_IOC_MAX_STRIPS + s];
		}
	}
	for (uint32_t i = 0; m.extent_type == SIMPLE_DAX_EXTENT && i < m.count; i++) {
		d[i].offset = m.ext[i].offset;
		d[i].len = m.ext[i].len;
		d[i].devindex = m.dev[i];
		d[i].reserved = 0;
	}
	return 0;
}

/* FAMFSIOC_HELD: nothing held, unless a test says (th_mock_held_hook) */
int (*th_mock_held_hook)(struct famfs_ioc_held_range *r);
unsigned long th_mock_held_calls;

int th_mock_hold_all(struct famfs_ioc_held_range *r)
{
	r->held = r->len;
	return 0;
}

uint64_t th_held_off, th_held_len;

int th_mock_hold_range(struct famfs_ioc_held_range *r)
{
	if (!r->dev && r->offset < th_held_off + th_held_len &&
	    th_held_off < r->offset + r->len)
		r->held = r->len;
	return 0;
}

int th_mock_held(int fd, struct famfs_ioc_held *h)
{
	struct famfs_ioc_held_range *r = (void *)(uintptr_t)h->ranges;

	(void)fd;
	th_mock_held_calls++;
	if (h->flags || h->count > FAMFS_HELD_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < h->count; i++) {
		r[i].held = 0;
		r[i].flags = 0;
		if (th_mock_held_hook) {
			int rc = th_mock_held_hook(&r[i]);

			if (rc)
				return rc;
		}
	}
	return 0;
}

void th_fast_settle(void)
{
	setenv("FAMFS_HOST_SETTLE_MS", "0", 1);
	setenv("FAMFS_TEST_SETTLE", "1", 1);
}

struct famfs_df th_df(struct th *t)
{
	struct famfs_df df;

	assert_int_equal(famfs_df(&t->fs, &df), 0);
	return df;
}

/* FAMFSIOC_UNLINK_MAP: name of dfd removed if it is a file whose map is
 * a's (as MAP_GET_V3 reports it), as famfs.ko does it */
unsigned long th_mock_unlink_maps;

int th_mock_unlink_map(int dfd, const struct famfs_ioc_unlink_map *a)
{
	const struct famfs_ioc_dext *d = (const void *)(uintptr_t)a->map.ext_list;
	const struct famfs_ioc_iext_v3 *x = (const void *)(uintptr_t)a->map.ext_list;
	char name[FAMFS_NS_NAME_MAX + 1];
	struct famfs_fmap m;
	struct stat st;
	bool same;
	int fd, rc;

	th_mock_unlink_maps++;
	if (a->flags || !a->name_len || a->name_len > FAMFS_NS_NAME_MAX ||
	    !a->map.ext_count ||
	    (a->map.flags & ~(FAMFS_IOC_MAP_PAGES | FAMFS_IOC_MAP_IDENT)) ||
	    (a->map.reserved[0] && !(a->map.flags & FAMFS_IOC_MAP_IDENT)) ||
	    a->map.reserved[1] || a->map.reserved[2] || a->map.reserved[3])
		return -EINVAL;
	memcpy(name, (const void *)(uintptr_t)a->name, a->name_len);
	name[a->name_len] = '\0';
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	rc = S_ISREG(st.st_mode) ? th_mock_fmap_of(fd, &m) : -ENODATA;
	close(fd);
	if (rc)
		return rc == -ENODATA ? -ESTALE : rc;
	/* a file with an identity is the one named only by it */
	same = (!m.has_ident || ((a->map.flags & FAMFS_IOC_MAP_IDENT) &&
				 a->map.reserved[0] == m.ident)) &&
	       m.extent_type == a->map.extent_type &&
	       m.file_type == a->map.file_type &&
	       m.file_size == a->map.file_size && m.count == a->map.ext_count &&
	       m.pages == !!(a->map.flags & FAMFS_IOC_MAP_PAGES);
	for (uint32_t i = 0; same && i < m.count; i++) {
		if (m.extent_type == SIMPLE_DAX_EXTENT) {
			same = d[i].offset == m.ext[i].offset &&
			       d[i].len == m.ext[i].len &&
			       d[i].devindex == m.dev[i];
			continue;
		}
		same = x[i].nstrips == m.iext[i].nstrips &&
		       x[i].chunk_size == m.iext[i].chunk_size &&
		       x[i].nbytes == m.iext[i].nbytes;
		for (uint32_t s = 0; same && s < m.iext[i].nstrips; s++)
			same = x[i].strips[s].offset == m.iext[i].strips[s].offset &&
			       x[i].strips[s].len == m.iext[i].strips[s].len &&
			       x[i].strips[s].devindex ==
			       m.dev[i * FAMFS_IOC_MAX_STRIPS + s];
	}
	if (!same)
		return -ESTALE;
	return unlinkat(dfd, name, 0) ? -errno : 0;
}

/* FAMFSIOC_UNLINK_MAP of a famfs.ko without identities (issue 29's) */
int th_mock_unlink_map_old(int dfd, const struct famfs_ioc_unlink_map *a)
{
	if ((a->map.flags & FAMFS_IOC_MAP_IDENT) || a->map.reserved[0]) {
		th_mock_unlink_maps++;
		return -EINVAL;
	}
	return th_mock_unlink_map(dfd, a);
}
