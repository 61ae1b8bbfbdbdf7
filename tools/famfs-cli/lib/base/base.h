/* SPDX-License-Identifier: GPL-2.0 */
/*
 * base/: the tool's own C library -- messages and exit codes, numbers and
 * uuids as text, path strings and where a path's mount is, opening
 * beneath a directory without following a link, path sets, mount -o
 * options, zeroing memory, the test pattern.  Of famfs's format it knows
 * only constants (a path's length, the meta files' names, the coherence
 * bit mount -o reads).  It calls libc, libuuid and system calls only.
 */
#ifndef FAMFS_BASE_H
#define FAMFS_BASE_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <linux/famfs_format.h>

/* exit codes of every command (documented in famfs --help) */
enum {
	FAMFS_EXIT_OK      = 0,
	FAMFS_EXIT_USAGE   = 1,
	FAMFS_EXIT_ERROR   = 2,
	FAMFS_EXIT_PROBLEM = 3,	/* ran to the end, found inconsistencies */
};

/* a reason filled by a check, for its caller's message */
#define FAMFS_REASON_LEN 160

/* ---- err.c: messages, numbers ------------------------------------------- */
extern int famfs_quiet;		/* unit tests: silence famfs_err/famfs_warn */
extern int famfs_verbose;
__attribute__((format(printf, 1, 2))) void famfs_err(const char *fmt, ...);
/* when set, each famfs_err message is also given to it (even when quiet):
 * the -j output of rm, mv, chmod, chown lists a path's errors */
