// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: FAMFSIOC_NS (issue 29), the famfs tool's namespace calls
 * (<linux/famfs_ioctl.h>).
 *
 * Valid calls (CREATE, MKDIR, UNLINK, RMDIR, RENAME with and without
 * FAMFS_NS_NOREPLACE, SETATTR of mode, uid, gid) on six names in a
 * directory of this process's own (nsfuzz, in its fuzz directory), with a
 * model of what each name is (nothing, an empty file, an empty directory):
 * the errno a system call would give (EEXIST, ENOENT, EISDIR, ENOTDIR) or
 * success, and then what stat says (the mode open(2) and mkdir(2) would
 * make, SETATTR's exactly; a CREATE's descriptor is O_RDWR and
 * close-on-exec).  And calls broken in one place:
 * the argument's pointer (EFAULT), a reserved field, an unknown op, flag or
 * valid bit, a field the op does not use, mode bits past 07777 (EINVAL), a
 * name empty, too long, with '/' or a NUL, "." or ".." (EINVAL) or
 * unreadable (EFAULT), a non-directory to work in (ENOTDIR), a bad, foreign
 * or non-directory new_dir_fd (EBADF, EXDEV, ENOTDIR), an unmapped uid
 * (EINVAL).  predict_ns() is the contract's order of checks as code; as
 * uid 65534 every call is EPERM, on a read-only mount every call that
 * passes the checks EROFS.
 */
#include "fuzz.h"

#define NSN	6

long nc_ns, nc_ns_ok;
static int nsfd = -1;		/* nsfuzz, or the fuzz directory until made */
static int ns_own;		/* nsfd is nsfuzz: the model holds */
static int state[NSN];		/* 0 nothing, 1 an empty file, 2 a directory */
static int rootfd = -1;		/* "/": another mount */
static unsigned int cur_umask;

static const char *nm(int i)
{
	static char b[2][8];
	static int k;

	k ^= 1;
	snprintf(b[k], sizeof(b[k]), "n%d", i);
	return b[k];
}

/* nsfuzz, made at the first call on a read-write mount as root; until
 * then the calls go to the fuzz directory, without a model */
static void ns_init(int dirfd)
{
	if (rootfd < 0) {
		rootfd = open("/", O_RDONLY | O_DIRECTORY);
		cur_umask = umask(022);
		umask(cur_umask);
	}
	if (ns_own)
		return;
	nsfd = dirfd;
	if (ro || nonroot)
		return;
	if (mkdirat(dirfd, "nsfuzz", 0755) && errno != EEXIST)
		die("mkdir nsfuzz");
	nsfd = openat(dirfd, "nsfuzz", O_RDONLY | O_DIRECTORY);
	if (nsfd < 0)
		die("open nsfuzz");
	for (int i = 0; i < NSN; i++) {
		unlinkat(nsfd, nm(i), 0);
		unlinkat(nsfd, nm(i), AT_REMOVEDIR);
	}
	ns_own = 1;
}

/* What one broken field or pointer makes of the call */
enum ns_break {
	B_NONE, B_ARGPTR, B_RESERVED, B_OP, B_FLAGS, B_VALID, B_UNUSED,
	B_MODE, B_NAMELEN0, B_NAMELONG, B_NAMESLASH, B_NAMEDOT, B_NAMENUL,
	B_NAMEPTR, B_ONFILE, B_NEWFD_BAD, B_NEWFD_XDEV, B_NEWFD_FILE, B_UID,
	B_N
};

/*
 * The errno the contract gives (0: the op itself decides, see model_ns()),
 * in the order famfs_ioc_ns() checks.
 */
static int predict_ns(int op, enum ns_break b)
{
	if (nonroot)
		return EPERM;
	switch (b) {
	case B_ARGPTR:
		return EFAULT;
	case B_RESERVED: case B_OP: case B_FLAGS: case B_VALID:
	case B_UNUSED: case B_MODE:
		return EINVAL;
	default:
		break;
	}
	if (b == B_ONFILE)
		return ENOTDIR;
	if (b == B_NAMELEN0 || b == B_NAMELONG || b == B_NAMESLASH ||
	    b == B_NAMEDOT || b == B_NAMENUL)
		return EINVAL;
	if (b == B_NAMEPTR)
		return EFAULT;
	if (b == B_NEWFD_BAD)
		return EBADF;
	if (b == B_NEWFD_XDEV)
		return EXDEV;
	if (b == B_NEWFD_FILE)
		return ENOTDIR;
	if (ro)
		return EROFS;
	if (b == B_UID)
		return EINVAL;
	(void)op;
	return 0;
}

