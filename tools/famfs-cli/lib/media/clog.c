// SPDX-License-Identifier: GPL-2.0
/*
 * The compact log entry (INCOMPAT_COMPACT_LOG, famfs_format.h): encode a
 * v1-shaped entry into 1..4 slots of 256 bytes, verify a slot's entry
 * (header, CRC seeded with the fs uuid), decode it back to its v1 form.
 * The rest of the tool works on the v1 form only.
 */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "media/media.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

#define HDR_LEN		sizeof(struct famfs_clog_hdr)
#define FMETA_OFF	HDR_LEN
#define EXT_OFF		(HDR_LEN + sizeof(struct famfs_clog_fmeta))

uint32_t famfs_clog_crc(const void *entry, unsigned nslots,
			const uint8_t fs_uuid[16])
{
	const struct famfs_clog_hdr *h = entry;
	struct famfs_clog_hdr tmp = *h;
	uint32_t crc = famfs_crc32_update(0, fs_uuid, 16);

	tmp.crc = 0;
	crc = famfs_crc32_update(crc, &tmp, HDR_LEN);
	return famfs_crc32_update(crc, (const uint8_t *)entry + HDR_LEN,
				  nslots * FAMFS_CLOG_SLOT - HDR_LEN);
}

/* the bytes an entry of this shape needs, path NUL included */
static size_t body_end(unsigned ext_type, unsigned next, size_t path_len)
{
	return EXT_OFF + (ext_type == FAMFS_LOG_EXT_INTERLEAVED ?
			  sizeof(struct famfs_clog_ilv) : 0) +
	       next * sizeof(struct famfs_clog_ext) + path_len + 1;
}

/* len in 2 MiB units, or in 4 KiB pages for a page extent */
static int put_ext(struct famfs_clog_ext *x, uint64_t off, uint64_t len,
		   unsigned dev, bool pages, char *reason)
{
	uint64_t unit = pages ? FAMFS_PAGE : FAMFS_ALLOC_UNIT;

	if (len % unit || len / unit > UINT32_MAX) {
		REASON("extent length %llu is not a multiple of %s",
		       (unsigned long long)len,
		       pages ? "4 KiB below 16 TiB" : "2 MiB below 8 PiB");
		return -EINVAL;
	}
	x->offset = htole64(off);
	x->len = htole32((uint32_t)(len / unit));
	x->devindex = (uint8_t)dev;
	return 0;
}

/* EXTEND (log growth): one slot, struct famfs_clog_extend */
static int extend_encode(const struct famfs_log_entry *e, uint64_t slot,
			 const uint8_t fs_uuid[16],
			 uint8_t out[FAMFS_CLOG_MAX_ENTRY])
{
	struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)out;
	struct famfs_clog_extend *x = (struct famfs_clog_extend *)(out + HDR_LEN);

	h->seq = htole64(slot);
	h->type = htole16(FAMFS_LOG_EXTEND);
	h->nslots = 1;
	x->offset = e->fm.ext.simple[0].offset;
	x->len = e->fm.ext.simple[0].len;
	x->segment = htole32((uint32_t)le64toh(e->fm.size));
	h->crc = htole32(famfs_clog_crc(out, 1, fs_uuid));
	return 1;
}

/* DEVADD (issue 16): the header and struct famfs_clog_devadd, one slot */
static int devadd_encode(const struct famfs_log_entry *e, uint64_t slot,
			 const uint8_t fs_uuid[16], uint8_t *out)
{
	struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)out;

	h->seq = htole64(slot);
	h->type = e->type;
	h->nslots = 1;
	memcpy(out + HDR_LEN, famfs_entry_devadd(e),
	       sizeof(struct famfs_clog_devadd));
	h->crc = htole32(famfs_clog_crc(out, 1, fs_uuid));
	return 1;
}

static int extend_decode(const uint8_t *b, struct famfs_log_entry *e,
			 char *reason)
{
	const struct famfs_clog_hdr *h = (const void *)b;
	const struct famfs_clog_extend *x = (const void *)(b + HDR_LEN);

	if (h->nslots != 1) {
		REASON("log EXTEND entry of %u slots (1)", h->nslots);
		return -EPROTO;
	}
	famfs_entry_build_extend(e, le32toh(x->segment), le64toh(x->offset),
				 le64toh(x->len));
	return h->flags || x->reserved || !famfs_all_zero(x->pad, sizeof(x->pad)) ||
	       !famfs_all_zero(b + HDR_LEN + sizeof(*x),
		     FAMFS_CLOG_SLOT - HDR_LEN - sizeof(*x)) ? -EINVAL : 0;
}

