// SPDX-License-Identifier: GPL-2.0
/*
 * The namespace entries of format revision 3 (famfs_format.h): DELETE,
 * RENAME and SETATTR -- built and checked (their compact form: clog.c,
 * which calls this file, as entry.c does).  Their body (struct famfs_log_delete, _rename, _setattr,
 * then the paths) is the same in both logs: at byte 32 of a v1 entry (the
 * form the rest of the tool works on), after the famfs_clog_hdr of a
 * compact one; every byte after the paths is zero.
 */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "media/media.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

bool famfs_entry_is_ns(unsigned type)
{
	return type == FAMFS_LOG_DELETE || type == FAMFS_LOG_RENAME ||
	       type == FAMFS_LOG_SETATTR;
}

bool famfs_entry_is_body(unsigned type)
{
	return famfs_entry_is_ns(type) || type == FAMFS_LOG_RECLAIM;
}

uint32_t famfs_ns_feature(unsigned type)
{
	return type == FAMFS_LOG_DELETE || type == FAMFS_LOG_RECLAIM ?
	       FAMFS_FEATURE_INCOMPAT_DELETE :
	       type == FAMFS_LOG_RENAME ? FAMFS_FEATURE_INCOMPAT_RENAME :
	       type == FAMFS_LOG_SETATTR ? FAMFS_FEATURE_INCOMPAT_SETATTR : 0;
}

const char *famfs_ns_name(unsigned type)
{
	return type == FAMFS_LOG_DELETE ? "DELETE" :
	       type == FAMFS_LOG_RENAME ? "RENAME" :
	       type == FAMFS_LOG_SETATTR ? "SETATTR" :
	       type == FAMFS_LOG_RECLAIM ? "RECLAIM" : "?";
}

static uint8_t *body(struct famfs_log_entry *e)
{
	return (uint8_t *)e + FAMFS_NS_BODY_OFF;
}

static const uint8_t *cbody(const struct famfs_log_entry *e)
{
	return (const uint8_t *)e + FAMFS_NS_BODY_OFF;
}

/* the struct's size: where the first path starts in the body */
static size_t head_len(unsigned type)
{
	return type == FAMFS_LOG_SETATTR ? sizeof(struct famfs_log_setattr) :
	       type == FAMFS_LOG_RENAME ? sizeof(struct famfs_log_rename) :
	       sizeof(struct famfs_log_delete);
}

size_t famfs_ns_body_len(unsigned type, const uint8_t *b)
{
	if (type == FAMFS_LOG_RECLAIM)
		return sizeof(struct famfs_log_reclaim);
	if (type == FAMFS_LOG_RENAME) {
		const struct famfs_log_rename *r = (const void *)b;

		return head_len(type) + le16toh(r->old_len) + 1 +
		       le16toh(r->new_len) + 1;
	}
	if (type == FAMFS_LOG_SETATTR)
		return head_len(type) +
		       le16toh(((const struct famfs_log_setattr *)b)->path_len) + 1;
	if (type == FAMFS_LOG_DELETE)
		return head_len(type) +
		       le16toh(((const struct famfs_log_delete *)b)->path_len) + 1;
	return 0;
}

int famfs_ns_get(const struct famfs_log_entry *e, struct famfs_ns *ns)
{
	const uint8_t *b = cbody(e);
	unsigned type = le16toh(e->type);

	memset(ns, 0, sizeof(*ns));
	if (!famfs_entry_is_ns(type))
		return -EINVAL;
	ns->type = type;
	ns->path = (const char *)b + head_len(type);
	if (type == FAMFS_LOG_DELETE) {
		const struct famfs_log_delete *d = (const void *)b;

		ns->object = le64toh(d->object);
		ns->ctime = le64toh(d->ctime);
		ns->kind = le16toh(d->kind);
	} else if (type == FAMFS_LOG_RENAME) {
		const struct famfs_log_rename *r = (const void *)b;

		ns->object = le64toh(r->object);
		ns->ctime = le64toh(r->ctime);
		ns->kind = le16toh(r->kind);
		ns->to = ns->path + le16toh(r->old_len) + 1;
	} else {
		const struct famfs_log_setattr *s = (const void *)b;

		ns->object = le64toh(s->object);
		ns->ctime = le64toh(s->ctime);
		ns->kind = le16toh(s->kind);
		ns->valid = le32toh(s->valid);
		ns->mode = le32toh(s->mode);
		ns->uid = le32toh(s->uid);
		ns->gid = le32toh(s->gid);
	}
	return 0;
}

