// SPDX-License-Identifier: GPL-2.0
/*
 * famfs devices: the devices of a file system found on this host, by uuid
 * (issue 16).  A debugging command: it shows what the discovery of
 * lib/dev/member.c (which mount and logplay use) finds, and "label" writes a
 * member superblock so that guests can test the discovery alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>

#include "famfs.h"

const struct cli_doc cli_doc_devices = {
	.page = "famfs-devices", .prog = "famfs devices",
	.summary = "find the devices of a file system on this host (debugging)",
	.synopsis = { "famfs devices [-d DEVICE]... [-e INDEX:DEV-UUID]... FS-UUID|PRIMARY",
		      "famfs devices label -i INDEX [-u DEV-UUID] [-f] PRIMARY DEVICE" },
	.description =
		"A file system may span several memory devices: the primary (the\n"
		"superblock and the log, index 0) and members (index 1 to 15), each\n"
		"with a member superblock at its offset 0 naming the file system uuid,\n"
		"its own device uuid and its index.  Device names differ between\n"
		"hosts (/dev/pmem0 on one may be /dev/pmem1 on another), so a host\n"
		"finds the devices by what they hold: it reads the start of every\n"
		"/dev/pmemN, /dev/pmemN.M and /dev/daxX.Y (the -d hints first),\n"
		"bypassing its caches, never opening one exclusively (a mounted\n"
		"device is read too), and keeps those of the file system.  (The\n"
		"primary's log, which tells members from orphans, is read as famfs\n"
		"df reads it: through its mount, else by an exclusive open.)  Two\n"
		"devices that claim the same index or the same device uuid are an\n"
		"error: nothing is guessed -- except that, as mount does, a member\n"
		"superblock whose device uuid the log does not name, at an index\n"
		"the log gives to another device (a famfs devadd that crashed\n"
		"before its log entry), is no member: it is listed as an orphan.\n"
		"\n"
		"famfs devices FS-UUID|PRIMARY lists the devices of the file system\n"
		"FS-UUID (or the one whose superblock is on PRIMARY) found on this\n"
		"host, one line each:\n"
		"  index 0 primary /dev/pmem1 size 1073741824\n"
		"  index 1 member /dev/pmem0 size 1073741824 dev-uuid 5f0c...\n"
		"  orphan /dev/pmem2 index 1 size 1073741824 dev-uuid 9a1e...: not a member ...\n"
		"Each -e INDEX:DEV-UUID names a member that must be found; one that is\n"
		"not is reported by its device uuid.\n"
		"\n"
		"famfs devices label writes the member superblock of member INDEX of\n"
		"the file system on PRIMARY to DEVICE (device uuid DEV-UUID, random by\n"
		"default; printed) and zeroes the rest of its first 2 MiB.  This is a\n"
		"debugging aid: the file system's log does not record the member, and\n"
		"no file uses it.  It writes for the file system, so only the master\n"
		"instance may (a client, or a clone of the master that does not hold\n"
		"the role, is refused, as an append is; see famfs-master(8)).  Without\n"
		"-f, DEVICE must hold no famfs superblock or member superblock and\n"
		"nothing else libblkid recognizes (a file system, RAID or LVM member,\n"
		"swap, a partition table: famfs mkfs's rule), and the identity must\n"
		"not be a live member's: not the INDEX or DEV-UUID of a member the log\n"
		"added, of a member attached to PRIMARY's mount, or of a member\n"
		"superblock on another device of this host (two devices with one\n"
		"identity are refused by every mount).\n",
	.opts = (const struct cli_opt[]){
		{ 'd', "device", "DEVICE",
		  "read DEVICE first (repeatable): a device outside\n"
		  "/dev/pmemN[.M] and /dev/daxX.Y" },
		{ 'e', "expect", "INDEX:DEV-UUID",
		  "member INDEX must be found with device uuid DEV-UUID\n"
		  "(repeatable)" },
		{ 'i', "index", "INDEX", "label: the member index, 1..15" },
		{ 'u', "uuid", "DEV-UUID", "label: the member's device uuid (default random)" },
		{ 'f', "force", NULL, "label: overwrite whatever DEVICE holds, and give\n"
				      "it a live member's index or device uuid" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ FAMFS_EXIT_OK, "success: every device found (and every -e member)" },
		CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("PRIMARY or DEVICE cannot be read or written or\n"
			       "holds no valid superblock, two devices claim the\n"
			       "same index or device uuid, or label refused:\n"
			       "this host is not the master instance, DEVICE\n"
			       "holds a superblock or another signature, or the\n"
			       "identity is a live member's"),
		{ FAMFS_EXIT_PROBLEM, "an -e member is missing, or a device of this file\n"
				      "system holds a damaged or stale superblock" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mkfs(8), famfs-mount(8)",
};

#define MAX_HINTS 64

/* the superblock on path, checked: its fs uuid and ctime */
static int read_primary(const char *path, struct famfs_superblock *sb)
{
	char why[FAMFS_REASON_LEN];
	uint64_t size;
	int rc = famfs_dev_read_head(path, sb, sizeof(*sb), &size);

	if (rc) {
		famfs_err("%s: cannot read: %s", path, strerror(-rc));
		return rc;
	}
	rc = famfs_sb_check(sb, size, why);
	if (rc)
		famfs_err("%s: not the primary device of a famfs file system: %s",
			  path, why);
	return rc;
}