int famfs_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
		      const uint8_t fs_uuid[16],
		      uint8_t out[FAMFS_CLOG_MAX_ENTRY], char *reason)
{
	const struct famfs_log_fmeta *fm = &e->fm;
	struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)out;
	struct famfs_clog_fmeta *cm = (struct famfs_clog_fmeta *)(out + FMETA_OFF);
	struct famfs_clog_ext *x;
	unsigned ext_type = le16toh(fm->extent_type), next = le16toh(fm->nextents);
	size_t plen = strnlen(fm->path, sizeof(fm->path)), end;
	uint8_t *p = out + EXT_OFF;
	unsigned nslots;
	int rc;

	memset(out, 0, FAMFS_CLOG_MAX_ENTRY);
	if (le16toh(e->type) == FAMFS_LOG_EXTEND)
		return extend_encode(e, slot, fs_uuid, out);
	if (le16toh(e->type) == FAMFS_LOG_DEVADD)
		return devadd_encode(e, slot, fs_uuid, out);
	if (famfs_entry_is_body(le16toh(e->type)))	/* nsentry.c */
		return famfs_ns_clog_encode(e, slot, fs_uuid, out, reason);
	if (le16toh(e->type) == FAMFS_LOG_HOSTS)	/* hostent.c */
		return famfs_hosts_clog_encode(e, slot, fs_uuid, out);
	if (plen == sizeof(fm->path) || plen != le16toh(fm->path_len) || !plen) {
		REASON("path not NUL-terminated, empty or path_len mismatch");
		return -EINVAL;
	}
	if (ext_type == FAMFS_LOG_EXT_INTERLEAVED)
		next = le32toh(fm->ext.interleave.nstrips);
	if (next > FAMFS_LOG_MAX_SIMPLE_EXT ||
	    (ext_type != FAMFS_LOG_EXT_SIMPLE &&
	     ext_type != FAMFS_LOG_EXT_INTERLEAVED &&
	     ext_type != FAMFS_LOG_EXT_PAGES && (ext_type || next))) {
		REASON("extent type %u with %u extents has no compact form",
		       ext_type, next);
		return -EINVAL;
	}
	end = body_end(ext_type, next, plen);
	nslots = (unsigned)((end + FAMFS_CLOG_SLOT - 1) / FAMFS_CLOG_SLOT);
	if (nslots > FAMFS_CLOG_MAX_SLOTS) {
		REASON("entry of %zu bytes does not fit %u slots", end,
		       FAMFS_CLOG_MAX_SLOTS);
		return -EINVAL;
	}
	h->seq = htole64(slot);
	h->type = e->type;
	h->nslots = (uint8_t)nslots;
	cm->size = fm->size;
	cm->ctime = fm->ctime;
	cm->mode = fm->mode;
	cm->uid = fm->uid;
	cm->gid = fm->gid;
	cm->extent_type = (uint8_t)ext_type;
	cm->nextents = (uint8_t)next;
	cm->path_len = htole16((uint16_t)plen);
	if (ext_type == FAMFS_LOG_EXT_INTERLEAVED) {
		const struct famfs_log_interleave_ext *ie = &fm->ext.interleave;
		struct famfs_clog_ilv *il = (struct famfs_clog_ilv *)p;
		uint64_t chunk = le64toh(ie->chunk_size);

		if (chunk % FAMFS_ALLOC_UNIT ||
		    chunk / FAMFS_ALLOC_UNIT > UINT32_MAX) {
			REASON("chunk size %llu has no compact form",
			       (unsigned long long)chunk);
			return -EINVAL;
		}
		il->chunk = htole32((uint32_t)(chunk / FAMFS_ALLOC_UNIT));
		p += sizeof(*il);
		x = (struct famfs_clog_ext *)p;
		for (unsigned i = 0; i < next; i++) {
			rc = put_ext(&x[i], le64toh(ie->strip_off[i]),
				     le64toh(ie->strip_len),
				     famfs_entry_devindex(e, i), false, reason);
			if (rc)
				return rc;
		}
	} else {
		x = (struct famfs_clog_ext *)p;
		for (unsigned i = 0; i < next; i++) {
			rc = put_ext(&x[i], le64toh(fm->ext.simple[i].offset),
				     le64toh(fm->ext.simple[i].len),
				     famfs_entry_devindex(e, i),
				     ext_type == FAMFS_LOG_EXT_PAGES, reason);
			if (rc)
				return rc;
		}
	}
	p += next * sizeof(*x);
	memcpy(p, fm->path, plen);
	h->crc = htole32(famfs_clog_crc(out, nslots, fs_uuid));
	return (int)nslots;
}

