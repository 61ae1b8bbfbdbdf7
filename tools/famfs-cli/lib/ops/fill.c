// SPDX-License-Identifier: GPL-2.0
/*
 * The bytes of a new file's memory, before the file is mapped and logged.
 *
 * A file gets whole 2 MiB units (an interleaved file whole strips), but
 * only its bytes up to the end of the page past EOF can be reached through
 * it: famfs.ko maps nothing past that.  The rest of the last unit, and the
 * unused tail of every strip, would keep what the memory held before --
 * another file's data, or an earlier file system's -- for anyone who reads
 * the device, or a later file system's file over the same memory.  So
 * every byte of the allocation is written: the file's own bytes, zeros
 * after them.
 *
 * A small file (issue 30), whose own mapping reaches all of its pages, is
 * written through that mapping, once it is mapped and before it is logged
 * (famfs_fill_file), and written back whole (msync), so it appears with
 * no dirty DAX entry: nothing else of the memory is its, nothing is left
 * for anyone else to see, and the file is 0600 and root's meanwhile, as
 * the scratch file below is.  Any other is
 * written through a scratch file, .meta/.new-PID, mapped over the
 * whole allocation with the file's own layout (the same extents or
 * strips, so its offsets are the file's offsets) but the allocation's
 * size: filled, zeroed, msync'ed, unmapped, closed and unlinked.  The
 * zeros go to memory with non-temporal stores (zero.c), so the msync
 * covers only what went through the CPU cache: the file's bytes and the
 * zeros up to the next 256-byte boundary.  famfs.ko writes a small msync
 * back line by line, then flushes the device; on a non-coherent mount it
 * also drops those lines, so no FAMFSIOC_CACHE is needed after it.  The
 * last close and the unlink evict it, and the kernel takes its extents
 * out of the mount's tree (no page of it is referenced any more), so the
 * file's own MAP_CREATE over the same memory is not refused as an
 * overlap.  The scratch file is root's, 0600, in .meta: nobody else sees
 * the old bytes while it exists.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ops/ops.h"

/* .meta of the mount the file is made in: in a batch, beneath the mount
 * root held since its first create (famfs_fs_root), not of whatever the
 * mount point names by now */
static int meta_dir(struct famfs_fs *fs, char *why)
{
	int root = fs->held ? famfs_fs_root(fs) : -1;

	return root >= 0 ? famfs_metadir_open_at(root, why) :
			   famfs_metadir_open(fs->mpt, why);
}

uint64_t famfs_fmap_alloc_bytes(const struct famfs_fmap *m)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < m->count; i++)
		n += m->extent_type == FAMFS_INTERLEAVED_EXTENT ?
		     m->iext[i].nbytes : m->ext[i].len;
	return n;
}

/* The scratch file's bytes: fill->fn's for [0, size), zeros after */
static int write_units(int fd, const char *p, uint64_t size, uint64_t len,
		       const struct famfs_fill *fill, bool whole)
{
	bool nozero = fill && fill->nozero;
	uint64_t cached, pg = (uint64_t)sysconf(_SC_PAGESIZE);
	char *a;
	int rc = 0;

	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (a == MAP_FAILED) {
		rc = -errno;
		famfs_err("%s: mmap of its %llu bytes of memory: %s", p,
			  (unsigned long long)len, strerror(errno));
		return rc;
	}
	/* the bytes from a on that this CPU may still hold */
	if (fill && fill->fn) {
		rc = fill->fn(fill->arg, a, size);
		famfs_store_stats.filled += size;
		cached = size;
		if (!rc && !nozero)
			cached += famfs_zero(a + size, len - size);
	} else {
		cached = famfs_zero(a, len);
	}
	/* at least a page: the msync also flushes the device (pmem) */
	cached = cached < pg ? pg : (cached + pg - 1) / pg * pg;
	if (cached > len || whole)
		cached = len;
	if (!rc && msync(a, cached, MS_SYNC)) {
		rc = -errno;
		famfs_err("%s: msync: %s", p, strerror(errno));
	}
	munmap(a, len);
	return rc;
}

bool famfs_fill_through_file(const struct famfs_fmap *m)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);

	/* A small file's pages only: its mapping's pages up to the one
	 * holding EOF are all of them.  Every page the fill faults in is a
	 * dirty DAX entry of the file, written back whole (msync) before it
	 * is logged, so the file is clean when it appears: a few pages.  A
	 * file of 2 MiB units goes through a scratch file, whose entries go
	 * with it: its own would be left dirty for its first msync, fsync or
	 * sync to write back (2 MiB each; the two-hosts publish suite counts
	 * them), or cost that here. */
	return m->pages && m->extent_type == SIMPLE_DAX_EXTENT && m->file_size &&
	       (m->file_size + pg - 1) / pg * pg >= famfs_fmap_alloc_bytes(m);
}

