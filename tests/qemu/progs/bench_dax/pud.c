// SPDX-License-Identifier: GPL-2.0
/*
 * bench_dax fault and share (issue 31, the pud part of suites/bench.sh):
 * what a first fault costs alone, and what mapping one file in many
 * processes costs (faults, page tables).  See bench_dax.c's header.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench_dax.h"

/* ---- fault: one first fault, timed alone ------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int cmd_fault(int argc, char **argv)
{
	int opt;
	uint64_t *v[2][2];

	while ((opt = getopt(argc, argv, "s:r:")) != -1) {
		switch (opt) {
		case 's': size = num(optarg); break;
		case 'r': reps = (int)num(optarg); break;
		default: return 2;
		}
	}
	if (!size || reps < 1)
		return 2;
	parse_targets(argc - optind, argv + optind, O_RDWR);
	pin();
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 2; b++) {
			v[a][b] = calloc(reps, sizeof(uint64_t));
			if (!v[a][b])
				die("calloc");
		}
	for (int i = 0; i < ntg; i++) {
		struct target *t = &tg[i];
		uint64_t flt[2] = { 0, 0 };

		for (int r = 0; r < reps; r++) {
			for (int w = 0; w < 2; w++) {
				volatile uint64_t *m = (volatile uint64_t *)map_target(t, size,
									PROT_READ | PROT_WRITE);
				uint64_t f0 = minflt(), t0, t1, t2;

				t0 = now();
				if (w)
					*m = t0;
				else
					sink += *m;
				t1 = now();
				if (w)
					*m = t1;
				else
					sink += *m;
				t2 = now();
				flt[w] = minflt() - f0;
				v[w][0][r] = t1 - t0;
				v[w][1][r] = t2 - t1;
				munmap((void *)m, size);
			}
		}
		for (int w = 0; w < 2; w++) {
			qsort(v[w][0], reps, sizeof(uint64_t), cmp_u64);
			qsort(v[w][1], reps, sizeof(uint64_t), cmp_u64);
			printf("BENCH fault target=%s size=%llu reps=%d op=%s minflt=%llu min_ns=%llu "
			       "median_ns=%llu again_min_ns=%llu again_median_ns=%llu\n",
			       t->name, (unsigned long long)size, reps, w ? "write" : "read",
			       (unsigned long long)flt[w], (unsigned long long)v[w][0][0],
			       (unsigned long long)v[w][0][reps / 2], (unsigned long long)v[w][1][0],
			       (unsigned long long)v[w][1][reps / 2]);
		}
		fflush(stdout);
	}
	return 0;
}

/* ---- share: one file mapped in many processes ------------------------- */


/* A "Name:   N kB" line of a /proc file, in kB (-1: none).  No stdio: no
 * heap that could grow between two readings. */
static long long proc_kb(const char *path, const char *name)
{
	static char buf[8192];
	size_t nl = strlen(name);
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (char *l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, name, nl) && l[nl] == ':')
			return strtoll(l + nl + 1, NULL, 10);
	return -1;
}

struct share_res {
	long long vmpte0, vmpte1;
	uint64_t flt, ns;
};