size_t famfs_clog_copy(uint8_t buf[FAMFS_CLOG_MAX_ENTRY], const uint8_t *s,
		       unsigned k, unsigned avail)
{
	size_t done = (k >= 1 && k <= avail ? k : 1) * FAMFS_CLOG_SLOT;
	unsigned c;

	memcpy(buf, s, done);
	/* the count in the copy is the one verify trusts: if another host
	 * changed it since k was read, copy the rest of what it claims (a
	 * mix of two writes fails the CRC; stack bytes are never read) */
	c = buf[offsetof(struct famfs_clog_hdr, nslots)];
	if (c <= avail && c * FAMFS_CLOG_SLOT > done) {
		memcpy(buf + done, s + done, c * FAMFS_CLOG_SLOT - done);
		done = c * FAMFS_CLOG_SLOT;
	}
	return done;
}

int famfs_clog_verify(const void *entry, uint64_t slot, uint64_t avail,
		      const uint8_t fs_uuid[16], char *reason)
{
	const struct famfs_clog_hdr *h = entry;
	unsigned n = h->nslots;
	uint32_t crc;

	if (le64toh(h->seq) != slot) {
		REASON("sequence number %llu at slot %llu",
		       (unsigned long long)le64toh(h->seq),
		       (unsigned long long)slot);
		return -EINVAL;
	}
	if (n < 1 || n > FAMFS_CLOG_MAX_SLOTS || n > avail) {
		REASON("bad slot count %u at slot %llu (1..%u, %llu left)", n,
		       (unsigned long long)slot, FAMFS_CLOG_MAX_SLOTS,
		       (unsigned long long)avail);
		return -EINVAL;
	}
	crc = famfs_clog_crc(entry, n, fs_uuid);
	if (crc != le32toh(h->crc)) {
		REASON("CRC mismatch (stored 0x%08x, computed 0x%08x; or another file system's entry)",
		       le32toh(h->crc), crc);
		return -EBADMSG;
	}
	return (int)n;
}

/* x[0..n) as v1 extents or strips; -EPROTO if they cannot be */
static int get_exts(const struct famfs_clog_ext *x, unsigned n, bool strips,
		    bool pages, struct famfs_log_fmeta *fm, bool *dirty,
		    char *reason)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t off = le64toh(x[i].offset);
		uint64_t len = (uint64_t)le32toh(x[i].len) *
			       (pages ? FAMFS_PAGE : FAMFS_ALLOC_UNIT);

		/* whether the device may be named: famfs_entry_check */
		fm->reserved[i] = x[i].devindex;
		if (!famfs_all_zero(x[i].reserved, sizeof(x[i].reserved)))
			*dirty = true;
		if (!strips) {
			fm->ext.simple[i].offset = htole64(off);
			fm->ext.simple[i].len = htole64(len);
			continue;
		}
		if (i && htole64(len) != fm->ext.interleave.strip_len) {
			REASON("strips of different lengths");
			return -EPROTO;
		}
		fm->ext.interleave.strip_off[i] = htole64(off);
		fm->ext.interleave.strip_len = htole64(len);
	}
	return 0;
}

