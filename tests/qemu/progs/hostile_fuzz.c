// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: a seeded, reproducible fuzzer for the famfs.ko file ioctls.
 *
 *   hostile_fuzz [-n ITER] [-s SEED] [-j PROCS] [-l LABEL] [-k NRS] [-r]
 *                [-L] [-K] [-P] [-F] [-q] MPT
 *
 * Throws ITER calls per process at files in MPT/hostile-fuzz.<label>.<i>/
 * of a mounted famfs: FAMFSIOC_MAP_CREATE with valid maps and maps with one
 * or two fields set to boundary values (0, 1, 2M-1, 2M, 2M+1, device size
 * +- small, U64_MAX, offsets of the superblock, the log and other files,
 * extent counts 0..4 and huge, unknown types) or random bytes; MAP_GET,
 * MAP_GETEXT and NOP on mapped, unmapped and unlinked-but-open files; every
 * other number in the 'u' space, the known numbers with the wrong size or
 * direction, any of them on a directory; NULL, unmapped, kernel, read-only
 * and page-straddling user pointers (EFAULT) and misaligned ones; the ia32
 * compat path (int $0x80) when the kernel has it; truncate, write, fallocate
 * and mmap of unmapped files; unlink and close of mapped files (memory given
 * back), writes and reads of a pattern in every accepted map.
 *
 * Checks, against a model of every map on the mount (the files found at
 * start plus the ones this process made):
 *  - a refused call returns one of the errnos that ioctl.c documents for
 *    something that is really wrong with the call (several may be);
 *    a call with nothing wrong is accepted, unless it overlaps known memory
 *    (EADDRINUSE); a refused MAP_CREATE leaves the file unmapped and empty;
 *  - an accepted map reads back the same through MAP_GET and MAP_GETEXT
 *    (which writes exactly ext_list_count extents), has 2 MiB aligned
 *    offsets, lies inside the device, overlaps no other map, file size <=
 *    extents, st_size and st_blocks match, and keeps its pattern bytes;
 *  - unknown numbers get ENOTTY, a directory ENOTTY, a bad pointer EFAULT;
 *  - a non-root process (uid 65534) gets EPERM for every MAP_CREATE and
 *    reads maps like root;
 *  - at the end (after PROCS processes fuzzed at once, racing for the same
 *    memory in a small hot window while the parent scans the tree), a scan
 *    of the whole mount finds no two maps overlapping, and statfs accounts
 *    exactly the mapped memory; once the fuzz files are removed, it is back
 *    to what it was.
 *
 * -n ITER  calls per process (default 20000; -L or FAMFS_FUZZ_LONG=1: 1000000)
 * -s SEED  seed (default: from the clock); always printed, with the command
 *          line that repeats the run
 * -j PROCS processes fuzzing at once (default 1: exact model of the mount)
 * -l LABEL prefix of the check names (default "fuzz")
 * -k NRS   comma list of the _IOC_NR()s that famfs_ioctl.h defines (the
 *          suite greps them): a number this fuzzer does not model is a FAIL
 * -r       the mount is read-only: MAP_CREATE must fail (EROFS); uses the
 *          unmapped files already there (no new files)
 * -K       keep the fuzz files (default: remove them, check statfs)
 * -F       a memory failure is injected meanwhile: from then on MAP_CREATE
 *          may get EIO, read/write EIO; pattern bytes and mmap go unchecked
 * -P       write no pattern bytes (on a mount whose maps the fuzzer cannot
 *          see, e.g. a bare kernel mount over a famfs with files)
 * -q       fewer info lines
 *
 * Output: "PASS name", "FAIL name: why", "info: ..." lines; exit 1 if any
 * check failed.
 */
#include "module_test.h"
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>

#define U64_MAX		(~0ULL)
#define MAXF		160	/* own files: pool + mapped + zombies */
#define MAXSTATIC	4096	/* extents of the maps found at start */
#define POOL		24	/* unmapped files kept ready */
#define MAXMAPPED	64

/* ---- random numbers (splitmix64: tiny, seedable, good enough) ---------- */
static uint64_t rs;

static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static int chance(int percent)
{
	return (int)below(100) < percent;
}

/* ---- configuration ------------------------------------------------------ */
static const char *mpt, *label = "fuzz";
static char mydir[PATH_MAX - 64];
static uint64_t devsz, seed0, myseed;
static long iters = 20000;
static int nproc = 1, myid, ro, keep, quiet, nonroot, compat_ok, nopat;
static int failing;	/* -F: a memory failure may fail the mount meanwhile */
static int multi;		/* other processes map memory too */
static uint64_t hot_unit;	/* the window everybody races for */

/* ---- checks: counted, the first failures explained --------------------- */
enum {
	C_CREATE, C_ACCEPTED, C_UNMAPPED_AFTER, C_GET, C_GETEXT, C_NOP,
	C_ENOTTY, C_EFAULT, C_SIZE, C_DATA, C_EPERM, C_COMPAT, C_SCAN,
	C_STATFS, C_KNOWN_NRS, NCHECK
};
static const char *const cname[NCHECK] = {
	"create-errno", "create-accepted-map", "create-refused-left-unmapped",
	"get", "getext", "nop", "unknown-enotty", "bad-pointer-efault",
	"size-change-refused", "data-intact", "nonroot-eperm", "compat-ia32",
	"scan-no-overlap", "statfs-accounting", "knows-every-ioctl",
};
static long ncheck[NCHECK], nbad[NCHECK];
static char why[NCHECK][400];
static long iter_now;

static void __attribute__((format(printf, 2, 3)))
bad(int c, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!nbad[c]++)
		snprintf(why[c], sizeof(why[c]), "call %ld: %s", iter_now, msg);
	if (nbad[c] <= 5)
		printf("info: %s[%d] %s: call %ld: %s\n", label, myid, cname[c],
		       iter_now, msg);
}

static void __attribute__((format(printf, 1, 2))) failf(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	t_failed = 1;
}

static void report(const char *prefix)
{
	for (int c = 0; c < NCHECK; c++) {
		if (!ncheck[c] && !nbad[c])
			continue;
		if (nbad[c])
			failf("%s%s: %ld of %ld wrong; first: %s", prefix,
			       cname[c], nbad[c], ncheck[c], why[c]);
		else
			printf("PASS %s%s\n", prefix, cname[c]);
	}
	fflush(stdout);
}

