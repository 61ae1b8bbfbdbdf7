// SPDX-License-Identifier: GPL-2.0
/*
 * Member devices (issue 16): reading and writing a device's head, and
 * finding the devices of a file system on this host by uuid (the member
 * superblock's bytes: membersb.c).  A device's name says nothing:
 * /dev/pmem0 on one host may be /dev/pmem1 on another, so every candidate
 * (/dev/pmemN[.M], /dev/daxX.Y and the -d hints) is read and only what its
 * superblock says counts.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev/dev.h"

#define HEAD_MAX 4096UL

const char *famfs_scan_root = "/dev";
const char *famfs_sys_root = "/sys";

unsigned long famfs_dev_head_reads;

int famfs_dev_read_head(const char *path, void *buf, size_t n, uint64_t *size)
{
	struct stat st;
	void *p;
	int fd, rc = 0;
	ssize_t got;

	famfs_dev_head_reads++;
	if (n > HEAD_MAX)
		return -EINVAL;
	if (stat(path, &st))
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		/* O_DIRECT: this host's page cache may hold old bytes */
		fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (ioctl(fd, BLKGETSIZE64, size)) {
			rc = -errno;
		} else if (posix_memalign(&p, HEAD_MAX, HEAD_MAX)) {
			rc = -ENOMEM;
		} else {
			got = pread(fd, p, HEAD_MAX, 0);
			if (got != (ssize_t)HEAD_MAX)
				rc = got < 0 ? -errno : -ENODATA;
			else
				memcpy(buf, p, n);
			free(p);
		}
		close(fd);
		return rc;
	}
	if (S_ISCHR(st.st_mode)) {
		uint64_t len;

		rc = famfs_dax_size(path, st.st_rdev, size);
		if (rc)
			return rc;
		/* device_dax maps only whole alignment units (2 MiB) */
		len = *size < FAMFS_ALLOC_UNIT ? HEAD_MAX : FAMFS_ALLOC_UNIT;
		if (*size < len)
			return -ENODATA;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			rc = -errno;
		} else {
			/* drop lines this CPU may hold from before */
			famfs_cpu_flush(p, n);
			memcpy(buf, p, n);
			munmap(p, len);
		}
		close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode))
		return -ENODEV;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	got = pread(fd, buf, n, 0);
	if (got != (ssize_t)n)
		rc = got < 0 ? -errno : -ENODATA;
	close(fd);
	return rc;
}

int famfs_member_write(const char *path, const struct famfs_member_sb *m)
{
	char why[FAMFS_REASON_LEN];
	struct famfs_dev d;
	struct famfs_map map;
	int rc;

	rc = famfs_dev_open(path, true, &d);
	if (rc)
		return rc;
	rc = famfs_member_check(m, NULL, d.size, why);
	if (rc) {
		famfs_err("%s: refusing to write a member superblock: %s", path, why);
		goto out;
	}
	/* the whole reserved unit: superblock, then zeros */
	rc = famfs_dev_map(&d, 0, FAMFS_MEMBER_DATA_OFFSET, &map);
	if (rc)
		goto out;
	memset(map.addr, 0, map.len);
	memcpy(map.addr, m, sizeof(*m));
	rc = famfs_map_flush(&map, map.addr, map.len);
	if (rc)
		famfs_err("%s: cannot flush the member superblock: %s", path,
			  strerror(-rc));
	famfs_map_unmap(&map);
out:
	famfs_dev_close(&d);
	return rc;
}

/* ---- finding devices ----------------------------------------------------- */

struct seen {
	dev_t dev;
	ino_t ino;
};

struct scan {
	const uint8_t *fs_uuid;
	struct famfs_devtab *t;
	const struct famfs_member_want *want;	/* NULL: any member */
	int nwant;
	struct seen *seen;
	size_t nseen;
	int rc;
	char fsu[37];
};

/* skip a run of digits (at least one); NULL if there is none */
static const char *digits(const char *p)
{
	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p))
		p++;
	return p;
}

/* pmemN, pmemN.M (another namespace of region N), daxX.Y: nothing else
 * (no partitions "pmemNpK", no btt "pmemNs": no DAX there) */
static bool candidate_name(const char *n)
{
	const char *p;
	bool pmem = !strncmp(n, "pmem", 4);

	if (!pmem && strncmp(n, "dax", 3))
		return false;
	p = digits(n + (pmem ? 4 : 3));
	if (!p)
		return false;
	if (pmem && *p == '\0')
		return true;
	if (*p++ != '.')
		return false;
	p = digits(p);
	return p && *p == '\0';
}