static int parse_expect(const char *arg, struct famfs_member_want *w)
{
	char *end;
	unsigned long i = strtoul(arg, &end, 10);

	if (end == arg || *end != ':' || i < 1 || i >= FAMFS_MAX_DEVS ||
	    uuid_parse(end + 1, w->dev_uuid)) {
		famfs_err("--expect %s: want INDEX:DEV-UUID, INDEX 1..%u",
			  arg, FAMFS_MAX_DEVS - 1);
		return -EINVAL;
	}
	w->index = (uint32_t)i;
	return 0;
}

/* t for the file system of the primary on path: famfs_fs_devtab, its log
 * read through the mount when the primary is mounted; -EAGAIN when it
 * cannot be opened */
static int by_log(const char *primary, const char **hints, int nhints,
		  struct famfs_devtab *t)
{
	struct famfs_fs fs;
	char mpt[4096];
	int rc;

	if (cli_open_target(primary, &fs, mpt, sizeof(mpt)))
		return -EAGAIN;
	rc = famfs_fs_devtab(&fs, hints, nhints, t);
	famfs_fs_close(&fs);
	return rc;
}

static int list(const char *target, const char **hints, int nhints,
		const struct famfs_member_want *want, int nwant)
{
	struct famfs_superblock sb;
	struct famfs_devtab *t;
	char primary[4096] = "";
	uint8_t fsu[16];
	char u[37];
	int rc, ret = FAMFS_EXIT_OK;

	if (uuid_parse(target, fsu)) {
		if (read_primary(target, &sb))
			return FAMFS_EXIT_ERROR;
		memcpy(fsu, sb.fs_uuid, 16);
		hints[nhints++] = target;	/* room kept by the caller */
		snprintf(primary, sizeof(primary), "%s", target);
	}
	t = malloc(sizeof(*t));
	if (!t) {
		famfs_err("devices: out of memory");
		return FAMFS_EXIT_ERROR;
	}
	if (!primary[0]) {
		/* the primary first (no member taken): its log judges them */
		rc = famfs_devtab_find(fsu, hints, nhints, want, 0, t);
		if (!rc && t->dev[0].present)
			snprintf(primary, sizeof(primary), "%s", t->dev[0].path);
	}
	rc = primary[0] ? by_log(primary, hints, nhints, t) : -EAGAIN;
	if (rc == -EAGAIN || rc == -ENOTUNIQ) {
		if (primary[0] && rc == -EAGAIN)
			famfs_warn("%s: its log cannot be read (see above): every member superblock found is listed, orphans of an interrupted devadd are not told apart",
				   primary);
		rc = famfs_devtab_scan(fsu, hints, nhints, t);
	}
	famfs_uuid_str(fsu, u);
	printf("file system %s: %d device(s) found on this host\n", u, t->nfound);
	for (int i = 0; i < FAMFS_MAX_DEVS; i++) {
		const struct famfs_found_dev *d = &t->dev[i];

		if (!d->present)
			continue;
		printf("index %d %s %s size %llu", i, i ? "member" : "primary",
		       d->path, (unsigned long long)d->size);
		if (i) {
			famfs_uuid_str(d->dev_uuid, u);
			printf(" dev-uuid %s", u);
		}
		printf("\n");
	}
	for (int k = 0; k < t->norphans; k++) {
		famfs_uuid_str(t->orphan[k].dev_uuid, u);
		printf("orphan %s index %u size %llu dev-uuid %s: not a member (its log does not name this device uuid: an interrupted famfs devadd)\n",
		       t->orphan[k].path, t->orphan_index[k],
		       (unsigned long long)t->orphan[k].size, u);
	}
	if (rc)
		ret = FAMFS_EXIT_ERROR;
	else if (famfs_devtab_require(t, want, nwant) || t->ndamaged)
		ret = FAMFS_EXIT_PROBLEM;
	free(t);
	return ret;
}