/* ---- errno sets --------------------------------------------------------- */
static const int documented[] = {
	EPERM, EFAULT, EROFS, EEXIST, EIO, EOPNOTSUPP, EINVAL, E2BIG,
	EOVERFLOW, ENXIO, EFBIG, EADDRINUSE,
};
#define NDOC (int)(sizeof(documented) / sizeof(documented[0]))

static unsigned bit(int e)
{
	for (int i = 0; i < NDOC; i++)
		if (documented[i] == e)
			return 1u << i;
	return 0;
}

static void set_str(unsigned set, char *out, size_t n)
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
struct ext { uint64_t off, len; };

static struct ext stat_ext[MAXSTATIC];	/* maps found at start */
static int nstat;

struct ffile {
	int used, fd, mapped, unlinked;
	char path[PATH_MAX];
	struct famfs_ioc_map map;
	uint64_t pat;		/* pattern seed of its bytes */
	int haspat;		/* pattern written (not an adopted file) */
};
static struct ffile ff[MAXF];
static long nfiles_made;

static int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* Does [off, off+len) meet a known map (the file @skip's aside)? */
static int known_overlap(uint64_t off, uint64_t len, const struct ffile *skip)
{
	for (int i = 0; i < nstat; i++)
		if (overlaps(off, len, stat_ext[i].off, stat_ext[i].len))
			return 1;
	for (int i = 0; i < MAXF; i++) {
		const struct ffile *f = &ff[i];

		if (!f->used || !f->mapped || f == skip)
			continue;
		for (uint64_t k = 0; k < f->map.ext_list_count; k++)
			if (overlaps(off, len, f->map.ext_list[k].offset,
				     f->map.ext_list[k].len))
				return 1;
	}
	return 0;
}

static uint64_t claim(const struct famfs_ioc_map *m)
{
	uint64_t c = 0;

	for (uint64_t k = 0; k < m->ext_list_count && k < FAMFS_MAX_EXTENTS; k++)
		c += (m->ext_list[k].len + TWO_MiB - 1) & ~(TWO_MiB - 1);
	return c;
}

/*
 * Everything wrong with MAP_CREATE of @m on a file (mapped or not), by the
 * table in fs/famfs/ioctl.c.  *overlap is set when the map is otherwise
 * valid and meets known memory (or itself).
 */
static unsigned predict(const struct famfs_ioc_map *m, int mapped,
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

/* ---- user pointers ------------------------------------------------------ */
static char *arena;		/* RW page, then a PROT_NONE page */
static char *ro_page;		/* a read-only page */
static char *arena32;		/* RW page below 4 GiB, for int $0x80 */
static size_t pg;

enum ptr_kind { P_OK, P_MISALIGNED, P_NULL, P_LOW, P_KERNEL, P_UNMAPPED,
		P_STRADDLE, P_RDONLY, P_NKINDS };

/* Where the argument goes.  @need: bytes the kernel reads or writes. */
static void *place(enum ptr_kind k, size_t need, int *bad_read, int *bad_write)
{
	*bad_read = *bad_write = 0;
	switch (k) {
	case P_OK:
		return arena + 64;
	case P_MISALIGNED:
		return arena + 128 + 1 + below(7);
	case P_NULL:
		*bad_read = *bad_write = 1;
		return NULL;
	case P_LOW:
		*bad_read = *bad_write = 1;
		return (void *)(uintptr_t)(8 + below(4000));
	case P_KERNEL:
		*bad_read = *bad_write = 1;
		return chance(50) ? (void *)0xffff888000000000ULL :
				    (void *)(uintptr_t)U64_MAX - 8;
	case P_UNMAPPED:
		*bad_read = *bad_write = 1;
		return arena + pg + below(pg - 64);
	case P_STRADDLE: {
		/* the last byte or more of the argument falls off the page */
		size_t cut = need && chance(70) ? 1 + below(need) : 0;

		*bad_read = *bad_write = cut > 0;
		return arena + pg - need + cut;
	}
	case P_RDONLY:
		*bad_write = 1;
		return ro_page + 8 * below(8);
	default:
		return arena;
	}
}

/* ioctl through the ia32 compat entry (int $0x80): compat_ptr_ioctl. */
static long ioctl32(int fd, unsigned int cmd, uint32_t arg)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(54L), "b"((long)fd), "c"((long)cmd), "d"((long)arg)
			 : "memory", "r8", "r9", "r10", "r11");
	ret = (int)ret;
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* 1 if int $0x80 reaches the ia32 syscall table (tried in a child). */
static int compat_probe(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		long ret;

		__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) /* getpid */
				 : "memory", "r8", "r9", "r10", "r11");
		_exit((int)ret == getpid() ? 0 : 1);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       WEXITSTATUS(st) == 0;
}

/* ---- files --------------------------------------------------------------- */
static struct ffile *new_file(void)
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

static int count(int mapped)
{
	int n = 0;

	for (int i = 0; i < MAXF; i++)
		if (ff[i].used && !ff[i].unlinked && ff[i].mapped == mapped)
			n++;
	return n;
}

/* A random own file: mapped (1), unmapped (0), any (-1); or NULL. */
static struct ffile *pick(int mapped, int with_zombies)
{
	int idx[MAXF], n = 0;

	for (int i = 0; i < MAXF; i++)
		if (ff[i].used && (mapped < 0 || ff[i].mapped == mapped) &&
		    (with_zombies || !ff[i].unlinked))
			idx[n++] = i;
	return n ? &ff[idx[below(n)]] : NULL;
}

static void close_file(struct ffile *f)
{
	close(f->fd);
	f->used = 0;
}

/* ---- pattern bytes in accepted maps ------------------------------------- */
static void pat_fill(uint64_t s, uint64_t off, uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(pat(s, (off + i) & ~7ULL) >> (8 * ((off + i) & 7)));
}

/* file offsets that get pattern bytes: start, end, extent boundaries */
static int pat_spots(const struct ffile *f, uint64_t spot[4])
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

static void pat_write(struct ffile *f)
{
	uint64_t spot[4];
	uint8_t b[64];
	int n = nopat ? 0 : pat_spots(f, spot);

	f->haspat = !nopat;
	for (int i = 0; i < n; i++) {
		pat_fill(f->pat, spot[i], b, sizeof(b));
		ncheck[C_DATA]++;
		if (pwrite(f->fd, b, sizeof(b), (off_t)spot[i]) != sizeof(b) &&
		    !(failing && errno == EIO))
			bad(C_DATA, "%s: pwrite at %llu: %s", f->path,
			    (unsigned long long)spot[i], t_errname(errno));
	}
}

