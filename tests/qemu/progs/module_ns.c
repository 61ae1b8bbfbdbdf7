// SPDX-License-Identifier: GPL-2.0
/*
 * module_ns MPT: the famfs namespace on a fresh mount at MPT: directories
 * and regular files as ramfs keeps them (create, mkdir, rmdir, unlink, link,
 * rename, chmod, chown, utimes), and what famfs refuses: symlinks, device
 * nodes, FIFOs, sockets (EPERM) and O_TMPFILE (EOPNOTSUPP).
 */
#include "module_test.h"
#include <dirent.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

static char pbuf[4][512];

/* MPT/rel, in one of four rotating buffers. */
static const char *P(const char *mpt, const char *rel)
{
	static int i;
	char *b = pbuf[i++ & 3];

	snprintf(b, sizeof(pbuf[0]), "%s/%s", mpt, rel);
	return b;
}

static unsigned long long st_of(const char *path, int what)
{
	struct stat st;

	if (stat(path, &st))
		return ~0ULL;
	switch (what) {
	case 'n': return st.st_nlink;
	case 'm': return st.st_mode;
	case 's': return st.st_size;
	case 'i': return st.st_ino;
	case 'u': return st.st_uid;
	case 'g': return st.st_gid;
	case 't': return st.st_mtime;
	}
	return ~0ULL;
}

