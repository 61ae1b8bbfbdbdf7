// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: the calls, and the loop that mixes them
 */
#include "fuzz.h"

/* ---- the calls ----------------------------------------------------------- */
long nc_create, nc_accept, nc_get, nc_getext, nc_nop, nc_unknown,
	nc_dir, nc_efault, nc_size, nc_free, nc_compat, nc_mmap;
long nerr[NDOC + 1];

void count_errno(long *tab, long rc, int e)
{
	int i;

	if (rc == 0)
		return;
	for (i = 0; i < NDOC && documented[i] != e; i++)
		;
	tab[i]++;
}

/* After a refused MAP_CREATE on an unmapped file: still unmapped, empty. */
void check_unmapped(struct ffile *f)
{
	struct famfs_ioc_map got;
	struct stat st;

	ncheck[C_UNMAPPED_AFTER]++;
	if (ioctl(f->fd, FAMFSIOC_MAP_GET, &got) != -1 || errno != ENODATA)
		bad(C_UNMAPPED_AFTER, "%s: MAP_GET after a refused MAP_CREATE: %s",
		    f->path, errno == ENODATA ? "0" : t_errname(errno));
	else if (fstat(f->fd, &st) || st.st_size || st.st_blocks)
		bad(C_UNMAPPED_AFTER, "%s: size %lld blocks %lld after a refused MAP_CREATE",
		    f->path, (long long)st.st_size, (long long)st.st_blocks);
}

static void accepted(struct ffile *f, const struct famfs_ioc_map *m)
{
	struct famfs_ioc_map got;
	struct famfs_extent ext[FAMFS_MAX_EXTENTS + 1];
	struct stat st;
	char s1[200], s2[200], w[160];
	struct vmap vm;

	nc_accept++;
	vm_from_v1(&vm, m);
	model_map(f, &vm, 0);
	f->pat = rnd();
	ncheck[C_ACCEPTED]++;
	map_str(m, s1, sizeof(s1));
	if (!map_sane(m, w, sizeof(w)))
		bad(C_ACCEPTED, "accepted an invalid map %s: %s", s1, w);
	memset(&got, 0xa5, sizeof(got));
	if (ioctl(f->fd, FAMFSIOC_MAP_GET, &got)) {
		bad(C_ACCEPTED, "MAP_GET after accepting %s: %s", s1,
		    t_errname(errno));
	} else if (!map_eq(m, &got)) {
		map_str(&got, s2, sizeof(s2));
		bad(C_ACCEPTED, "sent %s, MAP_GET returned %s", s1, s2);
	}
	memset(ext, 0xa5, sizeof(ext));
	if (ioctl(f->fd, FAMFSIOC_MAP_GETEXT, ext))
		bad(C_ACCEPTED, "MAP_GETEXT after accepting %s: %s", s1,
		    t_errname(errno));
	else if (memcmp(ext, m->ext_list, m->ext_list_count * sizeof(ext[0])) ||
		 ext[m->ext_list_count].offset != 0xa5a5a5a5a5a5a5a5ULL)
		bad(C_ACCEPTED, "MAP_GETEXT of %s differs or wrote past %llu extents",
		    s1, (unsigned long long)m->ext_list_count);
	if (fstat(f->fd, &st) || (uint64_t)st.st_size != m->file_size ||
	    (uint64_t)st.st_blocks != claim(m) / 512)
		bad(C_ACCEPTED, "%s: st_size %lld st_blocks %lld for %s",
		    f->path, (long long)st.st_size, (long long)st.st_blocks, s1);
	pat_write(f);
}