static void pat_check(struct ffile *f)
{
	uint64_t spot[4];
	uint8_t b[64], w[64];
	int n = nopat || !f->haspat ? 0 : pat_spots(f, spot);

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

/* ---- maps ---------------------------------------------------------------- */
static uint64_t units(void)
{
	return devsz / TWO_MiB;
}

static uint64_t boundary64(void)
{
	static const uint64_t fixed[] = {
		0, 1, TWO_MiB - 1, TWO_MiB, TWO_MiB + 1, 4096, 2 * TWO_MiB,
		U64_MAX, U64_MAX - TWO_MiB + 1, 1ULL << 63, (1ULL << 63) - TWO_MiB,
		1ULL << 32, 1ULL << 40,
	};
	uint64_t d = 1 + below(TWO_MiB);

	switch (below(8)) {
	case 0: case 1:
		return fixed[below(sizeof(fixed) / sizeof(fixed[0]))];
	case 2:	/* around the end of the device */
		switch (below(6)) {
		case 0: return devsz;
		case 1: return devsz - TWO_MiB;
		case 2: return devsz + TWO_MiB;
		case 3: return devsz - d;
		case 4: return devsz + d;
		default: return devsz - 1;
		}
	case 3:	/* offsets of maps that exist: superblock, log, files */
		if (nstat && chance(60))
			return stat_ext[below(nstat)].off + TWO_MiB * below(2);
		{
			struct ffile *f = pick(1, 1);

			return f ? f->map.ext_list[0].offset : TWO_MiB;
		}
	case 4:
		return rnd();
	case 5:
		return below(units() + 2) * TWO_MiB;
	case 6:
		return below(8) * TWO_MiB + (chance(50) ? 0 : below(TWO_MiB));
	default:
		return rnd() >> below(64);
	}
}

static uint32_t boundary32(void)
{
	static const uint32_t fixed[] = {
		0, 1, 2, 3, 4, 12, 13, 14, 0x7fffffff, 0x80000000, 0xffffffff,
		0x100 + 13,
	};

	return chance(80) ? fixed[below(sizeof(fixed) / sizeof(fixed[0]))] :
			    (uint32_t)rnd();
}

/* A valid map, placed on memory that is free if that is easy to find. */
static void valid_map(struct famfs_ioc_map *m)
{
	uint64_t n = 1 + below(2), total = 0, nu = units();

	memset(m, 0, sizeof(*m));
	m->extent_type = SIMPLE_DAX_EXTENT;
	m->file_type = chance(90) ? FAMFS_REG : chance(50) ? FAMFS_LOG :
					       FAMFS_SUPERBLOCK;
	m->ext_list_count = n;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t k = 1 + below(chance(80) ? 3 : 16), len = k * TWO_MiB;
		uint64_t u = 1;

		if (i + 1 == n && chance(40))
			len -= 1 + below(TWO_MiB - 1);
		for (int tries = 0; tries < 12; tries++) {
			if (multi && chance(30))
				u = hot_unit + below(8);
			else
				u = 1 + below(nu > k ? nu - k : 1);
			if (!known_overlap(u * TWO_MiB, len, NULL) &&
			    !(i && overlaps(u * TWO_MiB, len,
					    m->ext_list[0].offset,
					    m->ext_list[0].len)))
				break;
			if (chance(15))	/* sometimes keep the clash */
				break;
		}
		m->ext_list[i].offset = u * TWO_MiB;
		m->ext_list[i].len = len;
		total += len;
	}
	if (m->file_type == FAMFS_SUPERBLOCK)
		m->ext_list[0].offset = 0;
	switch (below(5)) {
	case 0: m->file_size = 0; break;
	case 1: m->file_size = total; break;
	case 2: m->file_size = total - 1; break;
	case 3: m->file_size = 1; break;
	default: m->file_size = below(total + 1); break;
	}
}

static void mutate(struct famfs_ioc_map *m)
{
	int fields = chance(80) ? 1 : 2;

	if (chance(5)) {		/* random bytes */
		uint64_t *w = (uint64_t *)m;

		for (size_t i = 0; i < sizeof(*m) / 8; i++)
			w[i] = rnd();
		if (chance(50))		/* mostly keep the count sane */
			m->ext_list_count = below(4);
		return;
	}
	while (fields--) {
		switch (below(9)) {
		case 0: m->extent_type = boundary32(); break;
		case 1: m->file_type = boundary32(); break;
		case 2: m->file_size = chance(50) ? boundary64() :
				       m->file_size + below(3) - 1;
			break;
		case 3: {
			static const uint64_t c[] = { 0, 1, 2, 3, 4, 255,
				1ULL << 32, U64_MAX, 1ULL << 63 };

			m->ext_list_count = chance(85) ?
				c[below(sizeof(c) / sizeof(c[0]))] : rnd();
			break;
		}
		case 4: case 5:
			m->ext_list[below(2)].offset = boundary64();
			break;
		default:
			m->ext_list[below(2)].len = boundary64();
			break;
		}
	}
}

static int map_eq(const struct famfs_ioc_map *a, const struct famfs_ioc_map *b)
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

static void map_str(const struct famfs_ioc_map *m, char *out, size_t n)
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
static int map_sane(const struct famfs_ioc_map *m, char *why_, size_t n)
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

/* ---- the calls ----------------------------------------------------------- */
static long nc_create, nc_accept, nc_get, nc_getext, nc_nop, nc_unknown,
	nc_dir, nc_efault, nc_size, nc_free, nc_compat, nc_mmap;
static long nerr[NDOC + 1];

static void count_errno(long rc, int e)
{
	int i;

	if (rc == 0)
		return;
	for (i = 0; i < NDOC && documented[i] != e; i++)
		;
	nerr[i]++;
}

/* After a refused MAP_CREATE on an unmapped file: still unmapped, empty. */
static void check_unmapped(struct ffile *f)
{
	struct famfs_ioc_map got;
	struct stat st;

	ncheck[C_UNMAPPED_AFTER]++;
	if (ioctl(f->fd, FAMFSIOC_MAP_GET, &got) != -1 || errno != ENODATA)
		bad(C_UNMAPPED_AFTER, "%s: MAP_GET after a refused MAP_CREATE: %s",
		    f->path, errno == ENODATA ? "0" : t_errname(errno));
	else if (fstat(f->fd, &st) || st.st_size || st.st_blocks)
		bad(C_UNMAPPED_AFTER, "%s: size %lld blocks %lld after a refused MAP_CREATE",
		    f->path, (long long)st.st_size, (long long)st.st_blocks);
}

