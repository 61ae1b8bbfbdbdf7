// SPDX-License-Identifier: GPL-2.0
/*
 * The master record (famfs_format.h, issue 15.2): who holds the master role
 * now.  Of two instances whose host uuid is the superblock's master (cloned
 * VMs, container images), only the one named in the record (host uuid, boot
 * id, generation) appends; the other is told before it writes.  There is no
 * compare-and-swap between hosts: the check, made under the log lock before
 * every append, narrows the window to one append; it does not close it.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "master.h"

#define BOOT_ID_FILE	"/proc/sys/kernel/random/boot_id"
#define CLAIM_DIR	"/var/lib/famfs"

static bool zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

void famfs_mrec_set_crc(struct famfs_master_record *r)
{
	r->crc = 0;
	r->crc = htole32(famfs_crc32(r, sizeof(*r)));
}

void famfs_mrec_describe(const struct famfs_master_record *r, char *out,
			 size_t n)
{
	char host[37], boot[37], when[32] = "?", name[sizeof(r->hostname) + 1];
	time_t t = (time_t)le64toh(r->claim_time);
	struct tm tm;

	famfs_uuid_str(r->host_uuid, host);
	famfs_uuid_str(r->boot_id, boot);
	memcpy(name, r->hostname, sizeof(r->hostname));
	name[sizeof(r->hostname)] = '\0';
	/* another host's bytes: no control characters in messages */
	for (char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	snprintf(out, n, "host %s (%s), boot %s, generation %llu, claimed at %s",
		 host, name[0] ? name : "no name", boot,
		 (unsigned long long)le64toh(r->generation), when);
}

enum famfs_mrec_state famfs_mrec_decide(const struct famfs_superblock *sb,
					const struct famfs_master_record *media,
					const struct famfs_me *me,
					const struct famfs_claim *c,
					char *reason)
{
	/* one read: the CRC and the fields judged are of the same bytes */
	const struct famfs_master_record rec = *media, *r = &rec;
	struct famfs_master_record tmp;
	uint32_t crc, flags = le32toh(r->flags);
	char who[300];

	if (reason)
		reason[0] = '\0';
	if (!(le32toh(sb->feature_ro_compat) & FAMFS_FEATURE_RO_COMPAT_MASTER_REC))
		return FAMFS_MREC_FREE;		/* made before master records */
	if (zero(r, sizeof(*r)))
		return FAMFS_MREC_FREE;		/* never claimed */
#define WHY(...) do { if (reason) snprintf(reason, FAMFS_MREC_REASON_LEN, __VA_ARGS__); } while (0)
	if (le64toh(r->magic) != FAMFS_MREC_MAGIC) {
		WHY("master record: bad magic 0x%016llx",
		    (unsigned long long)le64toh(r->magic));
		return FAMFS_MREC_BAD;
	}
	memcpy(&tmp, r, sizeof(tmp));
	tmp.crc = 0;
	crc = famfs_crc32(&tmp, sizeof(tmp));
	if (crc != le32toh(r->crc)) {
		WHY("master record CRC mismatch (stored 0x%08x, computed 0x%08x)",
		    le32toh(r->crc), crc);
		return FAMFS_MREC_BAD;
	}
	if (flags & ~FAMFS_MREC_HELD) {
		WHY("master record with unknown flags 0x%x (written by a newer tool?)",
		    flags & ~FAMFS_MREC_HELD);
		return FAMFS_MREC_BAD;
	}
	if (memcmp(r->fs_uuid, sb->fs_uuid, 16)) {
		WHY("master record of another file system (fs uuid differs)");
		return FAMFS_MREC_BAD;
	}
	if (!zero(r->reserved, sizeof(r->reserved))) {
		WHY("master record: reserved bytes are not zero");
		return FAMFS_MREC_BAD;
	}
	if (!(flags & FAMFS_MREC_HELD))
		return FAMFS_MREC_FREE;		/* released */
	famfs_mrec_describe(r, who, sizeof(who));
	if (memcmp(r->host_uuid, me->host, 16)) {
		WHY("another master holds the log: %s", who);
		return FAMFS_MREC_OTHER;
	}
	/* this host's uuid: this instance's claim, if its claim file says so */
	if (c && c->present && !memcmp(c->host, me->host, 16) &&
	    !memcmp(c->boot, r->boot_id, 16) &&
	    c->generation == le64toh(r->generation))
		return memcmp(r->boot_id, me->boot, 16) ? FAMFS_MREC_REBOOT :
							  FAMFS_MREC_MINE;
	WHY("another master holds the log: %s (this host's uuid, but not this instance's claim: a cloned host or container?)",
	    who);
	return FAMFS_MREC_OTHER;
#undef WHY
}