void do_create(struct ffile *f, int valid_only)
{
	struct famfs_ioc_map m, *arg;
	int overlap, br, bw, e, via32 = 0;
	enum ptr_kind k = P_OK;
	unsigned set;
	char s[200], es[120];
	long rc;

	valid_map(&m);
	if (!valid_only && chance(55))
		mutate(&m);
	if (chance(6))
		k = P_MISALIGNED;
	else if (chance(7))
		k = (enum ptr_kind)(P_NULL + below(P_NKINDS - P_NULL));
	arg = place(k, sizeof(m), &br, &bw);
	if (k == P_RDONLY)
		mprotect(ro_page, 2 * pg, PROT_READ | PROT_WRITE);
	if (!br)
		memcpy(arg, &m, sizeof(m));
	if (k == P_RDONLY)
		mprotect(ro_page, 2 * pg, PROT_READ);
	if (k == P_STRADDLE)	/* the bytes that fit */
		memcpy(arg, &m, (size_t)(arena + pg - (char *)arg));
	set = br ? (nonroot ? bit(EPERM) : bit(EFAULT)) :
		   predict(&m, f->mapped, f->others, &overlap);
	if (br)
		overlap = 0, nc_efault++;
	nc_create++;
	if (compat_ok && !br && chance(4)) {
		memcpy(arena32, &m, sizeof(m));
		via32 = 1;
		nc_compat++;
		rc = ioctl32(f->fd, FAMFSIOC_MAP_CREATE, (uint32_t)(uintptr_t)arena32);
	} else {
		rc = ioctl(f->fd, FAMFSIOC_MAP_CREATE, arg);
	}
	e = errno;
	count_errno(nerr, rc, e);
	map_str(&m, s, sizeof(s));
	ncheck[br ? C_EFAULT : via32 ? C_COMPAT : C_CREATE]++;
	if (nonroot)
		ncheck[C_EPERM]++;
	/* -F: after the failure every create gets EIO (or what comes first:
	 * EPERM, EFAULT, EROFS, EEXIST) */
	if (failing && !br && !nonroot && rc == -1 && e == EIO) {
		if (!f->mapped)
			check_unmapped(f);
		return;
	}
	if (!br && scanner_busy(f, rc, e))
		return;
	if (set) {
		if (rc == 0) {
			set_str(set, es, sizeof(es));
			bad(nonroot ? C_EPERM : br ? C_EFAULT : C_CREATE,
			    "MAP_CREATE %s (ptr kind %d) succeeded, expected %s",
			    s, k, es);
			if (!f->mapped)
				accepted(f, &m);
		} else if (!(bit(e) & set)) {
			set_str(set, es, sizeof(es));
			bad(nonroot ? C_EPERM : br ? C_EFAULT : via32 ? C_COMPAT :
			    C_CREATE, "MAP_CREATE %s%s (ptr kind %d): %s, expected %s",
			    s, via32 ? " via int80" : "", k, t_errname(e), es);
		} else if (!f->mapped) {
			check_unmapped(f);
		}
		return;
	}
	if (rc == 0) {
		if (overlap)
			bad(via32 ? C_COMPAT : C_CREATE,
			    "MAP_CREATE %s: accepted, but it overlaps a known map",
			    s);
		accepted(f, &m);
		return;
	}
	if (e == EADDRINUSE && (overlap || multi)) {
		check_unmapped(f);
		return;
	}
	bad(via32 ? C_COMPAT : C_CREATE, "MAP_CREATE %s%s: %s, expected %s",
	    s, via32 ? " via int80" : "", t_errname(e),
	    overlap ? "EADDRINUSE" : "success");
	if (!f->mapped)
		check_unmapped(f);
}

