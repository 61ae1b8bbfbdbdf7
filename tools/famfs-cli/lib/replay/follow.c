// SPDX-License-Identifier: GPL-2.0
/*
 * famfs logplay --follow: keep a mount up to date with the log.
 *
 * Every interval the follower opens the mount's meta files, refreshes the
 * log header's cache line, reads next_index and replays the entries it has
 * not played yet (famfs_logplay_more: idempotent, conflicts reported, never
 * rewritten), then closes everything again: between rounds it holds nothing
 * of the mount, so umount is not kept busy by it.  It stops when
 *  - the mount goes away: inotify's IN_UNMOUNT on the mount's root wakes it
 *    at once; a changed st_dev/st_ino of MPT or missing meta files are
 *    noticed at the next round;
 *  - it is asked to (stop(): SIGINT/SIGTERM in famfs-cli), checked between
 *    entries, so the entry being played is finished first.
 * An entry that does not verify here is waited for, not skipped: read
 * again every round, said once, played once it verifies (nothing after it
 * before that: famfs_logplay_hold_bad).
 * A full log is reported once; following goes on.  A different file system
 * mounted at MPT (another fs uuid) is replayed from its first entry.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "replay/replay.h"

/* Sleep up to ms; 1 when the mount went away (IN_UNMOUNT), else 0 (also
 * on a signal: the caller asks stop()). */
static int real_wait(struct famfs_follow *f, unsigned ms)
{
	struct pollfd pfd = { .fd = f->ino_fd, .events = POLLIN };
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	if (f->ino_fd < 0) {
		struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		return 0;
	}
	if (poll(&pfd, 1, (int)ms) != 1)
		return 0;
	n = read(f->ino_fd, buf, sizeof(buf));
	for (char *p = buf; n > 0 && p < buf + n;) {
		struct inotify_event *ev = (struct inotify_event *)p;

		/* IN_IGNORED follows IN_UNMOUNT: the watch is gone */
		if (ev->mask & (IN_UNMOUNT | IN_IGNORED | IN_DELETE_SELF))
			f->unmounted = true;
		p += sizeof(*ev) + ev->len;
	}
	return f->unmounted ? 1 : 0;
}

static int real_gone(struct famfs_follow *f)
{
	char p[PATH_MAX];
	struct stat st;

	if (f->ino_fd >= 0 && real_wait(f, 0) == 1)
		return 1;
	if (f->unmounted)
		return 1;
	if (stat(f->mpt, &st) || st.st_dev != f->dev || st.st_ino != f->ino)
		return 1;
	if (famfs_join(p, sizeof(p), f->mpt, FAMFS_META_LOG) ||
	    stat(p, &st) || st.st_dev != f->dev)
		return 1;
	return 0;
}

static bool real_stop(struct famfs_follow *f)
{
	return f->stop_flag && *f->stop_flag;
}

static const struct famfs_follow_ops real_ops = {
	.wait = real_wait,
	.gone = real_gone,
	.stop = real_stop,
};

/* the follower's replay: an entry that does not verify is waited for */
static struct famfs_logplay *new_lp(void)
{
	struct famfs_logplay *lp = famfs_logplay_new(64);

	if (lp)
		famfs_logplay_hold_bad(lp);
	return lp;
}

int famfs_follow_init(struct famfs_follow *f, const char *mpt,
		      unsigned interval_ms, const struct famfs_follow_ops *ops)
{
	struct stat st;

	memset(f, 0, sizeof(*f));
	f->holds_from = FAMFS_HOLDS_NONE;
	f->ino_fd = -1;
	f->interval_ms = interval_ms;
	f->ops = ops ? ops : &real_ops;
	if (!realpath(mpt, f->mpt)) {
		int rc = -errno;

		famfs_err("%s: %s", mpt, strerror(errno));
		return rc;
	}
	if (stat(f->mpt, &st)) {
		int rc = -errno;

		famfs_err("%s: %s", f->mpt, strerror(errno));
		return rc;
	}
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	/* a watch on the mount's root: IN_UNMOUNT when it is unmounted (a
	 * watch does not keep the mount busy) */
	f->ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (f->ino_fd >= 0 &&
	    inotify_add_watch(f->ino_fd, f->mpt, IN_DELETE_SELF | IN_MOVE_SELF) < 0) {
		close(f->ino_fd);
		f->ino_fd = -1;
	}
	f->lp = new_lp();
	return f->lp ? 0 : -ENOMEM;
}

