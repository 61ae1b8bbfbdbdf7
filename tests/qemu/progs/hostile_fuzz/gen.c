// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: generators: boundary values, valid and mutated maps, user pointers
 * and the ia32 compat entry
 */
#include "fuzz.h"

uint64_t rs;

/* ---- user pointers ------------------------------------------------------ */
char *arena;		/* RW page, then a PROT_NONE page */
char *ro_page;		/* a read-only page */
char *arena32;		/* RW page below 4 GiB, for int $0x80 */
size_t pg;

/* Where the argument goes.  @need: bytes the kernel reads or writes. */
void *place(enum ptr_kind k, size_t need, int *bad_read, int *bad_write)
{
	*bad_read = *bad_write = 0;
	switch (k) {
	case P_OK:
		return arena + 64;
	case P_MISALIGNED:
		return arena + 128 + 1 + below(7);
	case P_NULL:
		*bad_read = *bad_write = 1;
		return NULL;
	case P_LOW:
		*bad_read = *bad_write = 1;
		return (void *)(uintptr_t)(8 + below(4000));
	case P_KERNEL:
		*bad_read = *bad_write = 1;
		return chance(50) ? (void *)0xffff888000000000ULL :
				    (void *)(uintptr_t)U64_MAX - 8;
	case P_UNMAPPED:
		*bad_read = *bad_write = 1;
		return arena + pg + below(pg - 64);
	case P_STRADDLE: {
		/* the last byte or more of the argument falls off the page */
		size_t cut = need && chance(70) ? 1 + below(need) : 0;

		*bad_read = *bad_write = cut > 0;
		return arena + pg - need + cut;
	}
	case P_RDONLY:
		*bad_write = 1;
		return ro_page + 8 * below(8);
	default:
		return arena;
	}
}

/* ioctl through the ia32 compat entry (int $0x80): compat_ptr_ioctl. */
long ioctl32(int fd, unsigned int cmd, uint32_t arg)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(54L), "b"((long)fd), "c"((long)cmd), "d"((long)arg)
			 : "memory", "r8", "r9", "r10", "r11");
	ret = (int)ret;
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* 1 if int $0x80 reaches the ia32 syscall table (tried in a child). */
int compat_probe(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		long ret;

		__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) /* getpid */
				 : "memory", "r8", "r9", "r10", "r11");
		_exit((int)ret == getpid() ? 0 : 1);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       WEXITSTATUS(st) == 0;
}

/* ---- maps ---------------------------------------------------------------- */
static uint64_t units(void)
{
	return devsz / TWO_MiB;
}

uint64_t boundary64(void)
{
	static const uint64_t fixed[] = {
		0, 1, TWO_MiB - 1, TWO_MiB, TWO_MiB + 1, 4096, 2 * TWO_MiB,
		U64_MAX, U64_MAX - TWO_MiB + 1, 1ULL << 63, (1ULL << 63) - TWO_MiB,
		1ULL << 32, 1ULL << 40,
	};
	uint64_t d = 1 + below(TWO_MiB);

	switch (below(8)) {
	case 0: case 1:
		return fixed[below(sizeof(fixed) / sizeof(fixed[0]))];
	case 2:	/* around the end of the device */
		switch (below(6)) {
		case 0: return devsz;
		case 1: return devsz - TWO_MiB;
		case 2: return devsz + TWO_MiB;
		case 3: return devsz - d;
		case 4: return devsz + d;
		default: return devsz - 1;
		}
	case 3:	/* offsets of maps that exist: superblock, log, files */
		if (nstat && chance(60))
			return stat_ext[below(nstat)].off + TWO_MiB * below(2);
		{
			struct ffile *f = pick(1, 1);

			return f ? f->map.ext_list[0].offset : TWO_MiB;
		}
	case 4:
		return rnd();
	case 5:
		return below(units() + 2) * TWO_MiB;
	case 6:
		return below(8) * TWO_MiB + (chance(50) ? 0 : below(TWO_MiB));
	default:
		return rnd() >> below(64);
	}
}

uint32_t boundary32(void)
{
	static const uint32_t fixed[] = {
		0, 1, 2, 3, 4, 12, 13, 14, 0x7fffffff, 0x80000000, 0xffffffff,
		0x100 + 13,
	};

	return chance(80) ? fixed[below(sizeof(fixed) / sizeof(fixed[0]))] :
			    (uint32_t)rnd();
}

/* A valid map, placed on memory that is free if that is easy to find. */
void valid_map(struct famfs_ioc_map *m)
{
	uint64_t n = 1 + below(2), total = 0, nu = small_units();

	memset(m, 0, sizeof(*m));
	m->extent_type = SIMPLE_DAX_EXTENT;
	m->file_type = chance(90) ? FAMFS_REG : chance(50) ? FAMFS_LOG :
					       FAMFS_SUPERBLOCK;
	m->ext_list_count = n;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t k = 1 + below(chance(80) ? 3 : 16), len = k * TWO_MiB;
		uint64_t u = 1;

		if (i + 1 == n && chance(40))
			len -= 1 + below(TWO_MiB - 1);
		for (int tries = 0; tries < 12; tries++) {
			if (multi && chance(30))
				u = hot_unit + below(8);
			else
				u = 1 + below(nu > k ? nu - k : 1);
			if (!known_overlap(u * TWO_MiB, len, NULL) &&
			    !(i && overlaps(u * TWO_MiB, len,
					    m->ext_list[0].offset,
					    m->ext_list[0].len)))
				break;
			if (chance(15))	/* sometimes keep the clash */
				break;
		}
		m->ext_list[i].offset = u * TWO_MiB;
		m->ext_list[i].len = len;
		total += len;
	}
	if (m->file_type == FAMFS_SUPERBLOCK)
		m->ext_list[0].offset = 0;
	switch (below(5)) {
	case 0: m->file_size = 0; break;
	case 1: m->file_size = total; break;
	case 2: m->file_size = total - 1; break;
	case 3: m->file_size = 1; break;
	default: m->file_size = below(total + 1); break;
	}
}

void mutate(struct famfs_ioc_map *m)
{
	int fields = chance(80) ? 1 : 2;

	if (chance(5)) {		/* random bytes */
		uint64_t *w = (uint64_t *)m;

		for (size_t i = 0; i < sizeof(*m) / 8; i++)
			w[i] = rnd();
		if (chance(50))		/* mostly keep the count sane */
			m->ext_list_count = below(4);
		return;
	}
	while (fields--) {
		switch (below(9)) {
		case 0: m->extent_type = boundary32(); break;
		case 1: m->file_type = boundary32(); break;
		case 2: m->file_size = chance(50) ? boundary64() :
				       m->file_size + below(3) - 1;
			break;
		case 3: {
			static const uint64_t c[] = { 0, 1, 2, 3, 4, 255,
				1ULL << 32, U64_MAX, 1ULL << 63 };

			m->ext_list_count = chance(85) ?
				c[below(sizeof(c) / sizeof(c[0]))] : rnd();
			break;
		}
		case 4: case 5:
			m->ext_list[below(2)].offset = boundary64();
			break;
		default:
			m->ext_list[below(2)].len = boundary64();
			break;
		}
	}
}