/* false if this device was read already (a hint and the scan) */
static bool first_sight(struct scan *s, const struct stat *st)
{
	struct seen id = { st->st_dev, st->st_ino };
	struct seen *n;

	if (S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode))
		id = (struct seen){ st->st_rdev, (ino_t)(S_ISBLK(st->st_mode) ? 1 : 2) };
	for (size_t i = 0; i < s->nseen; i++)
		if (s->seen[i].dev == id.dev && s->seen[i].ino == id.ino)
			return false;
	n = realloc(s->seen, (s->nseen + 1) * sizeof(*n));
	if (!n)
		return true;	/* worst case: a duplicate reported */
	s->seen = n;
	s->seen[s->nseen++] = id;
	return true;
}

static void take(struct scan *s, uint32_t idx, const char *path,
		 const uint8_t dev_uuid[16], uint64_t size, uint64_t fs_ctime)
{
	struct famfs_found_dev *d = &s->t->dev[idx];
	char u[37];

	if (d->present) {
		famfs_err("file system %s: device index %u claimed by both %s and %s: refusing to guess",
			  s->fsu, idx, d->path, path);
		s->rc = -EEXIST;
		return;
	}
	for (uint32_t i = 1; idx && i < FAMFS_MAX_DEVS; i++) {
		if (!s->t->dev[i].present || memcmp(s->t->dev[i].dev_uuid, dev_uuid, 16))
			continue;
		famfs_uuid_str(dev_uuid, u);
		famfs_err("file system %s: device uuid %s claimed by both %s (index %u) and %s (index %u): a copied device? refusing to guess",
			  s->fsu, u, s->t->dev[i].path, i, path, idx);
		s->rc = -EEXIST;
		return;
	}
	d->present = true;
	snprintf(d->path, sizeof(d->path), "%s", path);
	memcpy(d->dev_uuid, dev_uuid, 16);
	d->size = size;
	d->fs_ctime = fs_ctime;
	s->t->nfound++;
}

/* With the log's members (s->want): is m one of them?  A member
 * superblock whose device uuid no DEVADD names is an interrupted devadd's
 * (its index may be another device's now): not a member, ignored.  One
 * whose index differs from its DEVADD's contradicts the log: refused. */
static bool wanted(struct scan *s, const char *path,
		   const struct famfs_member_sb *m)
{
	uint32_t idx = le32toh(m->index);
	char u[37];

	famfs_uuid_str(m->dev_uuid, u);
	for (int i = 0; i < s->nwant; i++) {
		if (memcmp(s->want[i].dev_uuid, m->dev_uuid, 16))
			continue;
		if (s->want[i].index == idx)
			return true;
		famfs_warn("%s: member superblock of file system %s says index %u, but the log added device uuid %s as member %u: refused",
			   path, s->fsu, idx, u, s->want[i].index);
		s->t->ndamaged++;
		return false;
	}
	famfs_info("%s: member superblock of file system %s (index %u, device uuid %s) that its log does not name (an interrupted famfs devadd): not a member, ignored",
		   path, s->fsu, idx, u);
	if (s->t->norphans < FAMFS_MAX_DEVS) {
		struct famfs_found_dev *o = &s->t->orphan[s->t->norphans];

		o->present = true;
		snprintf(o->path, sizeof(o->path), "%s", path);
		memcpy(o->dev_uuid, m->dev_uuid, 16);
		o->size = le64toh(m->device_size);
		o->fs_ctime = le64toh(m->fs_ctime);
		s->t->orphan_index[s->t->norphans++] = idx;
	}
	return false;
}

