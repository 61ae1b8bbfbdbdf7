// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: a seeded, reproducible fuzzer for the famfs.ko file ioctls.
 *
 *   hostile_fuzz [-n ITER] [-s SEED] [-j PROCS] [-l LABEL] [-k NRS] [-r]
 *                [-R [-D DEV]] [-L] [-K] [-P] [-F] [-G] [-q] MPT
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
 * compat path (int $0x80) when the kernel has it; MAP_CREATE(_V2) of a file
 * that a second open file (of this process or of uid 65534) or a hard link
 * reaches (EBUSY), or a dup() or O_PATH (accepted); truncate, write, fallocate
 * and mmap of unmapped files; unlink and close of mapped files (memory given
 * back), writes and reads of a pattern in every accepted map.
 *
 * And the v2 calls: MAP_CREATE_V2 with valid maps (simple lists of 1..256
 * extents; 1..16 interleaved extents of 1..16 strips, chunks of 2..16 MiB)
 * and maps broken in one or two fields (flags and reserved bits, extent
 * and file types, counts that lie up to 300 / 20 and 2^32-1, nstrips 0 and
 * 17..2^32-1, chunk sizes 0, not 2 MiB multiples and near 2^64, nbytes 0,
 * odd or huge, strips that overlap, lie past the device end or at 0, short
 * of a chunk, unused strips not zero), their lists at NULL, low, kernel and
 * non-canonical addresses, on a PROT_NONE page, straddling the end of a
 * mapping, read-only or misaligned; MAP_GET_V2 with room 0, too little,
 * exactly enough and more, bad header and list pointers, flags set.
 *
 * And small files (calls5.c): MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES, page
 * extents in 2 MiB units other small files share, valid and broken in one
 * or two fields, whose errno is the contract's first failing check; their
 * pages never overlap another file's page or the units of other maps.
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
 *  - MAP_CREATE_V2 returns exactly the errno of the first check of the
 *    v2 contract that fails (model2.c: predict_v2), or succeeds; MAP_GET_V2
 *    returns the map (header, entries, nothing written past them) or
 *    ENODATA / EFAULT / EINVAL / E2BIG (header only) as the contract says;
 *    v1 MAP_GET and MAP_GETEXT of a map v1 cannot express fail EOVERFLOW;
 *  - pattern bytes written through pwrite or a shared mapping at random
 *    offsets of a v2 file are, once it is freed and its memory mapped to a
 *    new file as plain extents, where a chunk-by-chunk walk of the map puts
 *    them (single process only: nobody else may take the memory);
 *  - unknown numbers get ENOTTY, a directory ENOTTY, a bad pointer EFAULT;
 *  - with -R, remounts give the errno the model expects (calls3.c);
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
 * -R       remount read-only and read-write between the calls (one process
 *          only): EBUSY while files are open for writing, EROFS from
 *          MAP_CREATE meanwhile (calls3.c)
 * -D DEV   with -R: DEV is the mount's pmem block device; set it read-only
 *          (BLKROSET) now and then: remount,rw must fail with EROFS
 * -K       keep the fuzz files (default: remove them, check statfs)
 * -F       a memory failure is injected meanwhile: from then on MAP_CREATE
 *          may get EIO, read/write EIO; pattern bytes and mmap go unchecked
 * -P       write no pattern bytes (on a mount whose maps the fuzzer cannot
 *          see, e.g. a bare kernel mount over a famfs with files)
 * -G       1 GiB layouts too (gen3.c): most MAP_CREATE_V2 maps on 1 GiB
 *          boundaries (simple, interleaved with 1 GiB chunks, one page
 *          long or short, partly past the device end), pattern bytes
 *          across the GiB boundaries, and the files mapped and faulted
 *          through (PUD faults where the device memory is 1 GiB-aligned):
 *          each mapping shows the pattern and what read(2) reads
 * -q       fewer info lines
 *
 * Output: "PASS name", "FAIL name: why", "info: ..." lines; exit 1 if any
 * check failed.
 *
 * The parts: see fuzz.h.
 */
#include "fuzz.h"

/* ---- configuration ------------------------------------------------------ */
const char *mpt, *label = "fuzz";
char mydir[PATH_MAX - 64];
uint64_t devsz, seed0, myseed;
long iters = 20000;
int nproc = 1, myid, ro, keep, quiet, nonroot, compat_ok, nopat;
int failing;	/* -F: a memory failure may fail the mount meanwhile */
int multi;		/* other processes map memory too */
uint64_t hot_unit;	/* the window everybody races for */

