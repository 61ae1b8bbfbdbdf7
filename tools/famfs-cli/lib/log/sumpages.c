// SPDX-License-Identifier: GPL-2.0
/* The master's create summary (summary.c): the small files' page state in
 * it, after the path table -- written from a page allocator, read back
 * (bounded, under its CRC) and made a page allocator again (checked). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/log.h"

/* The small files' page state (issue 30), after the table: a count and a
 * CRC (struct sum_rec_hdr, rec_crc), then one record per shared unit of
 * device 0, by unit number.  flags: SUM_UNIT_SEALED (a large file's extent
 * or a refused page extent over the unit, famfs_pagealloc_seal_range: all
 * its pages used, for good), no other bit. */
struct famfs_sum_unit {
	uint64_t unit;
	uint64_t used[FAMFS_PA_WORDS];
	uint64_t flags;
};

#define SUM_UNIT_SEALED	1ULL

/* The page state's own CRC, seeded with what names one save of one build
 * (the table's random id, the log index and last entry it covers): the
 * records of an earlier save, or of another summary, do not pass */
struct sum_rec_hdr {
	uint64_t nrec;
	uint32_t crc;
	uint32_t zero;
};

static uint32_t rec_crc(const uint64_t seed[4], uint64_t nrec,
			const struct famfs_sum_unit *rec)
{
	uint32_t crc = famfs_crc32(seed, 4 * sizeof(*seed));

	crc = famfs_crc32_update(crc, &nrec, sizeof(nrec));
	return famfs_crc32_update(crc, rec, nrec * sizeof(*rec));
}

static int unit_cmp(const void *a, const void *b)
{
	const struct famfs_sum_unit *x = a, *y = b;

	return x->unit < y->unit ? -1 : x->unit > y->unit;
}

/* the shared units of pa (NULL: none), by unit: *rec (malloc'ed) */
static int recs_of(const struct famfs_pagealloc *pa,
		   struct famfs_sum_unit **rec, uint64_t *nrec)
{
	uint64_t n = 0;

	*rec = NULL;
	*nrec = 0;
	if (!pa || !pa->nshared)
		return 0;
	*rec = calloc(pa->nshared, sizeof(**rec));
	if (!*rec)
		return -ENOMEM;
	/* live slots: a freed one went back with all its pages free */
	for (uint32_t i = 0; i < pa->nslots && n < pa->nshared; i++) {
		if (pa->pu[i].nfree >= FAMFS_UNIT_PAGES)
			continue;
		(*rec)[n].unit = pa->pu[i].unit;
		(*rec)[n].flags = pa->pu[i].sealed ? SUM_UNIT_SEALED : 0;
		memcpy((*rec)[n++].used, pa->pu[i].used, sizeof(pa->pu[i].used));
	}
	qsort(*rec, n, sizeof(**rec), unit_cmp);
	*nrec = n;
	return 0;
}

/* The page allocator over bm the records say (checked: in order, inside
 * the data area, used in bm, not empty, no unknown flag, a sealed unit all
 * used): 0, or -EBADMSG / -ENOMEM */
int famfs_sumpages_load(struct famfs_fs *fs, struct famfs_bitmap *bm,
			const struct famfs_sum_unit *rec, uint64_t nrec,
			struct famfs_pagealloc **out)
{
	uint64_t first = famfs_data_start(fs->sb) / FAMFS_ALLOC_UNIT;
	struct famfs_pagealloc *pa;
	int rc = 0;