static void consider(struct scan *s, const char *path, bool hint)
{
	union {
		struct famfs_superblock sb;
		struct famfs_member_sb m;
	} h;
	char why[FAMFS_REASON_LEN];
	struct stat st;
	uint64_t size;
	int rc;

	if (stat(path, &st)) {
		if (hint)
			famfs_warn("%s: hint ignored: %s", path, strerror(errno));
		return;
	}
	if (!first_sight(s, &st))
		return;
	rc = famfs_dev_read_head(path, &h, sizeof(h), &size);
	if (rc) {
		if (hint)
			famfs_warn("%s: hint ignored: cannot read: %s", path, strerror(-rc));
		else
			famfs_info("%s: cannot read: %s", path, strerror(-rc));
		return;
	}
	if (famfs_sb_is_famfs(&h.sb)) {
		if (memcmp(h.sb.fs_uuid, s->fs_uuid, 16))
			return;
		if (famfs_sb_check(&h.sb, size, why)) {
			famfs_warn("%s: the superblock of file system %s is damaged, ignored: %s",
				   path, s->fsu, why);
			s->t->ndamaged++;
			return;
		}
		take(s, 0, path, (const uint8_t[16]){ 0 },
		     le64toh(h.sb.device_size), le64toh(h.sb.ctime));
		return;
	}
	if (!famfs_member_is_member(&h.m) || memcmp(h.m.fs_uuid, s->fs_uuid, 16))
		return;
	if (famfs_member_check(&h.m, s->fs_uuid, size, why)) {
		famfs_warn("%s: member superblock of file system %s refused: %s",
			   path, s->fsu, why);
		s->t->ndamaged++;
		return;
	}
	if (s->want && !wanted(s, path, &h.m))
		return;
	take(s, le32toh(h.m.index), path, h.m.dev_uuid,
	     le64toh(h.m.device_size), le64toh(h.m.fs_ctime));
}

/* fn(arg, path) for each candidate node of the scan root (pmemN,
 * pmemN.M, daxX.Y), in name order, until it returns true: true then */
static bool each_candidate(bool (*fn)(void *arg, const char *path),
			   void *arg, bool warn)
{
	struct dirent **ents;
	char path[4096];
	bool done = false;
	int n;

	n = scandir(famfs_scan_root, &ents, NULL, alphasort);
	if (n < 0) {
		if (warn)
			famfs_warn("%s: cannot list the devices: %s",
				   famfs_scan_root, strerror(errno));
		return false;
	}
	for (int i = 0; i < n; i++) {
		if (!done && candidate_name(ents[i]->d_name) &&
		    snprintf(path, sizeof(path), "%s/%s", famfs_scan_root,
			     ents[i]->d_name) < (int)sizeof(path))
			done = fn(arg, path);
		free(ents[i]);
	}
	free(ents);
	return done;
}

static bool consider_candidate(void *arg, const char *path)
{
	consider(arg, path, false);
	return false;
}

static void scan_root(struct scan *s)
{
	each_candidate(consider_candidate, s, true);
}

/* ---- which device famfs.ko has as a member ------------------------------ */

bool famfs_node_is(const char *path, const struct famfs_ioc_dev_info *i)
{
	uint32_t ma, mi, fl;
	struct stat st;

	return !stat(path, &st) &&
	       famfs_kernel_node_number(&st, &ma, &mi, &fl) &&
	       ma == i->major && mi == i->minor &&
	       fl == (i->flags & FAMFS_DEV_DEVDAX);
}

/* its node named by sysfs: /sys/dev/{block,char}/M:m/uevent's DEVNAME */
static bool sysfs_node(const struct famfs_ioc_dev_info *i, char *path,
		       size_t len)
{
	char p[4200], line[512];
	bool found = false;
	FILE *f;

	snprintf(p, sizeof(p), "%s/dev/%s/%u:%u/uevent", famfs_sys_root,
		 i->flags & FAMFS_DEV_DEVDAX ? "char" : "block", i->major,
		 i->minor);
	f = fopen(p, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = '\0';
		found = snprintf(path, len, "%s/%s", famfs_scan_root,
				 line + 8) < (int)len && famfs_node_is(path, i);
	}
	fclose(f);
	return found;
}

struct by_number {
	const struct famfs_ioc_dev_info *i;
	char *path;
	size_t len;
};

static bool number_candidate(void *arg, const char *path)
{
	struct by_number *b = arg;

	if (!famfs_node_is(path, b->i))
		return false;
	snprintf(b->path, b->len, "%s", path);
	return true;
}

int famfs_node_of_number(const struct famfs_ioc_dev_info *i,
			 const char *const *hints, int nhints, char *path,
			 size_t len)
{
	struct by_number b = { i, path, len };

	for (int k = 0; k < nhints; k++)
		if (hints[k] && hints[k][0] && number_candidate(&b, hints[k]))
			return 0;
	if (sysfs_node(i, path, len) || each_candidate(number_candidate, &b, false))
		return 0;
	path[0] = '\0';
	return -ENOENT;
}