static void accepted(struct ffile *f, const struct famfs_ioc_map *m)
{
	struct famfs_ioc_map got;
	struct famfs_extent ext[FAMFS_MAX_EXTENTS + 1];
	struct stat st;
	char s1[200], s2[200], w[160];

	nc_accept++;
	f->mapped = 1;
	f->map = *m;
	f->pat = rnd();
	ncheck[C_ACCEPTED]++;
	map_str(m, s1, sizeof(s1));
	if (!map_sane(m, w, sizeof(w)))
		bad(C_ACCEPTED, "accepted an invalid map %s: %s", s1, w);
	memset(&got, 0xa5, sizeof(got));
	if (ioctl(f->fd, FAMFSIOC_MAP_GET, &got)) {
		bad(C_ACCEPTED, "MAP_GET after accepting %s: %s", s1,
		    t_errname(errno));
	} else if (!map_eq(m, &got)) {
		map_str(&got, s2, sizeof(s2));
		bad(C_ACCEPTED, "sent %s, MAP_GET returned %s", s1, s2);
	}
	memset(ext, 0xa5, sizeof(ext));
	if (ioctl(f->fd, FAMFSIOC_MAP_GETEXT, ext))
		bad(C_ACCEPTED, "MAP_GETEXT after accepting %s: %s", s1,
		    t_errname(errno));
	else if (memcmp(ext, m->ext_list, m->ext_list_count * sizeof(ext[0])) ||
		 ext[m->ext_list_count].offset != 0xa5a5a5a5a5a5a5a5ULL)
		bad(C_ACCEPTED, "MAP_GETEXT of %s differs or wrote past %llu extents",
		    s1, (unsigned long long)m->ext_list_count);
	if (fstat(f->fd, &st) || (uint64_t)st.st_size != m->file_size ||
	    (uint64_t)st.st_blocks != claim(m) / 512)
		bad(C_ACCEPTED, "%s: st_size %lld st_blocks %lld for %s",
		    f->path, (long long)st.st_size, (long long)st.st_blocks, s1);
	pat_write(f);
}

static void do_create(struct ffile *f, int valid_only)
{
	struct famfs_ioc_map m, *arg;
	int overlap, br, bw, e, via32 = 0;
	enum ptr_kind k = P_OK;
	unsigned set;
	char s[200], es[120];
	long rc;

	valid_map(&m);
	if (!valid_only && chance(55))
		mutate(&m);
	if (chance(6))
		k = P_MISALIGNED;
	else if (chance(7))
		k = (enum ptr_kind)(P_NULL + below(P_NKINDS - P_NULL));
	arg = place(k, sizeof(m), &br, &bw);
	if (k == P_RDONLY)
		mprotect(ro_page, pg, PROT_READ | PROT_WRITE);
	if (!br)
		memcpy(arg, &m, sizeof(m));
	if (k == P_RDONLY)
		mprotect(ro_page, pg, PROT_READ);
	if (k == P_STRADDLE)	/* the bytes that fit */
		memcpy(arg, &m, (size_t)(arena + pg - (char *)arg));
	set = br ? (nonroot ? bit(EPERM) : bit(EFAULT)) :
		   predict(&m, f->mapped, &overlap);
	if (br)
		overlap = 0, nc_efault++;
	nc_create++;
	if (compat_ok && !br && chance(4)) {
		memcpy(arena32, &m, sizeof(m));
		via32 = 1;
		nc_compat++;
		rc = ioctl32(f->fd, FAMFSIOC_MAP_CREATE, (uint32_t)(uintptr_t)arena32);
	} else {
		rc = ioctl(f->fd, FAMFSIOC_MAP_CREATE, arg);
	}
	e = errno;
	count_errno(rc, e);
	map_str(&m, s, sizeof(s));
	ncheck[br ? C_EFAULT : via32 ? C_COMPAT : C_CREATE]++;
	if (nonroot)
		ncheck[C_EPERM]++;
	/* -F: after the failure every create gets EIO (or what comes first:
	 * EPERM, EFAULT, EROFS, EEXIST) */
	if (failing && !br && !nonroot && rc == -1 && e == EIO) {
		if (!f->mapped)
			check_unmapped(f);
		return;
	}
	if (set) {
		if (rc == 0) {
			set_str(set, es, sizeof(es));
			bad(nonroot ? C_EPERM : br ? C_EFAULT : C_CREATE,
			    "MAP_CREATE %s (ptr kind %d) succeeded, expected %s",
			    s, k, es);
			if (!f->mapped)
				accepted(f, &m);
		} else if (!(bit(e) & set)) {
			set_str(set, es, sizeof(es));
			bad(nonroot ? C_EPERM : br ? C_EFAULT : via32 ? C_COMPAT :
			    C_CREATE, "MAP_CREATE %s%s (ptr kind %d): %s, expected %s",
			    s, via32 ? " via int80" : "", k, t_errname(e), es);
		} else if (!f->mapped) {
			check_unmapped(f);
		}
		return;
	}
	if (rc == 0) {
		if (overlap)
			bad(via32 ? C_COMPAT : C_CREATE,
			    "MAP_CREATE %s: accepted, but it overlaps a known map",
			    s);
		accepted(f, &m);
		return;
	}
	if (e == EADDRINUSE && (overlap || multi)) {
		check_unmapped(f);
		return;
	}
	bad(via32 ? C_COMPAT : C_CREATE, "MAP_CREATE %s%s: %s, expected %s",
	    s, via32 ? " via int80" : "", t_errname(e),
	    overlap ? "EADDRINUSE" : "success");
	if (!f->mapped)
		check_unmapped(f);
}