void do_get(struct ffile *f)
{
	enum ptr_kind k = chance(80) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	int br, bw, e, via32 = 0;
	struct famfs_ioc_map *arg = place(k, sizeof(*arg), &br, &bw), got;
	char s1[200], s2[200];
	long rc;

	nc_get++;
	if (!bw)
		memset(arg, 0x5a, sizeof(*arg));
	if (compat_ok && !bw && chance(5)) {
		via32 = 1;
		nc_compat++;
		rc = ioctl32(f->fd, FAMFSIOC_MAP_GET, (uint32_t)(uintptr_t)arena32);
		arg = (void *)arena32;
	} else {
		rc = ioctl(f->fd, FAMFSIOC_MAP_GET, arg);
	}
	e = errno;
	if (f->mapped && !f->v1ok) {	/* a v2 map v1 cannot express */
		nc_v1ovf++;
		ncheck[C_V1_EOVERFLOW]++;
		if (rc != -1 || e != EOVERFLOW)
			bad(C_V1_EOVERFLOW, "MAP_GET%s of a map v1 cannot express (ptr kind %d): %s, expected EOVERFLOW",
			    via32 ? " via int80" : "", k, rc ? t_errname(e) : "0");
		return;
	}
	ncheck[bw && f->mapped ? C_EFAULT : via32 ? C_COMPAT : C_GET]++;
	if (!f->mapped) {
		if (rc != -1 || e != ENODATA)
			bad(via32 ? C_COMPAT : C_GET, "MAP_GET on an unmapped file: %s, expected ENODATA",
			    rc ? t_errname(e) : "0");
		return;
	}
	if (bw) {
		nc_efault++;
		if (rc != -1 || e != EFAULT)
			bad(C_EFAULT, "MAP_GET to a bad pointer (kind %d): %s, expected EFAULT",
			    k, rc ? t_errname(e) : "0");
		return;
	}
	memcpy(&got, arg, sizeof(got));
	if (rc) {
		bad(via32 ? C_COMPAT : C_GET, "MAP_GET: %s", t_errname(e));
	} else if (!map_eq(&got, &f->map)) {
		map_str(&f->map, s1, sizeof(s1));
		map_str(&got, s2, sizeof(s2));
		bad(via32 ? C_COMPAT : C_GET, "MAP_GET%s: %s, model has %s",
		    via32 ? " via int80" : "", s2, s1);
	}
}

static void do_getext(struct ffile *f)
{
	size_t need = f->mapped && f->v1ok ? f->map.ext_list_count * 16 : 0;
	enum ptr_kind k = chance(80) ? P_OK : (enum ptr_kind)below(P_NKINDS);
	int br, bw, e;
	char *arg = place(k, need, &br, &bw);
	long rc;

	nc_getext++;
	if (k == P_OK || k == P_MISALIGNED)
		memset(arg, 0x5a, need + 16);
	rc = ioctl(f->fd, FAMFSIOC_MAP_GETEXT, arg);
	e = errno;
	if (f->mapped && !f->v1ok) {	/* a v2 map v1 cannot express */
		nc_v1ovf++;
		ncheck[C_V1_EOVERFLOW]++;
		if (rc != -1 || e != EOVERFLOW)
			bad(C_V1_EOVERFLOW, "MAP_GETEXT of a map v1 cannot express (ptr kind %d): %s, expected EOVERFLOW",
			    k, rc ? t_errname(e) : "0");
		return;
	}
	ncheck[bw && f->mapped ? C_EFAULT : C_GETEXT]++;
	if (!f->mapped) {
		if (rc != -1 || e != ENODATA)
			bad(C_GETEXT, "MAP_GETEXT on an unmapped file: %s, expected ENODATA",
			    rc ? t_errname(e) : "0");
		return;
	}
	if (bw) {
		nc_efault++;
		if (rc != -1 || e != EFAULT)
			bad(C_EFAULT, "MAP_GETEXT of %zu bytes to a bad pointer (kind %d): %s, expected EFAULT",
			    need, k, rc ? t_errname(e) : "0");
		return;
	}
	if (rc)
		bad(C_GETEXT, "MAP_GETEXT: %s", t_errname(e));
	else if (memcmp(arg, f->map.ext_list, need))
		bad(C_GETEXT, "MAP_GETEXT returned other extents than the model's");
	else if ((k == P_OK || k == P_MISALIGNED) &&
		 memcmp(arg + need, "\x5a\x5a\x5a\x5a\x5a\x5a\x5a\x5a", 8))
		bad(C_GETEXT, "MAP_GETEXT wrote past %zu bytes", need);
}

static void do_nop(struct ffile *f)
{
	long rc;

	nc_nop++;
	ncheck[C_NOP]++;
	if (compat_ok && chance(20)) {
		nc_compat++;
		rc = ioctl32(f->fd, FAMFSIOC_NOP, 0);
	} else {
		rc = ioctl(f->fd, FAMFSIOC_NOP, rnd());
	}
	if (rc)
		bad(C_NOP, "NOP: %s", t_errname(errno));
}

