// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: the model of the mount (what the kernel must do), files and their
 * pattern bytes
 */
#include "fuzz.h"

/* ---- errno sets --------------------------------------------------------- */
const int documented[NDOC] = {
	EPERM, EFAULT, EROFS, EEXIST, EIO, EOPNOTSUPP, EINVAL, E2BIG,
	EOVERFLOW, ENXIO, EFBIG, EADDRINUSE, EBUSY,
};

unsigned bit(int e)
{
	for (int i = 0; i < NDOC; i++)
		if (documented[i] == e)
			return 1u << i;
	return 0;
}

void set_str(unsigned set, char *out, size_t n)
{
	size_t o = 0;

	out[0] = '\0';
	for (int i = 0; i < NDOC; i++)
		if (set & (1u << i))
			o += snprintf(out + o, n - o, "%s%s", o ? "|" : "",
				      t_errname(documented[i]));
	if (!o)
		snprintf(out, n, "success");
}

/* ---- the model ---------------------------------------------------------- */
struct ext stat_ext[MAXSTATIC];	/* maps found at start */
int nstat;

struct ffile ff[MAXF];
static long nfiles_made;

int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* Does [off, off+len) meet a known map?  (@off 2 MiB aligned: see
 * units_busy) */
int known_overlap(uint64_t off, uint64_t len, const struct ffile *skip)
{
	(void)skip;
	return units_busy(off, len);
}

uint64_t claim(const struct famfs_ioc_map *m)
{
	uint64_t c = 0;

	for (uint64_t k = 0; k < m->ext_list_count && k < FAMFS_MAX_EXTENTS; k++)
		c += (m->ext_list[k].len + TWO_MiB - 1) & ~(TWO_MiB - 1);
	return c;
}

/*
 * Everything wrong with MAP_CREATE of @m on a file (mapped or not; @busy:
 * another open file or name reaches it), by the table in famfs_ioctl.h.  *overlap is set when the map is otherwise
 * valid and meets known memory (or itself).
 */
unsigned predict(const struct famfs_ioc_map *m, int mapped, int busy,
		 int *overlap)
{
	unsigned set = 0;
	uint64_t n = m->ext_list_count, total = 0;
	int sb = m->file_type == FAMFS_SUPERBLOCK, tover = 0;

	*overlap = 0;
	if (nonroot)
		return bit(EPERM);
	if (ro)
		set |= bit(EROFS);
	if (mapped)
		set |= bit(EEXIST);
	if (busy && !mapped)
		set |= bit(EBUSY);
	if (m->extent_type != SIMPLE_DAX_EXTENT)
		set |= bit(EOPNOTSUPP);
	if (m->file_type > FAMFS_LOG)
		set |= bit(EOPNOTSUPP);
	if (n == 0)
		set |= bit(EINVAL);
	if (n > FAMFS_MAX_EXTENTS)
		set |= bit(E2BIG);
	for (uint64_t i = 0; i < n && i < FAMFS_MAX_EXTENTS; i++) {
		uint64_t off = m->ext_list[i].offset, len = m->ext_list[i].len;

		if (!len)
			set |= bit(EINVAL);
		if (off % TWO_MiB)
			set |= bit(EINVAL);
		if (i + 1 < n && len % TWO_MiB)
			set |= bit(EINVAL);
		if (off + len < off)
			set |= bit(EOVERFLOW);
		else if (off + len > devsz)
			set |= bit(ENXIO);
		if (off == 0 && !sb)
			set |= bit(EINVAL);
		if (total + len < total)
			tover = 1;
		total += len;
	}
	if (sb && m->ext_list[0].offset != 0)
		set |= bit(EINVAL);
	if (!tover && m->file_size > total)
		set |= bit(EFBIG);
	if (set)
		return set;
	/* valid: does it meet known memory, or itself? */
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = m->ext_list[i].offset, len = m->ext_list[i].len;

		if (known_overlap(off, len, NULL))
			*overlap = 1;
		for (uint64_t j = 0; j < i; j++)
			if (overlaps(off, len, m->ext_list[j].offset,
				     m->ext_list[j].len))
				*overlap = 1;
	}
	return 0;
}

/* ---- files --------------------------------------------------------------- */
struct ffile *new_file(void)
{
	for (int i = 0; i < MAXF; i++) {
		struct ffile *f = &ff[i];

		if (f->used)
			continue;
		memset(f, 0, sizeof(*f));
		snprintf(f->path, sizeof(f->path), "%s/f%ld", mydir,
			 nfiles_made++);
		f->fd = open(f->path, O_RDWR | O_CREAT | O_EXCL, 0644);
		if (f->fd < 0) {
			printf("info: %s: %s\n", f->path, t_errname(errno));
			return NULL;
		}
		f->used = 1;
		return f;
	}
	return NULL;
}

int count(int mapped)
{
	int n = 0;

	for (int i = 0; i < MAXF; i++)
		if (ff[i].used && !ff[i].unlinked && ff[i].mapped == mapped)
			n++;
	return n;
}

/* A random own file: mapped (1), unmapped (0), any (-1); or NULL. */
struct ffile *pick(int mapped, int with_zombies)
{
	int idx[MAXF], n = 0;

