// SPDX-License-Identifier: GPL-2.0
/* famfs_zero: every byte of the range zero, not one byte around it, at
 * every alignment and a range of lengths (head, wide-store body, tail). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "th.h"

static void zero_ranges(void)
{
	const size_t cap = 3 * 4096 + 1024;
	uint8_t *b = malloc(cap);
	static const size_t lens[] = { 0, 1, 255, 256, 511, 512, 513, 1000,
				       4096, 4097, 8191, 3 * 4096 };

	assert_non_null(b);
	for (size_t off = 0; off < 300; off += 7) {
		for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
			size_t n = lens[k];

			if (off + n + 64 > cap)
				continue;
			size_t cached;

			memset(b, 0x5a, cap);
			cached = famfs_zero(b + off, n);
			/* the caller msyncs [0, cached): the rest must have
			 * gone to memory (fill.c), so the cached part is at
			 * most the head up to a 256-byte boundary, or all of
			 * a short range */
			assert_true(cached <= n);
#if defined(__x86_64__)
			if (n >= 512)
				assert_int_equal(cached, (size_t)(-(uintptr_t)(b + off) % 256));
#endif
			for (size_t i = 0; i < cap; i++)
				assert_int_equal(b[i], i >= off && i < off + n ?
						 0 : 0x5a);
		}
	}
	free(b);
}

/* whatever this CPU has (AVX2 on most hosts) */
static void test_zero_ranges(void **state)
{
	(void)state;
	famfs_zero_avx2 = -1;
	zero_ranges();
}

/* the SSE2 path, as on a CPU without AVX2 */
static void test_zero_ranges_sse2(void **state)
{
	(void)state;
	famfs_zero_avx2 = 0;
	zero_ranges();
	famfs_zero_avx2 = -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_ranges),
		cmocka_unit_test(test_zero_ranges_sse2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