/*
 * FAMFSIOC_CACHE, as famfs_ioctl.h orders its errors.  The errno is the same
 * in both modes: on a coherent mount a valid call does nothing and returns
 * 0; on a noncoherent one (-N) it writes back or invalidates the range and
 * returns 0, and its bytes are counted (nc_cache_*) for the suite to compare
 * with the famfs:famfs_cache tracepoint.
 */
long nc_cache_ok;
uint64_t nc_cache_wb, nc_cache_inv;

static void do_cache(struct ffile *f)
{
	static const unsigned int flags[] = {
		FAMFS_CACHE_WRITEBACK, FAMFS_CACHE_INVALIDATE,
		FAMFS_CACHE_WRITEBACK | FAMFS_CACHE_INVALIDATE, 0, 4, 1U << 31,
	};
	uint64_t sz = f->mapped ? f->map.file_size : 0;
	const uint64_t offs[] = { 0, sz / 2, sz ? sz - 1 : 0, sz, sz + 1, rnd() };
	struct famfs_ioc_cache c = { 0 };
	int null = chance(8), want;
	long rc;
	int e;

	ncheck[C_CACHE]++;
	c.flags = flags[below(6)];
	c.reserved = chance(8);
	c.offset = offs[below(6)];
	switch (below(6)) {
	case 0: c.length = 0; break;
	case 1: c.length = 1; break;
	case 2: c.length = sz - c.offset; break;
	case 3: c.length = sz - c.offset + 1; break;
	case 4: c.length = ~0ULL; break;
	default: c.length = rnd(); break;
	}
	/* -N: a third of the calls are valid, so that the flushes and
	 * invalidations really run (random fields rarely make a valid one) */
	if (noncoherent && f->mapped && sz && chance(33)) {
		null = 0;
		c.flags = flags[below(3)];
		c.reserved = 0;
		c.offset = below(sz);
		c.length = 1 + below(sz - c.offset);
	}
	if (null)
		want = EFAULT;
	else if (!c.flags ||
		 (c.flags & ~(FAMFS_CACHE_WRITEBACK | FAMFS_CACHE_INVALIDATE)))
		want = EINVAL;
	else if (c.reserved)
		want = EINVAL;
	else if (!f->mapped)
		want = ENODEV;
	else if (!c.length || c.offset + c.length < c.offset ||
		 c.offset + c.length > sz)
		want = EINVAL;
	else
		want = 0;
	rc = ioctl(f->fd, FAMFSIOC_CACHE, null ? NULL : &c);
	e = rc ? errno : 0;
	if (failing && want == 0 && e == EIO)
		return;
	if (!e && !want) {
		nc_cache_ok++;
		if (c.flags & FAMFS_CACHE_INVALIDATE)
			nc_cache_inv += c.length;
		else
			nc_cache_wb += c.length;
	}
	if (e != want)
		bad(C_CACHE, "CACHE flags %#x reserved %u off %llu len %llu on a %s file of %llu bytes: %s, expected %s",
		    c.flags, c.reserved, (unsigned long long)c.offset,
		    (unsigned long long)c.length, f->mapped ? "mapped" : "unmapped",
		    (unsigned long long)sz, t_errname(e), t_errname(want));
}

const unsigned int known_cmds[NKNOWN] = {
	FAMFSIOC_MAP_CREATE, FAMFSIOC_MAP_GET, FAMFSIOC_MAP_GETEXT,
	FAMFSIOC_NOP, FAMFSIOC_MAP_CREATE_V2, FAMFSIOC_MAP_GET_V2,
	FAMFSIOC_CACHE, FAMFSIOC_DEV_ADD, FAMFSIOC_MAP_CREATE_V3,
	FAMFSIOC_MAP_GET_V3, FAMFSIOC_DEV_GET, FAMFSIOC_NS, FAMFSIOC_HELD,
	FAMFSIOC_UNLINK_MAP,
};
int skip_nr[256];	/* in famfs_ioctl.h but not modelled here */