/* The op's own answer from the model, and the model after it */
static int model_ns(const struct famfs_ioc_ns *a, int i, int j, int apply)
{
	int s = state[i], t = state[j];

	switch (a->op) {
	case FAMFS_NS_CREATE:
	case FAMFS_NS_MKDIR:
		if (s)
			return EEXIST;
		if (apply)
			state[i] = a->op == FAMFS_NS_CREATE ? 1 : 2;
		return 0;
	case FAMFS_NS_UNLINK:
		if (!s)
			return ENOENT;
		if (s == 2)
			return EISDIR;
		if (apply)
			state[i] = 0;
		return 0;
	case FAMFS_NS_RMDIR:
		if (!s)
			return ENOENT;
		if (s == 1)
			return ENOTDIR;
		if (apply)
			state[i] = 0;
		return 0;
	case FAMFS_NS_RENAME:
		if (!s)
			return ENOENT;
		if (t && (a->flags & FAMFS_NS_NOREPLACE))
			return EEXIST;
		if (i == j)
			return 0;
		if (t == 2 && s == 1)
			return EISDIR;
		if (t == 1 && s == 2)
			return ENOTDIR;
		if (apply) {
			state[j] = s;
			state[i] = 0;
		}
		return 0;
	default:	/* SETATTR: of an existing name or nsfuzz itself */
		return 0;
	}
}

/* The mode open(2) (CREATE) or mkdir(2) gives for @mode in nsfuzz, as
 * root: the umask; a directory drops set-id bits and takes the parent's
 * set-group-ID bit */
static unsigned int made_mode(unsigned int op, unsigned int mode)
{
	struct stat d;
	unsigned int m = mode & ~cur_umask;

	if (op == FAMFS_NS_MKDIR) {
		m &= 01777;
		if (!fstat(nsfd, &d) && (d.st_mode & S_ISGID))
			m |= S_ISGID;
	}
	return m;
}

/* After an accepted op: what stat says of the names it touched */
static void check_after(const struct famfs_ioc_ns *a, int fd, int i, int tfd)
{
	struct stat st;
	int fl;

	if (a->op == FAMFS_NS_CREATE) {
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) != O_RDWR ||
		    !(fcntl(fd, F_GETFD) & FD_CLOEXEC))
			bad(C_NS, "NS CREATE %s: the descriptor's flags are %#x, fd flags %#x: expected O_RDWR, close-on-exec",
			    nm(i), fl, fcntl(fd, F_GETFD));
	}
	if (a->op == FAMFS_NS_SETATTR) {
		if (fstat(tfd, &st))
			bad(C_NS, "NS SETATTR: fstat: %s", strerror(errno));
		else if (((a->valid & FAMFS_NS_MODE) &&
			  (st.st_mode & 07777) != a->mode) ||
			 ((a->valid & FAMFS_NS_UID) && st.st_uid != a->uid) ||
			 ((a->valid & FAMFS_NS_GID) && st.st_gid != a->gid))
			bad(C_NS, "NS SETATTR valid %#x mode %o uid %u gid %u: stat says mode %o uid %u gid %u",
			    a->valid, a->mode, a->uid, a->gid,
			    st.st_mode & 07777, st.st_uid, st.st_gid);
		return;
	}
	for (int k = 0; k < NSN; k++) {
		int have = fstatat(nsfd, nm(k), &st, AT_SYMLINK_NOFOLLOW) ? 0 :
			   S_ISREG(st.st_mode) ? 1 : S_ISDIR(st.st_mode) ? 2 : 3;

		if (have != state[k])
			bad(C_NS, "NS op %u: afterwards %s is %d, the model says %d",
			    a->op, nm(k), have, state[k]);
		if (have && k == i && (a->op == FAMFS_NS_CREATE ||
				       a->op == FAMFS_NS_MKDIR) &&
		    (st.st_mode & 07777) != made_mode(a->op, a->mode))
			bad(C_NS, "NS op %u %s: mode %o, asked for %o: expected %o",
			    a->op, nm(k), st.st_mode & 07777, a->mode,
			    made_mode(a->op, a->mode));
	}
}

/* Put name s (n bytes, not NUL-terminated) where the kernel reads it. */
static uint64_t put_name(const char *s, size_t n, int slot)
{
	char *p = larena + slot * 1024;

	memcpy(p, s, n);
	p[n] = 'x';	/* never NUL-terminated: the length decides */
	return (uint64_t)(uintptr_t)p;
}

