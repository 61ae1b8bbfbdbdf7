// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching a file system's members to its mount (issue 16): every device
 * the log added (fs->devs) that famfs.ko does not have yet is found on this
 * host by its member superblock (device uuid, never its name) and handed
 * over with FAMFSIOC_DEV_ADD (kernel.c) -- by famfs mount before the
 * replay, by logplay when it meets a DEVADD, by the master's append that
 * commits one (R4).  A member famfs.ko has is compared with the log's
 * (famfs_fs_member_here): famfs.ko keeps a member until the unmount.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/log.h"

/* The log's members (index, device uuid) into all[]: their count, or
 * -errno (printed) */
static int log_members_all(struct famfs_fs *fs, struct famfs_member_want *all)
{
	int n = 0, rc = famfs_fs_devs_update(fs);

	if (rc)
		return rc;
	for (unsigned i = 1; i < fs->devs.ndevs; i++) {
		const struct famfs_logdev *d = famfs_logdevs_get(&fs->devs, i);

		if (!d)
			continue;
		all[n].index = i;
		memcpy(all[n++].dev_uuid, d->dev_uuid, 16);
	}
	return n;
}

/* t->dev[] already holds a device with o's device uuid */
static bool uuid_listed(const struct famfs_devtab *t,
			const struct famfs_found_dev *o)
{
	for (unsigned j = 1; j < FAMFS_MAX_DEVS; j++)
		if (t->dev[j].present && !memcmp(t->dev[j].dev_uuid, o->dev_uuid, 16))
			return true;
	return false;
}

int famfs_fs_devtab(struct famfs_fs *fs, const char *const *hints, int nhints,
		    struct famfs_devtab *t)
{
	struct famfs_member_want all[FAMFS_MAX_DEVS];
	bool used[FAMFS_MAX_DEVS] = { true };
	int nall = log_members_all(fs, all), n = 0, rc;

	if (nall < 0)
		return nall;
	/* by the log's device uuids: an orphan member superblock (a devadd
	 * that crashed before its entry) may carry a member's index */
	rc = famfs_devtab_find(fs->sb->fs_uuid, hints, nhints, all, nall, t);
	if (rc)
		return rc;
	for (int k = 0; k < nall; k++)
		used[all[k].index] = true;
	for (int k = 0; k < t->norphans; k++) {
		uint32_t i = t->orphan_index[k];	/* 1.. (member_check) */
		int same = 0;

		if (used[i]) {
			t->orphan[n] = t->orphan[k];
			t->orphan_index[n++] = i;
			continue;
		}
		for (int j = 0; j < t->norphans; j++)
			same += t->orphan_index[j] == i;
		/* two claim an index the log does not use, or a device uuid
		 * twice (a copied device?) */
		if (same > 1 || uuid_listed(t, &t->orphan[k]))
			return -ENOTUNIQ;
		t->dev[i] = t->orphan[k];
		t->nfound++;
	}
	t->norphans = n;
	return 0;
}

/* The log's members into all[] (index, device uuid), those famfs.ko does
 * not have yet into want[]: their counts; 0, -ESTALE if famfs.ko has
 * another device than the log's at an index, -EIO if it reports one
 * failed (famfs_fs_member_here: said, no file is created on it), or
 * -errno (printed) */
static int log_members(struct famfs_fs *fs, struct famfs_member_want *all,
		       int *nall, struct famfs_member_want *want, int *nwant)
{
	int rc, wrong = 0;

	*nwant = 0;
	*nall = log_members_all(fs, all);
	if (*nall < 0)
		return *nall;
	for (int k = 0; k < *nall; k++) {
		unsigned i = all[k].index;

		rc = famfs_fs_member_here(fs, i);
		if (rc == -ESTALE || rc == -EIO) {
			/* attached: another device, or failed (said) */
			if (!wrong)
				wrong = rc;
		} else if (rc < 0) {
			famfs_err("%s: cannot ask famfs.ko about member %u: %s",
				  fs->mpt, i, strerror(-rc));
			return rc;
		}
		if (!rc)
			want[(*nwant)++] = all[k];
	}
	return wrong;
}

int famfs_fs_members_missing(struct famfs_fs *fs)
{
	struct famfs_member_want all[FAMFS_MAX_DEVS], want[FAMFS_MAX_DEVS];
	int nall, n, rc;

	rc = log_members(fs, all, &nall, want, &n);
	return rc && rc != -ESTALE && rc != -EIO ? rc : n;
}

int famfs_fs_attach_members(struct famfs_fs *fs, const char *const *hints,
			    int nhints)
{
	struct famfs_member_want all[FAMFS_MAX_DEVS], want[FAMFS_MAX_DEVS];
	struct famfs_devtab *t;
	int nall, n, rc, missing, wrong;

	wrong = rc = log_members(fs, all, &nall, want, &n);
	if (rc == -ESTALE || rc == -EIO)
		rc = 0;		/* the others are attached all the same */
	if (rc || !n)
		return rc ? rc : wrong;
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	rc = famfs_devtab_find(fs->sb->fs_uuid, hints, nhints, all, nall, t);
	if (rc) {
		free(t);
		return rc;
	}
	/* the members found are attached even if another one is missing:
	 * a replay can then map the files on them */
	missing = famfs_devtab_require(t, want, n);
	for (int k = 0; k < n; k++) {
		struct famfs_logdev *d = &fs->devs.dev[want[k].index];
		const struct famfs_found_dev *f = &t->dev[want[k].index];
		int r;

		if (!f->present || memcmp(f->dev_uuid, want[k].dev_uuid, 16))
			continue;
		if (f->size < d->size) {
			famfs_err("%s: member %u is %llu bytes by its superblock, but the log added it with %llu",
				  f->path, want[k].index,
				  (unsigned long long)f->size,
				  (unsigned long long)d->size);
			r = -EINVAL;
		} else {
			r = famfs_mount_dev_add(fs->mpt, f->path,
						want[k].index, d->size);
		}
		if (r) {
			rc = rc ? rc : r;
			continue;
		}
		snprintf(d->path, sizeof(d->path), "%s", f->path);
		if (famfs_verbose)
			printf("%s: member %u is %s\n", fs->mpt, want[k].index,
			       f->path);
	}
	free(t);
	return rc ? rc : missing ? missing : wrong;
}