static int is_known(unsigned int cmd)
{
	for (size_t i = 0; i < sizeof(known_cmds) / sizeof(known_cmds[0]); i++)
		if (known_cmds[i] == cmd)
			return 1;
	return 0;
}

static unsigned int unknown_cmd(void)
{
	unsigned int cmd;

	do {
		unsigned int nr = chance(50) ? 1 + (unsigned int)below(8) :
					       (unsigned int)below(256);
		unsigned int size;

		switch (below(4)) {
		case 0: size = FAMFS_IOC_MAP_SIZE + (unsigned int)below(17) - 8; break;
		case 1: size = FAMFS_IOC_EXTENT_SIZE * (unsigned int)below(4); break;
		case 2: size = (unsigned int)below(1 << _IOC_SIZEBITS); break;
		default: size = 0; break;
		}
		cmd = _IOC((unsigned int)below(4), FAMFSIOC_MAGIC, nr, size);
		if (skip_nr[nr])
			cmd = known_cmds[0];
	} while (is_known(cmd));
	return cmd;
}

static void do_unknown(struct ffile *f, int dirfd)
{
	unsigned int cmd = dirfd >= 0 && chance(50) ?
		known_cmds[below(NKNOWN)] : unknown_cmd();

	/* A directory answers the device ioctls (calls4.c), FAMFSIOC_NS
	 * (calls6.c), FAMFSIOC_HELD (calls7.c) and FAMFSIOC_UNLINK_MAP
	 * (calls8.c). */
	while (dirfd >= 0 && (is_dev_cmd(cmd) || cmd == FAMFSIOC_NS ||
			      cmd == FAMFSIOC_HELD || cmd == FAMFSIOC_UNLINK_MAP))
		cmd = known_cmds[below(NKNOWN)];
	void *arg = chance(50) ? (void *)arena : (void *)(uintptr_t)rnd();
	int fd = dirfd >= 0 ? dirfd : f->fd;
	long rc;

	if (dirfd >= 0)
		nc_dir++;
	else
		nc_unknown++;
	ncheck[C_ENOTTY]++;
	rc = ioctl(fd, cmd, arg);
	if (rc != -1 || errno != ENOTTY)
		bad(C_ENOTTY, "ioctl %#x on a %s: %s, expected ENOTTY", cmd,
		    dirfd >= 0 ? "directory" : "file",
		    rc ? t_errname(errno) : "0");
}

/* truncate / write / fallocate / mmap must never give a file a size. */
static void do_size(struct ffile *f)
{
	uint64_t sz = f->mapped ? f->map.file_size : 0;
	char b[16] = "hostile";
	long rc;
	int e;

	nc_size++;
	ncheck[C_SIZE]++;
	switch (below(5)) {
	case 0: {
		static const uint64_t v[] = { 0, 1, 4096, TWO_MiB, 1ULL << 40 };
		uint64_t to = chance(30) ? sz : chance(30) ? sz + 1 :
			      v[below(5)];

		rc = ftruncate(f->fd, (off_t)to);
		e = errno;
		if (to == sz ? rc != 0 : (rc != -1 || e != EPERM))
			bad(C_SIZE, "ftruncate(%llu) of a %s file of %llu bytes: %s",
			    (unsigned long long)to, f->mapped ? "mapped" : "unmapped",
			    (unsigned long long)sz, rc ? t_errname(e) : "0");
		break;
	}
	case 1: {
		uint64_t at = chance(50) ? sz : sz + below(1ULL << 30);

		rc = pwrite(f->fd, b, sizeof(b), (off_t)at);
		e = errno;
		if (rc != -1 || e != ENOSPC)
			bad(C_SIZE, "pwrite at %llu of a file of %llu bytes: %s, expected ENOSPC",
			    (unsigned long long)at, (unsigned long long)sz,
			    rc < 0 ? t_errname(e) : "wrote");
		break;
	}
	case 2:
		rc = fallocate(f->fd, 0, 0, TWO_MiB);
		e = errno;
		if (rc != -1 || e != EOPNOTSUPP)
			bad(C_SIZE, "fallocate: %s, expected EOPNOTSUPP",
			    rc ? t_errname(e) : "0");
		break;
	case 3:
		if (!f->mapped) {
			void *p = mmap(NULL, TWO_MiB, PROT_READ, MAP_SHARED,
				       f->fd, 0);

			e = errno;
			if (p != MAP_FAILED || e != ENODEV)
				bad(C_SIZE, "mmap of an unmapped file: %s, expected ENODEV",
				    p != MAP_FAILED ? "mapped" : t_errname(e));
			if (p != MAP_FAILED)
				munmap(p, TWO_MiB);
		} else if (f->map.file_size >= 64 && f->haspat && !failing) {
			/* the pattern through a mapping */
			uint8_t w[64];
			uint8_t *p = mmap(NULL, f->map.file_size, PROT_READ,
					  MAP_SHARED, f->fd, 0);

			nc_mmap++;
			ncheck[C_DATA]++;
			pat_fill(f->pat, 0, w, sizeof(w));
			if (p == MAP_FAILED)
				bad(C_DATA, "mmap of a mapped file: %s",
				    t_errname(errno));
			else if (memcmp(p, w, sizeof(w)))
				bad(C_DATA, "%s: pattern differs through mmap",
				    f->path);
			if (p != MAP_FAILED)
				munmap(p, f->map.file_size);
		}
		break;
	default: {
		struct stat st;

		if (fstat(f->fd, &st) || (uint64_t)st.st_size != sz)
			bad(C_SIZE, "%s: size %lld, model %llu", f->path,
			    (long long)st.st_size, (unsigned long long)sz);
		break;
	}
	}
}

