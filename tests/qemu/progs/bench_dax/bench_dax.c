// SPDX-License-Identifier: GPL-2.0
/*
 * bench_dax: the guest side of scripts/bench.sh (and suites/bench*.sh).
 *
 *   bench_dax counts [-W] [-4] -s SIZE NAME=PATH
 *       one target: a cold read pass over a fresh shared mapping, a warm read
 *       pass, a cold write pass over another fresh mapping, a warm write
 *       pass; per pass the minor faults (getrusage) and, for fs-dax files,
 *       the fs_dax:dax_pmd_fault_done results (NOPAGE = a 2 MiB mapping,
 *       FALLBACK) and fs_dax:dax_pte_fault_done events (4 KiB mappings),
 *       and, when famfs.ko has it, the famfs:famfs_pud_fault results
 *       (NOPAGE = a 1 GiB mapping, FALLBACK), counted with tracefs hist
 *       triggers.  -4: madvise(MADV_NOHUGEPAGE) (4 KiB mappings only).
 *       -W: no write passes (read-only file).
 *   bench_dax mmap -s SIZE [-r REPS] [-k STEP] NAME=PATH...
 *       REPS times: cold read, warm read, cold write, warm write passes over
 *       all targets at once, switching target every STEP bytes (default
 *       8 MiB; which target goes first rotates with every chunk and
 *       repetition), so that host noise hits every target alike.  Time and faults per target and pass.
 *       A target NAME ending in "-4k" is mapped with MADV_NOHUGEPAGE.
 *   bench_dax rw [-R] -s SIZE -b BS [-r REPS] [-k STEP] NAME=PATH...
 *       pread() then pwrite() of SIZE bytes in BS requests, alternating
 *       targets every STEP bytes.  -R: pread() only (files opened
 *       read-only).  The user buffer sits 4 KiB past a 2 MiB
 *       boundary (a 2 MiB-aligned buffer is ~15x slower under TCG).
 *   bench_dax fsync -s SIZE [-r REPS] NAME=PATH...
 *       per target: dirty a fresh mapping (write pass), fsync() it (timed),
 *       write the same mapping again (faults: fsync write-protects), fsync
 *       with nothing dirty.
 *   bench_dax open -n N [-r REPS] NAME=PATH...
 *       open(O_RDONLY)+close() of PATH, N times per target and repetition,
 *       alternating targets every 500.
 *   bench_dax fault -s SIZE [-r REPS] NAME=PATH...
 *       the first fault of a fresh shared mapping alone: REPS times per
 *       target, map SIZE bytes, time one 8-byte load (read) or store (write)
 *       at offset 0, then the same access again (no fault: the floor), and
 *       unmap.  Minimum and median of each, and the faults the access
 *       took.  Under -icount the minimum is the instructions of one fault
 *       (a timer tick lands in a window this short rarely, and not in all
 *       repetitions), which a whole pass cannot resolve: its own noise is a
 *       few thousand instructions.
 *   bench_dax share -n NPROC -s SIZE [-o OFF] NAME=PATH
 *       the cost of mapping SIZE bytes of one file in NPROC processes: each
 *       maps it shared and read-only (mmap(NULL): where the file system
 *       places it; -o OFF: at OFF past a 1 GiB boundary, MAP_FIXED inside
 *       a reservation of its own, e.g. -o 2M forces 2 MiB mappings on a
 *       file that 1 GiB mappings would serve), then, one process after
 *       the other, reads one byte per 2 MiB.  Printed: the minor faults
 *       of all processes, the traced faults (as counts), the page-table
 *       bytes of the processes (VmPTE, summed) before and after the reads,
 *       the guest's PageTables (/proc/meminfo) before and after, and the
 *       time of the reads (summed; instructions under -icount).  Runs
 *       itself again with ADDR_NO_RANDOMIZE first, so that where a mapping
 *       lands, and which upper page tables exist already, do not change
 *       from run to run.
 *   bench_dax prep -s SIZE PATH     pwrite SIZE bytes of pattern to PATH
 *   bench_dax now                   CLOCK_MONOTONIC in ns
 *
 * PATH may be a file or a /dev/daxX.Y device (mapped from offset 0; no
 * read()/write(), no fsync).  SIZE takes K/M/G suffixes and an optional
 * +N/-N (bytes, same suffixes), e.g. 64M+4K.
 *
 * Sources: bench_dax.c (the passes, counts, tracing), pud.c (fault, share).
 *
 * Output: one machine-readable line per measurement,
 *   BENCH <kind> key=value...
 * Times are CLOCK_MONOTONIC nanoseconds; under QEMU -icount shift=0 that is
 * the number of guest instructions executed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "bench_dax.h"


struct target tg[MAX_T];
int ntg;
uint64_t size, step = 8 * MiB, bs;
int reps = 1, verbose;
volatile uint64_t sink;
char **main_argv;

void die(const char *what)
{
	fprintf(stderr, "bench_dax: %s: %s\n", what, strerror(errno));
	exit(2);
}

/*
 * Per-chunk minimum over the repetitions: whatever else the guest runs (the
 * suite runner wakes every 0.2 s, timers, kworkers) lands in one chunk of one
 * target in one repetition, so the sum over chunks of each chunk's minimum is
 * the pass without it.  Under -icount that makes the figure exact to a few
 * instructions; in real time it is the best case (the median of the pass
 * totals is printed beside it).
 */