void famfs_mrec_show(const struct famfs_superblock *sb,
		     const struct famfs_master_record *r, char *out, size_t n)
{
	static const struct famfs_me nobody;
	char why[FAMFS_MREC_REASON_LEN], desc[400];

	if (!(le32toh(sb->feature_ro_compat) & FAMFS_FEATURE_RO_COMPAT_MASTER_REC)) {
		snprintf(out, n, "none yet (made before master records; the master writes one at mount)");
		return;
	}
	if (zero(r, sizeof(*r))) {
		snprintf(out, n, "never claimed");
		return;
	}
	/* nobody's view: FREE (released), OTHER (held) or BAD */
	if (famfs_mrec_decide(sb, r, &nobody, NULL, why) == FAMFS_MREC_BAD) {
		snprintf(out, n, "corrupt: %s", why);
		return;
	}
	famfs_mrec_describe(r, desc, sizeof(desc));
	snprintf(out, n, "%s: %s",
		 le32toh(r->flags) & FAMFS_MREC_HELD ? "held" : "released", desc);
}

int famfs_boot_id(uint8_t boot[16])
{
	const char *env = getenv("FAMFS_BOOT_ID_FILE");
	const char *p = env && *env ? env : BOOT_ID_FILE;
	int rc = famfs_read_id(p, boot);

	if (rc)
		famfs_err("%s%s: cannot read this boot's id: %s", p,
			  p == env ? " (FAMFS_BOOT_ID_FILE)" : "", strerror(-rc));
	return rc;
}

int famfs_claim_path(const uint8_t fs_uuid[16], char *out, size_t n)
{
	const char *env = getenv("FAMFS_CLAIM_DIR");
	char u[37];

	famfs_uuid_str(fs_uuid, u);
	if ((size_t)snprintf(out, n, "%s/%s.claim", env && *env ? env : CLAIM_DIR,
			     u) >= n)
		return -ENAMETOOLONG;
	return 0;
}

