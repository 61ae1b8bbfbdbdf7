// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_fuzz: MAP_CREATE on a file that something else reaches, and
 * remounts between the calls.
 *
 * famfs.ko maps memory only to a file the caller alone reaches: another
 * open file of it (a second open here, or one by a process of uid 65534
 * that holds it) or a second name (a hard link) makes MAP_CREATE and
 * MAP_CREATE_V2 fail with EBUSY, right after EEXIST in the order of the
 * checks; a dup()ed descriptor (the caller's own open file) and an O_PATH
 * handle do not count.  Each such call goes through do_create() or
 * do_create_v2() with ffile.others set, so the model predicts it.
 *
 * -R: every few hundred calls the mount goes read-only or back.  Going
 * read-only while files are open for writing is refused (EBUSY); so every
 * file is reopened read-only first (unlinked ones are closed: their memory
 * goes back), and read-write again after.  Meanwhile MAP_CREATE must fail
 * with EROFS.  With -D (a pmem block device), the device is sometimes set
 * read-only (BLKROSET) while the mount is: remount,rw must then fail with
 * EROFS, and work once the device is writable again.  A remount keeps the
 * mount's cache mode (coherent, or noncoherent with -N): checked after each.
 */
#include "fuzz.h"
#include <linux/fs.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

long nc_opener, nc_remount;
int remounts, noncoherent;
const char *blkdev;
static int dev_ro;	/* -D: the device is read-only now */

/*
 * Several processes at once: the parent's scan of the tree opens every file
 * for a moment, so EBUSY is right for any unmapped file then (after EPERM,
 * EFAULT, EROFS, EEXIST, which the caller has ruled out).  1 if that is what
 * happened (and the file is still unmapped).
 */
int scanner_busy(const struct ffile *f, long rc, int e)
{
	if (!multi || nonroot || ro || f->mapped || f->others || rc != -1 ||
	    e != EBUSY)
		return 0;
	check_unmapped((struct ffile *)f);
	return 1;
}

enum { O_SECOND_RO, O_SECOND_RW, O_OTHER_USER, O_LINK, O_DUP, O_OPATH,
       O_NKINDS };
static const char *const okind[O_NKINDS] = {
	"second open O_RDONLY", "second open O_RDWR", "open by uid 65534",
	"hard link", "dup", "O_PATH",
};

/* A process of uid 65534 that holds @path open until told to go. */
static pid_t holder(const char *path, int *go)
{
	int up[2], down[2];
	char c = 0;
	pid_t pid;

	if (pipe(up) || pipe(down))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int h;

		close(up[0]);
		close(down[1]);
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		h = open(path, O_RDONLY);
		c = h >= 0 ? 'y' : 'n';
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) < 0)
			_exit(4);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	if (pid < 0 || read(up[0], &c, 1) != 1 || c != 'y') {
		close(up[0]);
		close(down[1]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return -1;
	}
	close(up[0]);
	*go = down[1];
	return pid;
}

/* MAP_CREATE(_V2) of @f while something else may reach it. */
void do_opener(struct ffile *f)
{
	int kind = (int)below(O_NKINDS), fd2 = -1, go = -1, was_mapped;
	char lnk[PATH_MAX + 8];
	pid_t pid = -1;

	if (f->mapped || f->unlinked)
		return;
	switch (kind) {
	case O_SECOND_RO:
	case O_SECOND_RW:
		fd2 = open(f->path, kind == O_SECOND_RO ? O_RDONLY : O_RDWR);
		break;
	case O_OTHER_USER:
		pid = holder(f->path, &go);
		break;
	case O_LINK:
		snprintf(lnk, sizeof(lnk), "%s.l", f->path);
		fd2 = link(f->path, lnk) ? -1 : 0;
		break;
	case O_DUP:
		fd2 = dup(f->fd);
		break;
	default:
		fd2 = open(f->path, O_PATH);
		break;
	}
	if (fd2 < 0 && pid < 0) {
		bad(C_OPENERS, "%s: %s of %s: %s", f->path, okind[kind],
		    f->path, t_errname(errno));
		return;
	}
	nc_opener++;
	ncheck[C_OPENERS]++;
	f->others = kind <= O_LINK;
	if (chance(50))
		do_create(f, chance(70));
	else
		do_create_v2(f, chance(70));
	was_mapped = f->mapped;
	if (was_mapped && f->others)
		bad(C_OPENERS, "%s: MAP_CREATE accepted while a %s reaches the file",
		    f->path, okind[kind]);
	f->others = 0;
	if (pid > 0) {
		if (write(go, "x", 1) != 1 || waitpid(pid, NULL, 0) != pid)
			bad(C_OPENERS, "the uid 65534 holder did not exit");
		close(go);
	} else if (kind == O_LINK) {
		if (unlink(lnk))
			bad(C_OPENERS, "unlink %s: %s", lnk, t_errname(errno));
	} else {
		close(fd2);
	}
}

