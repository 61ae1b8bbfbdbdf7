/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostile_fuzz: what its parts share (see main.c for what the fuzzer does).
 *
 *   main.c   options, checks and their report, the whole-mount scan,
 *            one fuzzing process, main()
 *   model.c  the model of the mount: errno sets, the maps it knows, the
 *            expected result of MAP_CREATE, files and their pattern bytes
 *   gen.c    random numbers, boundary values, valid and mutated maps, user
 *            pointers (good and bad), the ia32 compat entry
 *   calls.c  the calls: MAP_CREATE, MAP_GET, MAP_GETEXT, NOP, unknown
 *            numbers, size changes, unlink/close; the loop that mixes them
 */
#ifndef HOSTILE_FUZZ_H
#define HOSTILE_FUZZ_H

#include "../module_test.h"
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
extern uint64_t rs;

static inline uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static inline int chance(int percent)
{
	return (int)below(100) < percent;
}

/* ---- configuration (main.c) --------------------------------------------- */
extern const char *mpt, *label;
extern char mydir[PATH_MAX - 64];
extern uint64_t devsz, seed0, myseed;
extern long iters;
extern int nproc, myid, ro, keep, quiet, nonroot, compat_ok, nopat;
extern int failing;	/* -F: a memory failure may fail the mount meanwhile */
extern int multi;	/* other processes map memory too */
extern uint64_t hot_unit;	/* the window everybody races for */

/* ---- checks: counted, the first failures explained (main.c) ------------- */
enum {
	C_CREATE, C_ACCEPTED, C_UNMAPPED_AFTER, C_GET, C_GETEXT, C_NOP,
	C_ENOTTY, C_EFAULT, C_SIZE, C_DATA, C_EPERM, C_COMPAT, C_SCAN,
	C_STATFS, C_KNOWN_NRS, NCHECK
};
extern long ncheck[NCHECK], nbad[NCHECK];
extern long iter_now;

void __attribute__((format(printf, 2, 3))) bad(int c, const char *fmt, ...);

/* ---- errno sets (model.c) ----------------------------------------------- */
#define NDOC	12	/* documented[] */
extern const int documented[NDOC];
unsigned int bit(int e);
void set_str(unsigned int set, char *out, size_t n);

/* ---- the model (model.c) ------------------------------------------------ */
struct ext { uint64_t off, len; };

extern struct ext stat_ext[MAXSTATIC];	/* maps found at start */
extern int nstat;

struct ffile {
	int used, fd, mapped, unlinked;
	char path[PATH_MAX];
	struct famfs_ioc_map map;
	uint64_t pat;		/* pattern seed of its bytes */
	int haspat;		/* pattern written (not an adopted file) */
};
extern struct ffile ff[MAXF];

int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen);
int known_overlap(uint64_t off, uint64_t len, const struct ffile *skip);
uint64_t claim(const struct famfs_ioc_map *m);
unsigned int predict(const struct famfs_ioc_map *m, int mapped, int *overlap);
struct ffile *new_file(void);
int count(int mapped);
struct ffile *pick(int mapped, int with_zombies);
void close_file(struct ffile *f);
void pat_fill(uint64_t s, uint64_t off, uint8_t *b, size_t n);
void pat_write(struct ffile *f);
void pat_check(struct ffile *f);
int map_eq(const struct famfs_ioc_map *a, const struct famfs_ioc_map *b);
void map_str(const struct famfs_ioc_map *m, char *out, size_t n);
int map_sane(const struct famfs_ioc_map *m, char *why_, size_t n);

/* ---- generators and user pointers (gen.c) ------------------------------- */
extern char *arena;		/* RW page, then a PROT_NONE page */
extern char *ro_page;		/* a read-only page */
extern char *arena32;		/* RW page below 4 GiB, for int $0x80 */
extern size_t pg;

enum ptr_kind { P_OK, P_MISALIGNED, P_NULL, P_LOW, P_KERNEL, P_UNMAPPED,
		P_STRADDLE, P_RDONLY, P_NKINDS };

void *place(enum ptr_kind k, size_t need, int *bad_read, int *bad_write);
long ioctl32(int fd, unsigned int cmd, uint32_t arg);
int compat_probe(void);
void valid_map(struct famfs_ioc_map *m);
void mutate(struct famfs_ioc_map *m);

/* ---- the calls (calls.c) ------------------------------------------------ */
extern long nc_create, nc_accept, nc_get, nc_getext, nc_nop, nc_unknown,
	nc_dir, nc_efault, nc_size, nc_free, nc_compat, nc_mmap;
extern long nerr[NDOC + 1];
#define NKNOWN	4
extern const unsigned int known_cmds[NKNOWN];
extern int skip_nr[256];	/* in famfs_ioctl.h but not modelled here */

void do_create(struct ffile *f, int valid_only);
void do_get(struct ffile *f);
void fuzz_loop(long n, int dirfd);
void print_stats(void);

#endif /* HOSTILE_FUZZ_H */