static void do_get(struct ffile *f)
{
	enum ptr_kind k = chance(80) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	int br, bw, e, via32 = 0;
	struct famfs_ioc_map *arg = place(k, sizeof(*arg), &br, &bw), got;
	char s1[200], s2[200];
	long rc;

	nc_get++;
	if (!bw)
		memset(arg, 0x5a, sizeof(*arg));
	if (compat_ok && !bw && chance(5)) {
		via32 = 1;
		nc_compat++;
		rc = ioctl32(f->fd, FAMFSIOC_MAP_GET, (uint32_t)(uintptr_t)arena32);
		arg = (void *)arena32;
	} else {
		rc = ioctl(f->fd, FAMFSIOC_MAP_GET, arg);
	}
	e = errno;
	ncheck[bw && f->mapped ? C_EFAULT : via32 ? C_COMPAT : C_GET]++;
	if (!f->mapped) {
		if (rc != -1 || e != ENODATA)
			bad(via32 ? C_COMPAT : C_GET, "MAP_GET on an unmapped file: %s, expected ENODATA",
			    rc ? t_errname(e) : "0");
		return;
	}
	if (bw) {
		nc_efault++;
		if (rc != -1 || e != EFAULT)
			bad(C_EFAULT, "MAP_GET to a bad pointer (kind %d): %s, expected EFAULT",
			    k, rc ? t_errname(e) : "0");
		return;
	}
	memcpy(&got, arg, sizeof(got));
	if (rc) {
		bad(via32 ? C_COMPAT : C_GET, "MAP_GET: %s", t_errname(e));
	} else if (!map_eq(&got, &f->map)) {
		map_str(&f->map, s1, sizeof(s1));
		map_str(&got, s2, sizeof(s2));
		bad(via32 ? C_COMPAT : C_GET, "MAP_GET%s: %s, model has %s",
		    via32 ? " via int80" : "", s2, s1);
	}
}

static void do_getext(struct ffile *f)
{
	size_t need = f->mapped ? f->map.ext_list_count * 16 : 0;
	enum ptr_kind k = chance(80) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	int br, bw, e;
	char *arg = place(k, need, &br, &bw);
	long rc;

	nc_getext++;
	if (k == P_OK || k == P_MISALIGNED)
		memset(arg, 0x5a, need + 16);
	rc = ioctl(f->fd, FAMFSIOC_MAP_GETEXT, arg);
	e = errno;
	ncheck[bw && f->mapped ? C_EFAULT : C_GETEXT]++;
	if (!f->mapped) {
		if (rc != -1 || e != ENODATA)
			bad(C_GETEXT, "MAP_GETEXT on an unmapped file: %s, expected ENODATA",
			    rc ? t_errname(e) : "0");
		return;
	}
	if (bw) {
		nc_efault++;
		if (rc != -1 || e != EFAULT)
			bad(C_EFAULT, "MAP_GETEXT of %zu bytes to a bad pointer (kind %d): %s, expected EFAULT",
			    need, k, rc ? t_errname(e) : "0");
		return;
	}
	if (rc)
		bad(C_GETEXT, "MAP_GETEXT: %s", t_errname(e));
	else if (memcmp(arg, f->map.ext_list, need))
		bad(C_GETEXT, "MAP_GETEXT returned other extents than the model's");
	else if ((k == P_OK || k == P_MISALIGNED) &&
		 memcmp(arg + need, "\x5a\x5a\x5a\x5a\x5a\x5a\x5a\x5a", 8))
		bad(C_GETEXT, "MAP_GETEXT wrote past %zu bytes", need);
}

static void do_nop(struct ffile *f)
{
	long rc;

	nc_nop++;
	ncheck[C_NOP]++;
	if (compat_ok && chance(20)) {
		nc_compat++;
		rc = ioctl32(f->fd, FAMFSIOC_NOP, 0);
	} else {
		rc = ioctl(f->fd, FAMFSIOC_NOP, rnd());
	}
	if (rc)
		bad(C_NOP, "NOP: %s", t_errname(errno));
}

static const unsigned int known_cmds[] = {
	FAMFSIOC_MAP_CREATE, FAMFSIOC_MAP_GET, FAMFSIOC_MAP_GETEXT,
	FAMFSIOC_NOP,
};
static int skip_nr[256];	/* in famfs_ioctl.h but not modelled here */

static int is_known(unsigned int cmd)
{
	for (size_t i = 0; i < sizeof(known_cmds) / sizeof(known_cmds[0]); i++)
		if (known_cmds[i] == cmd)
			return 1;
	return 0;
}

static unsigned int unknown_cmd(void)
{
	unsigned int cmd;

	do {
		unsigned int nr = chance(50) ? 1 + (unsigned int)below(8) :
					       (unsigned int)below(256);
		unsigned int size;

		switch (below(4)) {
		case 0: size = FAMFS_IOC_MAP_SIZE + (unsigned int)below(17) - 8; break;
		case 1: size = FAMFS_IOC_EXTENT_SIZE * (unsigned int)below(4); break;
		case 2: size = (unsigned int)below(1 << _IOC_SIZEBITS); break;
		default: size = 0; break;
		}
		cmd = _IOC((unsigned int)below(4), FAMFSIOC_MAGIC, nr, size);
		if (skip_nr[nr])
			cmd = known_cmds[0];
	} while (is_known(cmd));
	return cmd;
}

static void do_unknown(struct ffile *f, int dirfd)
{
	unsigned int cmd = dirfd >= 0 && chance(50) ?
		known_cmds[below(4)] : unknown_cmd();
	void *arg = chance(50) ? (void *)arena : (void *)(uintptr_t)rnd();
	int fd = dirfd >= 0 ? dirfd : f->fd;
	long rc;

	if (dirfd >= 0)
		nc_dir++;
	else
		nc_unknown++;
	ncheck[C_ENOTTY]++;
	rc = ioctl(fd, cmd, arg);
	if (rc != -1 || errno != ENOTTY)
		bad(C_ENOTTY, "ioctl %#x on a %s: %s, expected ENOTTY", cmd,
		    dirfd >= 0 ? "directory" : "file",
		    rc ? t_errname(errno) : "0");
}

