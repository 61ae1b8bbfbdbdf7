/* SPDX-License-Identifier: GPL-2.0 */
/* Unit-test helpers: a plain file stands for the device, a temporary
 * directory for the mount, and a mock replaces famfs.ko. */
#ifndef FAMFS_TH_H
#define FAMFS_TH_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <cmocka.h>

#include "libfamfs.h"

#define MiB (1ULL << 20)

struct th {
	char dir[256];		/* scratch directory */
	char img[300];		/* device image */
	char mpt[300];		/* "mount point" */
	char hostid[300];	/* FAMFS_HOST_ID_FILE */
	char bootid[300];	/* FAMFS_BOOT_ID_FILE */
	char claimdir[300];	/* FAMFS_CLAIM_DIR */
	struct famfs_fs fs;
	bool open;
};

/* New scratch dir, a formatted image of size/loglen, this host = master,
 * mock kernel installed, fs opened rw with mpt set. */
struct th *th_new(uint64_t size, uint64_t loglen);
/* small files (issue 30) in the file systems th_new makes: off unless set
 * (famfs_small_max FAMFS_SMALL_NONE: the tests that predate them) */
extern bool th_small_files;
/* the same with a compact log (INCOMPAT_COMPACT_LOG) when compact */
struct th *th_new_fmt(uint64_t size, uint64_t loglen, bool compact);
void th_free(struct th *t);
int th_reopen(struct th *t);
/* t->fs.sb is a private copy of the superblock (never the media): edit
 * the image's through th_sb_media, then th_sb_commit re-CRCs it and reads
 * it again into t->fs (it must verify) */
struct famfs_superblock *th_sb_media(struct th *t);
void th_sb_commit(struct th *t);
/* Make this host a client (another uuid in the host id file) and reopen. */
void th_become_client(struct th *t);
/* r: another host (a client) opening t's device, reading through bounce
 * buffers (as on /dev/pmemN); t's own host id is back when it returns */
void th_open_client(struct th *t, struct famfs_fs *r);
/* a reserved byte of the superblock on the media: a bad CRC */
void th_damage_sb(struct th *t);
/* Make this process a clone of the master (its host uuid; another boot id
 * and another claim directory: not the instance whose claim the record
 * holds) and reopen. */
void th_become_clone(struct th *t);
/* Write a uuid (text) to path: a host id or boot id file */
void th_write_id(const char *path, const uint8_t uuid[16]);
/* Append a hand-made FILE entry (no allocation), returns its index. */
uint64_t th_append_file(struct th *t, const char *path, uint64_t off,
			uint64_t len, uint64_t size);
uint64_t th_append_dir(struct th *t, const char *path);
/* Write a path p (relative to mpt) as a plain file / directory. */
void th_touch(struct th *t, const char *rel, const char *content);
/* the entries of a directory, without . and .. */
int th_count_entries(const char *dir);
/* famfs_file_create of rel (0644, owned by root) that must succeed; closed */
void th_create_ok(struct famfs_fs *fs, const char *rel, uint64_t size);
/* the same, its memory not zeroed (famfs_fill nozero) */
void th_create_nozero(struct famfs_fs *fs, const char *rel, uint64_t size);
bool th_exists(struct th *t, const char *rel, bool dir);
/* A mkdtemp/mkstemp template "<dir>/NAME-XXXXXX" into buf (n bytes): dir
 * is $TMPDIR, else /tmp (tests/unit/run.sh points TMPDIR at a tmpfs: a
 * disk file system's inode and block work made the unit tests 5 times
 * slower) */
void th_tmpl(char *buf, size_t n, const char *name);
/* The messages of what runs between th_stderr_grab() and th_stderr_take()
 * (famfs_quiet off meanwhile): into buf (n bytes, NUL-ended) */
void th_stderr_grab(void);
void th_stderr_take(char *buf, size_t n);
int th_setup(void **state);	/* 64 MiB, 2 MiB log */
/* The master's clock (role.h hooks, installed by th_new): th_now, which
 * only a takeover's waits move (th_slept seconds in all; th_during_wait,
 * if set, is called after each with th_slept) */
extern uint64_t th_now;
extern unsigned th_slept;
extern void (*th_during_wait)(unsigned slept);
int th_teardown(void **state);