const char *famfs_entry_path(const struct famfs_log_entry *e)
{
	unsigned type = le16toh(e->type);

	if (famfs_entry_is_ns(type)) {
		const char *p = (const char *)cbody(e) + head_len(type);

		return memchr(p, 0, FAMFS_NS_BODY_LEN - head_len(type)) ? p : "";
	}
	if (type != FAMFS_LOG_FILE && type != FAMFS_LOG_MKDIR)
		return "";
	return memchr(e->fm.path, 0, sizeof(e->fm.path)) ? e->fm.path : "";
}

/* ---- building (not yet sequenced: famfs_log_append does) ---- */
/* the path in normal form into the body at off: its length, or -errno
 * (printed) */
static int put_path(struct famfs_log_entry *e, size_t off, const char *p)
{
	char norm[FAMFS_LOG_PATH_MAX], reason[FAMFS_REASON_LEN];
	int rc = famfs_relpath_normalize(p, norm, reason);
	size_t n = strlen(norm);

	if (rc) {
		famfs_err("%s", reason);
		return rc;
	}
	if (off + n + 1 > FAMFS_NS_BODY_LEN) {
		famfs_err("%s: path too long for the entry", norm);
		return -ENAMETOOLONG;
	}
	memcpy(body(e) + off, norm, n);
	return (int)n;
}

static int start(struct famfs_log_entry *e, unsigned type, unsigned kind)
{
	memset(e, 0, sizeof(*e));
	if (kind != FAMFS_LOG_FILE && kind != FAMFS_LOG_MKDIR) {
		famfs_err("a %s entry names a file or a directory, not kind %u",
			  famfs_ns_name(type), kind);
		return -EINVAL;
	}
	e->type = htole16((uint16_t)type);
	return 0;
}

int famfs_entry_build_delete(struct famfs_log_entry *e, uint64_t object,
			     unsigned kind, const char *path)
{
	struct famfs_log_delete *d = (void *)body(e);
	int n = start(e, FAMFS_LOG_DELETE, kind);

	if (!n)
		n = put_path(e, sizeof(*d), path);
	if (n < 0)
		return n;
	d->object = htole64(object);
	d->ctime = htole64((uint64_t)time(NULL));
	d->path_len = htole16((uint16_t)n);
	d->kind = htole16((uint16_t)kind);
	return 0;
}

int famfs_entry_build_rename(struct famfs_log_entry *e, uint64_t object,
			     unsigned kind, const char *from, const char *to)
{
	struct famfs_log_rename *r = (void *)body(e);
	int n = start(e, FAMFS_LOG_RENAME, kind), m;

	if (!n)
		n = put_path(e, sizeof(*r), from);
	if (n < 0)
		return n;
	m = put_path(e, sizeof(*r) + (size_t)n + 1, to);
	if (m < 0)
		return m;
	if (n + m + 2 > FAMFS_RENAME_PATHS) {
		famfs_err("%s -> %s: the two paths take %d bytes, more than the %d a RENAME entry holds",
			  from, to, n + m + 2, FAMFS_RENAME_PATHS);
		return -ENAMETOOLONG;
	}
	r->object = htole64(object);
	r->ctime = htole64((uint64_t)time(NULL));
	r->old_len = htole16((uint16_t)n);
	r->new_len = htole16((uint16_t)m);
	r->kind = htole16((uint16_t)kind);
	return 0;
}