int famfs_claim_read(const uint8_t fs_uuid[16], struct famfs_claim *c)
{
	char p[PATH_MAX], host[64], boot[64];
	unsigned long long gen;
	FILE *f;
	int n;

	memset(c, 0, sizeof(*c));
	if (famfs_claim_path(fs_uuid, p, sizeof(p)))
		return -ENAMETOOLONG;
	f = fopen(p, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	n = fscanf(f, "host %63s boot %63s generation %llu", host, boot, &gen);
	fclose(f);
	if (n != 3 || uuid_parse(host, c->host) || uuid_parse(boot, c->boot)) {
		famfs_warn("%s: not a famfs claim file; ignored", p);
		memset(c, 0, sizeof(*c));
		return 0;
	}
	c->generation = gen;
	c->present = true;
	return 0;
}

int famfs_claim_write(const uint8_t fs_uuid[16], const struct famfs_claim *c)
{
	char p[PATH_MAX], tmp[PATH_MAX + 16], host[37], boot[37], *slash;
	int fd, rc;

	if (famfs_claim_path(fs_uuid, p, sizeof(p)))
		return -ENAMETOOLONG;
	/* /var/lib/famfs (and what is missing above it) on first use */
	snprintf(tmp, sizeof(tmp), "%s", p);
	for (slash = strchr(tmp + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(tmp, 0755);
		*slash = '/';
	}
	snprintf(tmp, sizeof(tmp), "%s.%d", p, (int)getpid());
	famfs_uuid_str(c->host, host);
	famfs_uuid_str(c->boot, boot);
	/* a new file of this process's: not one left at that name (a
	 * link put there is removed, never written through) */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		famfs_err("%s: cannot write this host's claim: %s", p,
			  strerror(errno));
		return rc;
	}
	if (dprintf(fd, "host %s\nboot %s\ngeneration %llu\n", host, boot,
		    (unsigned long long)c->generation) < 0 || fsync(fd) ||
	    rename(tmp, p)) {
		rc = -errno;
		famfs_err("%s: cannot write this host's claim: %s", p,
			  strerror(errno));
		close(fd);
		unlink(tmp);
		return rc ? rc : -EIO;
	}
	close(fd);
	return 0;
}

static struct famfs_master_record *mrec_of(void *sb_region)
{
	return (struct famfs_master_record *)((char *)sb_region +
					      FAMFS_MREC_OFFSET);
}

const struct famfs_master_record *famfs_mrec_refresh(struct famfs_fs *fs)
{
	struct famfs_master_record *r = mrec_of(fs->sbm.addr);

	/* another host may have written both since this CPU read them (a
	 * superblock that no longer verifies is not taken) */
	famfs_fs_sb_reread(fs, NULL);
	famfs_map_refresh(&fs->sbm, r, sizeof(*r));
	/* one read: another host's claim may come at any time, and its CRC
	 * must not be judged with fields read before or after it */
	fs->mrec = *r;
	return &fs->mrec;
}

int famfs_me_get(struct famfs_fs *fs, struct famfs_me *me)
{
	if (!fs->host_id_ok) {
		famfs_host_id(fs->host_uuid);	/* prints why */
		return -EPERM;
	}
	memcpy(me->host, fs->host_uuid, 16);
	return famfs_boot_id(me->boot) ? -EIO : 0;
}

int famfs_master_state(struct famfs_fs *fs, enum famfs_mrec_state *st,
		       char *reason)
{
	const struct famfs_master_record *r = famfs_mrec_refresh(fs);
	struct famfs_claim c;
	struct famfs_me me;
	int rc = famfs_me_get(fs, &me);

	if (rc)
		return rc;
	rc = famfs_claim_read(fs->sb->fs_uuid, &c);
	if (rc) {
		char p[PATH_MAX];

		famfs_claim_path(fs->sb->fs_uuid, p, sizeof(p));
		famfs_err("%s: %s", p, strerror(-rc));
		return rc;
	}
	*st = famfs_mrec_decide(fs->sb, r, &me, &c, reason);
	return 0;
}

/* this instance holds the role or may take it: MINE, FREE, or this host's
 * from another boot whose beat is not live (beat.c) -- a disk clone of a
 * running master has its claim file, but is not the master instance */
static bool may_hold(struct famfs_fs *fs, enum famfs_mrec_state st)
{
	return st == FAMFS_MREC_MINE || st == FAMFS_MREC_FREE ||
	       (st == FAMFS_MREC_REBOOT && !famfs_beat_live(fs, &fs->mrec));
}

void famfs_master_instance_judge(struct famfs_fs *fs)
{
	struct famfs_master_record *r;
	struct famfs_claim c;
	struct famfs_me me;
	int q = famfs_quiet;

	fs->master_instance = false;
	if (!fs->master || fs->sbm.len < FAMFS_MREC_OFFSET + sizeof(*r))
		return;
	/* at open: the superblock was just checked; the record as memory
	 * holds it (another host may have claimed since this CPU read it),
	 * read once (famfs_mrec_refresh's rule) */
	r = mrec_of(fs->sbm.addr);
	famfs_map_invalidate(&fs->sbm, r, sizeof(*r));
	fs->mrec = *r;
	famfs_quiet = 1;
	if (!famfs_me_get(fs, &me) && !famfs_claim_read(fs->sb->fs_uuid, &c))
		fs->master_instance = may_hold(fs, famfs_mrec_decide(fs->sb, &fs->mrec,
								     &me, &c, NULL));
	famfs_quiet = q;
}

/* write the record (HELD by me, or released) and, if needed, the
 * superblock's ro_compat bit and master uuid */
static int write_role(struct famfs_fs *fs, const struct famfs_me *me,
		      bool held, const uint8_t master[16])
{
	/* the record judged just before (famfs_master_state) */
	const struct famfs_master_record *old = &fs->mrec;
	struct famfs_master_record *r;
	struct famfs_superblock *sb;
	struct famfs_claim c = { .present = true };
	uint64_t gen = le64toh(old->generation);
	struct famfs_sbw w;
	bool bit = le32toh(fs->sb->feature_ro_compat) &
		   FAMFS_FEATURE_RO_COMPAT_MASTER_REC;
	int rc;

	if (!bit || le64toh(old->magic) != FAMFS_MREC_MAGIC)
		gen = 0;		/* no record yet (or garbage) */
	rc = famfs_fs_sb_get(fs, &w, held ? "claim the master role" :
				     "hand over the master role");
	if (rc)
		return rc;
	/* 1. this host's claim file: what "my claim" means after a reboot */
	if (held) {
		memcpy(c.host, me->host, 16);
		memcpy(c.boot, me->boot, 16);
		c.generation = gen + 1;
		rc = famfs_claim_write(fs->sb->fs_uuid, &c);
		if (rc)
			goto out;
	}
	/* 2. the record */
	/* released: the last holder stays named, for messages */
	r = mrec_of(w.base);
	memset(r, 0, sizeof(*r));
	r->magic = htole64(FAMFS_MREC_MAGIC);
	r->flags = htole32(held ? FAMFS_MREC_HELD : 0);
	r->generation = htole64(held ? gen + 1 : gen);
	memcpy(r->fs_uuid, fs->sb->fs_uuid, 16);
	memcpy(r->host_uuid, me->host, 16);
	memcpy(r->boot_id, me->boot, 16);
	r->claim_time = htole64((uint64_t)time(NULL));
	gethostname(r->hostname, sizeof(r->hostname) - 1);
	famfs_mrec_set_crc(r);
	rc = famfs_map_flush(w.map, r, sizeof(*r));
	if (rc)
		goto out;
	fs->mrec = *r;		/* what this instance remembers as its own */
	/* its first beat (beat.c): a clone finds the role live from now */
	if (held) {
		struct famfs_master_beat *b = (void *)((char *)w.base +
						       FAMFS_MBEAT_OFFSET);

		famfs_beat_fill(b, r, 1);
		rc = famfs_map_flush(w.map, b, sizeof(*b));
		if (rc)
			goto out;
		fs->beat_at = famfs_master_now() ? famfs_master_now() : 1;
	}
	/* 3. the superblock: the record exists now, so the bit may be set */
	sb = w.base;
	if (bit && !memcmp(sb->master_uuid, master, 16))
		goto out;
	sb->feature_ro_compat = htole32(le32toh(sb->feature_ro_compat) |
					FAMFS_FEATURE_RO_COMPAT_MASTER_REC);
	memcpy(sb->master_uuid, master, 16);
	famfs_sb_set_crc(sb);
	rc = famfs_map_flush(w.map, sb, sizeof(*sb));
out:
	if (rc)
		famfs_err("%s: could not %s: %s", fs->name,
			  held ? "claim the master role" : "hand over the master role",
			  strerror(-rc));
	famfs_fs_sb_put(&w);
	if (!rc) {
		char why[FAMFS_REASON_LEN];

		/* the copy kept: the new one (not read back: this process
		 * would judge the role by the old one) */
		rc = famfs_fs_sb_reread(fs, why);
		if (rc)
			famfs_err("%s: superblock written (to %s) but not read back: %s",
				  fs->name, held ? "claim the master role" :
				  "hand over the master role", why);
		fs->master = !memcmp(fs->host_uuid, fs->sb->master_uuid, 16);
		fs->master_instance = held && fs->master;
	}
	return rc;
}

int famfs_master_claim(struct famfs_fs *fs, bool force)
{
	char reason[FAMFS_MREC_REASON_LEN], me_s[37], m_s[37];
	enum famfs_mrec_state st;
	struct famfs_me me;
	int rc = famfs_master_state(fs, &st, reason);

	if (rc)
		return rc;
	famfs_me_get(fs, &me);
	if (!force && memcmp(me.host, fs->sb->master_uuid, 16)) {
		famfs_uuid_str(me.host, me_s);
		famfs_uuid_str(fs->sb->master_uuid, m_s);
		famfs_err("%s: this host (uuid %s) is not the master (uuid %s): not claimed (famfs master claim -f takes the role over)",
			  fs->name, me_s, m_s);
		return -EPERM;
	}
	if (st == FAMFS_MREC_MINE && !force) {
		famfs_beat_renew(fs);
		return 0;
	}
	/* this host's claim from another boot: a reboot, or a clone of
	 * this host's disk while the holder runs -- taken only if it is
	 * gone (beat.c) */
	if (!force && st == FAMFS_MREC_REBOOT) {
		rc = famfs_takeover_wait(fs, &me, reason);
		if (rc)
			st = FAMFS_MREC_OTHER;
	}
	if (!force && (st == FAMFS_MREC_OTHER || st == FAMFS_MREC_BAD)) {
		famfs_err("%s: %s; not claimed (famfs master claim -f %s takes the role over if that master is gone)",
			  fs->name, reason, fs->mpt[0] ? fs->mpt : fs->name);
		return st == FAMFS_MREC_BAD ? -EUCLEAN : rc ? rc : -EPERM;
	}
	return write_role(fs, &me, true, me.host);
}

/* where this instance's boot id and claim come from (tests change them) */
static void mine_env(char *out, size_t n)
{
	const char *b = getenv("FAMFS_BOOT_ID_FILE"), *c = getenv("FAMFS_CLAIM_DIR");

	snprintf(out, n, "%s\n%s", b ? b : "", c ? c : "");
}

/* the role found held by this instance: remembered for the next append */
static void mine_remember(struct famfs_fs *fs)
{
	fs->mine_rec = fs->mrec;
	memcpy(fs->mine_master, fs->sb->master_uuid, 16);
	mine_env(fs->mine_env, sizeof(fs->mine_env));
	fs->mine_seen = true;
}

/* the record and the superblock as the last check found them, this
 * instance's boot id and claim from the same place: still mine (neither
 * changes while this process runs; another host's claim changes the
 * record) */
static bool mine_still(struct famfs_fs *fs)
{
	char env[sizeof(fs->mine_env)];

	if (!fs->mine_seen)
		return false;
	famfs_mrec_refresh(fs);
	mine_env(env, sizeof(env));
	return !memcmp(&fs->mine_rec, &fs->mrec, sizeof(fs->mine_rec)) &&
	       !memcmp(fs->mine_master, fs->sb->master_uuid, 16) &&
	       !strcmp(env, fs->mine_env);
}

int famfs_master_check(struct famfs_fs *fs)
{
	char reason[FAMFS_MREC_REASON_LEN];
	enum famfs_mrec_state st;
	int rc;

	if (mine_still(fs) && !fs->sb_other) {
		famfs_beat_renew(fs);
		return 0;
	}
	fs->mine_seen = false;
	rc = famfs_master_state(fs, &st, reason);	/* reads both again */
	if (rc)
		return rc;
	/* the log this opening appends to is not the one that superblock
	 * describes (another host's mkfs over it): nothing more of it */
	if (fs->sb_other) {
		famfs_err("%s: the superblock on the media is another file system's now (its uuid, size, log length or log format differ from the one opened: made again?); nothing was written",
			  fs->name);
		return -ESTALE;
	}
	fs->master_instance = fs->master && may_hold(fs, st);
	switch (st) {
	case FAMFS_MREC_MINE:
		mine_remember(fs);
		famfs_beat_renew(fs);
		return 0;
	case FAMFS_MREC_FREE:
	case FAMFS_MREC_REBOOT:
		/* not claimed at mount (an older tool mounted it, or the
		 * role was just handed over): claim it now */
		rc = famfs_master_claim(fs, false);
		if (!rc)
			mine_remember(fs);
		else	/* another boot's, live (beat.c): a clone's view */
			fs->master_instance = false;
		return rc;
	default:
		famfs_err("%s: %s; nothing was written (famfs master claim -f %s takes the role over if that master is gone)",
			  fs->name, reason, fs->mpt[0] ? fs->mpt : fs->name);
		return st == FAMFS_MREC_BAD ? -EUCLEAN : -EPERM;
	}
}

int famfs_master_set(struct famfs_fs *fs, const uint8_t host[16])
{
	char reason[FAMFS_MREC_REASON_LEN], me_s[37], m_s[37], p[PATH_MAX];
	enum famfs_mrec_state st;
	struct famfs_me me;
	int rc = famfs_master_state(fs, &st, reason);

	if (rc)
		return rc;
	famfs_me_get(fs, &me);
	if (memcmp(me.host, fs->sb->master_uuid, 16)) {
		famfs_uuid_str(me.host, me_s);
		famfs_uuid_str(fs->sb->master_uuid, m_s);
		famfs_err("%s: this host (uuid %s) is not the master (uuid %s): only the master hands the role over",
			  fs->name, me_s, m_s);
		return -EPERM;
	}
	/* this host's claim from another boot: a reboot, or a clone of this
	 * host's disk while the holder runs -- handed over only if it could
	 * be claimed (the holder gone: beat.c's wait), never at once */
	if (st == FAMFS_MREC_REBOOT &&
	    famfs_takeover_wait(fs, &me, reason))
		st = FAMFS_MREC_OTHER;
	if (st == FAMFS_MREC_OTHER || st == FAMFS_MREC_BAD) {
		famfs_err("%s: %s; not handed over (famfs master claim -f first, if that master is gone)",
			  fs->name, reason);
		return st == FAMFS_MREC_BAD ? -EUCLEAN : -EPERM;
	}
	rc = write_role(fs, &me, false, host);
	if (!rc && !famfs_claim_path(fs->sb->fs_uuid, p, sizeof(p)))
		unlink(p);
	return rc;
}
