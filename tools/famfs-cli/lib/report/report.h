/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report/: what the tool tells about a file system -- fsck (whole-log
 * checks), df (space and log usage), their JSON and that of a file's
 * map, and fsck(8)'s conventions for fsck.famfs.  It reads (log/, dev/)
 * and changes nothing; it calls every layer below.
 */
#ifndef FAMFS_REPORT_H
#define FAMFS_REPORT_H

#include "replay/replay.h"

/* ---- fsck.c ------------------------------------------------------------- */
struct famfs_fsck_result {
	unsigned long entries, files, dirs, bad_entries, problems;
	uint64_t used_bytes, free_bytes;	/* every device's */
	/* issue 29: deleted files whose memory no RECLAIM freed yet (no
	 * problem: their memory stays used), and their bytes */
	unsigned long pending_files;
	uint64_t pending_bytes;
	/* host table slots that do not verify and are not zero: each blocks
	 * every reclaim until evicted by slot (a note, not a problem: a
	 * claim being written reads torn too); the first few numbers */
	unsigned torn_slots;
	unsigned torn_slot[8];
	/* devices the log adds (issue 16): member i found on this host with
	 * its superblock (dev_ok[i], at dev_path[i]), or a problem */
	unsigned ndevs, members_bad;
	bool dev_ok[FAMFS_MAX_DEVS];
	char dev_path[FAMFS_MAX_DEVS][256];
};
int famfs_fsck(struct famfs_fs *fs, struct famfs_fsck_result *r);

/* fsck, and each problem's message to fn (NULL: none) as it is reported */
typedef void (*famfs_problem_fn)(void *arg, const char *msg);
int famfs_fsck_cb(struct famfs_fs *fs, struct famfs_fsck_result *r,
		  famfs_problem_fn fn, void *arg);

/* ---- df.c: space and log usage ------------------------------------------ */
struct famfs_df {
	uint64_t size;		/* device (as the superblock records it) */
	uint64_t reserved;	/* superblock, log and host table */
	uint64_t hosts_len;	/* the host table (HOSTS), on device 0 */
	uint64_t used;		/* allocated to files */
	uint64_t free;
	/* wholly free 1 GiB-aligned GiBs (issue 31: room for files famfs.ko
	 * maps with 1 GiB pages) */
	uint64_t free_1g;
	uint64_t unknown;	/* not free: entries that cannot be parsed
				 * (R3) may own it; free is then 0 */
	uint64_t log_len, log_entries;
	uint64_t log_capacity;	/* entries (v1) or slots (compact) */
	uint64_t log_used;	/* of those: next_index */
	bool log_compact;	/* INCOMPAT_COMPACT_LOG */
	uint64_t log_segments;	/* EXTEND entries: log_len and capacity are
				 * the totals of every segment */
	unsigned long files, dirs, bad_entries;
	unsigned long unparsed_entries;	/* of bad_entries: memory unknown */
	/* format rev 3: DELETE, RENAME, SETATTR entries; the files and
	 * directories the DELETEs removed (not in files, dirs); the memory of
	 * those files, still used (in used) until a RECLAIM frees it */
	unsigned long ns_entries, deleted_files, deleted_dirs;
	uint64_t pending_reclaim;
	/* RECLAIM entries (issue 29; in ns_entries): the deleted files
	 * they freed (of deleted_files) and their bytes (no longer in
	 * pending_reclaim nor used) */
	unsigned long reclaimed_files;
	uint64_t reclaimed;
	/* the host table: 1 armed, 0 not armed (nothing is reclaimed),
	 * -ENOENT none, -errno its header unreadable */
	int hosts_armed;
	/* small files (issue 30): the shared units (in used, whole), the
	 * pages of them in use and free; sums of the devices' */
	uint64_t small_units, small_pages_used, small_pages_free;
	/* per device (issue 16; size..unknown above are their sums): 0 the
	 * primary, i the member a DEVADD added */
	unsigned ndevs;
	struct famfs_df_dev {
		uint64_t size, reserved, used, free, unknown, free_1g;
		uint64_t small_units, small_pages_used, small_pages_free;
		/* famfs_df_mount_devs: as famfs.ko has it (DEV_GET) */
		bool asked, attached, failed, mount_failed;
		char path[64];		/* "" when not known */
	} dev[FAMFS_MAX_DEVS];
};
/* Ask famfs.ko about each device of df on the mount at mpt (DEV_GET):
 * attached, failed (this device was removed or poisoned), mount_failed (the
 * whole mount fails: some device failed), and the node (/dev/NAME of its
 * major:minor).  An older module: nothing asked. */