static void share_child(struct target *t, uint64_t off, int ready, int go, int done)
{
	struct share_res r;
	char *m, c;

	if (off) {
		/* inside a reservation of its own: every GiB region the
		 * mapping touches is the mapping's alone */
		char *res = mmap(NULL, size + 3 * GiB, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		uintptr_t a;

		if (res == MAP_FAILED)
			die("mmap reservation");
		a = (((uintptr_t)res + GiB - 1) & ~(uintptr_t)(GiB - 1)) + GiB + off;
		m = mmap((void *)a, size, PROT_READ, MAP_SHARED | MAP_FIXED, t->fd, 0);
	} else {
		m = mmap(NULL, size, PROT_READ, MAP_SHARED, t->fd, 0);
	}
	if (m == MAP_FAILED)
		die(t->path);
	/* its own first touches (after fork: the vDSO, the stack, a copy on
	 * write of sink's page) before anything is counted */
	sink++;
	now();
	minflt();
	proc_kb("/proc/self/status", "VmPTE");
	r.vmpte0 = proc_kb("/proc/self/status", "VmPTE");
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		_exit(3);
	{
		uint64_t f0 = minflt(), t0 = now();

		for (uint64_t o = 0; o < size; o += PMD_SZ)
			sink += (unsigned char)m[o];
		r.ns = now() - t0;
		r.flt = minflt() - f0;
	}
	r.vmpte1 = proc_kb("/proc/self/status", "VmPTE");
	if (write(done, &r, sizeof(r)) != sizeof(r))
		_exit(3);
	read(go, &c, 1);	/* EOF: the parent has read everything */
	_exit(0);
}

int cmd_share(int argc, char **argv)
{
	int opt, nproc = 0, ready[2], done[2], go[64], st, bad = 0;
	uint64_t off = 0, c[NCNT], flt = 0, ns = 0;
	long long v0 = 0, v1 = 0, pt0, pt1;
	pid_t pid[64];
	char ch;

	/* the same layout every run: no address space randomization */
	if (!(personality(0xffffffff) & ADDR_NO_RANDOMIZE)) {
		if (personality(ADDR_NO_RANDOMIZE) == -1)
			die("personality");
		execv("/proc/self/exe", main_argv);
		die("execv /proc/self/exe");
	}
	while ((opt = getopt(argc, argv, "n:s:o:")) != -1) {
		switch (opt) {
		case 'n': nproc = (int)num(optarg); break;
		case 's': size = num(optarg); break;
		case 'o': off = num(optarg); break;
		default: return 2;
		}
	}
	if (!size || nproc < 1 || nproc > 64 || off % 4096 || off >= GiB ||
	    argc - optind != 1)
		return 2;
	parse_targets(argc - optind, argv + optind, O_RDONLY);
	pin();
	if (pipe(ready) || pipe(done))
		die("pipe");
	fflush(stdout);
	for (int i = 0; i < nproc; i++) {
		int p[2];

		if (pipe(p))
			die("pipe");
		pid[i] = fork();
		if (pid[i] < 0)
			die("fork");
		if (!pid[i]) {
			close(p[1]);
			share_child(&tg[0], off, ready[1], p[0], done[1]);
		}
		close(p[0]);
		go[i] = p[1];
	}
	for (int i = 0; i < nproc; i++)
		if (read(ready[0], &ch, 1) != 1)
			die("a process did not map the file");
	pt0 = proc_kb("/proc/meminfo", "PageTables");
	hist_reset();
	for (int i = 0; i < nproc; i++) {
		struct share_res r;

		if (write(go[i], "g", 1) != 1 || read(done[0], &r, sizeof(r)) != sizeof(r))
			die("a process did not read the file");
		v0 += r.vmpte0;
		v1 += r.vmpte1;
		flt += r.flt;
		ns += r.ns;
	}
	pt1 = proc_kb("/proc/meminfo", "PageTables");
	hist_read(c);
	hist_off();
	for (int i = 0; i < nproc; i++)
		close(go[i]);
	for (int i = 0; i < nproc; i++)
		if (waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	if (bad) {
		fprintf(stderr, "bench_dax share: %d process(es) failed\n", bad);
		return 1;
	}
	printf("BENCH share target=%s size=%llu procs=%d placement=%s minflt=%llu", tg[0].name,
	       (unsigned long long)size, nproc, off ? "offset" : "auto",
	       (unsigned long long)flt);
	print_traced(c, tg[0].chr);
	printf(" vmpte_kb_before=%lld vmpte_kb_after=%lld pagetables_kb_before=%lld "
	       "pagetables_kb_after=%lld offset=%llu ns=%llu\n", v0, v1, pt0, pt1,
	       (unsigned long long)off, (unsigned long long)ns);
	return 0;
}