/* Give memory back: unlink (and close now, or later: a zombie). */
static void do_free(void)
{
	/* -G: the files on GiBs often, so that GiBs come free again */
	struct ffile *f = gib && chance(50) ? pick_big(1) : pick(1, 1);

	if (!f)
		return;
	nc_free++;
	if (!f->unlinked && remap_check(f))
		return;
	if (!f->unlinked) {
		pat_check(f);
		if (unlink(f->path))
			bad(C_DATA, "unlink %s: %s", f->path, t_errname(errno));
		f->unlinked = 1;
		if (chance(60))
			return;	/* still open: still owns its memory */
	}
	close_file(f);
}

void fuzz_loop(long n, int dirfd)
{
	for (iter_now = 0; iter_now < n; iter_now++) {
		int r = (int)below(100);
		struct ffile *f;

		/* -R: read-only for ~30 calls every ~300 */
		if (remounts && !multi && !nonroot &&
		    below(1000) < (ro ? 30 : 3)) {
			do_remount();
			continue;
		}
		/* keep a pool of unmapped files; keep the mapped ones few */
		while (!ro && !nonroot && count(0) < POOL && (f = new_file()))
			;
		if (!ro && !nonroot && (count(1) > MAXMAPPED || r >= 95 ||
					(units_free() < nunits / 3 && chance(15)))) {
			do_free();
			continue;
		}
		if (chance(4)) {
			do_ns(dirfd);
		} else if (chance(3)) {
			do_held(dirfd, pick(-1, 0));
		} else if (chance(2)) {
			do_unlink_map(dirfd);
		} else if (chance(8)) {
			do_multidev(dirfd);
		} else if (chance(7)) {
			do_pages();
		} else if (r < 24) {
			f = pick(ro || nonroot ? -1 : 0, 0);
			if (f)
				do_create(f, 0);
		} else if (r < 45) {
			f = pick(ro || nonroot ? -1 : 0, 0);
			if (f)
				do_create_v2(f, 0);
		} else if (r < 50) {
			f = !ro && !nonroot && chance(40) ? pick(0, 0) : NULL;
			if (f) {
				do_opener(f);
				continue;
			}
			f = pick(-1, 1);
			if (f && chance(50))
				do_create(f, chance(50));
			else if (f)
				do_create_v2(f, chance(50));
		} else if (r < 56) {
			f = pick(chance(80) ? 1 : 0, 1);
			if (f)
				do_get(f);
		} else if (r < 64) {
			f = pick(chance(85) ? 1 : 0, 1);
			if (f)
				do_get_v2(f);
		} else if (r < 72) {
			f = pick(chance(80) ? 1 : 0, 1);
			if (f)
				do_getext(f);
		} else if (r < 74) {
			f = pick(-1, 1);
			if (f)
				do_nop(f);
		} else if (r < 76) {
			f = pick(-1, 1);
			if (f)
				do_cache(f);
		} else if (r < 84) {
			f = pick(-1, 1);
			if (f)
				do_unknown(f, -1);
		} else if (r < 87) {
			do_unknown(NULL, dirfd);
		} else if (r < 92) {
			f = pick(-1, 1);
			if (f && !ro && !nonroot)
				do_size(f);
		} else if (gib && chance(60)) {
			f = pick_big(0);
			if (f)
				do_fault(f);
		} else {
			f = pick(1, 1);
			if (f)
				pat_check(f);
		}
	}
}

