// SPDX-License-Identifier: GPL-2.0
/*
 * JSON for scripts (famfs getmap|fsck|df -j, and rm|mv|chmod|chown -j:
 * the entries they logged), built with json-c as ndctl
 * does.  Sizes and offsets are integers in bytes; names are documented in
 * the man pages (famfs-getmap(8), famfs-fsck(8), famfs-df(8)).  Output is
 * always valid UTF-8: a byte of a name that is not part of a valid UTF-8
 * sequence is given as the character U+00XX (0xff as "\u00ff", that is
 * "ÿ"), as famfs_json_string documents.
 */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "report/report.h"

const char *famfs_map_type_name(uint32_t t)
{
	switch (t) {
	case FAMFS_REG: return "regular";
	case FAMFS_SUPERBLOCK: return "superblock";
	case FAMFS_LOG: return "log";
	default: return "unknown";
	}
}

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

/* the length of the valid UTF-8 sequence at s (1..4), 0 if none starts there
 * (no overlong forms, no surrogates, nothing above U+10FFFF) */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

struct json_object *famfs_json_string(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct json_object *o;
	size_t len = strlen(s), o_len = 0, n, k;
	char *buf;

	for (n = 0; n < len; n += k) {
		k = utf8_len(p + n);
		if (!k)
			break;
	}
	if (n >= len)
		return json_object_new_string(s);
	/* each byte of an invalid sequence: the character U+00XX (2 bytes) */
	buf = malloc(2 * len + 1);
	if (!buf)
		return NULL;
	for (n = 0; n < len;) {
		k = utf8_len(p + n);
		if (k) {
			memcpy(buf + o_len, p + n, k);
			o_len += k;
			n += k;
			continue;
		}
		buf[o_len++] = (char)(0xc0 | p[n] >> 6);
		buf[o_len++] = (char)(0x80 | (p[n] & 0x3f));
		n++;
	}
	o = json_object_new_string_len(buf, (int)o_len);
	free(buf);
	return o;
}

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v && *v ? famfs_json_string(v) : NULL);
}

const char *famfs_extent_type_name(uint32_t t)
{
	switch (t) {
	case SIMPLE_DAX_EXTENT: return "simple";
	case FAMFS_INTERLEAVED_EXTENT: return "interleaved";
	default: return "unknown";
	}
}

static struct json_object *json_extent(uint64_t off, uint64_t len)
{
	struct json_object *e = json_object_new_object();

	add_u64(e, "offset", off);
	add_u64(e, "length", len);
	return e;
}

/*
 * simple: extents [{offset, length}]; interleaved: extents [{length (the
 * file bytes it holds), nstrips, chunk_size, strips [{offset, length}]}];
 * a map that uses a member has "device" in every extent and strip
 */
struct json_object *famfs_json_map(const char *path,
				   const struct famfs_fmap *map)
{
	struct json_object *o = json_object_new_object(), *ext, *x1;
	bool il = map->extent_type == FAMFS_INTERLEAVED_EXTENT;
	bool md = famfs_fmap_multidev(map);	/* "device" when on members */

	if (!o)
		return NULL;
	add_str(o, "path", path);
	add_str(o, "type", map->file_type_unknown ? "unknown" :
			   famfs_map_type_name(map->file_type));
	add_u64(o, "size", map->file_size);
	add_str(o, "extent_type", map->pages ? "pages" :
		famfs_extent_type_name(map->extent_type));
	if (map->has_ident)
		add_u64(o, "identity", map->ident);
	ext = json_object_new_array();
	for (uint32_t i = 0; !il && i < map->count &&
	     i < FAMFS_IOC_MAX_EXTENTS_V2; i++) {
		x1 = json_extent(map->ext[i].offset, map->ext[i].len);
		if (md)
			add_u64(x1, "device", map->dev[i]);
		json_object_array_add(ext, x1);
	}
	for (uint32_t i = 0; il && i < map->count && i < FAMFS_IOC_MAX_IEXTENTS;
	     i++) {
		const struct famfs_ioc_iext *x = &map->iext[i];
		struct json_object *e = json_object_new_object();
		struct json_object *st = json_object_new_array();

		add_u64(e, "length", x->nbytes);
		add_u64(e, "nstrips", x->nstrips);
		add_u64(e, "chunk_size", x->chunk_size);
		for (uint32_t k = 0; k < x->nstrips && k < FAMFS_IOC_MAX_STRIPS; k++) {
			x1 = json_extent(x->strips[k].offset, x->strips[k].len);
			if (md)
				add_u64(x1, "device",
					map->dev[i * FAMFS_IOC_MAX_STRIPS + k]);
			json_object_array_add(st, x1);
		}
		json_object_object_add(e, "strips", st);
		json_object_array_add(ext, e);
	}
	json_object_object_add(o, "extents", ext);
	return o;
}