	for (int i = 0; i < MAXF; i++)
		if (ff[i].used && (mapped < 0 || ff[i].mapped == mapped) &&
		    (with_zombies || !ff[i].unlinked))
			idx[n++] = i;
	return n ? &ff[idx[below(n)]] : NULL;
}

/* The last close of an unlinked file gives its memory back. */
void close_file(struct ffile *f)
{
	close(f->fd);
	if (f->mapped)
		model_unmap(f);
	f->used = 0;
}

/* ---- pattern bytes in accepted maps ------------------------------------- */
void pat_fill(uint64_t s, uint64_t off, uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(pat(s, (off + i) & ~7ULL) >> (8 * ((off + i) & 7)));
}

/* file offsets that get pattern bytes: start, end, extent boundaries */
static int pat_spots(const struct ffile *f, uint64_t spot[NSPOT])
{
	uint64_t sz = f->map.file_size;
	int n = 0;

	if (sz < 64)
		return 0;
	spot[n++] = 0;
	spot[n++] = sz - 64;
	if (f->map.ext_list_count == 2 && f->map.ext_list[0].len + 64 <= sz)
		spot[n++] = f->map.ext_list[0].len;
	return n;
}

void pat_write(struct ffile *f)
{
	uint64_t *spot = f->spot;
	uint8_t b[64];
	int n = nopat ? 0 : pat_spots(f, spot);

	f->haspat = !nopat;
	f->nspot = n;
	for (int i = 0; i < n; i++) {
		pat_fill(f->pat, spot[i], b, sizeof(b));
		ncheck[C_DATA]++;
		if (pwrite(f->fd, b, sizeof(b), (off_t)spot[i]) != sizeof(b) &&
		    !(failing && errno == EIO))
			bad(C_DATA, "%s: pwrite at %llu: %s", f->path,
			    (unsigned long long)spot[i], t_errname(errno));
	}
}

void pat_check(struct ffile *f)
{
	const uint64_t *spot = f->spot;
	uint8_t b[64], w[64];
	int n = nopat || !f->haspat ? 0 : f->nspot;

	for (int i = 0; i < n; i++) {
		pat_fill(f->pat, spot[i], w, sizeof(w));
		ncheck[C_DATA]++;
		if (pread(f->fd, b, sizeof(b), (off_t)spot[i]) != sizeof(b)) {
			if (!(failing && errno == EIO))
				bad(C_DATA, "%s: pread at %llu: %s", f->path,
				    (unsigned long long)spot[i], t_errname(errno));
		} else if (memcmp(b, w, sizeof(b)) && !failing)
			bad(C_DATA, "%s: bytes at %llu changed (another map wrote them?)",
			    f->path, (unsigned long long)spot[i]);
	}
}

int map_eq(const struct famfs_ioc_map *a, const struct famfs_ioc_map *b)
{
	if (a->extent_type != b->extent_type || a->file_type != b->file_type ||
	    a->file_size != b->file_size || a->ext_list_count != b->ext_list_count)
		return 0;
	for (uint64_t i = 0; i < a->ext_list_count && i < FAMFS_MAX_EXTENTS; i++)
		if (a->ext_list[i].offset != b->ext_list[i].offset ||
		    a->ext_list[i].len != b->ext_list[i].len)
			return 0;
	return 1;
}

void map_str(const struct famfs_ioc_map *m, char *out, size_t n)
{
	snprintf(out, n, "{et %u ft %u size %#llx n %#llx [%#llx+%#llx] [%#llx+%#llx]}",
		 m->extent_type, m->file_type, (unsigned long long)m->file_size,
		 (unsigned long long)m->ext_list_count,
		 (unsigned long long)m->ext_list[0].offset,
		 (unsigned long long)m->ext_list[0].len,
		 (unsigned long long)m->ext_list[1].offset,
		 (unsigned long long)m->ext_list[1].len);
}

/* Rules every map read back from the kernel must obey. */
int map_sane(const struct famfs_ioc_map *m, char *why_, size_t n)
{
	uint64_t total = 0;

	if (m->extent_type != SIMPLE_DAX_EXTENT || m->file_type > FAMFS_LOG ||
	    !m->ext_list_count || m->ext_list_count > FAMFS_MAX_EXTENTS) {
		snprintf(why_, n, "bad header");
		return 0;
	}
	for (uint64_t i = 0; i < m->ext_list_count; i++) {
		uint64_t off = m->ext_list[i].offset, len = m->ext_list[i].len;

		if (off % TWO_MiB || !len || off + len < off || off + len > devsz ||
		    (i + 1 < m->ext_list_count && len % TWO_MiB)) {
			snprintf(why_, n, "extent %llu %#llx+%#llx misaligned or outside the device",
				 (unsigned long long)i, (unsigned long long)off,
				 (unsigned long long)len);
			return 0;
		}
		total += len;
	}
	if (m->file_size > total) {
		snprintf(why_, n, "size %#llx > extents %#llx",
			 (unsigned long long)m->file_size,
			 (unsigned long long)total);
		return 0;
	}
	return 1;
}

