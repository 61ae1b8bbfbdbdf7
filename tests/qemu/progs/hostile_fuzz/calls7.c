// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: FAMFSIOC_HELD (issue 29), whether memory is still
 * referenced on this host.
 *
 * Each call asks about a few ranges: the extents of files the model knows
 * to be alive (the files found at start, and this process's own mapped
 * files while no member device is attached: their model has no device
 * index), which must be held whole by a live inode and nothing else, and
 * random ranges, whose answers must only be sane (held <= len, known flags,
 * held 0 iff flags 0).  Now and then one thing is broken -- the header's
 * flags, the count, a pointer, a range's flags, device, alignment, length
 * or end -- and the call must fail with the errno of the first failing
 * check of the contract (EPERM first for uid 65534).  Some calls go
 * through the ia32 entry.
 */
#include "fuzz.h"

long nc_held, nc_held_ok;

enum held_break { H_NONE, H_HDRPTR, H_FLAGS, H_COUNT, H_LISTPTR, H_RFLAGS,
		  H_RDEV, H_ROFF, H_RLEN, H_RLEN0, H_ROVF, H_ANSWER, H_NBREAK };

/* The bytes the range of an extent of @len bytes covers: whole 4 KiB pages. */
static uint64_t pages_of(uint64_t len)
{
	return (len + 4095) & ~4095ULL;
}

static int any_member(void)
{
	for (uint32_t i = 1; i < FAMFS_MAX_DEVS; i++)
		if (dev_attached(i))
			return 1;
	return 0;
}

/* A range of a file known to be alive (*@known 1), or a random one. */
static struct famfs_ioc_held_range pick_range(int *known)
{
	struct famfs_ioc_held_range r;
	struct ffile *f;

	memset(&r, 0, sizeof(r));
	*known = 0;
	if (nstat && chance(30)) {
		const struct ext *e = &stat_ext[below(nstat)];

		r.offset = e->off;
		r.len = pages_of(e->len);
		*known = r.len != 0;
		return r;
	}
	f = chance(40) && !any_member() ? pick(1, 0) : NULL;
	if (f && f->fd >= 0 && !f->unlinked) {
		struct ext e[MAXRANGES];
		int n = vm_ranges(&f->vm, e);

		if (n > 0) {
			int i = (int)below(n);

			r.offset = e[i].off;
			r.len = pages_of(e[i].len);
			*known = r.len != 0;
			return r;
		}
	}
	for (uint32_t i = 0; i < FAMFS_MAX_DEVS; i++)
		if (dev_attached(i) && chance(30))
			r.dev = i;
	r.offset = below(devsz / 4096 + 16) * 4096;
	r.len = (1 + below(chance(20) ? devsz / 4096 + 1 : 1024)) * 4096;
	return r;
}

/* The range's first failing check: 0 or EINVAL. */
static int range_errno(const struct famfs_ioc_held_range *r)
{
	if (r->flags)
		return EINVAL;
	if (r->dev >= FAMFS_MAX_DEVS || !(r->dev == 0 || dev_attached(r->dev)))
		return EINVAL;
	if (!r->len || r->offset % 4096 || r->len % 4096)
		return EINVAL;
	if (r->offset + r->len < r->offset)
		return EINVAL;
	return 0;
}

static void break_range(struct famfs_ioc_held_range *r, enum held_break b)
{
	switch (b) {
	case H_RFLAGS:
		r->flags = chance(50) ? FAMFS_HELD_LIVE : boundary32() | 1;
		break;
	case H_RDEV:
		r->dev = chance(50) ? FAMFS_MAX_DEVS + boundary32() % 1000 :
				      1 + (uint32_t)below(FAMFS_MAX_DEVS - 1);
		break;
	case H_ROFF:
		r->offset |= 1 + below(4095);
		break;
	case H_RLEN:
		r->len |= 1 + below(4095);
		break;
	case H_RLEN0:
		r->len = 0;
		break;
	case H_ROVF:
		r->offset = U64_MAX - 4095 - 4096 * below(4);
		r->len = 4096 * (5 + below(1000));
		break;
	default:
		break;
	}
}

