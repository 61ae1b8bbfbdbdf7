// SPDX-License-Identifier: GPL-2.0
/*
 * What the master role is judged by on this host: the local claim file
 * (/var/lib/famfs/<fs uuid>.claim, $FAMFS_CLAIM_DIR), this instance (host
 * uuid, boot id), and the record of an open file system as memory holds
 * it now (read once, so what is judged is what is remembered).
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
#include <unistd.h>
#include <uuid/uuid.h>

#include "role/role.h"

#define CLAIM_DIR	"/var/lib/famfs"

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
	int n, owed = 0;

	memset(c, 0, sizeof(*c));
	if (famfs_claim_path(fs_uuid, p, sizeof(p)))
		return -ENAMETOOLONG;
	f = fopen(p, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	n = fscanf(f, "host %63s boot %63s generation %llu catch_up %d", host,
		   boot, &gen, &owed);
	fclose(f);
	if (n < 3 || uuid_parse(host, c->host) || uuid_parse(boot, c->boot)) {
		famfs_warn("%s: not a famfs claim file; ignored", p);
		memset(c, 0, sizeof(*c));
		return 0;
	}
	c->generation = gen;
	c->catch_up = n == 4 && owed;
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
	if (dprintf(fd, "host %s\nboot %s\ngeneration %llu\n%s", host, boot,
		    (unsigned long long)c->generation,
		    c->catch_up ? "catch_up 1\n" : "") < 0 || fsync(fd) ||
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

const struct famfs_master_record *famfs_mrec_refresh(struct famfs_fs *fs)
{
	struct famfs_master_record *r = famfs_mrec_at(fs->sbm.addr);

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
