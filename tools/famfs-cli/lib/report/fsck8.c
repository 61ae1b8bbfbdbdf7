// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.famfs speaks fsck(8)'s conventions: its mode options (-n, -y, -a/-p)
 * and its exit codes, a bit mask that fsck(8) ORs over the file systems it
 * checked.  famfs fsck only checks: the repair modes check too, and what
 * they find is left uncorrected (exit 4).
 */
#include <errno.h>
#include <stdio.h>

#include "report/report.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

int famfs_fsck8_opt(struct famfs_fsck8 *o, int c, char *reason)
{
	enum famfs_fsck8_mode m;

	switch (c) {
	case 'n': m = FAMFS_FSCK8_NO; break;
	case 'y': m = FAMFS_FSCK8_YES; break;
	case 'a': case 'p': m = FAMFS_FSCK8_AUTO; break;
	case 'f': o->force = true; return 0;
	case 'v': o->verbose++; return 0;
	default:
		REASON("-%c: not an option of fsck.famfs", c);
		return -EINVAL;
	}
	/* e2fsck's rule: only one of -n, -y and -a/-p (-a and -p are one) */
	if (o->mode != FAMFS_FSCK8_CHECK && o->mode != m) {
		REASON("-%c and -%c: only one of -n, -y, -a/-p may be given",
		       o->mode_opt, c);
		return -EINVAL;
	}
	o->mode = m;
	o->mode_opt = (char)c;
	return 0;
}

int famfs_fsck8_exit(int famfs_exit)
{
	switch (famfs_exit) {
	case FAMFS_EXIT_OK: return FSCK_EX_OK;
	case FAMFS_EXIT_PROBLEM: return FSCK_EX_UNCORRECTED;
	case FAMFS_EXIT_USAGE: return FSCK_EX_USAGE;
	default: return FSCK_EX_ERROR;
	}
}