void famfs_follow_fini(struct famfs_follow *f)
{
	famfs_logplay_free(f->lp);
	f->lp = NULL;
	if (f->ino_fd >= 0)
		close(f->ino_fd);
	f->ino_fd = -1;
}

static bool stop_cb(void *arg)
{
	struct famfs_follow *f = arg;

	return f->ops->stop(f);
}

/* Members the log added that this mount lacks: look for them again
 * (quietly: the replay that met their DEVADD said which are missing).
 * true if one was attached, so the files on it can now be created. */
static bool members_came(struct famfs_follow *f, struct famfs_fs *fs)
{
	int q = famfs_quiet, before, after;

	before = famfs_fs_members_missing(fs);
	if (before <= 0) {
		f->member_wait = false;
		return false;
	}
	famfs_quiet = 1;
	(void)famfs_fs_attach_members(fs, NULL, 0);
	famfs_quiet = q;
	after = famfs_fs_members_missing(fs);
	f->member_wait = after != 0;
	if (after < 0 || after >= before)
		return false;
	famfs_warn("%s: %d missing member device(s) attached now; replaying the log from its start for the files on them",
		   f->mpt, before - after);
	return true;
}

int famfs_follow_round(struct famfs_follow *f, uint64_t *played)
{
	struct famfs_fs fs;
	uint64_t n, cap, before, restarts;
	int q = famfs_quiet, rc;

	*played = 0;
	if (f->ops->gone(f))
		return FAMFS_FOLLOW_UNMOUNTED;
	/* an umount may come at any time: quiet until it is known not to */
	famfs_quiet = 1;
	rc = famfs_fs_open_mount(f->mpt, false, &fs);
	famfs_quiet = q;
	if (rc) {
		if (f->ops->gone(f))
			return FAMFS_FOLLOW_UNMOUNTED;
		rc = famfs_fs_open_mount(f->mpt, false, &fs);	/* says why */
		if (rc)
			return rc;
	}
	f->rounds++;
	if (f->have_uuid && memcmp(f->fs_uuid, fs.sb->fs_uuid, 16)) {
		famfs_warn("%s: another file system is mounted here now; replaying its log from the start",
			   f->mpt);
		famfs_logplay_free(f->lp);
		f->lp = new_lp();
		f->full_reported = false;
		f->registered = false;	/* in that one's host table */
		if (!f->lp) {
			famfs_fs_close(&fs);
			return -ENOMEM;
		}
		/* this host may hold lines of the memory from the file
		 * system before, which the new one's log does not know of:
		 * every file it makes gets them dropped */
		famfs_logplay_drop_all(f->lp);
	}
	memcpy(f->fs_uuid, fs.sb->fs_uuid, 16);
	f->have_uuid = true;
	if (f->member_wait && members_came(f, &fs)) {
		struct famfs_logplay *lp = new_lp();

		if (!lp) {
			famfs_fs_close(&fs);
			return -ENOMEM;
		}
		/* the same log: the entry waited at is said already */
		famfs_logplay_held_from(lp, f->lp);
		famfs_logplay_free(f->lp);
		f->lp = lp;
	}
	n = famfs_log_refresh_next(&fs);
	before = famfs_logplay_next(f->lp);
	restarts = famfs_logplay_restarts(f->lp);
	rc = 0;
	/* with a host table, this host registered before it maps anything
	 * (its mount did, unless it came before the table): a host that
	 * cannot register does not replay -- what it mapped would be
	 * invisible to the master's reclaim decision */
	if (n > before && !f->registered &&
	    (le32toh(fs.sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS)) {
		rc = famfs_hosts_checkin(&fs, false, false, 0, NULL);
		if (rc) {
			famfs_err("%s: not replayed: this host is not registered in the host table (%s)",
				  f->mpt, strerror(-rc));
			famfs_fs_close(&fs);
			return rc;
		}
		f->registered = true;
	}
	if (n > before) {
		struct famfs_logplay_result r0 = f->r;

		rc = famfs_logplay_more(f->lp, &fs, false, &f->r, stop_cb, f);
		if (famfs_logplay_next(f->lp) > before)
			famfs_info("famfs logplay: %s: entries %llu..%llu: %lu files and %lu directories created, %lu present, %lu conflicts, %lu corrupt, %lu errors, %lu removed, %lu moved, %lu changed",
				   f->mpt, (unsigned long long)before,
				   (unsigned long long)famfs_logplay_next(f->lp) - 1,
				   f->r.created_files - r0.created_files,
				   f->r.created_dirs - r0.created_dirs,
				   f->r.present - r0.present,
				   f->r.conflicts - r0.conflicts,
				   f->r.bad_entries - r0.bad_entries,
				   f->r.errors - r0.errors,
				   f->r.removed - r0.removed,
				   f->r.moved - r0.moved,
				   f->r.changed - r0.changed);
		/* a DEVADD whose device is not here: look again each round */
		if (!f->member_wait && famfs_fs_members_missing(&fs) > 0)
			f->member_wait = true;
	}
	/* the segments the replay met are mapped now; a compact log keeps
	 * its last slot for the entry that records a growth */
	cap = famfs_log_cap(&fs);
	if (cap > f->capacity)
		f->full_reported = false;	/* it grew */
	f->capacity = cap;
	if (famfs_fs_compact(&fs))
		cap--;
	if (!rc && n >= cap && famfs_logplay_next(f->lp) >= cap &&
	    !f->full_reported) {
		famfs_warn("%s: the log is full (%llu of %llu entries): the master cannot create more until it grows the log; still following",
			   f->mpt, (unsigned long long)n, (unsigned long long)cap);
		f->full_reported = true;
	}
	/* the host table: what this host replayed, its beat (an evicted
	 * host stops: -ESTALE, said; so does one whose table a newer famfs
	 * armed with rules this build does not know: -EPROTONOSUPPORT; a
	 * header with no verifying copy or a malformed one is taken as no
	 * fences, said once, as famfs mount and logplay do) */
	if (!rc && (famfs_logplay_next(f->lp) > before || f->rounds % 64 == 1 ||
		    f->holds_from != FAMFS_HOLDS_NONE) &&
	    (rc = famfs_hosts_checkin_lp(&fs, false, true,
					 famfs_logplay_replayed(f->lp), f->lp,
					 &f->holds_from)) != 0) {
		/* -ESTALE (evicted) and a newer famfs's table stop; any
		 * other failure is said and the slot keeps its last report
		 * (it only blocks reclaim) */
		if (rc != -ESTALE && rc != -EPROTONOSUPPORT) {
			famfs_err("%s: this host's slot in the host table is not updated: %s",
				  f->mpt, strerror(-rc));
			rc = 0;
		}
	}
	famfs_fs_close(&fs);
	/* (a round that started from the first entry again played from 0) */
	*played = famfs_logplay_next(f->lp) -
		  (famfs_logplay_restarts(f->lp) != restarts ? 0 : before);
	f->played += *played;
	return rc < 0 ? rc : 0;
}

int famfs_follow(struct famfs_follow *f)
{
	for (;;) {
		uint64_t played;
		int rc = famfs_follow_round(f, &played);

		if (rc)
			return rc;
		if (f->ops->stop(f))
			return FAMFS_FOLLOW_STOPPED;
		if (f->ops->wait(f, f->interval_ms) == 1)
			return FAMFS_FOLLOW_UNMOUNTED;
		if (f->ops->stop(f))
			return FAMFS_FOLLOW_STOPPED;
	}
}
