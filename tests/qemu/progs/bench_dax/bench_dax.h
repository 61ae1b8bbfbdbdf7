/* SPDX-License-Identifier: GPL-2.0 */
/* bench_dax: what bench_dax.c (the passes) and pud.c (fault, share) share */
#ifndef BENCH_DAX_H
#define BENCH_DAX_H
#include <stdint.h>

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)
#define PMD_SZ (2 * MiB)
#define MAX_T 8
#define TRACE "/sys/kernel/tracing"
#define VMF_NOPAGE 0x100
#define VMF_FALLBACK 0x800

struct target {
	const char *name, *path;
	int fd;
	int chr;		/* device dax: no read/write/fsync */
	char *map;
	uint64_t ns, flt, ops;
};

extern struct target tg[MAX_T];
extern int ntg;
extern uint64_t size, step, bs;
extern int reps, verbose;
extern volatile uint64_t sink;
extern char **main_argv;	/* share runs itself again */

void die(const char *what);
uint64_t num(const char *s);
uint64_t now(void);
uint64_t minflt(void);
void parse_targets(int argc, char **argv, int flags);
char *map_target(struct target *t, uint64_t len, int prot);
void pin(void);

/*
 * Traced faults, tracefs hist triggers: counts[0] = PMD NOPAGE, [1] = PMD
 * FALLBACK, [2] = PMD other, [3] = PTE, [4] = PUD NOPAGE, [5] = PUD
 * FALLBACK, [6] = PUD other.  have_trace: the fs_dax events are there;
 * have_pud: famfs:famfs_pud_fault too.
 */
#define NCNT 7
extern int have_trace, have_pud;
void hist_reset(void);
void hist_read(uint64_t counts[NCNT]);
void hist_off(void);
void print_traced(const uint64_t c[NCNT], int chr);

int cmd_fault(int argc, char **argv);
int cmd_share(int argc, char **argv);
#endif