/* fsck's devices: the primary, and each member the log added with ok
 * (found here with its superblock) and path */
static struct json_object *json_fsck_devices(const struct famfs_fsck_result *r)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; a && i < (r->ndevs ? r->ndevs : 1); i++) {
		struct json_object *d = json_object_new_object();

		if (!d)
			break;
		add_u64(d, "index", i);
		add_str(d, "role", i ? "member" : "primary");
		add_str(d, "path", i ? r->dev_path[i] : NULL);
		json_object_object_add(d, "ok", json_object_new_boolean(!i || r->dev_ok[i]));
		json_object_array_add(a, d);
	}
	return a;
}

struct json_object *famfs_json_fsck(const char *target, bool sb_valid,
				    const struct famfs_fsck_result *r,
				    struct json_object *problems)
{
	struct json_object *o = json_object_new_object();

	if (!o) {
		json_object_put(problems);
		return NULL;
	}
	add_str(o, "target", target);
	json_object_object_add(o, "clean",
			       json_object_new_boolean(sb_valid && !r->problems));
	json_object_object_add(o, "superblock_valid", json_object_new_boolean(sb_valid));
	add_u64(o, "entries", r->entries);
	add_u64(o, "files", r->files);
	add_u64(o, "directories", r->dirs);
	add_u64(o, "corrupt_entries", r->bad_entries);
	add_u64(o, "problems", r->problems + !sb_valid);
	add_u64(o, "used", r->used_bytes);
	add_u64(o, "free", r->free_bytes);
	if (r->pending_files) {	/* issue 29: no problem, said */
		add_u64(o, "pending_reclaim_files", r->pending_files);
		add_u64(o, "pending_reclaim_bytes", r->pending_bytes);
	}
	if (r->torn_slots) {	/* blocks reclaim: a note, said */
		struct json_object *a = json_object_new_array();

		for (unsigned i = 0; i < r->torn_slots && i < 8; i++)
			json_object_array_add(a, json_object_new_int64(r->torn_slot[i]));
		add_u64(o, "torn_host_slots", r->torn_slots);
		json_object_object_add(o, "torn_host_slot_list", a);
	}
	json_object_object_add(o, "problem_list",
			       problems ? problems : json_object_new_array());
	json_object_object_add(o, "devices", json_fsck_devices(r));
	return o;
}

/* df's devices: index, role, uuid (members), this host's node when known,
 * and the space of each */
/* a file system with small files: the bit set, or shared units counted */
static bool has_small(const struct famfs_fs *fs, const struct famfs_df *df)
{
	return df->small_units ||
	       (fs && le32toh(fs->sb->feature_incompat) &
		      FAMFS_FEATURE_INCOMPAT_SMALL_FILES);
}