	*out = NULL;
	if (!nrec)
		return 0;
	pa = calloc(1, sizeof(*pa));
	if (!pa)
		return -ENOMEM;
	rc = famfs_pagealloc_init(pa, bm, NULL);
	if (rc) {	/* -EINVAL: unit 0 free, which the bitmap may not say */
		free(pa);
		return rc == -ENOMEM ? rc : -EBADMSG;
	}
	for (uint64_t r = 0; !rc && r < nrec; r++) {
		uint64_t u = rec[r].unit;
		uint32_t i = 0;

		bool sealed = rec[r].flags & SUM_UNIT_SEALED;

		if (u < first || u >= bm->nunits || (r && u <= rec[r - 1].unit) ||
		    !famfs_bitmap_test(bm, u) ||
		    famfs_all_zero(rec[r].used, sizeof(rec[r].used)) ||
		    (rec[r].flags & ~SUM_UNIT_SEALED)) {
			rc = -EBADMSG;
			break;
		}
		for (unsigned w = 0; sealed && w < FAMFS_PA_WORDS; w++)
			if (rec[r].used[w] != ~0ULL)
				rc = -EBADMSG;	/* sealing used them all */
		if (rc)
			break;
		/* the bitmap has the unit used; famfs_pagealloc_mark takes
		 * only a free unit as a new shared one (else it would be the
		 * log's or a large file's), and uses it again itself */
		famfs_bitmap_clear(bm, u);
		while (!rc && i < FAMFS_UNIT_PAGES) {
			uint32_t j = i;

			if (!(rec[r].used[i / 64] >> (i % 64) & 1)) {
				i++;
				continue;
			}
			while (j < FAMFS_UNIT_PAGES &&
			       rec[r].used[j / 64] >> (j % 64) & 1)
				j++;
			if (famfs_pagealloc_mark(pa, u * FAMFS_ALLOC_UNIT +
						 (uint64_t)i * FAMFS_PAGE,
						 (uint64_t)(j - i) * FAMFS_PAGE,
						 NULL))
				rc = -EBADMSG;
			i = j;
		}
		if (!rc && sealed &&
		    famfs_pagealloc_seal_range(pa, u * FAMFS_ALLOC_UNIT,
					       FAMFS_ALLOC_UNIT) != 1)
			rc = -EBADMSG;
	}
	if (rc) {
		famfs_pagealloc_free(pa);
		free(pa);
		return rc;
	}
	*out = pa;
	return 0;
}

int famfs_sumpages_write(int fd, uint64_t off, const uint64_t seed[4],
			 const struct famfs_pagealloc *pa)
{
	struct famfs_sum_unit *rec = NULL;
	struct sum_rec_hdr rh = { 0 };
	uint64_t nrec = 0;
	int rc = recs_of(pa, &rec, &nrec);

	if (rc)
		return rc;
	rh.nrec = nrec;
	rh.crc = rec_crc(seed, nrec, rec);
	if (pwrite(fd, &rh, sizeof(rh), (off_t)off) != (ssize_t)sizeof(rh) ||
	    (nrec && pwrite(fd, rec, nrec * sizeof(*rec),
			    (off_t)(off + sizeof(rh))) !=
	     (ssize_t)(nrec * sizeof(*rec))) ||
	    ftruncate(fd, (off_t)(off + sizeof(rh) + nrec * sizeof(*rec))))
		rc = errno ? -errno : -EIO;
	free(rec);
	return rc;
}

int famfs_sumpages_read(int fd, uint64_t off, uint64_t size, uint64_t max,
			const uint64_t seed[4], struct famfs_sum_unit **rec,
			uint64_t *nrec, const char **why)
{
	struct sum_rec_hdr rh;

	*rec = NULL;
	*nrec = 0;
	/* their count bounded before anything is read */
	if (pread(fd, &rh, sizeof(rh), (off_t)off) != (ssize_t)sizeof(rh) ||
	    rh.nrec > max || rh.zero ||
	    size < off + sizeof(rh) + rh.nrec * sizeof(**rec)) {
		*why = "the small files' page state is cut short";
		return -EBADMSG;
	}
	*rec = rh.nrec ? malloc(rh.nrec * sizeof(**rec)) : NULL;
	if (rh.nrec && !*rec) {
		*why = "out of memory";
		return -ENOMEM;
	}
	if ((rh.nrec && pread(fd, *rec, rh.nrec * sizeof(**rec),
			      (off_t)(off + sizeof(rh))) !=
	     (ssize_t)(rh.nrec * sizeof(**rec))) ||
	    rec_crc(seed, rh.nrec, *rec) != rh.crc) {
		free(*rec);
		*rec = NULL;
		*why = "the small files' page state CRC mismatch";
		return -EBADMSG;
	}
	*nrec = rh.nrec;
	return 0;
}