/* truncate / write / fallocate / mmap must never give a file a size. */
static void do_size(struct ffile *f)
{
	uint64_t sz = f->mapped ? f->map.file_size : 0;
	char b[16] = "hostile";
	long rc;
	int e;

	nc_size++;
	ncheck[C_SIZE]++;
	switch (below(5)) {
	case 0: {
		static const uint64_t v[] = { 0, 1, 4096, TWO_MiB, 1ULL << 40 };
		uint64_t to = chance(30) ? sz : chance(30) ? sz + 1 :
			      v[below(5)];

		rc = ftruncate(f->fd, (off_t)to);
		e = errno;
		if (to == sz ? rc != 0 : (rc != -1 || e != EPERM))
			bad(C_SIZE, "ftruncate(%llu) of a %s file of %llu bytes: %s",
			    (unsigned long long)to, f->mapped ? "mapped" : "unmapped",
			    (unsigned long long)sz, rc ? t_errname(e) : "0");
		break;
	}
	case 1: {
		uint64_t at = chance(50) ? sz : sz + below(1ULL << 30);

		rc = pwrite(f->fd, b, sizeof(b), (off_t)at);
		e = errno;
		if (rc != -1 || e != ENOSPC)
			bad(C_SIZE, "pwrite at %llu of a file of %llu bytes: %s, expected ENOSPC",
			    (unsigned long long)at, (unsigned long long)sz,
			    rc < 0 ? t_errname(e) : "wrote");
		break;
	}
	case 2:
		rc = fallocate(f->fd, 0, 0, TWO_MiB);
		e = errno;
		if (rc != -1 || e != EOPNOTSUPP)
			bad(C_SIZE, "fallocate: %s, expected EOPNOTSUPP",
			    rc ? t_errname(e) : "0");
		break;
	case 3:
		if (!f->mapped) {
			void *p = mmap(NULL, TWO_MiB, PROT_READ, MAP_SHARED,
				       f->fd, 0);

			e = errno;
			if (p != MAP_FAILED || e != ENODEV)
				bad(C_SIZE, "mmap of an unmapped file: %s, expected ENODEV",
				    p != MAP_FAILED ? "mapped" : t_errname(e));
			if (p != MAP_FAILED)
				munmap(p, TWO_MiB);
		} else if (f->map.file_size >= 64 && f->haspat && !failing) {
			/* the pattern through a mapping */
			uint8_t w[64];
			uint8_t *p = mmap(NULL, f->map.file_size, PROT_READ,
					  MAP_SHARED, f->fd, 0);

			nc_mmap++;
			ncheck[C_DATA]++;
			pat_fill(f->pat, 0, w, sizeof(w));
			if (p == MAP_FAILED)
				bad(C_DATA, "mmap of a mapped file: %s",
				    t_errname(errno));
			else if (memcmp(p, w, sizeof(w)))
				bad(C_DATA, "%s: pattern differs through mmap",
				    f->path);
			if (p != MAP_FAILED)
				munmap(p, f->map.file_size);
		}
		break;
	default: {
		struct stat st;

		if (fstat(f->fd, &st) || (uint64_t)st.st_size != sz)
			bad(C_SIZE, "%s: size %lld, model %llu", f->path,
			    (long long)st.st_size, (unsigned long long)sz);
		break;
	}
	}
}

/* Give memory back: unlink (and close now, or later: a zombie). */
static void do_free(void)
{
	struct ffile *f = pick(1, 1);

	if (!f)
		return;
	nc_free++;
	if (!f->unlinked) {
		pat_check(f);
		if (unlink(f->path))
			bad(C_DATA, "unlink %s: %s", f->path, t_errname(errno));
		f->unlinked = 1;
		if (chance(60))
			return;	/* still open: still owns its memory */
	}
	close_file(f);
}

static void fuzz_loop(long n, int dirfd)
{
	for (iter_now = 0; iter_now < n; iter_now++) {
		int r = (int)below(100);
		struct ffile *f;

		/* keep a pool of unmapped files; keep the mapped ones few */
		while (!ro && !nonroot && count(0) < POOL && (f = new_file()))
			;
		if (!ro && !nonroot && (count(1) > MAXMAPPED || r >= 95)) {
			do_free();
			continue;
		}
		if (r < 45) {
			f = pick(ro || nonroot ? -1 : 0, 0);
			if (f)
				do_create(f, 0);
		} else if (r < 50) {
			f = pick(-1, 1);
			if (f)
				do_create(f, chance(50));
		} else if (r < 62) {
			f = pick(chance(80) ? 1 : 0, 1);
			if (f)
				do_get(f);
		} else if (r < 72) {
			f = pick(chance(80) ? 1 : 0, 1);
			if (f)
				do_getext(f);
		} else if (r < 76) {
			f = pick(-1, 1);
			if (f)
				do_nop(f);
		} else if (r < 84) {
			f = pick(-1, 1);
			if (f)
				do_unknown(f, -1);
		} else if (r < 87) {
			do_unknown(NULL, dirfd);
		} else if (r < 92) {
			f = pick(-1, 1);
			if (f && !ro && !nonroot)
				do_size(f);
		} else {
			f = pick(1, 1);
			if (f)
				pat_check(f);
		}
	}
}

static void print_stats(void)
{
	char s[600];
	size_t o = 0;

	for (int i = 0; i <= NDOC; i++)
		if (nerr[i])
			o += snprintf(s + o, sizeof(s) - o, " %s %ld",
				      i < NDOC ? t_errname(documented[i]) :
						 "other", nerr[i]);
	printf("info: %s[%d]%s: %ld calls: MAP_CREATE %ld (accepted %ld; refused:%s), MAP_GET %ld, MAP_GETEXT %ld, NOP %ld, unknown numbers %ld, on a directory %ld, bad pointers %ld, int80 %ld, size changes %ld, mmap %ld, unlink/close %ld\n",
	       label, myid, nonroot ? " (uid 65534)" : "", iter_now, nc_create,
	       nc_accept, o ? s : " none", nc_get, nc_getext, nc_nop,
	       nc_unknown, nc_dir, nc_efault, nc_compat, nc_size, nc_mmap,
	       nc_free);
	fflush(stdout);
}

/* ---- the whole mount ---------------------------------------------------- */
struct sext { uint64_t off, len; int file; };
static struct sext *sx;
static int nsx, capsx;
static char (*spath)[256];
static int nspath, capspath;
static uint64_t sclaim;
static long scan_bad;
static char scan_why[300];