void do_held(int dirfd, struct ffile *f)
{
	static struct famfs_ioc_held_range r[FAMFS_HELD_MAX + 8];
	struct famfs_ioc_held h, *hp = &h;
	struct famfs_ioc_held_range *rp = r;
	enum held_break b = chance(40) ? (enum held_break)(1 + below(H_NBREAK - 1)) :
					  H_NONE;
	uint32_t n = chance(5) ? FAMFS_HELD_MAX : (uint32_t)below(9);
	int known[16] = { 0 }, want = 0, e, bad_read = 0, bad_write = 0;
	int fd = dirfd >= 0 && chance(50) ? dirfd : (f ? f->fd : dirfd);
	int compat, sink;
	void *ro = NULL;
	long rc;

	if (fd < 0)
		return;
	if (b == H_LISTPTR && n > 8)
		n = 8;
	compat = compat_ok && chance(10) && b != H_HDRPTR && b != H_LISTPTR &&
		 b != H_ANSWER && n <= 16;
	for (uint32_t i = 0; i < n; i++)
		r[i] = pick_range(i < 16 ? &known[i] : &sink);
	memset(&h, 0, sizeof(h));
	h.count = n;
	if (b == H_FLAGS)
		h.flags = chance(50) ? 1 : boundary32() | 1;
	if (b == H_COUNT)
		h.count = FAMFS_HELD_MAX + 1 + (chance(50) ? (uint32_t)below(8) :
						   boundary32() % (1U << 31));
	if (b >= H_RFLAGS && b <= H_ROVF && n) {
		uint32_t i = (uint32_t)below(n);

		break_range(&r[i], b);
		if (i < 16)
			known[i] = 0;
	}
	if (b == H_LISTPTR) {
		enum ptr_kind k;

		do {
			k = (enum ptr_kind)below(P_NKINDS);
		} while (k == P_OK || k == P_MISALIGNED || k == P_RDONLY);
		rp = place(k, (size_t)n * sizeof(*r), &bad_read, &bad_write);
		if (rp && !bad_read)
			memset(rp, 0, (size_t)n * sizeof(*r));
		if (k == P_STRADDLE && !bad_read && n)
			memcpy(rp, r, (size_t)n * sizeof(*r));
		if (!n)
			bad_read = 0;
	} else if (b == H_ANSWER && n) {
		/* readable, not writable: a read-only copy of the ranges */
		ro = mmap(NULL, sizeof(r), PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (ro == MAP_FAILED)
			die("mmap");
		memcpy(ro, r, (size_t)n * sizeof(*r));
		if (mprotect(ro, sizeof(r), PROT_READ))
			die("mprotect");
		rp = ro;
		bad_write = 1;
	}
	h.ranges = (uintptr_t)rp;
	if (b == H_HDRPTR) {
		enum ptr_kind k;

		do {
			k = (enum ptr_kind)below(P_NKINDS);
		} while (k == P_OK || k == P_MISALIGNED || k == P_RDONLY ||
			 k == P_STRADDLE);
		hp = place(k, sizeof(h), &bad_read, &bad_write);
	}

	/* the contract's order */
	if (nonroot)
		want = EPERM;
	else if (b == H_HDRPTR)
		want = EFAULT;
	else if (h.flags)
		want = EINVAL;
	else if (h.count > FAMFS_HELD_MAX)
		want = E2BIG;
	else if (!h.count)
		want = 0;
	else if (b == H_LISTPTR && bad_read)
		want = EFAULT;
	else {
		for (uint32_t i = 0; i < n && !want; i++)
			want = range_errno(&rp[i]);
		if (!want && bad_write)
			want = EFAULT;
	}

	nc_held++;
	ncheck[C_HELD]++;
	if (compat) {
		struct famfs_ioc_held *h32 = (struct famfs_ioc_held *)arena32;
		struct famfs_ioc_held_range *r32 = (void *)(arena32 + 64);

		memcpy(r32, rp, (size_t)n * sizeof(*r));
		*h32 = h;
		h32->ranges = (uintptr_t)r32;
		nc_compat++;
		rc = ioctl32(fd, FAMFSIOC_HELD, (uint32_t)(uintptr_t)h32);
		e = rc < 0 ? errno : 0;
		if (!e)
			memcpy(rp, r32, (size_t)n * sizeof(*r));
	} else {
		rc = ioctl(fd, FAMFSIOC_HELD, hp);
		e = rc < 0 ? errno : 0;
	}
	if (ro)
		munmap(ro, sizeof(r));
	if (e != want) {
		bad(C_HELD, "HELD count %u flags %#x break %d%s on a %s: %s, expected %s",
		    h.count, h.flags, b, compat ? " (ia32)" : "",
		    fd == dirfd ? "directory" : "file", t_errname(e),
		    t_errname(want));
		return;
	}
	if (e)
		return;
	nc_held_ok++;
	for (uint32_t i = 0; i < n; i++) {
		const struct famfs_ioc_held_range *q = &rp[i];

		if (q->held > q->len ||
		    (q->flags & ~(FAMFS_HELD_LIVE | FAMFS_HELD_ZOMBIE)) ||
		    !q->held != !q->flags) {
			bad(C_HELD, "HELD range %u:%llu+%llu: held %llu flags %#x",
			    q->dev, (unsigned long long)q->offset,
			    (unsigned long long)q->len,
			    (unsigned long long)q->held, q->flags);
			return;
		}
		if (i < 16 && known[i] &&
		    (q->held != q->len || q->flags != FAMFS_HELD_LIVE)) {
			bad(C_HELD, "HELD range %u:%llu+%llu of a live file: held %llu flags %#x, expected all of it, LIVE",
			    q->dev, (unsigned long long)q->offset,
			    (unsigned long long)q->len,
			    (unsigned long long)q->held, q->flags);
			return;
		}
	}
}
