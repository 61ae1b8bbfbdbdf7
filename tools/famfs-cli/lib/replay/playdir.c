// SPDX-License-Identifier: GPL-2.0
/*
 * logplay's directories (logplay.c): a MKDIR entry played -- a new
 * directory made and given its owner and mode through a descriptor of
 * itself, or one already there judged (taken for the logged one, or
 * refused: nothing logged beneath it is played).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/replay.h"

void (*famfs_logplay_mkdir_hook)(int pfd, const char *name);

/*
 * A directory already at a MKDIR entry's path rel: made by an earlier
 * replay (or as a parent before its own entry came), or by someone on
 * this host first.  Taken for the logged one only if it is root's, the
 * logged owner's or the replayer's own (a replay not run as root makes
 * them its own): anyone else's -- a local user who may write a shared
 * logged parent (mode 1777) and made the name before the replay reached
 * it -- would own the directory every later file of it is replayed into,
 * and read or replace root's files there (files get the same rule:
 * file_there never adopts one).  Taken, it gets the logged owner and mode
 * through a descriptor opened beneath the mount without following a link,
 * as a new directory does; refused, it is a conflict said with its owner
 * and mode, and nothing logged beneath it is played (play: skipped).
 */
static void dir_there(struct lp_ctx *c, const char *p, const char *rel,
		      uint64_t idx, const struct famfs_log_entry *e)
{
	uint32_t mode = le32toh(e->fm.mode) & 07777;
	uid_t uid = le32toh(e->fm.uid);
	gid_t gid = le32toh(e->fm.gid);
	struct stat st;
	int fd;

	/* as the log has it (a replay with nothing to do): nothing to open
	 * or change.  (A link above rel would be followed here: then nothing
	 * is done there, and what is made beneath it is made under a parent
	 * opened beneath the root, which refuses the link.) */
	if (!fstatat(c->rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISDIR(st.st_mode) && st.st_uid == uid && st.st_gid == gid &&
	    (st.st_mode & 07777) == mode) {
		c->r->present++;
		return;
	}
	/* else judged and changed on the directory itself */
	fd = dirset_open_beneath(c->rootfd, rel, strlen(rel), DIRSET_DIR);
	if (fd < 0 || fstat(fd, &st)) {
		int err = fd < 0 ? fd : -errno;

		c->r->errors++;
		famfs_err("%s: log entry %llu: the directory there cannot be looked at (%s); nothing logged beneath it is replayed",
			  p, (unsigned long long)idx, dirset_beneath_why(err));
		goto refuse;
	}
	if (st.st_uid && st.st_uid != uid && st.st_uid != c->euid) {
		CONFLICT(c, "%s: log entry %llu: a directory of uid %u, gid %u, mode %04o is already there, made by neither root nor the logged owner (uid %u): not taken for the log's directory (mode %04o), and nothing logged beneath it is replayed (remove it and run famfs logplay again)",
			 p, (unsigned long long)idx, (unsigned)st.st_uid,
			 (unsigned)st.st_gid, (unsigned)(st.st_mode & 07777),
			 (unsigned)uid, (unsigned)mode);
		goto refuse;
	}
	if (!c->dry && (st.st_uid != uid || st.st_gid != gid) &&
	    famfs_mnt_fchown(fd, uid, gid) && !geteuid())
		famfs_warn("%s: chown: %s", p, strerror(errno));
	if (!c->dry && (st.st_mode & 07777) != mode && famfs_mnt_fchmod(fd, mode))
		famfs_warn("%s: chmod: %s", p, strerror(errno));
	close(fd);
	c->r->present++;
	return;
refuse:
	if (fd >= 0)
		close(fd);
	if (pathset_add(&c->refused, rel, idx, DT_DIR, NULL) == -ENOMEM) {
		c->r->errors++;
		famfs_err("out of memory");
	}
}

int famfs_lp_play_dir(struct lp_ctx *c, const char *p, const char *rel,
		    int pfd, const char *name, uint64_t idx,
		    const struct famfs_log_entry *e)
{
	uint32_t mode = le32toh(e->fm.mode) & 07777;
	bool psgid, own, mod, mod_failed = false;
	struct stat st;
	int t = famfs_lp_known_type(c, rel, strlen(rel), &psgid), fd;

again:
	if (t < 0 && pfd >= 0 && fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		t = S_ISDIR(st.st_mode) ? DT_DIR : T_OTHER;
	if (t == DT_DIR) {
		dir_there(c, p, rel, idx, e);
		return 0;
	}
	if (t > 0) {
		CONFLICT(c, "%s: a file where a directory belongs (log entry %llu)",
			 p, (unsigned long long)idx);
		return 0;
	}
	if (c->dry) {
		printf("would create directory %s\n", p);
		c->r->created_dirs++;
		return 0;
	}
	if (famfs_mnt_mkdirat(pfd, name, mode)) {
		if (errno == EEXIST && t == 0) {
			t = -1;		/* made meanwhile: look at it */
			goto again;
		}
		c->r->errors++;
		famfs_err("%s: mkdir: %s", p, strerror(errno));
		return 0;
	}
	if (famfs_logplay_mkdir_hook)
		famfs_logplay_mkdir_hook(pfd, name);
	/* (t < 0: the parent's S_ISGID is not known: chown and chmod) */
	own = t == 0 && famfs_lp_owner_right(c, e, psgid);
	mod = t == 0 && famfs_lp_mode_right(c, mode, psgid);
	if (!own || !mod) {
		/*
		 * On the directory just made, never on whatever took its name
		 * since: anyone who may write the parent can swap it for a
		 * link (to /etc/shadow) or for another directory before the
		 * chmod, and the replay runs as root on every host.
		 */
		fd = dirset_open_made_dir(pfd, name);
		if (fd < 0) {
			c->r->errors++;
			famfs_err("%s: log entry %llu: the directory made was %s; not given its owner and mode",
				  p, (unsigned long long)idx, dirset_made_why(fd));
			return 0;
		}
		if (!own && famfs_mnt_fchown(fd, le32toh(e->fm.uid), le32toh(e->fm.gid)) &&
		    !geteuid())
			famfs_warn("%s: chown: %s", p, strerror(errno));
		if (!mod && famfs_mnt_fchmod(fd, mode)) {
			famfs_warn("%s: chmod: %s", p, strerror(errno));
			mod_failed = true;
		}
		close(fd);
	}
	if (t == 0 && !mod_failed)	/* new and empty; S_ISGID as its mode says */
		dirset_note(&c->ds, rel, DT_DIR, true, mode & S_ISGID);
	c->r->created_dirs++;
	return 0;
}