static void __attribute__((format(printf, 1, 2))) scan_fail(const char *fmt, ...)
{
	va_list ap;

	if (scan_bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(scan_why, sizeof(scan_why), fmt, ap);
	va_end(ap);
}

static int scan_one(const char *p, const struct stat *st, int type,
		    struct FTW *ftw)
{
	struct famfs_ioc_map m;
	char w[160];
	int fd;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return 0;	/* raced with an unlink */
	if (ioctl(fd, FAMFSIOC_MAP_GET, &m)) {
		if (errno != ENODATA)
			scan_fail("%s: MAP_GET: %s", p, t_errname(errno));
		close(fd);
		return 0;
	}
	close(fd);
	if (!map_sane(&m, w, sizeof(w)))
		scan_fail("%s: %s", p, w);
	if (nspath == capspath) {
		capspath = capspath ? 2 * capspath : 256;
		spath = realloc(spath, capspath * sizeof(*spath));
	}
	snprintf(spath[nspath], sizeof(spath[0]), "%s", p);
	for (uint64_t i = 0; i < m.ext_list_count && i < FAMFS_MAX_EXTENTS; i++) {
		if (nsx == capsx) {
			capsx = capsx ? 2 * capsx : 1024;
			sx = realloc(sx, capsx * sizeof(*sx));
		}
		sx[nsx].off = m.ext_list[i].offset;
		sx[nsx].len = m.ext_list[i].len;
		sx[nsx].file = nspath;
		nsx++;
	}
	sclaim += claim(&m);
	nspath++;
	return 0;
}

static int sext_cmp(const void *a, const void *b)
{
	const struct sext *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* All maps on the mount: none overlaps another; returns the claimed bytes. */
static uint64_t scan(int check_overlap)
{
	nsx = nspath = 0;
	sclaim = 0;
	nftw(mpt, scan_one, 32, FTW_PHYS | FTW_MOUNT);
	qsort(sx, nsx, sizeof(*sx), sext_cmp);
	for (int i = 1; check_overlap && i < nsx; i++)
		if (sx[i - 1].off + sx[i - 1].len > sx[i].off)
			scan_fail("%s [%#llx+%#llx] overlaps %s [%#llx+%#llx]",
				  spath[sx[i - 1].file],
				  (unsigned long long)sx[i - 1].off,
				  (unsigned long long)sx[i - 1].len,
				  spath[sx[i].file],
				  (unsigned long long)sx[i].off,
				  (unsigned long long)sx[i].len);
	return sclaim;
}

static uint64_t statfs_used(void)
{
	struct statfs s;

	if (statfs(mpt, &s))
		die("statfs");
	return (uint64_t)(s.f_blocks - s.f_bfree) * (uint64_t)s.f_bsize;
}

static int rm_one(const char *p, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(p);
	else
		unlink(p);
	return 0;
}

/* ---- setup ---------------------------------------------------------------- */
static void static_maps(void)
{
	scan(1);
	if (nsx > MAXSTATIC)
		die("too many maps on the mount");
	for (int i = 0; i < nsx; i++) {
		stat_ext[i].off = sx[i].off;
		stat_ext[i].len = sx[i].len;
	}
	nstat = nsx;
}

static void setup_arena(void)
{
	pg = (size_t)sysconf(_SC_PAGESIZE);
	arena = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	arena32 = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (arena == MAP_FAILED || ro_page == MAP_FAILED ||
	    arena32 == MAP_FAILED)
		die("mmap");
	memset(ro_page, 0, pg);
	if (mprotect(arena + pg, pg, PROT_NONE) ||
	    mprotect(ro_page, pg, PROT_READ))
		die("mprotect");
}

/* Unmapped files already in the tree (for -r): open them read-only. */
static int adopt_one(const char *p, const struct stat *st, int type,
		     struct FTW *ftw)
{
	struct famfs_ioc_map m;
	int fd;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return 0;
	for (int i = 0; i < MAXF; i++) {
		struct ffile *f = &ff[i];

		if (f->used)
			continue;
		memset(f, 0, sizeof(*f));
		f->used = 1;
		f->fd = fd;
		snprintf(f->path, sizeof(f->path), "%s", p);
		if (!ioctl(fd, FAMFSIOC_MAP_GET, &m)) {
			f->mapped = 1;
			f->map = m;
		}
		return 0;
	}
	close(fd);
	return 1;
}

/* One fuzzing process: own directory, own seed. */
static int fuzz_proc(int id)
{
	int dirfd;

	myid = id;
	myseed = seed0 + (uint64_t)id * 0x632be59bd9b4e019ULL;
	rs = myseed;
	snprintf(mydir, sizeof(mydir), "%s/hostile-fuzz.%s.%d", mpt, label, id);
	if (!ro && mkdir(mydir, 0755) && errno != EEXIST)
		die(mydir);
	dirfd = open(ro ? mpt : mydir, O_RDONLY | O_DIRECTORY);
	if (dirfd < 0)
		die(mydir);
	if (ro)
		nftw(mpt, adopt_one, 32, FTW_PHYS | FTW_MOUNT);
	fuzz_loop(iters, dirfd);
	print_stats();

	/* The model is still right: every map reads back, every byte is there. */
	for (int i = 0; i < MAXF; i++) {
		struct ffile *f = &ff[i];

		if (!f->used || !f->mapped)
			continue;
		iter_now = -1;
		do_get(f);
		pat_check(f);
	}

	/* A non-root process gets EPERM for every MAP_CREATE, reads maps. */
	if (!ro && id == 0) {
		pid_t pid;
		int st;

		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			if (setresgid(65534, 65534, 65534) ||
			    setresuid(65534, 65534, 65534))
				die("setresuid");
			nonroot = 1;
			nc_create = nc_accept = nc_get = nc_getext = nc_nop = 0;
			nc_unknown = nc_dir = nc_efault = nc_size = nc_free = 0;
			nc_compat = nc_mmap = 0;
			memset(nerr, 0, sizeof(nerr));
			memset(ncheck, 0, sizeof(ncheck));
			memset(nbad, 0, sizeof(nbad));
			for (int c = 0; c < NCHECK; c++)
				why[c][0] = '\0';
			rs = myseed ^ 0x5555;
			for (iter_now = 0; iter_now < iters / 10 + 10; iter_now++) {
				struct ffile *f = pick(-1, 1);

				if (!f)
					break;
				if (chance(70))
					do_create(f, chance(30));
				else
					do_get(f);
			}
			print_stats();
			/* as nobody, every create went to nonroot-eperm */
			ncheck[C_CREATE] = ncheck[C_EFAULT] = ncheck[C_COMPAT] = 0;
			{
				char prefix[80];

				snprintf(prefix, sizeof(prefix), "%s-uid65534-",
					 label);
				report(prefix);
			}
			_exit(t_failed);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st) > 1) {
			failf("%s-nonroot-eperm: child died (status %#x)",
			       label, st);
		} else if (WEXITSTATUS(st)) {
			t_failed = 1;
		}
	}
	close(dirfd);
	/* zombies and pool: close (unlinked ones give their memory back) */
	for (int i = 0; i < MAXF; i++)
		if (ff[i].used)
			close_file(&ff[i]);
	return 0;
}