static uint64_t *cmin;
static uint64_t nchunks;

static void cmin_init(uint64_t slots)
{
	cmin = malloc(slots * sizeof(*cmin));
	if (!cmin)
		die("malloc");
	memset(cmin, 0xff, slots * sizeof(*cmin));
}

static void cmin_put(uint64_t slot, uint64_t ns)
{
	if (ns < cmin[slot])
		cmin[slot] = ns;
}

static uint64_t cmin_sum(uint64_t first, uint64_t n)
{
	uint64_t sum = 0;

	for (uint64_t i = first; i < first + n; i++)
		sum += cmin[i];
	return sum;
}

static uint64_t num1(const char *s, char **end)
{
	uint64_t v = strtoull(s, end, 0);

	switch (**end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; (*end)++; break;
	}
	return v;
}

uint64_t num(const char *s)
{
	char *end;
	uint64_t v = num1(s, &end);

	if (*end == '+' || *end == '-') {
		char sign = *end, *e2;
		uint64_t d = num1(end + 1, &e2);

		if (e2 == end + 1)
			goto bad;
		v = sign == '+' ? v + d : v - d;
		end = e2;
	}
	if (*end || end == s)
		goto bad;
	return v;
bad:
	fprintf(stderr, "bench_dax: bad number '%s'\n", s);
	exit(2);
}

uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

/* The passes: 64-bit loads summed, 64-bit stores of a running value (not a
 * constant, so the compiler cannot turn the loop into memset()). */
static void __attribute__((noinline)) read_range(const char *p, uint64_t len)
{
	const uint64_t *w = (const uint64_t *)p, *e = w + len / 8;
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

	for (; w + 4 <= e; w += 4) {
		s0 += w[0]; s1 += w[1]; s2 += w[2]; s3 += w[3];
	}
	for (const char *c = (const char *)w; c < p + len; c++)
		s0 += *c;
	sink += s0 + s1 + s2 + s3;
}

static void __attribute__((noinline)) write_range(char *p, uint64_t len, uint64_t v)
{
	uint64_t *w = (uint64_t *)p, *e = w + len / 8;

	for (; w + 4 <= e; w += 4, v += 4) {
		w[0] = v; w[1] = v + 1; w[2] = v + 2; w[3] = v + 3;
		__asm__ volatile("" ::: "memory");
	}
	for (char *c = (char *)w; c < p + len; c++)
		*c = (char)v;
}

/* ---- tracefs hist triggers -------------------------------------------- */

static int wr(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_APPEND), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

static const char *const events[] = { "fs_dax/dax_pmd_fault_done", "fs_dax/dax_pte_fault_done",
				      "famfs/famfs_pud_fault" };
#define NEV 3
int have_trace, have_pud;

void hist_reset(void)
{
	char p[256];

	have_trace = 1;
	have_pud = 1;
	for (unsigned i = 0; i < NEV; i++) {
		snprintf(p, sizeof(p), TRACE "/events/%s/trigger", events[i]);
		wr(p, "!hist:keys=result");	/* fails when absent: fine */
		if (wr(p, "hist:keys=result"))
			*(i < 2 ? &have_trace : &have_pud) = 0;
	}
}

