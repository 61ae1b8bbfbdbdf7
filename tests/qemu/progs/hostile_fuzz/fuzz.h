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
 *   model2.c the v2 maps (MAP_CREATE_V2 / MAP_GET_V2): the errno MAP_CREATE_V2
 *            must return (first failing check of the contract wins), the
 *            memory every map holds, a naive chunk walk
 *   gen2.c   valid and broken v2 maps, list pointers
 *   calls2.c MAP_CREATE_V2, MAP_GET_V2, pattern bytes through pwrite and
 *            mmap, and where they land on the device (remap check)
 *   calls3.c MAP_CREATE on a file that another open file or name reaches
 *            (EBUSY), read-only / read-write remounts between the calls
 *            (and a read-only device: EROFS)
 *   calls4.c several devices: DEV_ADD, DEV_GET, MAP_CREATE_V3, MAP_GET_V3
 *   calls5.c small files: MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES (page
 *            extents), their model per page, their reads and remaps
 *   gen3.c   -G: maps on 1 GiB boundaries, faults through their mappings
 *   calls6.c FAMFSIOC_NS (the famfs tool's namespace calls): a model of six
 *            names, broken fields, names and pointers
 *   calls7.c FAMFSIOC_HELD: ranges of live files held whole, random ones
 *            sane, broken fields and pointers
 *   calls8.c FAMFSIOC_UNLINK_MAP: own files removed by their map, broken
 *            fields, names, pointers and maps (ESTALE)
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
#define GiB		(1ULL << 30)
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
extern int remounts;	/* -R: remount ro and rw between the calls */
extern const char *blkdev;	/* -D: the mount's block device (BLKROSET) */
extern int multi;	/* other processes map memory too */
extern uint64_t hot_unit;	/* the window everybody races for */

/* ---- checks: counted, the first failures explained (main.c) ------------- */
enum {
	C_CREATE, C_ACCEPTED, C_UNMAPPED_AFTER, C_GET, C_GETEXT, C_NOP,
	C_ENOTTY, C_EFAULT, C_SIZE, C_DATA, C_EPERM, C_COMPAT, C_SCAN,
	C_STATFS, C_KNOWN_NRS, C_CREATE2, C_ACCEPTED2, C_GET2, C_V1_EOVERFLOW,
	C_PLACE, C_OPENERS, C_REMOUNT, C_CACHE, C_COHERENCE,
	C_DEV, C_CREATE3, C_GET3,	/* several devices (calls4.c) */
	C_PAGES,			/* page maps (calls5.c) */
	C_FAULT,			/* -G: through mappings (gen3.c) */
	C_NS,				/* FAMFSIOC_NS (calls6.c) */
	C_HELD,				/* FAMFSIOC_HELD (calls7.c) */
	C_UNLINK_MAP,			/* FAMFSIOC_UNLINK_MAP (calls8.c) */
	NCHECK
};
extern long ncheck[NCHECK], nbad[NCHECK];
extern long iter_now;

void __attribute__((format(printf, 2, 3))) bad(int c, const char *fmt, ...);

/* ---- errno sets (model.c) ----------------------------------------------- */
#define NDOC	13	/* documented[] */
extern const int documented[NDOC];
unsigned int bit(int e);
void set_str(unsigned int set, char *out, size_t n);

/* ---- the model (model.c) ------------------------------------------------ */
struct ext { uint64_t off, len; };

extern struct ext stat_ext[MAXSTATIC];	/* maps found at start */
extern int nstat;

/* A map as MAP_GET_V2 shows it (h.ext_list unused): every mapped file has
 * one, whichever call made it. */
struct vmap {
	struct famfs_ioc_map_v2 h;
	union {
		struct famfs_extent se[FAMFS_IOC_MAX_EXTENTS_V2];
		struct famfs_ioc_iext ie[FAMFS_IOC_MAX_IEXTENTS];
	} u;
};
#define MAXRANGES	FAMFS_IOC_MAX_EXTENTS_V2	/* = 16 x 16 strips */
#define NSPOT		8

struct ffile {
	int used, fd, mapped, unlinked;
	int others;		/* another open file or name reaches it */
	char path[PATH_MAX];
	struct famfs_ioc_map map;	/* v1 view: valid if v1ok (file_size
					 * and ext_list[0] always) */
	int v1ok;		/* v1 MAP_GET can express the map */
	int v2;			/* made by MAP_CREATE_V2 */
	int has_ident;		/* made with FAMFS_IOC_MAP_IDENT ... */
	uint64_t ident;		/* ... and this identity */
	struct vmap vm;		/* the map */
	uint64_t pat;		/* pattern seed of its bytes */
	int haspat;		/* pattern written (not an adopted file) */
	int nspot;		/* file offsets of 64 pattern bytes */
	uint64_t spot[NSPOT];
};
extern struct ffile ff[MAXF];

int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen);
int known_overlap(uint64_t off, uint64_t len, const struct ffile *skip);
uint64_t claim(const struct famfs_ioc_map *m);
unsigned int predict(const struct famfs_ioc_map *m, int mapped, int busy,
		     int *overlap);
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

