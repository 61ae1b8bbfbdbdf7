// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_corrupt: damage famfs metadata on a device (or image file) on
 * purpose, byte by byte, while it is not mounted.
 *
 *   hostile_corrupt DEV save OFF LEN FILE     device bytes -> FILE
 *   hostile_corrupt DEV restore OFF FILE      FILE -> device at OFF
 *   hostile_corrupt DEV flip OFF BIT          flip bit BIT (0..7) of byte OFF
 *   hostile_corrupt DEV set OFF WIDTH VALUE   store VALUE, little-endian,
 *                                             WIDTH 1, 2, 4 or 8 bytes
 *   hostile_corrupt DEV str OFF LEN STRING    STRING, NUL-padded to LEN bytes
 *   hostile_corrupt DEV fill OFF LEN BYTE     LEN bytes of BYTE
 *   hostile_corrupt DEV random OFF LEN SEED   LEN seeded random bytes
 *   hostile_corrupt DEV copy FROM TO LEN      device bytes FROM -> TO
 *   hostile_corrupt DEV crc sb|hdr|IDX|cIDX   recompute the CRC of the
 *                                             superblock, the log header,
 *                                             v1 log entry IDX, or the
 *                                             compact entry at slot IDX
 *                                             (its nslots; seeded with the
 *                                             superblock's fs uuid)
 *   hostile_corrupt DEV get OFF WIDTH         print a little-endian value
 *
 * DEV may also be a mounted famfs's .meta/.log (on the master): set
 * HOSTILE_LOG_BASE=0 so that crc hdr|IDX find the log at offset 0.
 * Numbers take 0x hex and K/M/G suffixes.  Block devices and files are
 * read and written with O_DIRECT (4 KiB read-modify-write: no page cache
 * between this and the next mount), character devices (devdax) through a
 * shared mapping.  Exit 0 ok, 2 usage or I/O error.
 */
#include "dev_test.h"
#include <stddef.h>
#include <linux/famfs_format.h>

static int fd, chr;
static uint64_t log_base = FAMFS_LOG_OFFSET;

/* Read (write = 0) or write [off, off+len) of the device. */
static void io(int write, uint64_t off, void *buf, uint64_t len)
{
	struct dt_span s;

	if (!len)
		return;
	dt_get(&s, fd, chr, PROT_READ | PROT_WRITE, ALIGN_IO, off, len);
	if (write)
		memcpy(s.p, buf, len);
	else
		memcpy(buf, s.p, len);
	dt_put(&s, fd, write, 1);
}

/* CRC-32 (IEEE, reflected), as zlib's crc32(crc, buf, len). */
static uint32_t crc32_z(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t tab[256];
	const uint8_t *p = buf;
	uint32_t c = crc ^ 0xffffffff;

	if (!tab[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t v = i;

			for (int k = 0; k < 8; k++)
				v = v & 1 ? 0xedb88320 ^ (v >> 1) : v >> 1;
			tab[i] = v;
		}
	while (len--)
		c = tab[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffff;
}

static uint32_t crc32_ieee(const void *buf, size_t len)
{
	return crc32_z(0, buf, len);
}

static void put_le(uint8_t *p, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int width)
{
	uint64_t v = 0;

	for (int i = 0; i < width; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/*
 * The compact entry at slot @slot: crc32(crc32(0, fs_uuid, 16), its nslots
 * (1..FAMFS_CLOG_MAX_SLOTS, else 1) x 256 bytes with crc = 0).
 */
static void fix_clog_crc(uint64_t slot)
{
	uint8_t b[FAMFS_CLOG_MAX_ENTRY], uuid[16];
	uint64_t off = log_base + FAMFS_LOG_HDR_SIZE + slot * FAMFS_CLOG_SLOT;
	unsigned int n;

	io(0, FAMFS_SB_OFFSET + offsetof(struct famfs_superblock, fs_uuid),
	   uuid, sizeof(uuid));
	io(0, off, b, FAMFS_CLOG_SLOT);
	n = b[offsetof(struct famfs_clog_hdr, nslots)];
	if (n < 1 || n > FAMFS_CLOG_MAX_SLOTS)
		n = 1;
	io(0, off, b, n * FAMFS_CLOG_SLOT);
	put_le(b + offsetof(struct famfs_clog_hdr, crc), 0, 4);
	put_le(b + offsetof(struct famfs_clog_hdr, crc),
	       crc32_z(crc32_ieee(uuid, sizeof(uuid)), b, n * FAMFS_CLOG_SLOT),
	       4);
	io(1, off, b, FAMFS_CLOG_SLOT);
}

static void fix_crc(const char *what)
{
	uint8_t b[FAMFS_LOG_ENTRY_SIZE];
	uint64_t off;
	size_t len, crc_at;

	if (what[0] == 'c') {
		fix_clog_crc(num(what + 1));
		return;
	}
	if (!strcmp(what, "sb")) {
		off = FAMFS_SB_OFFSET;
		len = FAMFS_SB_SIZE;
		crc_at = 12;
	} else if (!strcmp(what, "hdr")) {
		off = log_base;
		len = FAMFS_LOG_HDR_SIZE;
		crc_at = 8;
	} else {
		off = log_base + FAMFS_LOG_HDR_SIZE +
		      num(what) * FAMFS_LOG_ENTRY_SIZE;
		len = FAMFS_LOG_ENTRY_SIZE;
		crc_at = 8;
	}
	io(0, off, b, len);
	put_le(b + crc_at, 0, 4);
	if (!strcmp(what, "hdr")) {	/* next_index is not covered */
		uint8_t t[FAMFS_LOG_HDR_SIZE];

		memcpy(t, b, len);
		put_le(t + 16, 0, 8);
		put_le(b + crc_at, crc32_ieee(t, len), 4);
	} else {
		put_le(b + crc_at, crc32_ieee(b, len), 4);
	}
	io(1, off, b, len);
}

int main(int argc, char **argv)
{
	const char *cmd;
	struct stat st;
	uint8_t *buf;
	uint64_t off, len;

	if (argc < 3)
		goto usage;
	if (getenv("HOSTILE_LOG_BASE"))
		log_base = num(getenv("HOSTILE_LOG_BASE"));
	cmd = argv[2];
	if (stat(argv[1], &st))
		die(argv[1]);
	chr = S_ISCHR(st.st_mode);
	fd = open(argv[1], O_RDWR | (chr ? 0 : O_DIRECT));
	if (fd < 0)
		die(argv[1]);

	if (!strcmp(cmd, "save") && argc == 6) {
		FILE *f = fopen(argv[5], "w");

		off = num(argv[3]);
		len = num(argv[4]);
		buf = malloc(len);
		if (!f || !buf)
			die(argv[5]);
		io(0, off, buf, len);
		if (fwrite(buf, 1, len, f) != len || fclose(f))
			die(argv[5]);
	} else if (!strcmp(cmd, "restore") && argc == 5) {
		FILE *f = fopen(argv[4], "r");

		if (!f || fstat(fileno(f), &st))
			die(argv[4]);
		buf = malloc(st.st_size);
		if (!buf || fread(buf, 1, st.st_size, f) != (size_t)st.st_size)
			die(argv[4]);
		io(1, num(argv[3]), buf, st.st_size);
		fclose(f);
	} else if (!strcmp(cmd, "flip") && argc == 5) {
		uint8_t b;

		off = num(argv[3]);
		io(0, off, &b, 1);
		b ^= (uint8_t)(1u << (num(argv[4]) & 7));
		io(1, off, &b, 1);
	} else if (!strcmp(cmd, "set") && argc == 6) {
		uint8_t b[8];
		int w = (int)num(argv[4]);

		if (w != 1 && w != 2 && w != 4 && w != 8)
			goto usage;
		put_le(b, num(argv[5]), w);
		io(1, num(argv[3]), b, w);
	} else if (!strcmp(cmd, "get") && argc == 5) {
		uint8_t b[8];
		int w = (int)num(argv[4]);

		if (w != 1 && w != 2 && w != 4 && w != 8)
			goto usage;
		io(0, num(argv[3]), b, w);
		printf("%llu\n", (unsigned long long)get_le(b, w));
	} else if (!strcmp(cmd, "str") && argc == 6) {
		len = num(argv[4]);
		buf = calloc(1, len + 1);
		if (!buf)
			die("memory");
		memcpy(buf, argv[5], strnlen(argv[5], len));
		io(1, num(argv[3]), buf, len);
	} else if (!strcmp(cmd, "fill") && argc == 6) {
		len = num(argv[4]);
		buf = malloc(len);
		if (!buf)
			die("memory");
		memset(buf, (int)num(argv[5]), len);
		io(1, num(argv[3]), buf, len);
	} else if (!strcmp(cmd, "random") && argc == 6) {
		uint64_t s = num(argv[5]);

		len = num(argv[4]);
		buf = malloc(len);
		if (!buf)
			die("memory");
		for (uint64_t i = 0; i < len; i++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = (uint8_t)(s >> 56);
		}
		io(1, num(argv[3]), buf, len);
	} else if (!strcmp(cmd, "copy") && argc == 6) {
		len = num(argv[5]);
		buf = malloc(len);
		if (!buf)
			die("memory");
		io(0, num(argv[3]), buf, len);
		io(1, num(argv[4]), buf, len);
	} else if (!strcmp(cmd, "crc") && argc == 4) {
		fix_crc(argv[3]);
	} else {
		goto usage;
	}
	close(fd);
	return 0;
usage:
	fprintf(stderr, "usage: hostile_corrupt DEV save OFF LEN FILE | restore OFF FILE | flip OFF BIT |\n"
		"       set OFF WIDTH VALUE | get OFF WIDTH | str OFF LEN STRING | fill OFF LEN BYTE |\n"
		"       random OFF LEN SEED | copy FROM TO LEN | crc sb|hdr|IDX|cIDX\n");
	return 2;
}