/* counts: see bench_dax.h (famfs_pud_fault's result is a string: NOPAGE,
 * FALLBACK, SIGBUS) */
void hist_read(uint64_t counts[NCNT])
{
	char p[256], line[512], res[32];

	memset(counts, 0, NCNT * sizeof(counts[0]));
	for (unsigned i = 0; i < NEV; i++) {
		FILE *f;

		snprintf(p, sizeof(p), TRACE "/events/%s/hist", events[i]);
		f = fopen(p, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long num, hits;
			char *h = strstr(line, "hitcount:");

			if (strncmp(line, "{ result: ", 10) || !h ||
			    sscanf(h, "hitcount: %llu", &hits) != 1)
				continue;
			if (i == 2) {
				if (sscanf(line, "{ result: %31[A-Z_-]", res) != 1)
					continue;
				counts[!strcmp(res, "NOPAGE") ? 4 : !strcmp(res, "FALLBACK") ? 5 : 6] += hits;
				continue;
			}
			if (sscanf(line, "{ result: %llu", &num) != 1)
				continue;
			if (i == 1)
				counts[3] += hits;
			else if (num & VMF_NOPAGE)
				counts[0] += hits;
			else if (num & VMF_FALLBACK)
				counts[1] += hits;
			else
				counts[2] += hits;
		}
		fclose(f);
	}
}

void hist_off(void)
{
	char p[256];

	for (unsigned i = 0; i < NEV; i++) {
		snprintf(p, sizeof(p), TRACE "/events/%s/trigger", events[i]);
		wr(p, "!hist:keys=result");
	}
}

/* The traced counts as " pmd_nopage=..." (nothing for device-dax) */
void print_traced(const uint64_t c[NCNT], int chr)
{
	if (!have_trace || chr)
		return;
	printf(" pmd_nopage=%llu pmd_fallback=%llu pmd_other=%llu pte=%llu",
	       (unsigned long long)c[0], (unsigned long long)c[1],
	       (unsigned long long)c[2], (unsigned long long)c[3]);
	if (have_pud)
		printf(" pud_nopage=%llu pud_fallback=%llu pud_other=%llu",
		       (unsigned long long)c[4], (unsigned long long)c[5],
		       (unsigned long long)c[6]);
}

/* ---- targets ----------------------------------------------------------- */

void parse_targets(int argc, char **argv, int flags)
{
	for (int i = 0; i < argc; i++) {
		struct target *t = &tg[ntg];
		char *eq = strchr(argv[i], '=');
		struct stat st;

		if (ntg == MAX_T || !eq) {
			fprintf(stderr, "bench_dax: target '%s': want NAME=PATH (at most %d)\n",
				argv[i], MAX_T);
			exit(2);
		}
		*eq = 0;
		t->name = argv[i];
		t->path = eq + 1;
		t->fd = open(t->path, flags);
		if (t->fd < 0)
			die(t->path);
		if (fstat(t->fd, &st))
			die(t->path);
		t->chr = S_ISCHR(st.st_mode);
		ntg++;
	}
	if (!ntg) {
		fprintf(stderr, "bench_dax: no target\n");
		exit(2);
	}
}

/* A target whose NAME ends in "-4k" gets 4 KiB mappings only (MADV_NOHUGEPAGE). */
char *map_target(struct target *t, uint64_t len, int prot)
{
	char *m = mmap(NULL, len, prot, MAP_SHARED, t->fd, 0);
	size_t n = strlen(t->name);

	if (m == MAP_FAILED)
		die(t->path);
	if (n > 3 && !strcmp(t->name + n - 3, "-4k") && madvise(m, len, MADV_NOHUGEPAGE))
		die("madvise");
	return m;
}

