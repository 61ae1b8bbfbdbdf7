// SPDX-License-Identifier: GPL-2.0
/* Seeded test pattern: word i of the file is splitmix64(seed, i). */
#include <string.h>

#include "base/base.h"

static inline uint64_t word(uint64_t seed, uint64_t i)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (i + 1) * 0xbf58476d1ce4e5b9ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void famfs_pattern_fill(void *buf, uint64_t len, uint64_t seed)
{
	uint8_t *b = buf;
	uint64_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w = word(seed, i / 8);

		memcpy(b + i, &w, 8);
	}
	if (i < len) {
		uint64_t w = word(seed, i / 8);

		memcpy(b + i, &w, len - i);
	}
}

int64_t famfs_pattern_check(const void *buf, uint64_t len, uint64_t seed)
{
	const uint8_t *b = buf;

	for (uint64_t i = 0; i < len; i += 8) {
		uint64_t w = word(seed, i / 8);
		uint64_t n = len - i < 8 ? len - i : 8;

		if (memcmp(b + i, &w, n))
			for (uint64_t k = 0; k < n; k++)
				if (b[i + k] != ((uint8_t *)&w)[k])
					return (int64_t)(i + k);
	}
	return -1;
}