int famfs_entry_build_setattr(struct famfs_log_entry *e, uint64_t object,
			      unsigned kind, const char *path, uint32_t valid,
			      uint32_t mode, uint32_t uid, uint32_t gid)
{
	struct famfs_log_setattr *s = (void *)body(e);
	uint32_t all = FAMFS_SETATTR_MODE | FAMFS_SETATTR_UID | FAMFS_SETATTR_GID;
	int n = start(e, FAMFS_LOG_SETATTR, kind);

	if (n)
		return n;
	if (!valid || valid & ~all || (valid & FAMFS_SETATTR_MODE && mode & ~07777U)) {
		famfs_err("%s: bad attributes (valid 0x%x, mode 0%o)", path,
			  valid, mode);
		return -EINVAL;
	}
	if ((valid & FAMFS_SETATTR_UID && uid == UINT32_MAX) ||
	    (valid & FAMFS_SETATTR_GID && gid == UINT32_MAX)) {
		famfs_err("%s: %s %u is (%s_t)-1, chown's \"no change\", not an owner",
			  path, valid & FAMFS_SETATTR_UID && uid == UINT32_MAX ?
			  "uid" : "gid", UINT32_MAX,
			  valid & FAMFS_SETATTR_UID && uid == UINT32_MAX ?
			  "uid" : "gid");
		return -EINVAL;
	}
	n = put_path(e, sizeof(*s), path);
	if (n < 0)
		return n;
	s->object = htole64(object);
	s->ctime = htole64((uint64_t)time(NULL));
	s->valid = htole32(valid);
	s->mode = htole32(valid & FAMFS_SETATTR_MODE ? mode : 0);
	s->uid = htole32(valid & FAMFS_SETATTR_UID ? uid : 0);
	s->gid = htole32(valid & FAMFS_SETATTR_GID ? gid : 0);
	s->path_len = htole16((uint16_t)n);
	s->kind = htole16((uint16_t)kind);
	return 0;
}

/* ---- checking ---- */
/* a path of len bytes at p (the body has room for it and its NUL): NUL
 * right after it, none inside, in normal form */
static int check_path(const char *what, const char *p, size_t len,
		      char *reason)
{
	char norm[FAMFS_LOG_PATH_MAX];

	if (!len || len >= FAMFS_LOG_PATH_MAX || memchr(p, 0, len) || p[len]) {
		REASON("%s path of %zu bytes not NUL-terminated, empty or longer than %d bytes",
		       what, len, FAMFS_LOG_PATH_MAX - 1);
		return -EINVAL;
	}
	if (famfs_relpath_normalize(p, norm, reason))
		return -EINVAL;
	if (strcmp(norm, p)) {
		REASON("%s path '%.100s' is not in normal form", what, p);
		return -EINVAL;
	}
	return 0;
}