int famfs_member_read(const char *path, const uint8_t fs_uuid[16],
		      struct famfs_member_sb *m, char *why)
{
	uint64_t size;
	int rc;

	rc = famfs_dev_read_head(path, m, sizeof(*m), &size);
	if (rc) {
		snprintf(why, FAMFS_REASON_LEN, "cannot read it: %s",
			 strerror(-rc));
		return rc;
	}
	return famfs_member_check(m, fs_uuid, size, why);
}

/* famfs.ko's device read: its member superblock's identity into v */
static void read_theirs(const struct famfs_ioc_dev_info *i,
			const uint8_t fs_uuid[16], const uint8_t want[16],
			const char *known, struct famfs_member_verdict *v)
{
	char why[FAMFS_REASON_LEN];
	struct famfs_member_sb m;
	int rc;

	if (famfs_node_of_number(i, &known, 1, v->path, sizeof(v->path))) {
		snprintf(v->why, sizeof(v->why),
			 "no node of device %u:%u here (%s/pmem*, %s/dax*.*, %s)",
			 i->major, i->minor, famfs_scan_root, famfs_scan_root,
			 famfs_sys_root);
		return;
	}
	v->cause = FAMFS_UNSURE_UNREAD;
	rc = famfs_member_read(v->path, fs_uuid, &m, why);
	snprintf(v->why, sizeof(v->why), "%s: %s", v->path, why);
	if (rc && rc != -ESTALE)
		return;
	/* whole: a member of this file system or of another one */
	memcpy(v->have, m.dev_uuid, 16);
	v->is = !rc && !memcmp(m.dev_uuid, want, 16) ? FAMFS_MEMBER_SAME :
		FAMFS_MEMBER_OTHER;
}

int famfs_member_compare(const struct famfs_ioc_dev_info *i,
			 const uint8_t fs_uuid[16], uint32_t index,
			 const uint8_t want[16], const char *known,
			 struct famfs_member_verdict *v)
{
	struct famfs_member_want w = { .index = index };
	struct famfs_devtab *t;
	int q = famfs_quiet, rc;

	memset(v, 0, sizeof(*v));
	v->is = FAMFS_MEMBER_UNSURE;
	/* the node the attach found the log's device at is famfs.ko's */
	if (known && known[0] && famfs_node_is(known, i)) {
		snprintf(v->path, sizeof(v->path), "%s", known);
		snprintf(v->table_path, sizeof(v->table_path), "%s", known);
		memcpy(v->have, want, 16);
		v->is = FAMFS_MEMBER_SAME;
		return 0;
	}
	/* famfs.ko's device by its number (sysfs names one node), read
	 * once: whole with the log's device uuid at this index, it is the
	 * member -- no scan (a process that did not attach: famfs cp, a
	 * follower's first round) */
	if (sysfs_node(i, v->path, sizeof(v->path))) {
		char why[FAMFS_REASON_LEN];
		struct famfs_member_sb m;

		if (!famfs_member_read(v->path, fs_uuid, &m, why) &&
		    le32toh(m.index) == index &&
		    !memcmp(m.dev_uuid, want, 16)) {
			snprintf(v->table_path, sizeof(v->table_path), "%s",
				 v->path);
			memcpy(v->have, want, 16);
			v->is = FAMFS_MEMBER_SAME;
			return 0;
		}
		v->path[0] = '\0';
	}
	/* else the log's device's node here, by its device uuid */
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	memcpy(w.dev_uuid, want, 16);
	famfs_quiet = 1;
	rc = famfs_devtab_find(fs_uuid, known && known[0] ? &known : NULL,
			       known && known[0] ? 1 : 0, &w, 1, t);
	famfs_quiet = q;
	if (!rc && index < FAMFS_MAX_DEVS && t->dev[index].present &&
	    !memcmp(t->dev[index].dev_uuid, want, 16))
		snprintf(v->table_path, sizeof(v->table_path), "%s",
			 t->dev[index].path);
	free(t);
	if (v->table_path[0] && famfs_node_is(v->table_path, i)) {
		snprintf(v->path, sizeof(v->path), "%s", v->table_path);
		memcpy(v->have, want, 16);
		v->is = FAMFS_MEMBER_SAME;
		return 0;
	}
	/* famfs.ko's device itself, read: whole with another uuid is
	 * another device; with the log's device's node here and another
	 * number it is another device anyway */
	read_theirs(i, fs_uuid, want, known, v);
	if (v->table_path[0] && v->is == FAMFS_MEMBER_SAME) {
		snprintf(v->why, sizeof(v->why),
			 "%s and %s both have the log's device uuid (a copied device?)",
			 v->table_path, v->path);
		v->cause = FAMFS_UNSURE_COPIED;
		v->is = FAMFS_MEMBER_UNSURE;
	} else if (v->table_path[0]) {
		v->is = FAMFS_MEMBER_OTHER;
	}
	return 0;
}