int famfs_clog_decode(const void *entry, uint64_t slot,
		      const uint8_t fs_uuid[16], struct famfs_log_entry *e,
		      char *reason)
{
	const uint8_t *b = entry;
	const struct famfs_clog_hdr *h = entry;
	const struct famfs_clog_fmeta *cm = (const void *)(b + FMETA_OFF);
	struct famfs_log_fmeta *fm = &e->fm;
	size_t len = (size_t)h->nslots * FAMFS_CLOG_SLOT, plen, end, poff;
	unsigned ext_type = cm->extent_type, next = cm->nextents;
	const uint8_t *p = b + EXT_OFF;
	bool dirty = h->flags != 0;
	int rc;

	memset(e, 0, sizeof(*e));
	if (le16toh(h->type) == FAMFS_LOG_EXTEND) {
		rc = extend_decode(b, e, reason);
		e->seq = htole64(slot);
		memcpy(e->fs_uuid, fs_uuid, 16);
		famfs_entry_set_crc(e);
		if (rc == -EINVAL)
			REASON("reserved entry bytes are not zero");
		return rc;
	}
	e->seq = htole64(slot);
	memcpy(e->fs_uuid, fs_uuid, 16);
	e->type = h->type;
	if (le16toh(h->type) == FAMFS_LOG_DEVADD) {
		/* its rules (and R2): famfs_devadd_check */
		memcpy(fm->ext.raw, b + HDR_LEN, sizeof(struct famfs_clog_devadd));
		famfs_entry_set_crc(e);
		if (dirty || !famfs_all_zero(b + HDR_LEN + sizeof(struct famfs_clog_devadd),
				   len - HDR_LEN - sizeof(struct famfs_clog_devadd))) {
			REASON("reserved device entry bytes are not zero");
			return -EINVAL;
		}
		return 0;
	}
	if (famfs_entry_is_body(le16toh(h->type))) {	/* nsentry.c */
		rc = famfs_ns_clog_decode(b, e, reason);
		famfs_entry_set_crc(e);
		return rc;
	}
	if (le16toh(h->type) == FAMFS_LOG_HOSTS) {	/* hostent.c */
		rc = famfs_hosts_clog_decode(b, e, reason);
		famfs_entry_set_crc(e);
		return rc;
	}
	if (le16toh(h->type) != FAMFS_LOG_FILE &&
	    le16toh(h->type) != FAMFS_LOG_MKDIR) {
		REASON("unknown entry type %u", le16toh(h->type));
		famfs_entry_set_crc(e);		/* famfs_entry_owned: unknown */
		return -EPROTO;
	}
	plen = le16toh(cm->path_len);
	if (ext_type > FAMFS_LOG_EXT_PAGES || next > FAMFS_LOG_MAX_SIMPLE_EXT ||
	    (ext_type == 0 && next) ||
	    (end = body_end(ext_type, next, 0)) > len) {
		REASON("extent type %u with %u extents does not fit %u slots",
		       ext_type, next, h->nslots);
		return -EPROTO;
	}
	fm->size = cm->size;
	fm->ctime = cm->ctime;
	fm->mode = cm->mode;
	fm->uid = cm->uid;
	fm->gid = cm->gid;
	fm->extent_type = htole16((uint16_t)ext_type);
	if (ext_type == FAMFS_LOG_EXT_INTERLEAVED) {
		const struct famfs_clog_ilv *il = (const void *)p;

		fm->nextents = htole16(1);
		fm->ext.interleave.nstrips = htole32(next);
		fm->ext.interleave.chunk_size =
			htole64((uint64_t)le32toh(il->chunk) << FAMFS_ALLOC_UNIT_SHIFT);
		if (il->reserved)
			dirty = true;
		p += sizeof(*il);
	} else {
		fm->nextents = htole16((uint16_t)next);
	}
	rc = get_exts((const struct famfs_clog_ext *)p, next,
		      ext_type == FAMFS_LOG_EXT_INTERLEAVED,
		      ext_type == FAMFS_LOG_EXT_PAGES, fm, &dirty, reason);
	if (rc)
		return rc;
	/* the path: a bad one leaves the entry's memory known (R3) */
	poff = end - 1;
	if (!plen || plen >= FAMFS_LOG_PATH_MAX || poff + plen + 1 > len ||
	    memchr(b + poff, 0, plen) || b[poff + plen]) {
		famfs_entry_set_crc(e);
		REASON("path length %zu does not fit the entry or path not NUL-terminated",
		       plen);
		return -EINVAL;
	}
	memcpy(fm->path, b + poff, plen);
	fm->path_len = htole16((uint16_t)plen);
	famfs_entry_set_crc(e);
	if (dirty || !famfs_all_zero(b + poff + plen + 1, len - poff - plen - 1)) {
		REASON("reserved entry bytes are not zero");
		return -EINVAL;
	}
	return 0;
}