/* ---- v2 maps (model2.c) ------------------------------------------------- */
extern uint64_t nunits;		/* 2 MiB units of the device */
int is_il(const struct vmap *m);
size_t esize(uint32_t extent_type);
int vm_ranges(const struct vmap *m, struct ext *out);
uint64_t vm_claim(const struct vmap *m);
void vm_from_v1(struct vmap *vm, const struct famfs_ioc_map *m);
int vm_v1(const struct vmap *vm, struct famfs_ioc_map *m);
void units_add(const struct ext *r, int n, int d);
int units_busy(uint64_t off, uint64_t len);
uint64_t units_free(void);
void model_map(struct ffile *f, const struct vmap *m, int v2);
int predict_v2(const struct famfs_ioc_map_v2 *h, int hdr_bad, int list_bad,
	       int mapped, int busy, int *overlap, struct vmap *read);
int vm_sane(const struct vmap *m, char *why_, size_t n);
unsigned int units_count(uint64_t u);
void vm_str(const struct vmap *m, char *out, size_t n);
uint64_t walk(const struct vmap *m, uint64_t x);
uint64_t strip_need(uint64_t nbytes, uint64_t chunk, uint32_t ns, uint32_t s);

/* ---- generators and user pointers (gen.c) ------------------------------- */
extern char *arena;		/* RW page, then a PROT_NONE page */
extern char *ro_page;		/* two read-only pages */
extern char *arena32;		/* RW pages below 4 GiB, for int $0x80 */
extern char *larena;		/* LARENA RW bytes, then a PROT_NONE page */
#define LARENA		(4 * 4096)
#define ARENA32		(4 * 4096)
extern size_t pg;

enum ptr_kind { P_OK, P_MISALIGNED, P_NULL, P_LOW, P_KERNEL, P_UNMAPPED,
		P_STRADDLE, P_RDONLY, P_NKINDS };

void *place(enum ptr_kind k, size_t need, int *bad_read, int *bad_write);
long ioctl32(int fd, unsigned int cmd, uint32_t arg);
int compat_probe(void);
void valid_map(struct famfs_ioc_map *m);
void mutate(struct famfs_ioc_map *m);
uint64_t boundary64(void);
uint32_t boundary32(void);

/* ---- v2 generators (gen2.c) --------------------------------------------- */
enum list_kind { L_OK, L_MISALIGNED, L_NULL, L_LOW, L_KERNEL, L_NONCANON,
		 L_PROTNONE, L_STRADDLE, L_RDONLY, L_NKINDS };

uint64_t free_unit(uint64_t k, int keep_pct);
void valid_v2(struct vmap *m, int il);
void mutate_v2(struct vmap *m);
char *place_list(enum list_kind k, size_t need, int *bad_read,
		 int *bad_write);
enum list_kind pick_list_kind(void);

/* ---- the calls (calls.c) ------------------------------------------------ */
extern long nc_create, nc_accept, nc_get, nc_getext, nc_nop, nc_unknown,
	nc_dir, nc_efault, nc_size, nc_free, nc_compat, nc_mmap;