static void valid_ns(struct famfs_ioc_ns *a, int op, int i, int j)
{
	memset(a, 0, sizeof(*a));
	a->op = (uint32_t)op;
	if (op != FAMFS_NS_SETATTR) {
		a->name = put_name(nm(i), strlen(nm(i)), 0);
		a->name_len = (uint32_t)strlen(nm(i));
	}
	switch (op) {
	case FAMFS_NS_CREATE:
	case FAMFS_NS_MKDIR:
		a->valid = FAMFS_NS_MODE;
		a->mode = (uint32_t)below(010000);
		break;
	case FAMFS_NS_RENAME:
		a->new_name = put_name(nm(j), strlen(nm(j)), 1);
		a->new_name_len = (uint32_t)strlen(nm(j));
		a->new_dir_fd = nsfd;
		a->flags = chance(50) ? FAMFS_NS_NOREPLACE : 0;
		break;
	case FAMFS_NS_SETATTR:
		a->valid = 1 + (uint32_t)below(7);
		if (a->valid & FAMFS_NS_MODE)
			a->mode = (uint32_t)below(010000);
		if (a->valid & FAMFS_NS_UID)
			a->uid = (uint32_t)below(70000);
		if (a->valid & FAMFS_NS_GID)
			a->gid = (uint32_t)below(70000);
		break;
	default:
		break;
	}
}

/* Break a valid call in one place (not every break fits every op). */
static enum ns_break break_ns(struct famfs_ioc_ns *a, int *fd)
{
	enum ns_break b = (enum ns_break)(1 + below(B_N - 1));
	int named = a->op != FAMFS_NS_SETATTR;
	static const char *const dots[] = { ".", ".." };
	char buf[300];
	struct ffile *f;

	switch (b) {
	case B_ARGPTR:
		return b;	/* done by the caller */
	case B_RESERVED:
		if (chance(50))
			a->reserved0 = (uint32_t)(1 + below(0xfffffffeULL));
		else
			a->reserved[below(2)] = 1 + below(U64_MAX - 1);
		return b;
	case B_OP:
		a->op = chance(50) ? 0 : 7 + (uint32_t)below(1000);
		return b;
	case B_FLAGS:
		a->flags = a->op == FAMFS_NS_RENAME ? 2u << below(30) :
			   1 + (uint32_t)below(100);
		return b;
	case B_VALID:
		if (a->op == FAMFS_NS_SETATTR)
			a->valid = chance(50) ? 0 : a->valid | 8u << below(28);
		else if (a->op == FAMFS_NS_CREATE || a->op == FAMFS_NS_MKDIR)
			a->valid = chance(50) ? 0 : FAMFS_NS_MODE | 2u << below(30);
		else
			a->valid = 1 + (uint32_t)below(7);
		return b;
	case B_UNUSED:
		if (a->op != FAMFS_NS_RENAME && chance(50)) {
			switch (below(3)) {
			case 0: a->new_name = 1 + below(1000); break;
			case 1: a->new_name_len = 1 + (uint32_t)below(10); break;
			default: a->new_dir_fd = 1 + (int32_t)below(10); break;
			}
		} else if (!(a->valid & FAMFS_NS_UID)) {
			a->uid = 1 + (uint32_t)below(1000);
		} else if (!(a->valid & FAMFS_NS_GID)) {
			a->gid = 1 + (uint32_t)below(1000);
		} else {
			return B_NONE;
		}
		return b;
	case B_MODE:
		if (!(a->valid & FAMFS_NS_MODE))
			a->mode = 1 + (uint32_t)below(07777);	/* unused */
		else
			a->mode |= 010000u << below(20);
		return b;
	case B_UID:
		if (a->op != FAMFS_NS_SETATTR)
			return B_NONE;
		if (a->valid & FAMFS_NS_UID)
			a->uid = (uint32_t)-1;
		else if (a->valid & FAMFS_NS_GID)
			a->gid = (uint32_t)-1;
		else
			return B_NONE;
		return b;
	case B_ONFILE:
		if (!named)
			return B_NONE;
		f = pick(-1, 0);
		if (!f)
			return B_NONE;
		*fd = f->fd;
		return b;
	case B_NEWFD_BAD:
	case B_NEWFD_XDEV:
	case B_NEWFD_FILE:
		if (a->op != FAMFS_NS_RENAME)
			return B_NONE;
		if (b == B_NEWFD_BAD) {
			a->new_dir_fd = chance(50) ? -1 - (int32_t)below(100) :
				       4000 + (int32_t)below(1000);
		} else if (b == B_NEWFD_XDEV) {
			if (rootfd < 0)
				return B_NONE;
			a->new_dir_fd = rootfd;
		} else {
			f = pick(-1, 0);
			if (!f)
				return B_NONE;
			a->new_dir_fd = f->fd;
		}
		return b;
	default:
		break;
	}
	/* the name (or, for a RENAME, sometimes the new one) */
	if (!named) {
		/* SETATTR takes no name: any is EINVAL */
		a->name = put_name("n0", 2, 0);
		a->name_len = 2;
		return B_UNUSED;
	}
	{
		int second = a->op == FAMFS_NS_RENAME && chance(50);
		__u64 *p = second ? &a->new_name : &a->name;
		__u32 *len = second ? &a->new_name_len : &a->name_len;
		size_t n;

		switch (b) {
		case B_NAMELEN0:
			*len = 0;
			break;
		case B_NAMELONG:
			n = FAMFS_NS_NAME_MAX + 1 + below(40);
			memset(buf, 'a', sizeof(buf));
			*p = put_name(buf, n, second);
			*len = (uint32_t)n;
			if (chance(20))
				*len = 0x80000000u + (uint32_t)below(1000);
			break;
		case B_NAMESLASH:
			n = 1 + below(20);
			memset(buf, 'b', n);
			buf[below(n)] = '/';
			*p = put_name(buf, n, second);
			*len = (uint32_t)n;
			break;
		case B_NAMEDOT:
			n = 1 + below(2);
			*p = put_name(dots[n - 1], n, second);
			*len = (uint32_t)n;
			break;
		case B_NAMENUL:
			n = 2 + below(20);
			memset(buf, 'c', n);
			buf[below(n)] = '\0';
			*p = put_name(buf, n, second);
			*len = (uint32_t)n;
			break;
		default:	/* B_NAMEPTR */
			switch (below(4)) {
			case 0: *p = 0; break;
			case 1: *p = 8 + below(4000); break;
			case 2: *p = 0xffff888000000000ULL; break;
			default:	/* its last byte on the PROT_NONE page */
				*p = (uint64_t)(uintptr_t)(larena + LARENA -
							   *len + 1);
				break;
			}
			b = B_NAMEPTR;
			break;
		}
	}
	return b;
}