/* ---- DELETE, RENAME, SETATTR (format rev 3; nsentry.c) ---- */
int famfs_ns_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
			 const uint8_t fs_uuid[16],
			 uint8_t out[FAMFS_CLOG_MAX_ENTRY], char *reason)
{
	struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)out;
	unsigned type = le16toh(e->type);
	size_t used = famfs_ns_body_len(type, (const uint8_t *)e + FAMFS_NS_BODY_OFF);
	unsigned nslots;

	memset(out, 0, FAMFS_CLOG_MAX_ENTRY);
	if (!famfs_entry_is_body(type) || used > FAMFS_NS_BODY_LEN ||
	    HDR_LEN + used > FAMFS_CLOG_MAX_ENTRY) {
		REASON("%s entry of %zu bytes has no compact form",
		       famfs_ns_name(type), used);
		return -EINVAL;
	}
	nslots = (unsigned)((HDR_LEN + used + FAMFS_CLOG_SLOT - 1) / FAMFS_CLOG_SLOT);
	h->seq = htole64(slot);
	h->type = e->type;
	h->nslots = (uint8_t)nslots;
	memcpy(out + HDR_LEN, (const uint8_t *)e + FAMFS_NS_BODY_OFF, used);
	h->crc = htole32(famfs_clog_crc(out, nslots, fs_uuid));
	return (int)nslots;
}

int famfs_ns_clog_decode(const uint8_t *b, struct famfs_log_entry *e,
			 char *reason)
{
	const struct famfs_clog_hdr *h = (const void *)b;
	size_t avail = (size_t)h->nslots * FAMFS_CLOG_SLOT - HDR_LEN;
	size_t copy = avail < FAMFS_NS_BODY_LEN ? avail : FAMFS_NS_BODY_LEN;
	unsigned type = le16toh(h->type);
	size_t used;

	/* the caller set seq, uuid, type; the body as a v1 log holds it */
	memcpy(((uint8_t *)e + FAMFS_NS_BODY_OFF), b + HDR_LEN, copy);
	used = famfs_ns_body_len(type, ((uint8_t *)e + FAMFS_NS_BODY_OFF));
	if (h->flags || used > copy || !famfs_all_zero(b + HDR_LEN + copy, avail - copy) ||
	    (type == FAMFS_LOG_RECLAIM && h->nslots != 1)) {	/* one slot */
		REASON("%s entry: flags, lengths or the bytes after its paths are not right",
		       famfs_ns_name(type));
		return -EINVAL;
	}
	return 0;
}

/* ---- HOSTS (format rev 3; hostent.c): one slot, its body after the header */
int famfs_hosts_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
			    const uint8_t fs_uuid[16],
			    uint8_t out[FAMFS_CLOG_MAX_ENTRY])
{
	struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)out;

	memset(out, 0, FAMFS_CLOG_MAX_ENTRY);
	h->seq = htole64(slot);
	h->type = htole16(FAMFS_LOG_HOSTS);
	h->nslots = 1;
	memcpy(out + HDR_LEN, famfs_entry_hosts(e), sizeof(struct famfs_log_hosts));
	h->crc = htole32(famfs_clog_crc(out, 1, fs_uuid));
	return 1;
}

int famfs_hosts_clog_decode(const uint8_t *b, struct famfs_log_entry *e,
			    char *reason)
{
	const struct famfs_clog_hdr *h = (const void *)b;

	/* the caller set seq, uuid, type; the body as a v1 log holds it */
	memcpy((uint8_t *)e + FAMFS_NS_BODY_OFF, b + HDR_LEN, sizeof(struct famfs_log_hosts));
	if (h->nslots != 1 || h->flags ||
	    !famfs_all_zero(b + HDR_LEN + sizeof(struct famfs_log_hosts),
			    FAMFS_CLOG_SLOT - HDR_LEN - sizeof(struct famfs_log_hosts))) {
		REASON("HOSTS entry: %u slots (1), or reserved bytes not zero",
		       h->nslots);
		return -EINVAL;
	}
	return 0;
}