int famfs_devtab_scan(const uint8_t fs_uuid[16], const char *const *hints,
		      int nhints, struct famfs_devtab *t)
{
	return famfs_devtab_find(fs_uuid, hints, nhints, NULL, 0, t);
}

/* d, at index idx, of an earlier mkfs that reused the uuid (another
 * fs_ctime than the primary's): said, and counted damaged */
static bool earlier_fs(struct scan *s, const struct famfs_found_dev *d,
		       uint32_t idx)
{
	const struct famfs_found_dev *p = &s->t->dev[0];

	if (d->fs_ctime == p->fs_ctime)
		return false;
	famfs_warn("%s: member %u of an earlier file system %s (made at %llu, the primary %s at %llu): ignored",
		   d->path, idx, s->fsu, (unsigned long long)d->fs_ctime,
		   p->path, (unsigned long long)p->fs_ctime);
	s->t->ndamaged++;
	return true;
}

int famfs_devtab_find(const uint8_t fs_uuid[16], const char *const *hints,
		      int nhints, const struct famfs_member_want *want,
		      int nwant, struct famfs_devtab *t)
{
	struct scan s = { .fs_uuid = fs_uuid, .t = t, .want = want,
			  .nwant = nwant };
	struct famfs_found_dev *p = &t->dev[0];
	int kept = 0;

	memset(t, 0, sizeof(*t));
	memcpy(t->fs_uuid, fs_uuid, 16);
	famfs_uuid_str(fs_uuid, s.fsu);
	for (int i = 0; i < nhints; i++)
		consider(&s, hints[i], true);
	scan_root(&s);
	free(s.seen);
	/* a member of an earlier mkfs that reused the uuid is not ours, nor
	 * an orphan of one (famfs_fs_devtab lists orphans) */
	for (uint32_t i = 1; p->present && i < FAMFS_MAX_DEVS; i++) {
		struct famfs_found_dev *d = &t->dev[i];

		if (!d->present || !earlier_fs(&s, d, i))
			continue;
		d->present = false;
		t->nfound--;
	}
	for (int k = 0, n = t->norphans; p->present && k < n; k++) {
		if (earlier_fs(&s, &t->orphan[k], t->orphan_index[k]))
			continue;
		t->orphan_index[kept] = t->orphan_index[k];
		t->orphan[kept++] = t->orphan[k];
	}
	if (p->present)
		t->norphans = kept;
	return s.rc;
}

int famfs_devtab_require(const struct famfs_devtab *t,
			 const struct famfs_member_want *want, int n)
{
	char fsu[37], u[37], h[37];
	int rc = 0;

	famfs_uuid_str(t->fs_uuid, fsu);
	for (int i = 0; i < n; i++) {
		const struct famfs_found_dev *d;

		famfs_uuid_str(want[i].dev_uuid, u);
		if (want[i].index < 1 || want[i].index >= FAMFS_MAX_DEVS) {
			famfs_err("file system %s: member index %u (device uuid %s) outside 1..%u",
				  fsu, want[i].index, u, FAMFS_MAX_DEVS - 1);
			rc = -EINVAL;
			continue;
		}
		d = &t->dev[want[i].index];
		if (!d->present) {
			famfs_err("file system %s: member %u, device uuid %s, is not on this host (scanned %s/pmem*, %s/dax*.* and the -d hints)",
				  fsu, want[i].index, u, famfs_scan_root, famfs_scan_root);
			rc = -ENODEV;
		} else if (memcmp(d->dev_uuid, want[i].dev_uuid, 16)) {
			famfs_uuid_str(d->dev_uuid, h);
			famfs_err("file system %s: member %u should be device uuid %s, but %s has device uuid %s",
				  fsu, want[i].index, u, d->path, h);
			rc = -ENODEV;
		}
	}
	return rc;
}
