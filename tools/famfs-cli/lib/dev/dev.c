// SPDX-License-Identifier: GPL-2.0
/*
 * Device access.  Nothing another host must see goes through a page cache:
 * - regular files (unit tests): mmap(MAP_SHARED) + msync;
 * - /dev/daxX.Y: mmap(MAP_SHARED) + CPU cache-line flushes (device-dax has
 *   no fsync, so msync(MS_SYNC) fails with EINVAL there);
 * - block devices (/dev/pmemN): a bounce buffer read and written back with
 *   O_DIRECT (the block device page cache would be per host).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev/dev.h"

#define DIO_ALIGN 4096UL
/* a bounce buffer in a view (a compact log): read this much at first, the
 * rest as it is needed (famfs_map_load), at least this much at a time */
#define BOUNCE_FIRST	(2UL << 20)
#define BOUNCE_STEP	(1UL << 20)

bool famfs_dev_bounce_files;
uint64_t famfs_bounce_bytes;

/* [m->loaded, upto) of a bounce buffer from the device */
static int bounce_read(struct famfs_map *m, uint64_t upto)
{
	uint64_t from = m->loaded;
	ssize_t n;

	if (upto > m->len)
		upto = m->len;
	if (upto <= from)
		return 0;
	n = pread(m->fd, (char *)m->addr + from, upto - from,
		  (off_t)(m->dev_off + from));
	if (n != (ssize_t)(upto - from)) {
		famfs_err("%s: read at %llu: %s", m->name,
			  (unsigned long long)(m->dev_off + from),
			  n < 0 ? strerror(errno) : "short read");
		return n < 0 ? -errno : -EIO;
	}
	famfs_bounce_bytes += upto - from;
	m->loaded = upto;
	return 0;
}

int famfs_map_load(struct famfs_map *m, const void *addr, size_t len)
{
	uint64_t upto = (uint64_t)((uintptr_t)addr + len - (uintptr_t)m->addr);

	if (!m->bounce || upto <= m->loaded)
		return 0;
	upto = (upto + DIO_ALIGN - 1) & ~(DIO_ALIGN - 1);
	if (upto < m->loaded + BOUNCE_STEP)
		upto = m->loaded + BOUNCE_STEP;
	return bounce_read(m, upto);
}

bool famfs_node_number(const struct stat *st, uint32_t *major,
		       uint32_t *minor, uint32_t *flags)
{
	*flags = 0;
	if (S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode)) {
		*major = major(st->st_rdev);
		*minor = minor(st->st_rdev);
		if (S_ISCHR(st->st_mode))
			*flags = FAMFS_DEV_DEVDAX;
		return true;
	}
	return false;
}

int famfs_dax_size(const char *path, dev_t rdev, uint64_t *size)
{
	char p[256], buf[64];
	const char *base = strrchr(path, '/');
	FILE *f;
	int ok;

	snprintf(p, sizeof(p), "/sys/dev/char/%u:%u/size", major(rdev), minor(rdev));
	f = fopen(p, "r");
	if (!f) {
		snprintf(p, sizeof(p), "/sys/bus/dax/devices/%s/size",
			 base ? base + 1 : path);
		f = fopen(p, "r");
	}
	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (!ok || famfs_parse_size(buf, size))
		return -EINVAL;
	return 0;
}

int famfs_dev_open(const char *path, bool rw, struct famfs_dev *d)
{
	struct stat st;
	int flags = rw ? O_RDWR : O_RDONLY;
	int rc;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->rw = rw;
	snprintf(d->path, sizeof(d->path), "%s", path);
	if (stat(path, &st)) {
		rc = -errno;
		famfs_err("%s: %s", path, strerror(errno));
		return rc;
	}
	if (S_ISBLK(st.st_mode)) {
		d->kind = FAMFS_DEV_BLOCK;
		flags |= O_DIRECT | O_EXCL;
	} else if (S_ISCHR(st.st_mode)) {
		d->kind = FAMFS_DEV_DAX;
	} else if (S_ISREG(st.st_mode)) {
		d->kind = FAMFS_DEV_FILE;
	} else {
		famfs_err("%s: not a block device, dax device or file", path);
		return -ENODEV;
	}
	d->fd = open(path, flags | O_CLOEXEC);
	if (d->fd < 0) {
		rc = -errno;
		if (rc == -EBUSY)
			famfs_err("%s: device busy (mounted?)", path);
		else
			famfs_err("%s: cannot open: %s", path, strerror(errno));
		return rc;
	}
	switch (d->kind) {
	case FAMFS_DEV_BLOCK:
		if (ioctl(d->fd, BLKGETSIZE64, &d->size)) {
			rc = -errno;
			famfs_err("%s: BLKGETSIZE64: %s", path, strerror(errno));
			goto fail;
		}
		break;
	case FAMFS_DEV_DAX:
		rc = famfs_dax_size(path, st.st_rdev, &d->size);
		if (rc) {
			famfs_err("%s: cannot read the dax device size from sysfs: %s",
				  path, strerror(-rc));
			goto fail;
		}
		break;
	case FAMFS_DEV_FILE:
		d->size = (uint64_t)st.st_size;
		break;
	}
	return 0;
fail:
	close(d->fd);
	d->fd = -1;
	return rc;
}