void pin(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

/* ---- counts ------------------------------------------------------------ */

static void counts_pass(struct target *t, const char *pass, int write, int fresh,
			int nohuge)
{
	uint64_t c[NCNT], f0, f1, t0, t1;

	if (fresh) {
		if (t->map)
			munmap(t->map, size);
		t->map = map_target(t, size, PROT_READ | (write ? PROT_WRITE : 0));
		if (nohuge && madvise(t->map, size, MADV_NOHUGEPAGE))
			die("madvise");
	}
	hist_reset();
	f0 = minflt();
	t0 = now();
	if (write)
		write_range(t->map, size, t0);
	else
		read_range(t->map, size);
	t1 = now();
	f1 = minflt();
	hist_read(c);
	printf("BENCH counts target=%s size=%llu pass=%s minflt=%llu", t->name,
	       (unsigned long long)size, pass, (unsigned long long)(f1 - f0));
	print_traced(c, t->chr);
	printf(" ns=%llu\n", (unsigned long long)(t1 - t0));
}

static int cmd_counts(int argc, char **argv)
{
	int opt, nohuge = 0, nowrite = 0;
	struct target *t;

	while ((opt = getopt(argc, argv, "s:4W")) != -1) {
		switch (opt) {
		case 's': size = num(optarg); break;
		case '4': nohuge = 1; break;
		case 'W': nowrite = 1; break;
		default: return 2;
		}
	}
	if (!size || argc - optind != 1)
		return 2;
	parse_targets(argc - optind, argv + optind, nowrite ? O_RDONLY : O_RDWR);
	t = &tg[0];
	counts_pass(t, "cold-read", 0, 1, nohuge);
	counts_pass(t, "warm-read", 0, 0, nohuge);
	if (!nowrite) {
		counts_pass(t, "cold-write", 1, 1, nohuge);
		counts_pass(t, "warm-write", 1, 0, nohuge);
	}
	hist_off();
	munmap(t->map, size);
	return 0;
}

/* ---- mmap passes, alternating ----------------------------------------- */

static const char *const pass_names[] = { "cold-read", "warm-read", "cold-write", "warm-write" };

static int cmd_mmap(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "s:r:k:v")) != -1) {
		switch (opt) {
		case 's': size = num(optarg); break;
		case 'r': reps = (int)num(optarg); break;
		case 'k': step = num(optarg); break;
		case 'v': verbose = 1; break;
		default: return 2;
		}
	}
	if (!size || !step)
		return 2;
	parse_targets(argc - optind, argv + optind, O_RDWR);
	pin();
	nchunks = (size + step - 1) / step;
	cmin_init(4 * MAX_T * nchunks);
	for (int r = 0; r < reps; r++) {
		for (int p = 0; p < 4; p++) {
			int write = p >= 2, cold = !(p & 1);

			for (int i = 0; i < ntg; i++) {
				struct target *t = &tg[i];

				if (cold) {
					if (t->map)
						munmap(t->map, size);
					t->map = map_target(t, size, PROT_READ | PROT_WRITE);
				}
				t->ns = t->flt = 0;
			}
			for (uint64_t off = 0; off < size; off += step) {
				uint64_t len = size - off < step ? size - off : step;

				for (int j = 0; j < ntg; j++) {
					struct target *t = &tg[(r + j + off / step) % ntg];
					uint64_t f0 = minflt(), t0 = now(), t1;

					if (write)
						write_range(t->map + off, len, t0);
					else
						read_range(t->map + off, len);
					t1 = now();
					t->ns += t1 - t0;
					t->flt += minflt() - f0;
					cmin_put(((uint64_t)p * MAX_T + (t - tg)) * nchunks + off / step,
						 t1 - t0);
					if (verbose)
						printf("BENCH chunk target=%s rep=%d pass=%s off=%llu ns=%llu\n",
						       t->name, r, pass_names[p],
						       (unsigned long long)off,
						       (unsigned long long)(t1 - t0));
				}
			}
			for (int i = 0; i < ntg; i++)
				printf("BENCH mmap target=%s size=%llu rep=%d pass=%s ns=%llu minflt=%llu\n",
				       tg[i].name, (unsigned long long)size, r, pass_names[p],
				       (unsigned long long)tg[i].ns, (unsigned long long)tg[i].flt);
			fflush(stdout);
		}
	}
	for (int p = 0; p < 4; p++)
		for (int i = 0; i < ntg; i++)
			printf("BENCH mmap-min target=%s size=%llu reps=%d pass=%s ns=%llu\n",
			       tg[i].name, (unsigned long long)size, reps, pass_names[p],
			       (unsigned long long)cmin_sum(((uint64_t)p * MAX_T + i) * nchunks,
							    nchunks));
	for (int i = 0; i < ntg; i++)
		munmap(tg[i].map, size);
	return 0;
}