/* ---- the cache mode ------------------------------------------------------ */
void check_coherence(const char *when)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char dev[256], dir[PATH_MAX], type[64], opts[1024], o[1030];
	int found = 0, nc = 0;

	if (!f)
		die("/proc/self/mounts");
	/* the last line for mpt is the mount on top */
	while (fscanf(f, "%255s %4095s %63s %1023s %*d %*d", dev, dir, type,
		      opts) == 4) {
		if (strcmp(dir, mpt) || strcmp(type, "famfs"))
			continue;
		snprintf(o, sizeof(o), ",%s,", opts);
		found = 1;
		nc = strstr(o, ",noncoherent,") != NULL;
	}
	fclose(f);
	ncheck[C_COHERENCE]++;
	if (!found)
		bad(C_COHERENCE, "%s: no famfs mount on %s in /proc/self/mounts",
		    when, mpt);
	else if (nc != noncoherent)
		bad(C_COHERENCE, "%s: %s is mounted %s, expected %s", when, mpt,
		    nc ? "noncoherent" : "coherent",
		    noncoherent ? "noncoherent (-N)" : "coherent");
}

/* ---- remounts ----------------------------------------------------------- */
static unsigned long keep_flags(void)
{
	static const struct { unsigned long st, ms; } fl[] = {
		{ ST_NOSUID, MS_NOSUID }, { ST_NODEV, MS_NODEV },
		{ ST_NOEXEC, MS_NOEXEC }, { ST_NOATIME, MS_NOATIME },
		{ ST_NODIRATIME, MS_NODIRATIME }, { ST_RELATIME, MS_RELATIME },
		{ ST_SYNCHRONOUS, MS_SYNCHRONOUS },
	};
	struct statvfs sv;
	unsigned long ms = 0;

	if (statvfs(mpt, &sv))
		die("statvfs");
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (sv.f_flag & fl[i].st)
			ms |= fl[i].ms;
	return ms;
}

static int remount(int rdonly)
{
	return mount(NULL, mpt, NULL, MS_REMOUNT | keep_flags() |
		     (rdonly ? MS_RDONLY : 0), NULL) ? errno : 0;
}

static void set_dev_ro(int on)
{
	int fd = open(blkdev, O_RDONLY), v = on;

	if (fd < 0 || ioctl(fd, BLKROSET, &v))
		die(blkdev);
	close(fd);
	dev_ro = on;
}

/* Every own file open with @flags again (unlinked ones closed). */
static void reopen_all(int flags)
{
	for (int i = 0; i < MAXF; i++) {
		struct ffile *f = &ff[i];

		if (!f->used)
			continue;
		if (f->unlinked) {
			close_file(f);
			continue;
		}
		close(f->fd);
		f->fd = open(f->path, flags);
		if (f->fd < 0)
			die(f->path);
	}
}

static void check_remount(const char *what, int got, int want)
{
	ncheck[C_REMOUNT]++;
	if (got != want)
		bad(C_REMOUNT, "%s: %s, expected %s", what, t_errname(got),
		    t_errname(want));
	if (!got)
		check_coherence(what);
}

void do_remount(void)
{
	int e;

	nc_remount++;
	if (!ro) {
		/* own files open for writing: a read-only remount waits */
		if (count(0) + count(1) && chance(30)) {
			check_remount("remount,ro with files open for writing",
				      remount(1), EBUSY);
			return;
		}
		reopen_all(O_RDONLY);
		e = remount(1);
		check_remount("remount,ro", e, 0);
		if (!e)
			ro = 1;
		else
			reopen_all(O_RDWR);
		return;
	}
	if (blkdev && !dev_ro && chance(40)) {
		set_dev_ro(1);
		check_remount("remount,rw of a read-only device", remount(0),
			      EROFS);
		check_remount("remount,ro of a read-only device", remount(1),
			      0);
		return;
	}
	if (dev_ro) {
		check_remount("remount,rw of a read-only device", remount(0),
			      EROFS);
		set_dev_ro(0);
	}
	e = remount(0);
	check_remount("remount,rw", e, 0);
	if (!e) {
		ro = 0;
		reopen_all(O_RDWR);
	}
}

/* Leave the mount (and device) writable, as it was. */
void remount_end(void)
{
	if (dev_ro)
		set_dev_ro(0);
	if (remounts && ro) {
		check_remount("remount,rw at the end", remount(0), 0);
		ro = 0;
		reopen_all(O_RDWR);
	}
}