extern void (*famfs_err_hook)(void *arg, const char *msg);
extern void *famfs_err_hook_arg;
__attribute__((format(printf, 1, 2))) void famfs_warn(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void famfs_info(const char *fmt, ...);
/* what the tool did that the user did not ask for exactly ("famfs: ..."
 * on stderr, always; famfs_info: only with -v) */
__attribute__((format(printf, 1, 2))) void famfs_note(const char *fmt, ...);
/* "123", "4k", "2M", "1g" (binary multiples) -> bytes; decimal, or hex
 * after 0x ("010" is ten, never octal); -EINVAL on junk */
int famfs_parse_size(const char *s, uint64_t *out);
int famfs_parse_u32(const char *s, int base, uint32_t *out);
/* the lower-case text form of a uuid */
void famfs_uuid_str(const uint8_t uuid[16], char out[37]);

/* ---- path.c ------------------------------------------------------------- */
/* the meta files of a mount (famfs mount makes them) */
#define FAMFS_META_DIR	".meta"
#define FAMFS_META_SB	".meta/.superblock"
#define FAMFS_META_LOG	".meta/.log"
/* Normalize a path relative to the mount root: collapse "//" and "./",
 * strip leading/trailing '/'.  Refuses "..", the empty path, ".meta/...",
 * and paths longer than FAMFS_LOG_PATH_MAX - 1.  out has FAMFS_LOG_PATH_MAX. */
int famfs_relpath_normalize(const char *in, char *out, char *reason);
/* Find the famfs mount holding path (which need not exist): resolves the
 * longest existing prefix and walks up to a directory holding .meta/.log
 * that is the root of a famfs mount (famfs_mount_root_check).
 * Fills mpt (PATH_MAX) and rel (FAMFS_LOG_PATH_MAX); rel is "" for the
 * mount root itself when allow_root, else that is refused. */
int famfs_locate(const char *path, bool allow_root, char *mpt, char *rel);
/* statfs f_type of a famfs mount (FAMFS_MAGIC of fs/famfs/famfs.h) */
#define FAMFS_SUPER_MAGIC	0x87b282ffU
/* 0 if dir is the root of a famfs mount (statfs type, its parent on
 * another device), else -errno and reason (may be NULL) filled */
int famfs_is_mount_root(const char *dir, char *reason);
/* mountinfo text in f (/proc/self/mountinfo): 0 if the mount seen at mpt
 * (the last one listed there) is device dev's and shows its file system's
 * root ("/": not a bind mount of a directory in it), else -ENOENT with
 * reason filled */
int famfs_mountinfo_root(FILE *f, const char *mpt, dev_t dev, char *reason);
/* what famfs_locate and famfs_fs_open_mount ask (unit tests, whose
 * "mounts" are plain directories, put their own) */
extern int (*famfs_mount_root_check)(const char *dir, char *reason);
/* true if path is dir or inside it (both absolute, normalized: no "//",
 * "." or ".."; dir "/" holds everything) */
bool famfs_path_within(const char *path, const char *dir);
/* out = a "/" b; -ENAMETOOLONG (message printed) if it does not fit */
int famfs_join(char *out, size_t n, const char *a, const char *b);

/* ---- pathset.c: a set of paths (hash, chunked storage) ------------------ */
struct pathset_item {
	char *path;		/* NULL: a free slot */
	uint64_t idx;
	uint64_t hash;
	size_t len;
	int type;
};
struct pathset {
	struct pathset_item *slots;
	size_t cap, count;
	/* the paths' bytes, in chunks (no malloc per path: issue 17) */
	char *chunk;		/* the newest; its first word links the older */
	size_t used, room;
};
int pathset_init(struct pathset *ps, size_t expect);
void pathset_free(struct pathset *ps);
/* -EEXIST (and *existing) if p is already there */
int pathset_add(struct pathset *ps, const char *p, uint64_t idx, int type,
		const struct pathset_item **existing);
const struct pathset_item *pathset_lookup(const struct pathset *ps,
					  const char *p);
const struct pathset_item *pathset_lookup_n(const struct pathset *ps,
					    const char *p, size_t n);

/* ---- beneath.c: opening beneath a directory, no link followed ----------- */
/* rel[0..len) under rootfd (len 0: rootfd's own directory) opened with
 * flags (DIRSET_DIR: a directory) without following a symbolic link
 * anywhere on the way, the last component included, and without leaving
 * rootfd: openat2(2) RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH, or on a
 * kernel or under a seccomp profile without it (ENOSYS, EPERM; unit
 * tests: dirset_no_openat2) one O_NOFOLLOW component at a time.  fd, or
 * -errno: -ELOOP a symbolic link on the way, -EXDEV a way out of rootfd. */
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
/* The same under root, the mount root already open (not closed here) */
int dirset_parent_at(int root, const char *rel, const char **name);
/* name under pfd, the directory this process has just made (mkdirat),
 * opened to be given its owner and mode: without following a link
 * (O_NOFOLLOW | O_DIRECTORY), and only if it is still one that this
 * process made -- on pfd's file system, owned by this process's effective
 * uid, empty.  fd, or -errno: -ELOOP a symbolic link in its place,
 * -ENOTDIR another kind of file, -ESTALE another directory;
 * dirset_made_why says so. */
int dirset_open_made_dir(int pfd, const char *name);
const char *dirset_made_why(int err);

/* ---- modespec.c: chmod's MODE ------------------------------------------ */
/* Octal (at most 07777), or chmod(1)'s symbolic clauses ([ugoa]*, then one
 * or more of [-+=] with [rwxXst]*, comma-separated; no who means a, and
 * no umask applies) */
struct famfs_modespec {
	char text[64];
	bool octal;
	uint32_t bits;		/* octal's */
	bool octal_all;		/* 5 digits or more: names a directory's
				 * set-id bits too (chmod(1)) */
};
/* 0, or -EINVAL with reason filled */
int famfs_mode_parse(const char *s, struct famfs_modespec *m, char *reason);
/* The mode m makes of old (a directory's X and set-id bits as chmod(1):
 * kept unless named -- symbolically, by 5 octal digits or more, or by an
 * octal after =, + or -) */
uint32_t famfs_mode_apply(const struct famfs_modespec *m, uint32_t old,
			  bool dir);

/* ---- ownerspec.c: chown's OWNER[:GROUP] --------------------------------- */
/* OWNER, OWNER:GROUP, OWNER: (OWNER's login group, as chown(1)) or :GROUP;
 * each a name of this host or a number (never (u32)-1).  *valid the
 * FAMFS_SETATTR_UID/GID it names; 0, or -EINVAL with reason filled */
int famfs_owner_parse(const char *spec, uint32_t *valid, uint32_t *uid,
		      uint32_t *gid, char *reason);

/* ---- zero.c ------------------------------------------------------------- */
/* zero.c: memset(buf, 0, n) for large n, with non-temporal wide stores
 * where the CPU has them (ordered by a fence before it returns).  Returns
 * how many bytes from buf on may still be in this CPU's cache (n where
 * there are no such stores); the rest reached the memory. */
size_t famfs_zero(void *buf, size_t n);
/* zero.c's choice on x86-64: 1 AVX2, 0 SSE2, -1 not asked yet (tests) */
extern int famfs_zero_avx2;
/* The bytes this process stored into shared memory (issue 30's bench: a
 * count that emulation does not distort), for tests and
 * FAMFS_DEBUG_STORES=1 (printed at exit by famfs-cli).  Counted where the
 * stores happen: famfs_zero (zeroed), a new file's fill (fill.c: its bytes
 * copied or patterned), the log append (its entry's slots, and the 8-byte
 * next_index of each commit), and the superblock area's records (the
 * superblock when a feature bit or the master is set, the master record,
 * its beat and a takeover's intent).  Not counted: mkfs, log growth, a
 * member's label. */
struct famfs_store_stats {
	uint64_t zeroed;	/* famfs_zero */
	uint64_t filled;	/* new files' own bytes (cp, mkfile -S) */
	uint64_t log;		/* log entries, whole slots */
	uint64_t commit;	/* next_index stores, 8 bytes each */
	uint64_t meta;		/* superblock, master record, beat, intent */
};
extern struct famfs_store_stats famfs_store_stats;
/* "famfs: stores: total=... data=... zeroed=... filled=... log=... commit=... meta=..." */
void famfs_store_stats_print(FILE *f);

/* ---- pattern.c: seeded test pattern ------------------------------------- */
void famfs_pattern_fill(void *buf, uint64_t len, uint64_t seed);
/* returns -1 if equal, else the first differing byte offset */
int64_t famfs_pattern_check(const void *buf, uint64_t len, uint64_t seed);

/* ---- mountopt.c: mount -o options --------------------------------------- */
struct famfs_mount_opts {
	unsigned long flags;	/* MS_* flags for mount(2) */
	bool ro;		/* "ro": read-only log; the mount is made
				 * read-only once the log is replayed */
	bool remount;		/* "remount": change the flags of a mount */
	bool follow;		/* "follow": famfs logplay --follow in the
				 * background after the mount */
	char data[512];		/* options for famfs.ko: mode=, dax= */
	int coherency;		/* FAMFS_COHERENCY_*: -o coherent|noncoherent */
	int protect;		/* FAMFS_PROTECT_*: -o protect|noprotect */
};
#define FAMFS_PROTECT_UNSET	0	/* a new mount: protect */
#define FAMFS_PROTECT_ON	1
#define FAMFS_PROTECT_OFF	2
/* famfs.ko's "protect" (issue 29: only the famfs tool changes the
 * namespace, chmods and chowns) for mount(2): a new mount (remount false)
 * gets it unless -o noprotect; a remount gets "protect" or "noprotect" if
 * given.  Appended to o->data; -E2BIG (reason filled) if it does not fit. */
int famfs_mount_opts_protect(struct famfs_mount_opts *o, bool remount,
			     char *reason);
#define FAMFS_COHERENCY_UNSET		0
#define FAMFS_COHERENCY_COHERENT	1
#define FAMFS_COHERENCY_NONCOHERENT	2
/* Split a mount(8)-style option string (NULL: none): generic options
 * (nosuid, noexec, noatime, ...) become MS_* flags (nosuid and nodev are
 * the default: suid and dev turn them off), fstab-only ones
 * (defaults, auto, noauto, user, nofail, _netdev, x-*, comment=) are
 * dropped, famfs.ko's (mode=, dax=) go to data.  Anything else is refused
 * (-EINVAL, reason filled), or dropped with a warning when sloppy.
 * "remount" sets remount; "ro" then means MS_RDONLY.  "follow" sets
 * follow (refused with remount or ro); "protect" and "noprotect" set
 * protect (famfs_mount_opts_protect). */
int famfs_mount_opts_parse(const char *in, bool sloppy,
			   struct famfs_mount_opts *o, char *reason);
/* The cache-coherence mode of a mount (issue 18): the user's -o coherent or
 * -o noncoherent if given, else the superblock's INCOMPAT_NONCOHERENT bit
 * (sb NULL, a remount: only the user's).  Appends "noncoherent" or
 * "coherent" to o->data when famfs.ko must be told.  Returns 1 when the
 * user's option overrides the superblock (note gets one line saying so),
 * 0 otherwise, -E2BIG when data is full (note says so). */
int famfs_mount_opts_coherency(struct famfs_mount_opts *o,
			       const struct famfs_superblock *sb, char *note);

/*
 * A mount's meta files (.meta/.superblock, .meta/.log, .meta/.logK) are what
 * every replay and every create of the master trusts, so they are taken
 * only from a .meta that nobody but root (or this user) can put a name in:
 * opened beneath the mount root without following a link, .meta a
 * directory owned by root or by this process's effective uid that group
 * and others may not write, each file a regular file of the same owners
 * that group and others may not write.  famfs has renames and hard links,
 * and its root may be writable by others (mode=1777): a .meta made by a
 * user, or one others may write, would let her famfs file be the log.
 */

#define FAMFS_META_WHY_LEN 320

/* .meta of the mount at mpt: fd, or -errno and why (-EPERM: there, but
 * not trusted: whose it is, or its mode) */
int famfs_metadir_open(const char *mpt, char *why);
/* The same beneath root, a mount root already open (not closed here) */
int famfs_metadir_open_at(int root, char *why);
/* name (one component) in mfd, a .meta from famfs_metadir_open, opened
 * with flags | O_NOFOLLOW | O_CLOEXEC (mode for O_CREAT) and judged as
 * above: fd, or -errno and why (-ENOENT: not there) */
int famfs_meta_openat(int mfd, const char *name, int flags, mode_t mode,
		      char *why);
/* both at once, rel being ".meta/NAME" */
int famfs_meta_open(const char *mpt, const char *rel, int flags, char *why);

#endif /* FAMFS_BASE_H */