/* th_play.c: the replay tests' log building: e appended (its index
 * returned), a DELETE or a RENAME of object obj (kind FAMFS_LOG_FILE or
 * _MKDIR) appended; a fresh mount (an empty mpt with .meta, the mock
 * forgets every map); the offset of rel's first extent (0: no map, or not
 * there) */
uint64_t th_app(struct th *t, struct famfs_log_entry *e);
uint64_t th_del(struct th *t, uint64_t obj, unsigned kind, const char *p);
uint64_t th_ren(struct th *t, uint64_t obj, unsigned kind, const char *a,
		const char *b);
void th_remount(struct th *t);
uint64_t th_mock_off_or_0(struct th *t, const char *rel);
/* ... and the replay's checks: a whole replay (famfs_logplay, 0 asserted);
 * a follower's round that reads to the log's end; no conflict, error or
 * bad entry in r; fsck finds no problem; rel's permission bits (lstat);
 * a round's stop(): true once asked *(int *)arg times more */
struct famfs_logplay_result th_replay(struct th *t);
void th_more(struct th *t, struct famfs_logplay *lp,
	     struct famfs_logplay_result *r);
void th_play_clean(const struct famfs_logplay_result *r);
void th_fsck_clean(struct th *t);
unsigned th_mode_of(struct th *t, const char *rel);
bool th_stop_after(void *arg);
/* a mount's meta files as plain copies of the superblock region and of
 * log segment 0 (the mock kernel maps nothing: reads go to the files) */
void th_fake_meta(struct th *t);
/* ev written as the host table's next header copy the way the master's
 * write does, but whatever it holds (a newer build's, a corrupt one):
 * the master's own write refuses a header it cannot read back */
void th_hdr_plant(struct famfs_hosttab *tab, struct famfs_hosts_ev *ev);

/* th_hosts.c: a file system (64 MiB, its log 2 MiB) with a host table,
 * opened read-write into tab (settle time short); g made up as a
 * registered host of uuid fill, boot id boot, generation gen, name name
 * (seq 1, holding nothing); h encoded into slot (its other copy zero) */
struct th *th_hosts_new(struct famfs_hosttab *tab);
void th_host_named(struct famfs_host *g, uint8_t fill, uint8_t boot,
		   uint64_t gen, const char *name);
void th_host_plant(struct famfs_hosttab *tab, unsigned slot,
		   const struct famfs_host *h);

/* th_entry.c: the entry tests' (no file system) superblock: fs uuid
 * th_uuid_a, master th_uuid_b, 1 GiB with an 8 MiB log, its incompat word
 * incompat, CRCed; an entry sealed as the append does it (seq idx, fs uuid
 * th_uuid_a, its CRC) */
extern const uint8_t th_uuid_a[16], th_uuid_b[16];
void th_entry_sb(struct famfs_superblock *sb, uint32_t incompat);
void th_entry_seal(struct famfs_log_entry *e, uint64_t idx);

/* mock famfs.ko: maps kept per (dev, ino) */
extern const struct famfs_kernel_ops th_mock_kernel;
extern const struct famfs_kernel_ops th_mock_kernel_v1;	/* no v2 ioctls */
/* no v2, and MAP_GET as the 2024 module answered it: file_size and
 * ext_list_count only (extents through MAP_GETEXT), EINVAL when unmapped */
extern const struct famfs_kernel_ops th_mock_kernel_2024;
extern unsigned long th_mock_v1_creates, th_mock_v2_creates, th_mock_v2_gets;
extern unsigned long th_mock_v3_gets, th_mock_v3_ident_gets;
extern const struct famfs_kernel_ops th_mock_kernel_v2;	/* v2, no v3 ioctls */
void th_mock_reset(void);
/* stale: a new map shows 0xa5 bytes (old memory), not zeros */
extern bool th_mock_stale;
/* called first by every MAP_CREATE(_V2) of the mock (NULL: none) */
extern void (*th_mock_before_create)(int fd, const struct famfs_fmap *m);
/* map fd as MAP_CREATE would (-EEXIST if mapped or not empty) */
int th_mock_add(int fd, const struct famfs_fmap *m);
int th_mock_map_count(void);
/* the map the mock holds for fd: 0, or -ENODATA */
int th_mock_fmap_of(int fd, struct famfs_fmap *out);
/* the v1 view (-EOVERFLOW for a map v1 cannot express) */
int th_mock_lookup(const char *path, struct famfs_ioc_map *map);
int th_mock_lookup_fmap(const char *path, struct famfs_fmap *map);
/* the offset of the first extent of mpt/rel in the mock (it must be
 * mapped) */