/* ---- checks: counted, the first failures explained --------------------- */
static const char *const cname[NCHECK] = {
	"create-errno", "create-accepted-map", "create-refused-left-unmapped",
	"get", "getext", "nop", "unknown-enotty", "bad-pointer-efault",
	"size-change-refused", "data-intact", "nonroot-eperm", "compat-ia32",
	"scan-no-overlap", "statfs-accounting", "knows-every-ioctl",
	"create-v2-errno", "create-v2-accepted-map", "get-v2",
	"v1-get-of-v2-map-eoverflow", "data-placement",
	"create-with-other-opener", "remount", "cache-errno", "coherence",
	"dev-errno", "create-v3-errno", "get-v3", "create-pages-errno",
	"fault-through-mapping", "ns-errno", "held", "unlink-map-errno",
};
long ncheck[NCHECK], nbad[NCHECK];
static char why[NCHECK][400];
long iter_now;

void __attribute__((format(printf, 2, 3)))
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

/* ---- the whole mount ---------------------------------------------------- */
/* @len: what the range keeps from others (a page extent its pages, any
 * other range its whole 2 MiB units) */
struct sext { uint64_t off, len; int file, pages; };
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

/* The map of @fd, through MAP_GET_V2 (v1 MAP_GET if the kernel has no
 * v2): 0, or the errno. */
static int get_any(int fd, struct vmap *vm)
{
	struct famfs_ioc_map m;

	memset(vm, 0, sizeof(*vm));
	vm->h.ext_count = FAMFS_IOC_MAX_EXTENTS_V2;
	vm->h.ext_list = (uintptr_t)&vm->u;
	if (!ioctl(fd, FAMFSIOC_MAP_GET_V2, &vm->h)) {
		vm->h.ext_list = 0;
		return 0;
	}
	if (errno == EOVERFLOW)		/* a page map: v3 says it */
		return get_v3_vmap(fd, vm);
	if (errno != ENOTTY)
		return errno;
	if (ioctl(fd, FAMFSIOC_MAP_GET, &m))
		return errno;
	vm_from_v1(vm, &m);
	return 0;
}

static int scan_one(const char *p, const struct stat *st, int type,
		    struct FTW *ftw)
{
	static struct vmap m;
	struct ext r[MAXRANGES];
	struct stat fst;
	char w[160];
	int fd, e, n;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;	/* raced with an unlink */
	/* raced with a rename or a mkdir at the name (nsfuzz): what was
	 * a file when the walk looked is a directory now (its ioctl says
	 * ENOTTY to MAP_GET) */
	if (fstat(fd, &fst) || !S_ISREG(fst.st_mode)) {
		close(fd);
		return 0;
	}
	e = get_any(fd, &m);
	close(fd);
	if (e) {
		if (e != ENODATA)
			scan_fail("%s: MAP_GET_V2: %s", p, t_errname(e));
		return 0;
	}
	if (!vm_sane(&m, w, sizeof(w)))
		scan_fail("%s: %s", p, w);
	if (nspath == capspath) {
		capspath = capspath ? 2 * capspath : 256;
		spath = realloc(spath, capspath * sizeof(*spath));
	}
	snprintf(spath[nspath], sizeof(spath[0]), "%s", p);
	n = vm_ranges(&m, r);
	for (int i = 0; i < n; i++) {
		if (nsx == capsx) {
			capsx = capsx ? 2 * capsx : 1024;
			sx = realloc(sx, capsx * sizeof(*sx));
		}
		sx[nsx].off = r[i].off;
		sx[nsx].len = m.h.flags ? r[i].len :
			      (r[i].len + TWO_MiB - 1) & ~(TWO_MiB - 1);
		sx[nsx].file = nspath;
		sx[nsx].pages = m.h.flags != 0;
		nsx++;
	}
	sclaim += vm_claim(&m);
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
	if (nsx)
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
	units_add(stat_ext, nstat, 1);
	for (int i = 0; i < nsx; i++)
		if (sx[i].pages)
			pages_mark(sx[i].off, sx[i].len, 1);
}