int famfs_ns_bit(unsigned type, const struct famfs_superblock *sb,
		 char *reason)
{
	uint32_t bit = famfs_ns_feature(type);

	if (!(le32toh(sb->feature_incompat) & bit)) {
		REASON("%s entry in a log without its feature (superblock incompat bit 0x%x clear)",
		       famfs_ns_name(type), bit);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

int famfs_ns_check(const struct famfs_log_entry *e, uint64_t index,
		   const struct famfs_superblock *sb, char *reason)
{
	const uint8_t *b = cbody(e);
	unsigned type = le16toh(e->type);
	size_t head = head_len(type), used;
	struct famfs_ns ns;
	int rc = famfs_ns_bit(type, sb, reason);

	if (rc)
		return rc;
	used = famfs_ns_body_len(type, b);
	if (e->flags || used > FAMFS_NS_BODY_LEN ||
	    !famfs_all_zero(b + used, FAMFS_NS_BODY_LEN - used)) {
		REASON("%s entry: flags, lengths or the bytes after its paths are not right",
		       famfs_ns_name(type));
		return -EINVAL;
	}
	famfs_ns_get(e, &ns);
	if ((type == FAMFS_LOG_DELETE &&
	     !famfs_all_zero(((const struct famfs_log_delete *)b)->pad, 4)) ||
	    (type == FAMFS_LOG_RENAME &&
	     !famfs_all_zero(((const struct famfs_log_rename *)b)->pad, 2)) ||
	    (type == FAMFS_LOG_SETATTR &&
	     !famfs_all_zero(((const struct famfs_log_setattr *)b)->pad, 4))) {
		REASON("%s entry: reserved bytes are not zero", famfs_ns_name(type));
		return -EINVAL;
	}
	if (ns.kind != FAMFS_LOG_FILE && ns.kind != FAMFS_LOG_MKDIR) {
		REASON("%s entry of kind %u (a file %u or a directory %u)",
		       famfs_ns_name(type), ns.kind, FAMFS_LOG_FILE,
		       FAMFS_LOG_MKDIR);
		return -EINVAL;
	}
	if (ns.object >= index) {
		REASON("%s entry names object %llu, not an earlier entry",
		       famfs_ns_name(type), (unsigned long long)ns.object);
		return -EINVAL;
	}
	if (type == FAMFS_LOG_RENAME) {
		const struct famfs_log_rename *r = (const void *)b;
		size_t ol = le16toh(r->old_len), nl = le16toh(r->new_len);

		if (ol + nl + 2 > FAMFS_RENAME_PATHS) {
			REASON("RENAME entry: paths of %zu bytes (at most %d)",
			       ol + nl + 2, FAMFS_RENAME_PATHS);
			return -EINVAL;
		}
		rc = check_path("old", ns.path, ol, reason);
		return rc ? rc : check_path("new", ns.to, nl, reason);
	}
	rc = check_path("its", ns.path, used - head - 1, reason);
	if (rc || type != FAMFS_LOG_SETATTR)
		return rc;
	if (!ns.valid || ns.valid & ~(uint32_t)(FAMFS_SETATTR_MODE |
						FAMFS_SETATTR_UID |
						FAMFS_SETATTR_GID) ||
	    ns.mode & ~07777U ||
	    (!(ns.valid & FAMFS_SETATTR_MODE) && ns.mode) ||
	    (!(ns.valid & FAMFS_SETATTR_UID) && ns.uid) ||
	    (!(ns.valid & FAMFS_SETATTR_GID) && ns.gid) ||
	    (ns.valid & FAMFS_SETATTR_UID && ns.uid == UINT32_MAX) ||
	    (ns.valid & FAMFS_SETATTR_GID && ns.gid == UINT32_MAX)) {
		REASON("SETATTR entry: bad attributes (valid 0x%x, mode 0%o, uid %u, gid %u)",
		       ns.valid, ns.mode, ns.uid, ns.gid);
		return -EINVAL;
	}
	return 0;
}

/* ---- RECLAIM ---- */
int famfs_entry_build_reclaim(struct famfs_log_entry *e,
			      const uint64_t *deletes, unsigned n)
{
	struct famfs_log_reclaim *r = (void *)body(e);

	memset(e, 0, sizeof(*e));
	if (!n || n > FAMFS_RECLAIM_MAX) {
		famfs_err("a RECLAIM entry names 1..%d DELETEs, not %u",
			  FAMFS_RECLAIM_MAX, n);
		return -EINVAL;
	}
	e->type = htole16(FAMFS_LOG_RECLAIM);
	r->count = htole32(n);
	for (unsigned i = 0; i < n; i++)
		r->deletes[i] = htole64(deletes[i]);
	return 0;
}

unsigned famfs_reclaim_get(const struct famfs_log_entry *e,
			   uint64_t out[FAMFS_RECLAIM_MAX])
{
	const struct famfs_log_reclaim *r = (const void *)cbody(e);
	uint32_t n = le32toh(r->count);

	if (le16toh(e->type) != FAMFS_LOG_RECLAIM)
		return 0;
	if (n > FAMFS_RECLAIM_MAX)
		n = FAMFS_RECLAIM_MAX;
	for (uint32_t i = 0; i < n; i++)
		out[i] = le64toh(r->deletes[i]);
	return n;
}

int famfs_reclaim_check(const struct famfs_log_entry *e, uint64_t index,
			const struct famfs_superblock *sb, char *reason)
{
	const struct famfs_log_reclaim *r = (const void *)cbody(e);
	uint32_t n = le32toh(r->count);
	size_t used = sizeof(*r);
	int rc = famfs_ns_bit(FAMFS_LOG_RECLAIM, sb, reason);

	if (rc)
		return rc;
	if (e->flags || !famfs_all_zero(cbody(e) + used, FAMFS_NS_BODY_LEN - used)) {
		REASON("RECLAIM entry: flags or the bytes after its body are not zero");
		return -EINVAL;
	}
	if (n < 1 || n > FAMFS_RECLAIM_MAX) {
		REASON("RECLAIM entry names %u DELETEs (1..%d)", n,
		       FAMFS_RECLAIM_MAX);
		return -EINVAL;
	}
	if (r->reserved || !famfs_all_zero(&r->deletes[n],
					   (FAMFS_RECLAIM_MAX - n) * sizeof(r->deletes[0]))) {
		REASON("RECLAIM entry: reserved bytes or the DELETE indexes past its count are not zero");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t d = le64toh(r->deletes[i]);

		if (d >= index) {
			REASON("RECLAIM entry names entry %llu, not an earlier one",
			       (unsigned long long)d);
			return -EINVAL;
		}
		for (uint32_t j = 0; j < i; j++)
			if (le64toh(r->deletes[j]) == d) {
				REASON("RECLAIM entry names DELETE %llu twice",
				       (unsigned long long)d);
				return -EINVAL;
			}
	}
	return 0;
}
