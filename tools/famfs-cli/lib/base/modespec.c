// SPDX-License-Identifier: GPL-2.0
/* chmod's MODE (famfs chmod): declared, not implemented yet. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <string.h>

#include "base/base.h"

int famfs_mode_parse(const char *s, struct famfs_modespec *m, char *reason)
{
	(void)s, (void)reason;
	memset(m, 0, sizeof(*m));
	return -ENOSYS;
}

uint32_t famfs_mode_apply(const struct famfs_modespec *m, uint32_t old,
			  bool dir)
{
	(void)m, (void)dir;
	return old;
}