static int label(const char *primary, const char *dev, uint32_t index,
		 const uint8_t *dev_uuid, bool force)
{
	struct famfs_fs fs;
	char mpt[4096];
	uint8_t du[16];
	char u[37];
	int rc;

	if (cli_open_target(primary, &fs, mpt, sizeof(mpt)))
		return FAMFS_EXIT_ERROR;
	if (!*mpt && fs.dev.fd >= 0 && !fs.sbm.rw) {
		/* unmounted, opened read-only: writable, so that the master
		 * check can claim a free master record (as famfs tune) */
		famfs_fs_close(&fs);
		if (famfs_fs_open_dev(primary, true, &fs))
			return FAMFS_EXIT_ERROR;
	}
	rc = famfs_member_label(&fs, primary, dev, index, dev_uuid, force, du);
	if (!rc) {
		famfs_uuid_str(du, u);
		printf("%s: member %u, dev-uuid %s", dev, index, u);
		famfs_uuid_str(fs.sb->fs_uuid, u);
		printf(", of file system %s\n", u);
	}
	famfs_fs_close(&fs);
	return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
}

int cmd_devices(int argc, char **argv)
{
	const char *hints[MAX_HINTS + 1];
	struct famfs_member_want want[FAMFS_MAX_DEVS];
	uint8_t du[16];
	bool force = false, have_u = false, is_label;
	unsigned long idx = 0;
	char *end;
	int c, nhints = 0, nwant = 0;

	if (getenv("FAMFS_SCAN_ROOT"))
		famfs_scan_root = getenv("FAMFS_SCAN_ROOT");

	while ((c = cli_getopt(argc, argv, &cli_doc_devices)) != -1) {
		switch (c) {
		case 'd':
			if (nhints == MAX_HINTS) {
				famfs_err("devices: at most %d -d hints", MAX_HINTS);
				return FAMFS_EXIT_USAGE;
			}
			hints[nhints++] = optarg;
			break;
		case 'e':
			if (nwant == FAMFS_MAX_DEVS) {
				famfs_err("devices: at most %d -e", FAMFS_MAX_DEVS);
				return FAMFS_EXIT_USAGE;
			}
			if (parse_expect(optarg, &want[nwant++]))
				return FAMFS_EXIT_USAGE;
			break;
		case 'i':
			idx = strtoul(optarg, &end, 10);
			if (end == optarg || *end || idx < 1 || idx >= FAMFS_MAX_DEVS) {
				famfs_err("--index %s: want 1..%u", optarg, FAMFS_MAX_DEVS - 1);
				return FAMFS_EXIT_USAGE;
			}
			break;
		case 'u':
			if (uuid_parse(optarg, du) || uuid_is_null(du)) {
				famfs_err("--uuid %s: not a uuid, or the nil uuid", optarg);
				return FAMFS_EXIT_USAGE;
			}
			have_u = true;
			break;
		case 'f': force = true; break;
		case 'h': return cli_usage(&cli_doc_devices, 0);
		default: return cli_usage(&cli_doc_devices, 1);
		}
	}
	is_label = optind < argc && !strcmp(argv[optind], "label");
	if (is_label) {
		optind++;
		if (argc - optind != 2 || !idx || nhints || nwant) {
			famfs_err("devices label: want -i INDEX PRIMARY DEVICE (no -d, -e)");
			return FAMFS_EXIT_USAGE;
		}
		return label(argv[optind], argv[optind + 1], (uint32_t)idx,
			     have_u ? du : NULL, force);
	}
	if (argc - optind != 1 || idx || have_u || force) {
		famfs_err("devices: want FS-UUID|PRIMARY (-i, -u, -f are for label)");
		return FAMFS_EXIT_USAGE;
	}
	return list(argv[optind], hints, nhints, want, nwant);
}
