// SPDX-License-Identifier: GPL-2.0
/*
 * Zeroing large ranges of famfs memory (a new file's 2 MiB units).
 *
 * glibc's memset does sizes this large with `rep stosb`, which an emulator
 * such as QEMU TCG runs one byte per iteration (an -icount bench counts
 * one instruction per byte: 2 M per unit), and which on hardware leaves
 * the whole range in the CPU cache, to be written back line by line by
 * the msync that follows.  Non-temporal 16- or 32-byte stores, 256 bytes
 * per loop, take 1/8 to 1/13 of a byte's instruction each under
 * emulation, and on hardware go to memory without filling the cache (the
 * kernel's memcpy_flushcache does the same for pmem).  An sfence orders
 * them before what follows (the msync, the log append).
 *
 * Only the head (up to the first 256-byte boundary) is stored through the
 * cache; the few lines of the tail are stored, then flushed.  famfs_zero
 * returns the head's length, so that the caller's msync covers only what
 * the CPU may still hold (a whole 2 MiB msync writes back 32768 lines).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

struct famfs_store_stats famfs_store_stats;

void famfs_store_stats_print(FILE *f)
{
	const struct famfs_store_stats *s = &famfs_store_stats;

	fprintf(f, "famfs: stores: total=%llu data=%llu zeroed=%llu filled=%llu log=%llu commit=%llu meta=%llu\n",
		(unsigned long long)(s->zeroed + s->filled + s->log +
				     s->commit + s->meta),
		(unsigned long long)(s->zeroed + s->filled),
		(unsigned long long)s->zeroed, (unsigned long long)s->filled,
		(unsigned long long)s->log, (unsigned long long)s->commit,
		(unsigned long long)s->meta);
}

#if defined(__x86_64__)
#include <immintrin.h>

#define CHUNK 256

__attribute__((target("avx2")))
static void zero_avx2(uint8_t *p, size_t n)
{
	const __m256i z = _mm256_setzero_si256();

	for (uint8_t *end = p + n; p < end; p += CHUNK)
#pragma GCC unroll 8
		for (unsigned i = 0; i < CHUNK; i += 32)
			_mm256_stream_si256((__m256i *)(p + i), z);
}

static void zero_sse2(uint8_t *p, size_t n)
{
	const __m128i z = _mm_setzero_si128();

	for (uint8_t *end = p + n; p < end; p += CHUNK)
#pragma GCC unroll 16
		for (unsigned i = 0; i < CHUNK; i += 16)
			_mm_stream_si128((__m128i *)(p + i), z);
}

int famfs_zero_avx2 = -1;	/* -1: ask the CPU; tests set 0 (SSE2) */

size_t famfs_zero(void *buf, size_t n)
{
	int avx2 = famfs_zero_avx2;
	uint8_t *p = buf;
	size_t head = (size_t)(-(uintptr_t)p % CHUNK), body;

	famfs_store_stats.zeroed += n;
	if (n < 2 * CHUNK) {
		memset(p, 0, n);
		return n;
	}
	memset(p, 0, head);
	p += head;
	n -= head;
	body = n - n % CHUNK;
	if (avx2 < 0) {
		__builtin_cpu_init();
		avx2 = famfs_zero_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	}
	if (avx2)
		zero_avx2(p, body);
	else
		zero_sse2(p, body);
	if (n > body) {
		memset(p + body, 0, n - body);
		for (uintptr_t l = (uintptr_t)(p + body) & ~(uintptr_t)63;
		     l < (uintptr_t)(p + n); l += 64)
			_mm_clflush((const void *)l);
	}
	_mm_mfence();	/* the stores and the flushes, before what follows */
	return head;
}
#else
int famfs_zero_avx2;

size_t famfs_zero(void *buf, size_t n)
{
	famfs_store_stats.zeroed += n;
	memset(buf, 0, n);
	return n;
}
#endif