void famfs_df_mount_devs(const char *mpt, struct famfs_df *df);
/* A log this full (log_used of log_capacity, in percent) is warned about */
#define FAMFS_LOG_WARN_PCT	90
/* 1 (message printed: name, how full, what to do) if df's log is at least
 * FAMFS_LOG_WARN_PCT full, else 0 */
int famfs_df_log_warn(const char *name, const struct famfs_df *df);
int famfs_df(struct famfs_fs *fs, struct famfs_df *df);

/* ---- json.c: the -j output of getmap, fsck, df, rm, mv, chmod, chown ---- */
struct json_object;
/* A JSON string of s, which need not be UTF-8 (file names are bytes): valid
 * UTF-8 is kept, each other byte 0xXX becomes the character U+00XX, so the
 * output is always valid JSON.  (Names are told apart from real U+0080..
 * U+00FF characters only by their original bytes.) */
struct json_object *famfs_json_string(const char *s);
const char *famfs_map_type_name(uint32_t file_type);
const char *famfs_extent_type_name(uint32_t extent_type);
struct json_object *famfs_json_map(const char *path,
				   const struct famfs_fmap *map);
/* problems: an array of messages (taken over), or NULL */
struct json_object *famfs_json_fsck(const char *target, bool sb_valid,
				    const struct famfs_fsck_result *r,
				    struct json_object *problems);
/* fs may be NULL; mpt and dev may be NULL or "" (unknown) */
struct json_object *famfs_json_df(const char *target, const char *mpt,
				  const char *dev, const struct famfs_fs *fs,
				  const struct famfs_df *df);
/* famfs rm, mv, chmod, chown -j: the DELETE, RENAME and SETATTR entries
 * of fs's log in [start, end), an array of {index, action (delete, rename
 * or setattr), type (file or directory), path, to (rename), mode (octal
 * text), uid, gid (setattr)} -- every key in each, null where it does not
 * apply; paths under fs->mpt */
struct json_object *famfs_json_ns_entries(struct famfs_fs *fs, uint64_t start,
					  uint64_t end);

/* ---- fsck8.c: fsck(8)'s conventions for fsck.famfs ---------------------- */
/* fsck(8)'s exit codes: a bit mask */
enum {
	FSCK_EX_OK = 0, FSCK_EX_CORRECTED = 1, FSCK_EX_REBOOT = 2,
	FSCK_EX_UNCORRECTED = 4, FSCK_EX_ERROR = 8, FSCK_EX_USAGE = 16,
	FSCK_EX_CANCELED = 32, FSCK_EX_LIBRARY = 128,
};
enum famfs_fsck8_mode {
	FAMFS_FSCK8_CHECK,	/* no mode option */
	FAMFS_FSCK8_NO,		/* -n: open read-only, answer no */
	FAMFS_FSCK8_YES,	/* -y: repair, answer yes */
	FAMFS_FSCK8_AUTO,	/* -a, -p: repair what is safe, no questions */
};
struct famfs_fsck8 {		/* zeroed: check only */
	enum famfs_fsck8_mode mode;
	char mode_opt;		/* the option that set mode: 'n', 'y', 'a', 'p' */
	bool force;		/* -f: accepted, famfs always checks everything */
	int verbose;		/* -v */
};
/* Take option c of fsck.famfs (n y a p f v): 0, or -EINVAL with reason
 * filled for an unknown option or a second, different mode (-n with -y). */
int famfs_fsck8_opt(struct famfs_fsck8 *o, int c, char *reason);
/* The fsck(8) exit code of a famfs fsck result (FAMFS_EXIT_*): clean 0,
 * problems 4 (famfs fsck corrects nothing), usage 16, anything else 8. */
int famfs_fsck8_exit(int famfs_exit);

#endif /* FAMFS_REPORT_H */
