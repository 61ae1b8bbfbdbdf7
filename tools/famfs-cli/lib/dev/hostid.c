// SPDX-License-Identifier: GPL-2.0
/* This host's persistent id, compared with the superblock's master uuid:
 * random, created on first use, never derived from /etc/machine-id; and
 * this boot's id (the master record names the instance by both). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "dev/dev.h"

#define HOST_ID_DIR	"/etc/famfs"
#define HOST_ID_FILE	HOST_ID_DIR "/host-uuid"
#define BOOT_ID_FILE	"/proc/sys/kernel/random/boot_id"

int famfs_read_id(const char *path, uint8_t uuid[16])
{
	char buf[80], hex[33];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EINVAL;
	}
	fclose(f);
	buf[strcspn(buf, " \r\n")] = '\0';
	if (!uuid_parse(buf, uuid))
		return 0;
	/* machine-id style: 32 hex digits */
	n = strlen(buf);
	if (n != 32 || strspn(buf, "0123456789abcdefABCDEF") != 32)
		return -EINVAL;
	memcpy(hex, buf, 33);
	for (int i = 0; i < 16; i++) {
		unsigned v;

		sscanf(hex + 2 * i, "%2x", &v);
		uuid[i] = (uint8_t)v;
	}
	return 0;
}

static int create_id(const char *path, uint8_t uuid[16])
{
	char s[37], tmp[4200];
	int fd;

	uuid_generate(uuid);
	uuid_unparse_lower(uuid, s);
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (dprintf(fd, "%s\n", s) < 0 || fsync(fd)) {
		close(fd);
		unlink(tmp);
		return -EIO;
	}
	close(fd);
	/* link() fails if another process won the race: use its id */
	if (link(tmp, path)) {
		int rc = -errno;

		unlink(tmp);
		return rc == -EEXIST ? famfs_read_id(path, uuid) : rc;
	}
	unlink(tmp);
	return 0;
}

int famfs_host_id(uint8_t uuid[16])
{
	const char *env = getenv("FAMFS_HOST_ID_FILE");
	int rc;

	if (env && *env) {
		rc = famfs_read_id(env, uuid);
		if (rc == -ENOENT)
			rc = create_id(env, uuid);
		if (rc)
			famfs_err("%s (FAMFS_HOST_ID_FILE): cannot read or create a host id: %s",
				  env, strerror(-rc));
		return rc;
	}
	rc = famfs_read_id(HOST_ID_FILE, uuid);
	if (rc == -ENOENT) {
		mkdir(HOST_ID_DIR, 0755);
		rc = create_id(HOST_ID_FILE, uuid);
	}
	/* never /etc/machine-id: cloned images share it (issue 15.2) */
	if (rc)
		famfs_err("%s: cannot read or create this host's id: %s",
			  HOST_ID_FILE, strerror(-rc));
	return rc;
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