/* PASS iff @a and @b both exist and are one inode. */
static void same_inode(const char *name, const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa))
		t_fail(name, "stat %s: %s", a, t_errname(errno));
	else if (stat(b, &sb))
		t_fail(name, "stat %s: %s", b, t_errname(errno));
	else
		t_equ(name, sa.st_ino, sb.st_ino);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sun;
	struct famfs_ioc_map got;
	struct timespec ts[2];
	const char *m;
	unsigned long long ino_a, ino_b;
	int fd, s;

	if (argc != 2) {
		fprintf(stderr, "usage: module_ns MPT\n");
		return 2;
	}
	m = argv[1];
	umask(0);

	t_equ("root-empty", 0, count_entries(m));
	t_equ("root-nlink", 2, st_of(m, 'n'));
	t_ok("mkdir", mkdir(P(m, "d"), 0755));
	t_equ("mkdir-mode", S_IFDIR | 0755, st_of(P(m, "d"), 'm'));
	t_equ("mkdir-nlink", 2, st_of(P(m, "d"), 'n'));
	t_equ("mkdir-parent-nlink", 3, st_of(m, 'n'));
	t_errno("mkdir-exists", mkdir(P(m, "d"), 0755), EEXIST);
	t_ok("mkdir-nested", mkdir(P(m, "d/e"), 0700));

	fd = open(P(m, "d/e/f"), O_RDWR | O_CREAT | O_EXCL, 0640);
	t_ok("create", fd);
	t_equ("create-mode", S_IFREG | 0640, st_of(P(m, "d/e/f"), 'm'));
	t_equ("create-empty", 0, st_of(P(m, "d/e/f"), 's'));
	t_ok("create-nop-ioctl", ioctl(fd, FAMFSIOC_NOP));
	close(fd);
	t_errno("create-excl-exists", open(P(m, "d/e/f"), O_RDWR | O_CREAT |
					   O_EXCL, 0640), EEXIST);
	t_ok("mknod-regular", mknod(P(m, "d/r"), S_IFREG | 0600, 0));
	t_equ("mknod-regular-mode", S_IFREG | 0600, st_of(P(m, "d/r"), 'm'));

	/* Refused kinds of files. */
	t_errno("symlink", symlink("d/e/f", P(m, "sl")), EPERM);
	t_errno("mknod-chr", mknod(P(m, "c"), S_IFCHR | 0600,
				   makedev(1, 3)), EPERM);
	t_errno("mknod-blk", mknod(P(m, "b"), S_IFBLK | 0600,
				   makedev(7, 0)), EPERM);
	t_errno("mkfifo", mkfifo(P(m, "p"), 0600), EPERM);
	t_errno("mknod-sock", mknod(P(m, "s"), S_IFSOCK | 0600, 0), EPERM);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", P(m, "sock"));
	t_errno("bind-unix-socket", bind(s, (struct sockaddr *)&sun,
					 sizeof(sun)), EPERM);
	close(s);
	t_errno("o-tmpfile", open(m, O_TMPFILE | O_RDWR, 0600), EOPNOTSUPP);
	t_equ("refused-left-nothing", 1, count_entries(m));

	/* Removal rules. */
	t_errno("rmdir-not-empty", rmdir(P(m, "d")), ENOTEMPTY);
	t_errno("unlink-dir", unlink(P(m, "d/e")), EISDIR);
	t_errno("rmdir-file", rmdir(P(m, "d/e/f")), ENOTDIR);

	/* Hard links. */
	t_ok("link", link(P(m, "d/e/f"), P(m, "d/g")));
	t_equ("link-nlink", 2, st_of(P(m, "d/e/f"), 'n'));
	same_inode("link-same-inode", P(m, "d/e/f"), P(m, "d/g"));
	t_errno("link-dir", link(P(m, "d/e"), P(m, "d/e2")), EPERM);
	t_ok("unlink-link", unlink(P(m, "d/g")));
	t_equ("unlink-nlink", 1, st_of(P(m, "d/e/f"), 'n'));

	/* Renames. */
	t_ok("rename", rename(P(m, "d/e/f"), P(m, "d/h")));
	t_errno("rename-old-gone", stat(P(m, "d/e/f"), &(struct stat){0}),
		ENOENT);
	close(open(P(m, "d/i"), O_CREAT | O_RDWR, 0644));
	ino_a = st_of(P(m, "d/h"), 'i');
	t_ok("rename-replace", rename(P(m, "d/h"), P(m, "d/i")));
	t_true("rename-replace-inode", ino_a != ~0ULL &&
	       ino_a == st_of(P(m, "d/i"), 'i'), "d/i is not the old d/h");
	close(open(P(m, "d/j"), O_CREAT | O_RDWR, 0644));
	t_errno("rename-noreplace", renameat2(AT_FDCWD, P(m, "d/i"),
					      AT_FDCWD, P(m, "d/j"),
					      RENAME_NOREPLACE), EEXIST);
	ino_b = st_of(P(m, "d/j"), 'i');
	t_ok("rename-exchange", renameat2(AT_FDCWD, P(m, "d/i"), AT_FDCWD,
					  P(m, "d/j"), RENAME_EXCHANGE));
	t_true("rename-exchange-swapped", ino_a != ~0ULL && ino_b != ~0ULL &&
	       st_of(P(m, "d/i"), 'i') == ino_b &&
	       st_of(P(m, "d/j"), 'i') == ino_a, "inodes not swapped");
	t_errno("rename-whiteout", renameat2(AT_FDCWD, P(m, "d/i"), AT_FDCWD,
					     P(m, "d/k"), RENAME_WHITEOUT),
		EINVAL);
	t_ok("rename-dir", rename(P(m, "d/e"), P(m, "x")));
	t_equ("rename-dir-old-parent-nlink", 2, st_of(P(m, "d"), 'n'));
	t_equ("rename-dir-new-parent-nlink", 4, st_of(m, 'n'));
	t_errno("rename-dir-into-itself", rename(P(m, "x"), P(m, "x/y")),
		EINVAL);

	/* Attributes. */
	t_ok("chmod", chmod(P(m, "d/i"), 0600));
	t_equ("chmod-mode", S_IFREG | 0600, st_of(P(m, "d/i"), 'm'));
	t_ok("chown", chown(P(m, "d/i"), 1000, 1001));
	t_equ("chown-uid", 1000, st_of(P(m, "d/i"), 'u'));
	t_equ("chown-gid", 1001, st_of(P(m, "d/i"), 'g'));
	ts[0].tv_sec = ts[1].tv_sec = 1000000000;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	t_ok("utimensat", utimensat(AT_FDCWD, P(m, "d/i"), ts, 0));
	t_equ("utimensat-mtime", 1000000000, st_of(P(m, "d/i"), 't'));
	t_ok("chmod-dir", chmod(P(m, "d"), 0711));
	t_equ("chmod-dir-mode", S_IFDIR | 0711, st_of(P(m, "d"), 'm'));

	/* A mapped file keeps its map through rename and chmod. */
	fd = open(P(m, "mapped"), O_RDWR | O_CREAT | O_EXCL, 0644);
	t_ok("mapped-create", map1(fd, TWO_MiB, 500 * MiB, TWO_MiB));
	close(fd);
	t_ok("mapped-rename", rename(P(m, "mapped"), P(m, "d/mapped")));
	t_ok("mapped-chmod", chmod(P(m, "d/mapped"), 0444));
	fd = open(P(m, "d/mapped"), O_RDONLY);
	t_true("mapped-map-kept", fd >= 0 &&
	       !ioctl(fd, FAMFSIOC_MAP_GET, &got) &&
	       got.ext_list[0].offset == 500 * MiB &&
	       got.file_size == TWO_MiB, "map lost after rename/chmod");
	close(fd);
	t_equ("mapped-size-kept", TWO_MiB, st_of(P(m, "d/mapped"), 's'));

	t_equ("readdir", 4, count_entries(P(m, "d")));

	/* Clean up everything; the root ends empty. */
	t_ok("cleanup-unlink", unlink(P(m, "d/i")) | unlink(P(m, "d/j")) |
	     unlink(P(m, "d/r")) | unlink(P(m, "d/mapped")));
	t_ok("cleanup-rmdir", rmdir(P(m, "d")) | rmdir(P(m, "x")));
	t_equ("cleanup-root-empty", 0, count_entries(m));
	t_equ("cleanup-root-nlink", 2, st_of(m, 'n'));
	return t_done(0);
}