static struct json_object *json_df_devices(const struct famfs_fs *fs,
					   const struct famfs_df *df)
{
	struct json_object *a = json_object_new_array();
	char u[37];

	for (unsigned i = 0; a && i < df->ndevs; i++) {
		const struct famfs_logdev *ld =
			fs ? famfs_logdevs_get(&fs->devs, i) : NULL;
		struct json_object *d = json_object_new_object();

		if (!d)
			break;
		add_u64(d, "index", i);
		add_str(d, "role", i ? "member" : "primary");
		if (i && ld) {
			famfs_uuid_str(ld->dev_uuid, u);
			add_str(d, "dev_uuid", u);
		}
		add_str(d, "path", df->dev[i].path[0] ? df->dev[i].path :
				   ld ? ld->path : NULL);
		/* null: not asked (not mounted, or an older famfs.ko) */
		json_object_object_add(d, "attached", df->dev[i].asked ?
				       json_object_new_boolean(df->dev[i].attached) : NULL);
		json_object_object_add(d, "failed", df->dev[i].asked ?
				       json_object_new_boolean(df->dev[i].failed) : NULL);
		json_object_object_add(d, "mount_failed", df->dev[i].asked ?
				       json_object_new_boolean(df->dev[i].mount_failed) : NULL);
		add_u64(d, "size", df->dev[i].size);
		add_u64(d, "reserved", df->dev[i].reserved);
		add_u64(d, "used", df->dev[i].used);
		add_u64(d, "free", df->dev[i].free);
		add_u64(d, "free_1g_runs", df->dev[i].free_1g);
		add_u64(d, "unknown", df->dev[i].unknown);
		if (has_small(fs, df)) {
			add_u64(d, "small_shared_units", df->dev[i].small_units);
			add_u64(d, "small_pages_used", df->dev[i].small_pages_used);
			add_u64(d, "small_pages_free", df->dev[i].small_pages_free);
		}
		json_object_array_add(a, d);
	}
	return a;
}

struct json_object *famfs_json_df(const char *target, const char *mpt,
				  const char *dev, const struct famfs_fs *fs,
				  const struct famfs_df *df)
{
	struct json_object *o = json_object_new_object(), *log, *sm;
	char u[37];

	if (!o)
		return NULL;
	add_str(o, "target", target);
	add_str(o, "mount_point", mpt);
	add_str(o, "device", dev);
	if (fs) {
		famfs_uuid_str(fs->sb->fs_uuid, u);
		add_str(o, "fs_uuid", u);
		famfs_uuid_str(fs->sb->master_uuid, u);
		add_str(o, "master_uuid", u);
		add_str(o, "role", fs->master ? "master" : "client");
	}
	add_u64(o, "size", df->size);
	add_u64(o, "reserved", df->reserved);
	add_u64(o, "used", df->used);
	add_u64(o, "free", df->free);
	add_u64(o, "free_1g_runs", df->free_1g);
	add_u64(o, "unknown", df->unknown);
	add_u64(o, "alloc_unit", FAMFS_ALLOC_UNIT);
	log = json_object_new_object();
	add_u64(log, "size", df->log_len);
	add_u64(log, "entries", df->log_entries);
	add_u64(log, "capacity", df->log_capacity);
	add_u64(log, "free_entries", df->log_capacity - df->log_used);
	add_str(log, "format", df->log_compact ? "compact" : "v1");
	add_u64(log, "slot_size", df->log_compact ? FAMFS_CLOG_SLOT :
		FAMFS_LOG_ENTRY_SIZE);
	add_u64(log, "used", df->log_used);
	json_object_object_add(o, "log", log);
	/* small files (issue 30): 2 MiB units shared by page extents (in
	 * used, whole), their 4 KiB pages in use and free; only on a file
	 * system that has them (the keys of one without stay as they were) */
	if (has_small(fs, df)) {
		sm = json_object_new_object();
		add_u64(sm, "shared_units", df->small_units);
		add_u64(sm, "pages_used", df->small_pages_used);
		add_u64(sm, "pages_free", df->small_pages_free);
		add_u64(sm, "page_size", FAMFS_PAGE);
		json_object_object_add(o, "small_files", sm);
	}
	add_u64(o, "files", df->files);
	add_u64(o, "directories", df->dirs);
	/* format rev 3 (issue 29): what famfs rm removed, the memory of
	 * those files still used (pending) and freed by RECLAIMs; only on
	 * a file system with deletes (the keys of one without stay) */
	if (fs && le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_DELETE) {
		struct json_object *d = json_object_new_object();

		add_u64(d, "files", df->deleted_files);
		add_u64(d, "dirs", df->deleted_dirs);
		add_u64(d, "pending_bytes", df->pending_reclaim);
		add_u64(d, "reclaimed_files", df->reclaimed_files);
		add_u64(d, "reclaimed_bytes", df->reclaimed);
		/* the host table: reclaim only when armed */
		json_object_object_add(d, "host_table", json_object_new_string(
			df->hosts_armed == 1 ? "armed" :
			df->hosts_armed == 0 ? "not armed" :
			df->hosts_armed == -ENOENT ? "none" : "unreadable"));
		json_object_object_add(o, "deleted", d);
	}
	add_u64(o, "corrupt_entries", df->bad_entries);
	json_object_object_add(o, "devices", json_df_devices(fs, df));
	return o;
}