uint64_t th_mock_off_of(struct th *t, const char *rel);

/* th_dev.c: member devices of the mock (in th_mock_kernel): attached
 * index -> the plain file (dev, ino) and size, and the device number
 * DEV_GET reports of it (th_mock_node_number); reset by th_mock_reset */
struct th_mock_dev {
	bool on;
	dev_t dev;
	ino_t ino;
	uint64_t size;
	uint32_t major, minor, flags;
};
extern struct th_mock_dev th_mock_devs[FAMFS_MAX_DEVS];
extern unsigned long th_mock_dev_adds, th_mock_v3_creates;
/* the mock's node_number (plain files: their inode number) and how often
 * it and DEV_GET were asked; reset by th_mock_devs_reset */
bool th_mock_node_number(const struct stat *st, uint32_t *major,
			 uint32_t *minor, uint32_t *flags);
extern unsigned long th_mock_node_numbers, th_mock_dev_gets;
/* MAP_CREATE_V3 accepted with FAMFS_IOC_MAP_INVALIDATE */
extern unsigned long th_mock_v3_invalidates;
void th_mock_devs_reset(void);
int th_mock_dev_add(int fd, const struct famfs_ioc_dev_add *a);
int th_mock_dev_get(int fd, struct famfs_ioc_dev_info *i);
/* FAMFS_IOC_MAP_PAGES: a small file's page extents (famfs_ioctl.h's
 * order of checks for the flag, the per-page overlap left to fsck) */
int th_mock_map_create_v3(int fd, const struct famfs_ioc_map_v2 *h);
/* the same, refusing FAMFS_IOC_MAP_INVALIDATE (EINVAL: a famfs.ko older
 * than the flag), in th_mock_kernel_noinval */
int th_mock_map_create_v3_old(int fd, const struct famfs_ioc_map_v2 *h);
extern const struct famfs_kernel_ops th_mock_kernel_noinval;
/* FAMFSIOC_CACHE of the mock, in th_mock_kernel_noinval: 0, counted
 * (th_mock_cache_invalidates: FAMFS_CACHE_INVALIDATE calls) */
int th_mock_cache(int fd, const struct famfs_ioc_cache *c);
extern unsigned long th_mock_cache_invalidates;
/* FAMFSIOC_HELD: each range held 0 bytes unless the hook sets r->held (or
 * fails the call: its -errno) */
extern int (*th_mock_held_hook)(struct famfs_ioc_held_range *r);
/* a th_mock_held_hook: every range held whole (the master's famfs.ko
 * holds every deleted file's memory: a reclaim pass frees nothing) */
int th_mock_hold_all(struct famfs_ioc_held_range *r);
/* a th_mock_held_hook: the ranges that meet [th_held_off, +th_held_len)
 * of device 0 held whole */
extern uint64_t th_held_off, th_held_len;
int th_mock_hold_range(struct famfs_ioc_held_range *r);
/* the host table's claim without its settle wait (FAMFS_TEST_SETTLE) */
void th_fast_settle(void);
/* famfs_df of t's file system, asserted to succeed */
struct famfs_df th_df(struct th *t);
extern unsigned long th_mock_held_calls;
int th_mock_held(int fd, struct famfs_ioc_held *h);
/* any map, with the flag for page extents; the identity only when asked
 * (FAMFS_IOC_MAP_IDENT in h->flags on the way in) */
int th_mock_map_get_v3(int fd, struct famfs_ioc_map_v2 *h);
/* a famfs.ko without identities: EINVAL for the flag (counted in
 * th_mock_v3_ident_gets) */
int th_mock_map_get_v3_old(int fd, struct famfs_ioc_map_v2 *h);
/* FAMFSIOC_UNLINK_MAP (counted) */
extern unsigned long th_mock_unlink_maps;
int th_mock_unlink_map(int dfd, const struct famfs_ioc_unlink_map *a);
/* the same of a famfs.ko without identities: EINVAL for one */
int th_mock_unlink_map_old(int dfd, const struct famfs_ioc_unlink_map *a);

#endif