void print_stats(void)
{
	char s[600], s2[600];
	size_t o = 0, o2 = 0;

	for (int i = 0; i <= NDOC; i++)
		if (nerr[i])
			o += snprintf(s + o, sizeof(s) - o, " %s %ld",
				      i < NDOC ? t_errname(documented[i]) :
						 "other", nerr[i]);
	for (int i = 0; i <= NDOC; i++)
		if (nerr2[i])
			o2 += snprintf(s2 + o2, sizeof(s2) - o2, " %s %ld",
				       i < NDOC ? t_errname(documented[i]) :
						  "other", nerr2[i]);
	printf("info: %s[%d]%s: %ld calls: MAP_CREATE %ld (accepted %ld; refused:%s), MAP_CREATE_V2 %ld (accepted %ld, interleaved %ld; refused:%s), MAP_GET %ld, MAP_GET_V2 %ld, MAP_GETEXT %ld, v1 get of a v2 map %ld, NOP %ld, unknown numbers %ld, on a directory %ld, bad pointers %ld, int80 %ld, size changes %ld, mmap %ld, unlink/close %ld, remapped %ld, with another opener %ld, remounts %ld\n",
	       label, myid, nonroot ? " (uid 65534)" : "", iter_now, nc_create,
	       nc_accept, o ? s : " none", nc_create2, nc_accept2, nc_il2,
	       o2 ? s2 : " none", nc_get, nc_get2, nc_getext, nc_v1ovf, nc_nop,
	       nc_unknown, nc_dir, nc_efault, nc_compat, nc_size, nc_mmap,
	       nc_free, nc_remap, nc_opener, nc_remount);
	printf("info: %s[%d]: several devices: DEV_ADD/DEV_GET %ld, MAP_CREATE_V3 %ld, MAP_GET_V3 %ld\n",
	       label, myid, nc_dev, nc_create3, nc_get3);
	printf("info: %s[%d]: small files: MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES %ld (accepted %ld)\n",
	       label, myid, nc_pages, nc_accept_pages);
	printf("info: %s[%d]: reused memory: MAP_CREATE_V3 with FAMFS_IOC_MAP_INVALIDATE %ld (accepted %ld)\n",
	       label, myid, nc_inval, nc_accept_inval);
	printf("info: %s[%d]: namespace calls: FAMFSIOC_NS %ld (accepted %ld)\n",
	       label, myid, nc_ns, nc_ns_ok);
	printf("info: %s[%d]: held calls: FAMFSIOC_HELD %ld (answered %ld)\n",
	       label, myid, nc_held, nc_held_ok);
	printf("info: %s[%d]: removals by map: FAMFSIOC_UNLINK_MAP %ld (removed %ld)\n",
	       label, myid, nc_um, nc_um_ok);
	if (gib)
		printf("info: %s[%d]: 1 GiB layouts: %ld maps made, %ld files of 1 GiB or more mapped, %ld files faulted through a mapping, %ld GiBs free now\n",
		       label, myid, nc_gib, nc_gib_ok, nc_fault, free_gibs());
	if (!quiet && !nonroot)
		print_tally();
	fflush(stdout);
}