void famfs_dev_close(struct famfs_dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int famfs_fd_map(int fd, const char *name, uint64_t len, bool rw,
		 struct famfs_map *m)
{
	return famfs_fd_map_at(fd, name, len, rw, NULL, m);
}

int famfs_fd_map_at(int fd, const char *name, uint64_t len, bool rw,
		    void *at, struct famfs_map *m)
{
	void *a;

	memset(m, 0, sizeof(*m));
	a = mmap(at, len, PROT_READ | (rw ? PROT_WRITE : 0),
		 MAP_SHARED | (at ? MAP_FIXED : 0), fd, 0);
	if (a == MAP_FAILED) {
		int rc = -errno;

		famfs_err("%s: mmap of %llu bytes: %s", name,
			  (unsigned long long)len, strerror(errno));
		return rc;
	}
	m->addr = a;
	m->len = len;
	m->fd = fd;
	m->rw = rw;
	m->name = name;
	m->fixed = at != NULL;
	return 0;
}

bool famfs_dev_bounced(const struct famfs_dev *d)
{
	return d->kind == FAMFS_DEV_BLOCK ||
	       (famfs_dev_bounce_files && d->kind == FAMFS_DEV_FILE);
}

int famfs_dev_map(struct famfs_dev *d, uint64_t off, uint64_t len,
		  struct famfs_map *m)
{
	return famfs_dev_map_at(d, off, len, NULL, m);
}

int famfs_dev_map_at(struct famfs_dev *d, uint64_t off, uint64_t len,
		     void *at, struct famfs_map *m)
{
	memset(m, 0, sizeof(*m));
	if (off > d->size || len > d->size - off) {
		famfs_err("%s: range [%llu, +%llu) beyond the device (%llu bytes)",
			  d->path, (unsigned long long)off,
			  (unsigned long long)len, (unsigned long long)d->size);
		return -ERANGE;
	}
	m->len = len;
	m->dev_off = off;
	m->fd = d->fd;
	m->rw = d->rw;
	m->name = d->path;
	if (famfs_dev_bounced(d)) {
		int rc;

		if ((off | len) & (DIO_ALIGN - 1)) {
			famfs_err("%s: unaligned direct I/O range", d->path);
			return -EINVAL;
		}
		if (at) {
			m->addr = mmap(at, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				       -1, 0);
			if (m->addr == MAP_FAILED)
				m->addr = NULL;
			m->fixed = true;
		} else if (posix_memalign(&m->addr, DIO_ALIGN, len)) {
			m->addr = NULL;
		}
		if (!m->addr) {
			famfs_err("%s: out of memory", d->path);
			return -ENOMEM;
		}
		m->bounce = true;
		/* in a view, the rest as it is needed: a 1 GiB log costs
		 * what an 8 MiB one does */
		rc = bounce_read(m, at ? BOUNCE_FIRST : len);
		if (rc)
			famfs_map_unmap(m);
		return rc;
	}
	m->cpu_flush = d->kind == FAMFS_DEV_DAX;
	m->fixed = at != NULL;
	m->addr = mmap(at, len, PROT_READ | (d->rw ? PROT_WRITE : 0),
		       MAP_SHARED | (at ? MAP_FIXED : 0), d->fd, (off_t)off);
	if (m->addr == MAP_FAILED) {
		int rc = -errno;

		m->addr = NULL;
		famfs_err("%s: mmap [%llu, +%llu): %s", d->path,
			  (unsigned long long)off, (unsigned long long)len,
			  strerror(errno));
		return rc;
	}
	return 0;
}

static void cpu_flush_range(uintptr_t s, uintptr_t e);

struct famfs_flush_stats famfs_flush_stats;
void (*famfs_flush_hook)(const struct famfs_map *m, const void *addr,
			 size_t len);
void (*famfs_refresh_hook)(struct famfs_map *m, void *addr, size_t len);

/* Write back (and evict) the cache lines of [s, e), then order the flushes
 * before any later store (e.g. the log's next_index). */
void famfs_cpu_flush(const void *p, size_t len)
{
	famfs_flush_stats.invalidates++;
	cpu_flush_range((uintptr_t)p, (uintptr_t)p + len);
}

void famfs_flush_stats_print(FILE *f)
{
	const struct famfs_flush_stats *s = &famfs_flush_stats;

	fprintf(f, "famfs: flush: msync=%lu dio_writes=%lu cpu_flushes=%lu cpu_lines=%lu invalidates=%lu refreshes=%lu crc_retries=%lu file_invalidates=%lu file_stale=%lu\n",
		s->msyncs, s->dio_writes, s->cpu_flushes, s->cpu_lines,
		s->invalidates, s->refreshes, s->crc_retries,
		s->file_invalidates, s->file_stale);
}

/* [s, e) of a bounce buffer widened to whole O_DIRECT blocks, inside it */
static void bounce_span(const struct famfs_map *m, uintptr_t s, uintptr_t e,
			uintptr_t *as, uintptr_t *ae)
{
	uintptr_t base = (uintptr_t)m->addr;

	*as = base + ((s - base) & ~(DIO_ALIGN - 1));
	*ae = base + (((e - base) + DIO_ALIGN - 1) & ~(DIO_ALIGN - 1));
	if (*ae > base + m->len)
		*ae = base + m->len;
}

int famfs_map_refresh(struct famfs_map *m, void *addr, size_t len)
{
	uintptr_t base = (uintptr_t)m->addr;
	uintptr_t s = (uintptr_t)addr, e = s + len;

	if (s < base || e > base + m->len) {
		famfs_err("%s: refresh outside the mapping", m->name);
		return -EINVAL;
	}
	famfs_flush_stats.refreshes++;
	if (m->bounce) {
		/* our copy is a buffer: read the device again */
		uintptr_t as, ae;
		ssize_t n;

		bounce_span(m, s, e, &as, &ae);
		n = pread(m->fd, (void *)as, ae - as,
			  (off_t)(m->dev_off + (as - base)));
		if (n != (ssize_t)(ae - as)) {
			famfs_err("%s: read at %llu: %s", m->name,
				  (unsigned long long)(m->dev_off + (as - base)),
				  n < 0 ? strerror(errno) : "short read");
			return -EIO;
		}
	} else {
		/* a mapping of the memory: drop the lines this CPU holds */
		cpu_flush_range(s, e);
	}
	if (famfs_refresh_hook)
		famfs_refresh_hook(m, addr, len);
	return 0;
}

void famfs_map_invalidate(struct famfs_map *m, const void *addr, size_t len)
{
	uintptr_t base = (uintptr_t)m->addr, s = (uintptr_t)addr;

	if (m->bounce || !m->addr || s < base || s >= base + m->len)
		return;
	/* never past the mapping: the line after it may not be mapped */
	if (len > base + m->len - s)
		len = base + m->len - s;
	famfs_cpu_flush(addr, len);
}

static void cpu_flush_range(uintptr_t s, uintptr_t e)
{
#if defined(__x86_64__) || defined(__i386__)
	uintptr_t p = s & ~(uintptr_t)63;

	/* four lines an iteration: a refresh of the host table's slots is 1,024 */
	for (; p < e && e - p > 192; p += 256) {
		__builtin_ia32_clflush((const void *)p);
		__builtin_ia32_clflush((const void *)(p + 64));
		__builtin_ia32_clflush((const void *)(p + 128));
		__builtin_ia32_clflush((const void *)(p + 192));
	}
	for (; p < e; p += 64)
		__builtin_ia32_clflush((const void *)p);
	__builtin_ia32_mfence();
#elif defined(__aarch64__)
	for (uintptr_t p = s & ~(uintptr_t)63; p < e; p += 64)
		__asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb sy" : : : "memory");
#else
	(void)s;
	(void)e;
	__sync_synchronize();
#endif
}

int famfs_map_flush(struct famfs_map *m, const void *addr, size_t len)
{
	uintptr_t base = (uintptr_t)m->addr;
	uintptr_t s = (uintptr_t)addr, e = s + len;
	unsigned long pg = (unsigned long)sysconf(_SC_PAGESIZE);

	if (!m->rw)
		return -EROFS;
	if (s < base || e > base + m->len) {
		famfs_err("%s: flush outside the mapping", m->name);
		return -EINVAL;
	}
	if (m->bounce) {
		uintptr_t as, ae;
		ssize_t n;

		bounce_span(m, s, e, &as, &ae);
		famfs_flush_stats.dio_writes++;
		if (famfs_flush_hook)
			famfs_flush_hook(m, addr, len);
		n = pwrite(m->fd, (void *)as, ae - as,
			   (off_t)(m->dev_off + (as - base)));
		if (n != (ssize_t)(ae - as)) {
			famfs_err("%s: write at %llu: %s", m->name,
				  (unsigned long long)(m->dev_off + (as - base)),
				  n < 0 ? strerror(errno) : "short write");
			return -EIO;
		}
		return 0;
	}
	if (famfs_flush_hook)
		famfs_flush_hook(m, addr, len);
	if (m->cpu_flush) {
		famfs_flush_stats.cpu_flushes++;
		famfs_flush_stats.cpu_lines += ((e + 63) / 64) - (s / 64);
		cpu_flush_range(s, e);
		return 0;
	}
	s &= ~(pg - 1);
	famfs_flush_stats.msyncs++;
	if (msync((void *)s, e - s, MS_SYNC)) {
		int rc = -errno;

		famfs_err("%s: msync: %s", m->name, strerror(errno));
		return rc;
	}
	return 0;
}

void famfs_map_unmap(struct famfs_map *m)
{
	if (!m->addr)
		return;
	if (m->fixed)	/* back to the reservation it was mapped into */
		mmap(m->addr, m->len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		     MAP_NORESERVE | MAP_FIXED, -1, 0);
	else if (m->bounce)
		free(m->addr);
	else
		munmap(m->addr, m->len);
	m->addr = NULL;
}
