/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the member attach tests (test_attach.c, test_attach_member.c,
 * test_attach_follow.c): device uuids, a member's size, and th_attach.c's
 * fixture. */
#ifndef TH_ATTACH_H
#define TH_ATTACH_H

#include "th.h"

static const uint8_t U1[16] = { 0xd1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
static const uint8_t U2[16] = { 0xd2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 };
static const uint8_t U9[16] = { 0xd9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 };
#define MSIZE (32 * MiB)

struct ax {
	struct th *t;
	char devs[320];		/* the scan root: this host's "devices" */
};

/* the fixture: a file system with members (FAMFS_FEATURE_INCOMPAT_MULTIDEV)
 * whose scan root (famfs_scan_root) is x->devs; a struct ax in *state */
int th_ax_setup(void **state);
int th_ax_teardown(void **state);
/* a member superblock of this fs (device uuid u, index, MSIZE) on the
 * plain file devs/name */
void th_member_file(struct ax *x, const char *name, const uint8_t *u,
		    uint32_t index);
/* is member index attached (the mock's DEV_ADD), and to devs/name? */
bool th_attached_to(struct ax *x, unsigned index, const char *name);
/* a DEVADD of index, device uuid u, MSIZE appended to fs's log */
void th_log_devadd(struct famfs_fs *fs, uint32_t index, const uint8_t *u);

#endif