extern long nerr[NDOC + 1];
#define NKNOWN	14
extern const unsigned int known_cmds[NKNOWN];
extern int skip_nr[256];	/* in famfs_ioctl.h but not modelled here */

void do_create(struct ffile *f, int valid_only);
void do_get(struct ffile *f);
void model_unmap(struct ffile *f);
void check_unmapped(struct ffile *f);
void count_errno(long *tab, long rc, int e);

/* ---- v2 calls (calls2.c) ------------------------------------------------ */
extern long nc_create2, nc_accept2, nc_il2, nc_get2, nc_v1ovf, nc_remap;
extern long nerr2[NDOC + 1];
extern const char *v2_why;	/* the check predict_v2() found failing */
extern int (*v3_dev)(uint32_t i, int il, uint32_t s, int unused);
void print_tally(void);
void do_create_v2(struct ffile *f, int valid_only);
void learn(struct ffile *f);
void do_get_v2(struct ffile *f);
void accepted_v2(struct ffile *f, const struct vmap *m);
void pat_write_v2(struct ffile *f);
int remap_check(struct ffile *f);
void fuzz_loop(long n, int dirfd);
void print_stats(void);

/* ---- other openers, remounts (calls3.c) --------------------------------- */
extern long nc_opener, nc_remount;
int scanner_busy(const struct ffile *f, long rc, int e);
void do_opener(struct ffile *f);
void do_remount(void);
void remount_end(void);
/* -N: the mount is noncoherent (else coherent): FAMFSIOC_CACHE's valid
 * calls really write back or invalidate; their bytes are counted here for
 * the suite to compare with the famfs:famfs_cache tracepoint */
extern int noncoherent;
extern long nc_cache_ok;
extern uint64_t nc_cache_wb, nc_cache_inv;
/* the mount's mode (/proc/self/mounts) is what -N says (check "coherence") */
void check_coherence(const char *when);

/* ---- several devices (calls4.c) ----------------------------------------- */
extern long nc_dev, nc_create3, nc_get3;
void multidev_init(int dirfd);
void do_multidev(int dirfd);
int is_dev_cmd(unsigned int cmd);
int dev_attached(uint32_t i);

/* ---- small files in pages (calls5.c) ------------------------------------ */
extern long nc_pages, nc_accept_pages;
/* MAP_CREATE_V3 with FAMFS_IOC_MAP_INVALIDATE (calls4.c, calls5.c) */
extern long nc_inval, nc_accept_inval;
/* the flag given on a v3 create's header: never part of the map */
void inval_flag(struct famfs_ioc_map_v2 *h);
void ident_flag(struct famfs_ioc_map_v2 *h);
void ident_learn(struct ffile *f, const struct famfs_ioc_map_v2 *h);
void ident_read(struct ffile *f);
void pages_mark(uint64_t off, uint64_t len, int d);
int predict_pages(const struct famfs_ioc_map_v2 *h, int hdr_bad, int list_bad,
		  int mapped, int busy, int *overlap, struct vmap *read);
int pages_sane(const struct vmap *m, char *why_, size_t n);
int get_v3_vmap(int fd, struct vmap *vm);
void check_map_pages(struct ffile *f, int c, const char *what);
void do_pages(void);
int remap_pages(struct ffile *f);

/* ---- the namespace calls (calls6.c) ------------------------------------ */
extern long nc_ns, nc_ns_ok;
void do_ns(int dirfd);

/* ---- still referenced here? (calls7.c) ---------------------------------- */
extern long nc_held, nc_held_ok;
void do_held(int dirfd, struct ffile *f);

/* ---- removal by map (calls8.c) ------------------------------------------ */
extern long nc_um, nc_um_ok;
void do_unlink_map(int dirfd);

/* ---- 1 GiB layouts (gen3.c) --------------------------------------------- */
extern int gib;		/* -G: maps on 1 GiB boundaries too */
extern long nc_gib, nc_gib_ok, nc_fault;
long free_gibs(void);
void valid_gib(struct vmap *m, int il);
uint64_t small_units(void);
struct ffile *pick_big(int holders);
void do_fault(struct ffile *f);

#endif /* HOSTILE_FUZZ_H */
