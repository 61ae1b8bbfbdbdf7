/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FAMFS_DIRSET_H
#define FAMFS_DIRSET_H
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>

#include "pathset.h"

/*
 * What a replay knows of the mounted namespace: the names of each
 * directory it has looked into, read once with getdents (one syscall per
 * few hundred names instead of an lstat per log entry), by path relative
 * to the mount root ("" is the root).  A name's d_type is the kernel's
 * (famfs's readdir gives the inode's type).  It is a hint for one round
 * of a replay, which holds the log lock: "there, a directory" or "not
 * there"; anything else is looked at with lstat as before.
 */
struct dirset {
	struct pathset ps;	/* type: DT_*; idx: DIRSET_* flags */
	int rootfd;
};
#define DIRSET_LISTED	1	/* a directory whose names are all here */
#define DIRSET_SGID	2	/* (listed) its mode has S_ISGID */

/* rel[0..len) under rootfd (len 0: rootfd's own directory) opened with
 * flags (DIRSET_DIR: a directory) without following a symbolic link
 * anywhere on the way, the last component included, and without leaving
 * rootfd: openat2(2) RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH, or on a
 * kernel or under a seccomp profile without it (ENOSYS, EPERM; unit
 * tests: dirset_no_openat2) one O_NOFOLLOW component at a time.  fd, or -errno: -ELOOP a symbolic link
 * on the way, -EXDEV a way out of rootfd. */
#define DIRSET_DIR (O_RDONLY | O_DIRECTORY | O_CLOEXEC)
int dirset_open_beneath(int rootfd, const char *rel, size_t len, int flags);
extern bool dirset_no_openat2;
extern unsigned long dirset_opens;	/* calls, for tests */
/* "a symbolic link on the way (not followed)" for -ELOOP, ... */
const char *dirset_beneath_why(int err);
/* rel under the mount root mpt (the root itself is opened as named: the
 * administrator's path), opened with flags as dirset_open_beneath does */
int dirset_open_under(const char *mpt, const char *rel, int flags);
/* the directory that holds rel (a path under the mount root mpt; the
 * root for a name of the root), opened as dirset_open_under does: fd (the
 * caller closes it), *name: rel's last component; -errno
 * (dirset_beneath_why says why).  Whatever is then made, opened or
 * removed by name under it is not reached through a link. */
int dirset_parent_beneath(const char *mpt, const char *rel, const char **name);
/* name under pfd, the directory this process has just made (mkdirat),
 * opened to be given its owner and mode: without following a link
 * (O_NOFOLLOW | O_DIRECTORY), and only if it is still one that this
 * process made -- on pfd's file system, owned by this process's effective
 * uid, empty.  fd, or -errno: -ELOOP a symbolic link in its place,
 * -ENOTDIR another kind of file, -ESTALE another directory;
 * dirset_made_why says so. */
int dirset_open_made_dir(int pfd, const char *name);
const char *dirset_made_why(int err);

int dirset_init(struct dirset *ds, int rootfd);
void dirset_free(struct dirset *ds);
/* rel's d_type (DT_DIR, DT_REG...), 0 if its directory has no such name,
 * -errno if that directory cannot be listed; *sgid: the directory's
 * S_ISGID. Lists the directory the first time. */
int dirset_type(struct dirset *ds, const char *rel, size_t len, bool *sgid);
/* rel was made by this replay: a type, and for a new directory whether
 * it is known to be empty with that S_ISGID */
void dirset_note(struct dirset *ds, const char *rel, unsigned type,
		 bool empty, bool sgid);
#endif