/* ---- read()/write() ---------------------------------------------------- */

static int cmd_rw(int argc, char **argv)
{
	int opt, nw = 2;
	char *raw, *buf;

	while ((opt = getopt(argc, argv, "Rs:b:r:k:")) != -1) {
		switch (opt) {
		case 'R': nw = 1; break;
		case 's': size = num(optarg); break;
		case 'b': bs = num(optarg); break;
		case 'r': reps = (int)num(optarg); break;
		case 'k': step = num(optarg); break;
		default: return 2;
		}
	}
	if (!size || !bs || !step)
		return 2;
	if (step < bs)
		step = bs;
	parse_targets(argc - optind, argv + optind, nw == 1 ? O_RDONLY : O_RDWR);
	pin();
	nchunks = (size + step - 1) / step;
	cmin_init(2 * MAX_T * nchunks);
	raw = mmap(NULL, bs + 2 * PMD_SZ + 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		die("mmap buffer");
	buf = (char *)(((uintptr_t)raw + PMD_SZ - 1) & ~(uintptr_t)(PMD_SZ - 1)) + 4096;
	memset(buf, 0x5a, bs);
	for (int r = 0; r < reps; r++) {
		for (int w = 0; w < nw; w++) {
			for (int i = 0; i < ntg; i++)
				tg[i].ns = tg[i].ops = 0;
			for (uint64_t off = 0; off < size; off += step) {
				uint64_t end = off + step < size ? off + step : size;

				for (int j = 0; j < ntg; j++) {
					struct target *t = &tg[(r + j + off / step) % ntg];
					uint64_t t0 = now();

					for (uint64_t o = off; o < end; o += bs) {
						size_t n = end - o < bs ? end - o : bs;
						ssize_t got = w ? pwrite(t->fd, buf, n, o)
								: pread(t->fd, buf, n, o);
						if (got != (ssize_t)n)
							die(t->path);
						t->ops++;
					}
					t0 = now() - t0;
					t->ns += t0;
					cmin_put(((uint64_t)w * MAX_T + (t - tg)) * nchunks + off / step, t0);
				}
			}
			for (int i = 0; i < ntg; i++)
				printf("BENCH rw target=%s size=%llu bs=%llu rep=%d op=%s ns=%llu ops=%llu\n",
				       tg[i].name, (unsigned long long)size, (unsigned long long)bs, r,
				       w ? "write" : "read", (unsigned long long)tg[i].ns,
				       (unsigned long long)tg[i].ops);
			fflush(stdout);
		}
	}
	for (int w = 0; w < nw; w++)
		for (int i = 0; i < ntg; i++)
			printf("BENCH rw-min target=%s size=%llu bs=%llu reps=%d op=%s ns=%llu ops=%llu\n",
			       tg[i].name, (unsigned long long)size, (unsigned long long)bs, reps,
			       w ? "write" : "read",
			       (unsigned long long)cmin_sum(((uint64_t)w * MAX_T + i) * nchunks, nchunks),
			       (unsigned long long)tg[i].ops);
	return 0;
}

/* ---- fsync ------------------------------------------------------------- */

static int cmd_fsync(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "s:r:")) != -1) {
		switch (opt) {
		case 's': size = num(optarg); break;
		case 'r': reps = (int)num(optarg); break;
		default: return 2;
		}
	}
	if (!size)
		return 2;
	parse_targets(argc - optind, argv + optind, O_RDWR);
	pin();
	for (int r = 0; r < reps; r++) {
		for (int j = 0; j < ntg; j++) {
			struct target *t = &tg[(r + j) % ntg];
			uint64_t t0, t1, t2, t3, t4, t5, f0, f1, f2;
			char *m = map_target(t, size, PROT_READ | PROT_WRITE);

			f0 = minflt();
			t0 = now();
			write_range(m, size, t0);
			t1 = now();
			f1 = minflt();
			if (fsync(t->fd))
				die("fsync");
			t2 = now();
			write_range(m, size, t2);
			t3 = now();
			f2 = minflt();
			if (fsync(t->fd))
				die("fsync");
			t4 = now();
			if (fsync(t->fd))	/* nothing dirty now */
				die("fsync");
			t5 = now();
			printf("BENCH fsync target=%s size=%llu rep=%d dirty_ns=%llu dirty_minflt=%llu "
			       "fsync_ns=%llu rewrite_ns=%llu rewrite_minflt=%llu fsync2_ns=%llu "
			       "fsync_clean_ns=%llu\n",
			       t->name, (unsigned long long)size, r, (unsigned long long)(t1 - t0),
			       (unsigned long long)(f1 - f0), (unsigned long long)(t2 - t1),
			       (unsigned long long)(t3 - t2), (unsigned long long)(f2 - f1),
			       (unsigned long long)(t4 - t3), (unsigned long long)(t5 - t4));
			munmap(m, size);
			fflush(stdout);
		}
	}
	return 0;
}

