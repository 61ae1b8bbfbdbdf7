// SPDX-License-Identifier: GPL-2.0
/* famfs_crc32 (lib/media/crc32.c: carry-less multiply when the CPU has it, issue
 * 17) equals zlib's crc32 for every length and alignment, and costs less
 * than 1.5 instructions per byte is not tested here (the bench shows it). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "th.h"

static void test_equals_zlib(void **state)
{
	static uint8_t buf[8192 + 64];
	uint64_t s = 1;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		buf[i] = (uint8_t)(s >> 56);
	}
	for (size_t len = 0; len <= 8192; len += len < 300 ? 1 : 61)
		for (size_t off = 0; off < 16; off += len < 300 ? 5 : 1)
			assert_int_equal(famfs_crc32(buf + off, len),
					 (uint32_t)crc32(0L, buf + off, (uInt)len));
	memset(buf, 0, sizeof(buf));
	assert_int_equal(famfs_crc32(buf, 1024), (uint32_t)crc32(0L, buf, 1024));
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(famfs_crc32(buf, 4096), (uint32_t)crc32(0L, buf, 4096));
	print_message("# carry-less multiply: %s\n",
		      famfs_crc32_fast() ? "yes" : "no (zlib)");
}

/* from a CRC so far (a compact entry's: seeded with the fs uuid), as
 * zlib's crc32(crc, buf, len) goes on */
static void test_update_equals_zlib(void **state)
{
	static uint8_t buf[4096 + 16];
	uint64_t s = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		buf[i] = (uint8_t)(s >> 56);
	}
	for (size_t len = 0; len <= 4096; len += len < 300 ? 7 : 253) {
		uint32_t seed = (uint32_t)crc32(0L, buf + 4096, 16);

		assert_int_equal(famfs_crc32_update(seed, buf + (len & 7), len),
				 (uint32_t)crc32(seed, buf + (len & 7), (uInt)len));
		assert_int_equal(famfs_crc32_update(0xdeadbeef, buf, len),
				 (uint32_t)crc32(0xdeadbeef, buf, (uInt)len));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equals_zlib),
		cmocka_unit_test(test_update_equals_zlib),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