void do_ns(int dirfd)
{
	struct famfs_ioc_ns a, *ap;
	enum ns_break b = B_NONE;
	int op = 1 + (int)below(6), i = (int)below(NSN), j = (int)below(NSN);
	int fd, tfd = -1, want, e, got, bad_read, bad_write;
	long rc;

	ns_init(dirfd);
	fd = nsfd;
	valid_ns(&a, op, i, j);
	if (op == FAMFS_NS_SETATTR && ns_own && !ro && !nonroot) {
		/* an existing name, or nsfuzz itself */
		tfd = state[i] ? openat(nsfd, nm(i), O_RDONLY | O_NOFOLLOW) :
				 dup(nsfd);
		if (tfd < 0) {
			bad(C_NS, "NS SETATTR: cannot open %s: %s", nm(i),
			    strerror(errno));
			return;
		}
		fd = tfd;
	}
	if (chance(45))
		b = break_ns(&a, &fd);
	want = predict_ns(op, b);
	if (!want && !ns_own)
		goto out;	/* the mount root: no model of it */
	if (!want)
		want = model_ns(&a, i, j, 0);
	ap = (struct famfs_ioc_ns *)(larena + 2048);
	if (b == B_ARGPTR) {
		enum ptr_kind k;

		do {
			k = (enum ptr_kind)below(P_NKINDS);
		} while (k == P_RDONLY || k == P_OK || k == P_MISALIGNED ||
			 k == P_STRADDLE);
		ap = place(k, sizeof(a), &bad_read, &bad_write);
	} else {
		memcpy(ap, &a, sizeof(a));
	}
	nc_ns++;
	ncheck[C_NS]++;
	rc = ioctl(fd, FAMFSIOC_NS, ap);
	e = rc < 0 ? errno : 0;
	got = e;
	if (got != want) {
		bad(C_NS, "NS op %u (%s -> %s, flags %#x valid %#x mode %o uid %u gid %u) break %d on %s: %s, expected %s",
		    a.op, nm(i), nm(j), a.flags, a.valid, a.mode, a.uid, a.gid,
		    (int)b, fd == nsfd ? "nsfuzz" : fd == tfd ? "the target" : "a file",
		    t_errname(got), t_errname(want));
		/* the model takes what is there now, to go on */
		for (int k = 0; ns_own && k < NSN; k++) {
			struct stat st;

			state[k] = fstatat(nsfd, nm(k), &st, AT_SYMLINK_NOFOLLOW) ?
				   0 : S_ISDIR(st.st_mode) ? 2 : 1;
		}
	} else if (!e) {
		nc_ns_ok++;
		model_ns(&a, i, j, 1);
		check_after(&a, (int)rc, i, tfd);
	}
	if (a.op == FAMFS_NS_CREATE && rc >= 0)
		close((int)rc);
out:
	if (tfd >= 0)
		close(tfd);
}