/* ---- open+close -------------------------------------------------------- */

static int cmd_open(int argc, char **argv)
{
	int opt;
	uint64_t n = 0;

	while ((opt = getopt(argc, argv, "n:r:")) != -1) {
		switch (opt) {
		case 'n': n = num(optarg); break;
		case 'r': reps = (int)num(optarg); break;
		default: return 2;
		}
	}
	if (!n)
		return 2;
	parse_targets(argc - optind, argv + optind, O_RDONLY);
	pin();
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < ntg; i++)
			tg[i].ns = tg[i].ops = 0;
		for (uint64_t k = 0; k < n; k += 500) {
			for (int j = 0; j < ntg; j++) {
				struct target *t = &tg[(r + j + k / 500) % ntg];
				uint64_t t0 = now();

				for (uint64_t q = k; q < k + 500 && q < n; q++) {
					int fd = open(t->path, O_RDONLY);

					if (fd < 0)
						die(t->path);
					close(fd);
					t->ops++;
				}
				t->ns += now() - t0;
			}
		}
		for (int i = 0; i < ntg; i++)
			printf("BENCH open target=%s rep=%d ns=%llu ops=%llu\n", tg[i].name, r,
			       (unsigned long long)tg[i].ns, (unsigned long long)tg[i].ops);
	}
	return 0;
}

/* ---- prep, now --------------------------------------------------------- */

static int cmd_prep(int argc, char **argv)
{
	int opt, fd;
	char *raw, *buf;

	while ((opt = getopt(argc, argv, "s:")) != -1) {
		switch (opt) {
		case 's': size = num(optarg); break;
		default: return 2;
		}
	}
	if (!size || argc - optind != 1)
		return 2;
	fd = open(argv[optind], O_RDWR);
	if (fd < 0)
		die(argv[optind]);
	raw = mmap(NULL, 8 * MiB + PMD_SZ + 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		die("mmap buffer");
	buf = (char *)(((uintptr_t)raw + PMD_SZ - 1) & ~(uintptr_t)(PMD_SZ - 1)) + 4096;
	write_range(buf, 8 * MiB, 0x0123456789abcdefULL);
	for (uint64_t o = 0; o < size; o += 8 * MiB) {
		size_t n = size - o < 8 * MiB ? size - o : 8 * MiB;

		if (pwrite(fd, buf, n, o) != (ssize_t)n)
			die(argv[optind]);
	}
	if (fsync(fd))
		die("fsync");
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	main_argv = argv;
	now();	/* the first call faults the vDSO data page in: not in a pass */
	if (argc >= 2 && !strcmp(argv[1], "now")) {
		printf("%llu\n", (unsigned long long)now());
		return 0;
	}
	if (argc >= 2) {
		static const struct {
			const char *name;
			int (*fn)(int, char **);
		} cmds[] = {
			{ "counts", cmd_counts }, { "mmap", cmd_mmap }, { "rw", cmd_rw },
			{ "fsync", cmd_fsync }, { "open", cmd_open }, { "prep", cmd_prep },
			{ "share", cmd_share }, { "fault", cmd_fault },
		};
		for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
			if (!strcmp(argv[1], cmds[i].name)) {
				int rc = cmds[i].fn(argc - 1, argv + 1);

				if (rc == 2)
					fprintf(stderr, "bench_dax %s: bad arguments (see the header of bench_dax.c)\n",
						argv[1]);
				return rc;
			}
		}
	}
	fprintf(stderr, "usage: bench_dax counts|mmap|rw|fsync|open|fault|share|prep|now ... (see bench_dax.c)\n");
	return 2;
}