struct ns_walk {
	struct famfs_fs *fs;
	struct json_object *a;
	bool nomem;
};

/* the full path of a logged one under the mount point */
static struct json_object *ns_path(const struct famfs_fs *fs, const char *rel)
{
	struct json_object *o;
	size_t n = strlen(fs->mpt) + strlen(rel) + 2;
	char *p = malloc(n);

	if (!p)
		return NULL;
	snprintf(p, n, "%s/%s", fs->mpt, rel);
	o = famfs_json_string(p);
	free(p);
	return o;
}

static int ns_one(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		  bool ok, const char *reason)
{
	struct ns_walk *w = arg;
	struct json_object *o;
	struct famfs_ns ns;
	char mode[8];

	(void)reason;
	if (!ok || !famfs_entry_is_ns(le16toh(e->type)) || famfs_ns_get(e, &ns))
		return 0;
	o = json_object_new_object();
	if (!o) {
		w->nomem = true;
		return -ENOMEM;
	}
	add_u64(o, "index", idx);
	add_str(o, "action", ns.type == FAMFS_LOG_DELETE ? "delete" :
			     ns.type == FAMFS_LOG_RENAME ? "rename" : "setattr");
	add_str(o, "type", ns.kind == FAMFS_LOG_MKDIR ? "directory" : "file");
	json_object_object_add(o, "path", ns_path(w->fs, ns.path));
	json_object_object_add(o, "to", ns.type == FAMFS_LOG_RENAME ?
			       ns_path(w->fs, ns.to) : NULL);
	snprintf(mode, sizeof(mode), "%04o", ns.mode & 07777);
	add_str(o, "mode", ns.type == FAMFS_LOG_SETATTR &&
		ns.valid & FAMFS_SETATTR_MODE ? mode : NULL);
	json_object_object_add(o, "uid", ns.type == FAMFS_LOG_SETATTR &&
			       ns.valid & FAMFS_SETATTR_UID ?
			       json_object_new_uint64(ns.uid) : NULL);
	json_object_object_add(o, "gid", ns.type == FAMFS_LOG_SETATTR &&
			       ns.valid & FAMFS_SETATTR_GID ?
			       json_object_new_uint64(ns.gid) : NULL);
	json_object_array_add(w->a, o);
	return 0;
}

struct json_object *famfs_json_ns_entries(struct famfs_fs *fs, uint64_t start,
					  uint64_t end)
{
	struct ns_walk w = { .fs = fs, .a = json_object_new_array() };

	if (!w.a)
		return NULL;
	if (start < end && famfs_log_walk_range(fs, start, end, ns_one, &w) &&
	    w.nomem) {
		json_object_put(w.a);
		return NULL;
	}
	return w.a;
}