static void parse_nrs(const char *s)
{
	char *end;

	while (*s) {
		unsigned long nr = strtoul(s, &end, 0);
		int modelled = 0;

		if (end == s || nr > 255) {
			fprintf(stderr, "hostile_fuzz: bad -k list\n");
			exit(2);
		}
		for (size_t i = 0; i < sizeof(known_cmds) / sizeof(known_cmds[0]); i++)
			if (_IOC_NR(known_cmds[i]) == nr)
				modelled = 1;
		ncheck[C_KNOWN_NRS]++;
		if (!modelled) {
			skip_nr[nr] = 1;
			bad(C_KNOWN_NRS, "famfs_ioctl.h defines ioctl number %lu, which this fuzzer does not model (teach it)",
			    nr);
		}
		s = *end == ',' ? end + 1 : end;
	}
}

int main(int argc, char **argv)
{
	const char *env = getenv("FAMFS_FUZZ_LONG");
	int opt, status, i, lng = env && *env && strcmp(env, "0");
	long iters_set = 0;
	const char *nrs = NULL;
	uint64_t used0, claimed;
	struct statfs sfs;
	pid_t *pids;
	char prefix[80];
	time_t t0 = time(NULL);

	seed0 = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	while ((opt = getopt(argc, argv, "n:s:j:l:k:rLKPFq")) != -1) {
		switch (opt) {
		case 'n': iters_set = strtol(optarg, NULL, 0); break;
		case 's': seed0 = strtoull(optarg, NULL, 0); break;
		case 'j': nproc = atoi(optarg); break;
		case 'l': label = optarg; break;
		case 'k': nrs = optarg; break;
		case 'r': ro = 1; break;
		case 'L': lng = 1; break;
		case 'K': keep = 1; break;
		case 'P': nopat = 1; break;
		case 'F': failing = 1; break;
		case 'q': quiet = 1; break;
		default: goto usage;
		}
	}
	if (optind + 1 != argc || nproc < 1 || nproc > 16)
		goto usage;
	iters = iters_set ? iters_set : lng ? 1000000 : iters;
	mpt = argv[optind];
	multi = nproc > 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (statfs(mpt, &sfs))
		die(mpt);
	devsz = (uint64_t)sfs.f_blocks * (uint64_t)sfs.f_bsize;
	hot_unit = devsz / TWO_MiB / 2;
	printf("info: %s: seed %llu; repeat with: hostile_fuzz -s %llu -n %ld -j %d -l %s%s %s\n",
	       label, (unsigned long long)seed0, (unsigned long long)seed0,
	       iters, nproc, label, ro ? " -r" : "", mpt);
	if (nrs)
		parse_nrs(nrs);
	setup_arena();
	compat_ok = compat_probe();
	if (!quiet)
		printf("info: device %llu bytes; ia32 compat syscalls %s\n",
		       (unsigned long long)devsz,
		       compat_ok ? "available: some calls go through int $0x80" :
				   "not available");
	static_maps();
	scan_bad = 0;	/* what was there before is not ours to judge */
	used0 = statfs_used();
	if (!quiet)
		printf("info: %d maps on the mount at start, %llu bytes mapped\n",
		       nspath, (unsigned long long)used0);
	snprintf(prefix, sizeof(prefix), "%s-", label);
	if (ncheck[C_KNOWN_NRS]) {
		report(prefix);
		ncheck[C_KNOWN_NRS] = nbad[C_KNOWN_NRS] = 0;
	}
	fflush(stdout);

	if (!multi) {
		fuzz_proc(0);
		report(prefix);
	} else {
		/* Children fuzz at once; the parent scans the tree meanwhile. */
		pids = calloc(nproc, sizeof(*pids));
		for (i = 0; i < nproc; i++) {
			pids[i] = fork();
			if (pids[i] == 0) {
				fuzz_proc(i);
				snprintf(prefix, sizeof(prefix), "%s-p%d-", label, i);
				report(prefix);
				_exit(t_failed);
			}
		}
		for (int live = nproc, n = 0; live; n++) {
			pid_t p = waitpid(-1, &status, WNOHANG);

			if (p > 0) {
				live--;
				if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)
					failf("%s-child: a fuzzing process died (status %#x)",
					       label, status);
				else if (WEXITSTATUS(status))
					t_failed = 1;
				continue;
			}
			/* racing MAP_GETs and walks with unlinks: each map
			 * must be sane (the walk is no snapshot, so two maps
			 * may seem to overlap: one freed, the other new) */
			scan(0);
			if (n % 50 == 0 && !quiet)
				printf("info: %s: scan %d while fuzzing: %d maps\n",
				       label, n, nspath);
		}
		free(pids);
	}

	/* Whole mount: no overlap; statfs counts exactly what is mapped. */
	ncheck[C_SCAN] = ncheck[C_STATFS] = 1;
	nbad[C_SCAN] = nbad[C_STATFS] = 0;
	iter_now = -1;
	if (scan_bad)
		bad(C_SCAN, "while fuzzing: %s", scan_why);
	scan_bad = 0;
	claimed = scan(1);
	if (scan_bad)
		bad(C_SCAN, "%s", scan_why);
	printf("info: %s: after fuzzing: %d mapped files, %llu bytes claimed, statfs %llu bytes used\n",
	       label, nspath, (unsigned long long)claimed,
	       (unsigned long long)statfs_used());
	if (claimed != statfs_used())
		bad(C_STATFS, "maps claim %llu bytes, statfs says %llu used",
		    (unsigned long long)claimed,
		    (unsigned long long)statfs_used());
	if (!keep && !ro) {
		for (i = 0; i < nproc; i++) {
			snprintf(mydir, sizeof(mydir), "%s/hostile-fuzz.%s.%d",
				 mpt, label, i);
			nftw(mydir, rm_one, 32, FTW_PHYS | FTW_DEPTH);
		}
		if (statfs_used() != used0)
			bad(C_STATFS, "fuzz files removed: statfs %llu bytes used, %llu before",
			    (unsigned long long)statfs_used(),
			    (unsigned long long)used0);
	}
	snprintf(prefix, sizeof(prefix), "%s-", label);
	for (int c = 0; c < NCHECK; c++)
		if (c != C_SCAN && c != C_STATFS)
			ncheck[c] = nbad[c] = 0;
	report(prefix);
	printf("info: %s: done in %ld s\n", label, (long)(time(NULL) - t0));
	return t_failed;
usage:
	fprintf(stderr, "usage: hostile_fuzz [-n ITER] [-s SEED] [-j PROCS] [-l LABEL] [-k NRS] [-r] [-L] [-K] [-P] [-F] [-q] MPT\n");
	return 2;
}