static void setup_arena(void)
{
	pg = (size_t)sysconf(_SC_PAGESIZE);
	arena = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	arena32 = mmap(NULL, ARENA32, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	larena = mmap(NULL, LARENA + pg, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED || ro_page == MAP_FAILED ||
	    arena32 == MAP_FAILED || larena == MAP_FAILED)
		die("mmap");
	memset(ro_page, 0, 2 * pg);
	if (mprotect(arena + pg, pg, PROT_NONE) ||
	    mprotect(larena + LARENA, pg, PROT_NONE) ||
	    mprotect(ro_page, 2 * pg, PROT_READ))
		die("mprotect");
}

/* Unmapped files already in the tree (for -r): open them read-only. */
static int adopt_one(const char *p, const struct stat *st, int type,
		     struct FTW *ftw)
{
	static struct vmap m;
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
		if (!get_any(fd, &m)) {
			model_map(f, &m, 1);
			ident_read(f);
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
	multidev_init(dirfd);
	fuzz_loop(iters, dirfd);
	remount_end();
	print_stats();

	/* The model is still right: every map reads back, every byte is there. */
	for (int i = 0; i < MAXF; i++) {
		struct ffile *f = &ff[i];

		if (!f->used || !f->mapped)
			continue;
		iter_now = -1;
		do_get(f);
		do_get_v2(f);
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
			nc_create2 = nc_accept2 = nc_il2 = nc_get2 = 0;
			nc_v1ovf = nc_remap = nc_opener = nc_remount = 0;
			nc_dev = nc_create3 = nc_get3 = 0;
			nc_pages = nc_accept_pages = 0;
			nc_inval = nc_accept_inval = 0;
			nc_ns = nc_ns_ok = 0;
			nc_held = nc_held_ok = 0;
			nc_um = nc_um_ok = 0;
			memset(nerr, 0, sizeof(nerr));
			memset(nerr2, 0, sizeof(nerr2));
			memset(ncheck, 0, sizeof(ncheck));
			memset(nbad, 0, sizeof(nbad));
			for (int c = 0; c < NCHECK; c++)
				why[c][0] = '\0';
			rs = myseed ^ 0x5555;
			for (iter_now = 0; iter_now < iters / 10 + 10; iter_now++) {
				struct ffile *f = pick(-1, 1);

				if (!f)
					break;
				if (chance(5))
					do_ns(dirfd);
				else if (chance(4))
					do_held(dirfd, f);
				else if (chance(3))
					do_unlink_map(dirfd);
				else if (chance(10))
					do_multidev(dirfd);
				else if (chance(8))
					do_pages();
				else if (chance(35))
					do_create(f, chance(30));
				else if (chance(55))
					do_create_v2(f, chance(30));
				else if (chance(50))
					do_get(f);
				else
					do_get_v2(f);
			}
			print_stats();
			/* as nobody, every create went to nonroot-eperm */
			ncheck[C_CREATE] = ncheck[C_EFAULT] = ncheck[C_COMPAT] = 0;
			ncheck[C_CREATE2] = 0;
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
	while ((opt = getopt(argc, argv, "n:s:j:l:k:rRD:LKPFNGq")) != -1) {
		switch (opt) {
		case 'n': iters_set = strtol(optarg, NULL, 0); break;
		case 's': seed0 = strtoull(optarg, NULL, 0); break;
		case 'j': nproc = atoi(optarg); break;
		case 'l': label = optarg; break;
		case 'k': nrs = optarg; break;
		case 'r': ro = 1; break;
		case 'R': remounts = 1; break;
		case 'D': blkdev = optarg; break;
		case 'L': lng = 1; break;
		case 'K': keep = 1; break;
		case 'P': nopat = 1; break;
		case 'F': failing = 1; break;
		case 'N': noncoherent = 1; break;
		case 'G': gib = 1; break;
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
	if (gib && devsz > GiB)		/* -G: keep the GiBs after it whole */
		hot_unit = GiB / TWO_MiB / 2;
	printf("info: %s: seed %llu; repeat with: hostile_fuzz -s %llu -n %ld -j %d -l %s%s%s %s\n",
	       label, (unsigned long long)seed0, (unsigned long long)seed0,
	       iters, nproc, label, ro ? " -r" : "", gib ? " -G" : "", mpt);
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
	check_coherence("at start");
	fflush(stdout);

	if (!multi) {
		fuzz_proc(0);
		/* the suite compares these with the famfs:famfs_cache trace */
		printf("info: %s: cache: %ld valid calls, %llu bytes written back, %llu invalidated (%s mount)\n",
		       label, nc_cache_ok, (unsigned long long)nc_cache_wb,
		       (unsigned long long)nc_cache_inv,
		       noncoherent ? "noncoherent" : "coherent");
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
	return t_done(0);
usage:
	fprintf(stderr, "usage: hostile_fuzz [-n ITER] [-s SEED] [-j PROCS] [-l LABEL] [-k NRS] [-r] [-R [-D DEV]] [-L] [-K] [-P] [-F] [-N] [-G] [-q] MPT\n");
	return 2;
}
