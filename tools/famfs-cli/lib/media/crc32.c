// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32 (zlib's: IEEE 802.3, reflected) of the log entries, the superblock
 * and the summary, with carry-less multiplication (PCLMULQDQ) when the CPU
 * has it: 64 bytes per a dozen instructions, where zlib's tables take about
 * four instructions per byte.  Every command checks every log entry it reads
 * (1 KiB each), so this is most of what a replay costs per entry (issue
 * 17).  The folding constants are those of Intel's white paper "Fast CRC
 * Computation for Generic Polynomials Using PCLMULQDQ" for the polynomial
 * 0x104C11DB7, as Linux uses them (arch/x86/crypto/crc32-pclmul_asm.S);
 * tests/unit/test_crc.c checks the result against zlib for every length and
 * alignment.  Other CPUs and short buffers: zlib.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "media/media.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define TARGET __attribute__((target("pclmul,sse4.1")))

/* fold x by the constants k: x.lo * k.lo ^ x.hi * k.hi */
TARGET static inline __m128i fold(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
			     _mm_clmulepi64_si128(x, k, 0x11));
}

/* the CRC state (not inverted) after len bytes, len >= 64 and a multiple
 * of 16 */
TARGET static uint32_t crc_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
	const __m128i k21 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
	const __m128i k43 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
	const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124LL);
	const __m128i up = _mm_set_epi64x(0x1f7011641LL, 0x1db710641LL);
	const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i x1, x2, x3, x4, t;

	x1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p),
			   _mm_cvtsi32_si128((int)crc));
	x2 = _mm_loadu_si128((const __m128i *)(p + 16));
	x3 = _mm_loadu_si128((const __m128i *)(p + 32));
	x4 = _mm_loadu_si128((const __m128i *)(p + 48));
	p += 64;
	len -= 64;
	while (len >= 64) {
		x1 = _mm_xor_si128(fold(x1, k21), _mm_loadu_si128((const __m128i *)p));
		x2 = _mm_xor_si128(fold(x2, k21), _mm_loadu_si128((const __m128i *)(p + 16)));
		x3 = _mm_xor_si128(fold(x3, k21), _mm_loadu_si128((const __m128i *)(p + 32)));
		x4 = _mm_xor_si128(fold(x4, k21), _mm_loadu_si128((const __m128i *)(p + 48)));
		p += 64;
		len -= 64;
	}
	x1 = _mm_xor_si128(fold(x1, k43), x2);
	x1 = _mm_xor_si128(fold(x1, k43), x3);
	x1 = _mm_xor_si128(fold(x1, k43), x4);
	while (len >= 16) {
		x1 = _mm_xor_si128(fold(x1, k43), _mm_loadu_si128((const __m128i *)p));
		p += 16;
		len -= 16;
	}
	/* 128 bits to 64 */
	x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k43, 0x10),
			   _mm_srli_si128(x1, 8));
	/* 64 to 32 */
	t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 4), t);
	/* Barrett reduction */
	t = _mm_and_si128(x1, mask32);
	t = _mm_clmulepi64_si128(t, up, 0x10);
	t = _mm_and_si128(t, mask32);
	t = _mm_clmulepi64_si128(t, up, 0x00);
	x1 = _mm_xor_si128(x1, t);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}

bool famfs_crc32_fast(void)
{
	static int have = -1;

	if (have < 0) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("pclmul") &&
		       __builtin_cpu_supports("sse4.1");
	}
	return have;
}

uint32_t famfs_crc32_update(uint32_t crc, const void *buf, size_t len)
{
	size_t n = len & ~(size_t)15;
	uint32_t c;

	if (len < 64 || !famfs_crc32_fast())
		return (uint32_t)crc32(crc, buf, (uInt)len);
	c = crc_clmul(~crc, buf, n);
	/* zlib goes on from the CRC so far (its state inverted) */
	return (uint32_t)crc32(~c, (const uint8_t *)buf + n, (uInt)(len - n));
}

uint32_t famfs_crc32(const void *buf, size_t len)
{
	return famfs_crc32_update(0, buf, len);
}
#else
bool famfs_crc32_fast(void)
{
	return false;
}

uint32_t famfs_crc32_update(uint32_t crc, const void *buf, size_t len)
{
	return (uint32_t)crc32(crc, buf, (uInt)len);
}

uint32_t famfs_crc32(const void *buf, size_t len)
{
	return (uint32_t)crc32(0L, buf, (uInt)len);
}
#endif