int famfs_fill_file(int fd, const char *p, const struct famfs_fmap *map,
		    const struct famfs_fill *fill)
{
	uint64_t len = famfs_fmap_alloc_bytes(map);

	if (!len || (fill && fill->nozero && !fill->fn))
		return 0;
	return write_units(fd, p, map->file_size, len, fill, true);
}

/*
 * Every creator holds the log lock (exclusive) from its scratch file's
 * creation to its unlink, and so does the caller: a scratch file found
 * now is a dead creator's (killed before it unlinked it).  Mapped, it
 * holds memory the log says is free, and every create that is given that
 * memory would be refused (EADDRINUSE) until someone removed it: remove
 * it (closed by its dead creator, so the unlink frees its memory).
 */
void famfs_fill_sweep(struct famfs_fs *fs)
{
	char d[PATH_MAX], why[FAMFS_META_WHY_LEN];
	struct dirent *de;
	DIR *dir;
	int dfd;

	/* a batch holding the lock (famfs cp) looks once: no creator can
	 * make a scratch file until it lets the lock go */
	if (!fs->locked || fs->scratch_swept ||
	    famfs_join(d, sizeof(d), fs->mpt, FAMFS_META_DIR))
		return;
	fs->scratch_swept = fs->held;
	/* .meta beneath the mount root, not where a link there leads, nor
	 * one another user could put names in (metadir.h) */
	dfd = meta_dir(fs, why);
	if (dfd < 0)
		return;
	dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return;
	}
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, ".new-", 5))
			continue;
		if (famfs_mnt_unlinkat(dfd, de->d_name, 0))
			famfs_err("%s/%s: a dead creator's scratch file: cannot remove it: %s",
				  d, de->d_name, strerror(errno));
		else
			famfs_warn("%s/%s: removed a dead creator's scratch file (its memory is free again)",
				d, de->d_name);
	}
	closedir(dir);
}

int famfs_fill_units(struct famfs_fs *fs, const char *p,
		     const struct famfs_fmap *map, const struct famfs_fill *fill)
{
	char sp[PATH_MAX], rel[64], why[FAMFS_META_WHY_LEN];
	struct famfs_fmap whole;
	uint64_t len = famfs_fmap_alloc_bytes(map);
	const char *name;
	int fd, mfd, rc, n;

	if (!len || (fill && fill->nozero && !fill->fn))
		return 0;
	famfs_fill_sweep(fs);
	snprintf(rel, sizeof(rel), "%s/.new-%ld", FAMFS_META_DIR, (long)getpid());
	n = snprintf(sp, sizeof(sp), "%s/%s", fs->mpt, rel);
	if (n < 0 || (size_t)n >= sizeof(sp))
		return -ENAMETOOLONG;
	/* in .meta opened beneath the mount root: never made, mapped or
	 * unlinked where a link in its place leads */
	mfd = meta_dir(fs, why);
	if (mfd < 0) {
		famfs_err("%s: cannot create %s, through which its memory is zeroed: %s (not created)",
			  p, sp, why);
		return mfd;
	}
	name = strrchr(rel, '/') + 1;
	fd = famfs_mnt_creat(mfd, name, 0600);
	if (fd < 0) {
		rc = -errno;
		famfs_err("%s: cannot create %s, through which its memory is zeroed: %s%s (not created)",
			  p, sp, strerror(errno),
			  errno == EEXIST ? ": left by a creator that died (famfs check lists it; remount to free its memory)" : "");
		close(mfd);
		return rc;
	}
	whole = *map;
	whole.file_size = len;
	whole.has_ident = false;	/* no log entry's file */
	rc = famfs_fmap_create(fd, &whole);
	if (rc)
		famfs_err("%s: MAP_CREATE of %s over its memory: %s%s (not created)",
			  p, sp, strerror(-rc),
			  rc == -EADDRINUSE ? ": " FAMFS_ADDRINUSE_MSG : "");
	else
		rc = write_units(fd, p, map->file_size, len, fill, false);
	close(fd);
	if (famfs_mnt_unlinkat(mfd, name, 0) && !rc) {
		rc = -errno;
		famfs_err("%s: unlink %s: %s (not created)", p, sp,
			  strerror(errno));
	}
	close(mfd);
	return rc;
}
