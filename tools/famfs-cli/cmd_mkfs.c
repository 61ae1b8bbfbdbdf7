// SPDX-License-Identifier: GPL-2.0
/* famfs mkfs: write a superblock and an empty log. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <uuid/uuid.h>

#include "famfs.h"

const struct cli_doc cli_doc_mkfs = {
	.page = "famfs-mkfs", .prog = "famfs mkfs",
	.summary = "create a famfs file system on a memory device",
	.synopsis = { "famfs mkfs [-f] [-k] [-l|--loglen N] [--log-format FMT] [--noncoherent] DEV [MEMBER...]" },
	.description =
		"Create a famfs file system on DEV (/dev/pmemN, /dev/daxX.Y or a file).\n"
		"This host becomes the master: the only host that can create files\n"
		"(famfs-master(8); it claims the role when it mounts).\n"
		"DEV must hold at least 2 MiB (superblock) + the log + 2 MiB of data.\n"
		"\n"
		"Nothing is overwritten without -f: neither an existing famfs file\n"
		"system nor anything libblkid recognizes (another file system, a RAID\n"
		"or LVM member, swap, a partition table), as mkfs.xfs and mkfs.ext4\n"
		"refuse; the message names what is there.  -k destroys a famfs\n"
		"superblock, but not another file system without -f.  With -f over a\n"
		"famfs file system whose master is another host, a warning says so:\n"
		"if that host still has it mounted, its files and the new ones will\n"
		"share memory.  The data area is not cleared: every new file is zeroed\n"
		"when it is created (famfs mkfile).\n"
		"\n"
		"Several devices: each MEMBER (/dev/pmemN or /dev/daxX.Y) becomes\n"
		"member 1, 2, ... of the file system: it gets a member superblock (fs\n"
		"uuid, its own device uuid, index, size) and the log records it (a\n"
		"device entry), so that every host finds it by uuid, whatever its name\n"
		"there.  The same rules as for DEV apply to each MEMBER (-f); a MEMBER\n"
		"that is DEV, is given twice, or is smaller than 4 MiB is refused.\n"
		"Members need the compact log (not --log-format=v1).  famfs devadd\n"
		"adds one later, online.\n",
	.opts = (const struct cli_opt[]){
		{ 'f', "force", NULL, "overwrite an existing famfs file system, or\n"
		  "whatever else DEV holds" },
		{ 'k', "kill", NULL, "destroy the famfs superblock (and log header) of DEV" },
		{ 'l', "loglen", "N",
		  "log size: a power of two from 2M to 1G, default 8M\n"
		  "(k/m/g suffixes)" },
		{ 0, "noncoherent", NULL,
		  "the memory is not cache-coherent between hosts:\n"
		  "record it in the superblock, so that every host's\n"
		  "famfs mount passes noncoherent to famfs.ko (see\n"
		  "famfs-tune(8) to change it later)" },
		{ 0, "log-format", "FMT",
		  "compact (the default): 256-byte slots, a small\n"
		  "file's entry takes one (an 8M log holds 32764),\n"
		  "long paths or many extents up to four; tools that\n"
		  "predate it refuse the file system.  v1: every\n"
		  "entry takes 1 KiB (an 8M log holds 8191), readable\n"
		  "by every famfs tool" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("DEV or a MEMBER cannot be opened or written, is\n"
			       "too small, or already holds famfs (a file\n"
			       "system or a member) or another known signature\n"
			       "(without -f); a MEMBER is DEV or given twice"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mount(8), famfs-fsck(8)",
};

static int zero_and_flush(struct famfs_map *m, uint64_t len)
{
	memset(m->addr, 0, len);
	return famfs_map_flush(m, m->addr, len);
}

#define OPT_NONCOHERENT	(256 + 3)	/* cli_getopt: 256 + index of a long-only option */
#define OPT_LOG_FORMAT	(256 + 4)

/*
 * What DEV holds besides famfs: refused without force (naming it), said
 * with force.  And a famfs whose master is another host: said with force
 * (without it, the famfs check below refuses anyway).
 */
static int check_other(struct famfs_dev *d, const struct famfs_superblock *sb,
		       bool force)
{
	char what[256], us[37], ms[37], hs[37];
	uint8_t host[16];
	int rc;

	rc = famfs_dev_probe(d, what, sizeof(what));
	if (rc < 0)
		return rc;
	if (rc > 0 && !force) {
		famfs_err("%s: holds %s, which famfs mkfs would destroy; use -f to overwrite it",
			  d->path, what);
		return -EEXIST;
	}
	if (rc > 0)
		famfs_warn("%s: overwriting %s (-f)", d->path, what);
	if (force && famfs_sb_is_famfs(sb)) {
		int q = famfs_quiet;

		famfs_quiet = 1;
		rc = famfs_host_id(host);
		famfs_quiet = q;
		if (rc || memcmp(host, sb->master_uuid, 16)) {
			famfs_uuid_str(sb->fs_uuid, us);
			famfs_uuid_str(sb->master_uuid, ms);
			if (rc)
				snprintf(hs, sizeof(hs), "unknown");
			else
				famfs_uuid_str(host, hs);
			famfs_warn("%s: overwriting famfs file system %s, whose master is another host (master uuid %s, this host %s): if that host still has it mounted, its files and the new ones will share memory",
				   d->path, us, ms, hs);
		}
	}
	return 0;
}

/* The members: vetted before anything is written, then their superblocks
 * and their DEVADD entries (slots 0.., next_index after them), before the
 * primary's superblock makes the file system valid. */
struct mkfs_members {
	const char *const *path;
	int n;
	uint64_t size[FAMFS_MAX_DEVS];
};

static int vet_members(const char *primary, struct mkfs_members *mm, bool force)
{
	if (mm->n > FAMFS_MAX_DEVS - 1) {
		famfs_err("%d members: at most %d", mm->n, FAMFS_MAX_DEVS - 1);
		return -E2BIG;
	}
	for (int i = 0; i < mm->n; i++) {
		for (int j = 0; j < i; j++)
			if (famfs_same_device(mm->path[i], mm->path[j])) {
				famfs_err("%s: given twice as a member (also as %s)",
					  mm->path[i], mm->path[j]);
				return -EINVAL;
			}
		if (famfs_member_vet(mm->path[i], primary, force, &mm->size[i]))
			return -EINVAL;
	}
	return 0;
}

static int write_members(const struct famfs_superblock *sb,
			 const struct mkfs_members *mm, void *log)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY], u[16];
	struct famfs_log_header *h = log;
	struct famfs_log_entry e;
	char us[37];

	for (int i = 0; i < mm->n; i++) {
		uint32_t index = (uint32_t)i + 1;

		if (famfs_member_make(mm->path[i], sb, index, mm->size[i], u))
			return -EIO;
		famfs_entry_build_devadd(&e, index, u, mm->size[i]);
		if (famfs_clog_encode(&e, (uint64_t)i, sb->fs_uuid, buf, NULL) != 1)
			return -EINVAL;
		memcpy((uint8_t *)log + FAMFS_LOG_HDR_SIZE + i * FAMFS_CLOG_SLOT,
		       buf, FAMFS_CLOG_SLOT);
		famfs_uuid_str(u, us);
		printf("famfs mkfs: member %u: %s, %llu bytes, device uuid %s\n",
		       index, mm->path[i], (unsigned long long)mm->size[i], us);
	}
	h->next_index = htole64((uint64_t)mm->n);
	return 0;
}

static int do_mkfs(struct famfs_dev *d, const struct mkfs_members *mm,
		   uint64_t loglen, bool force, bool kill, bool noncoherent,
		   bool compact)
{
	struct famfs_superblock nsb;
	struct famfs_map sbm, logm;
	struct famfs_superblock *sb;
	uint8_t fs_uuid[16], host[16];
	char us[37], hs[37];
	uint64_t size = d->size & ~(FAMFS_ALLOC_UNIT - 1);
	int rc;

	rc = famfs_dev_map(d, 0, FAMFS_SB_REGION_LEN, &sbm);
	if (rc)
		return rc;
	sb = sbm.addr;
	rc = check_other(d, sb, force);
	if (rc)
		goto out;
	if (kill) {
		uint64_t llen = famfs_sb_is_famfs(sb) ? le64toh(sb->log_len) : 0;

		rc = zero_and_flush(&sbm, 4096);
		if (!rc && famfs_loglen_valid(llen) &&
		    !famfs_dev_map(d, FAMFS_LOG_OFFSET, FAMFS_ALLOC_UNIT, &logm)) {
			rc = zero_and_flush(&logm, 4096);
			famfs_map_unmap(&logm);
		}
		if (!rc)
			printf("famfs mkfs: %s: superblock destroyed\n", d->path);
		goto out;
	}
	if (famfs_sb_is_famfs(sb) && !force) {
		famfs_uuid_str(sb->fs_uuid, us);
		famfs_err("%s: already holds a famfs file system (uuid %s); use -f to overwrite it",
			  d->path, us);
		rc = -EEXIST;
		goto out;
	}
	if (size < FAMFS_MIN_DEV_SIZE(loglen)) {
		famfs_err("%s: device too small: %llu bytes, need at least %llu for a %llu-byte log",
			  d->path, (unsigned long long)d->size,
			  (unsigned long long)FAMFS_MIN_DEV_SIZE(loglen),
			  (unsigned long long)loglen);
		rc = -ENOSPC;
		goto out;
	}
	rc = famfs_host_id(host);
	if (rc)
		goto out;
	/* 1. no valid superblock while the log is rewritten, the master
	 * record (after it) never claimed; and the whole superblock region
	 * zeroed: no other file system's signature (btrfs at 64 KiB,
	 * iso9660 at 32 KiB...) is left for blkid to find */
	rc = zero_and_flush(&sbm, FAMFS_SB_REGION_LEN);
	if (rc)
		goto out;
	/* 2. the log header (and the first entries, for tidiness); the
	 * members' superblocks and DEVADD entries */
	uuid_generate(fs_uuid);
	famfs_sb_init(&nsb, fs_uuid, host, size, loglen);
	rc = famfs_dev_map(d, FAMFS_LOG_OFFSET, FAMFS_ALLOC_UNIT, &logm);
	if (rc)
		goto out;
	memset(logm.addr, 0, FAMFS_ALLOC_UNIT);
	famfs_log_hdr_init_fmt(logm.addr, fs_uuid, loglen, compact);
	rc = write_members(&nsb, mm, logm.addr);
	if (!rc)
		rc = famfs_map_flush(&logm, logm.addr, FAMFS_ALLOC_UNIT);
	famfs_map_unmap(&logm);
	if (rc)
		goto out;
	/* 3. the superblock last */
	memcpy(sb, &nsb, sizeof(nsb));
	/* checked before every append (famfs-master(8)) */
	sb->feature_ro_compat = htole32(FAMFS_FEATURE_RO_COMPAT_MASTER_REC);
	famfs_sb_set_crc(sb);
	sb->feature_incompat = htole32((noncoherent ?
					FAMFS_FEATURE_INCOMPAT_NONCOHERENT : 0) |
				       (compact ?
					FAMFS_FEATURE_INCOMPAT_COMPACT_LOG : 0) |
				       (mm->n ?
					FAMFS_FEATURE_INCOMPAT_MULTIDEV : 0));
	famfs_sb_set_crc(sb);
	rc = famfs_map_flush(&sbm, sb, 4096);
	if (rc)
		goto out;
	famfs_uuid_str(fs_uuid, us);
	famfs_uuid_str(host, hs);
	printf("famfs mkfs: %s: %llu bytes, log %llu bytes (%llu %s), data %llu bytes\n"
	       "famfs mkfs: fs uuid %s, master uuid %s%s\n",
	       d->path, (unsigned long long)size, (unsigned long long)loglen,
	       (unsigned long long)famfs_log_capacity_of(loglen, compact),
	       compact ? "slots of 256 bytes, compact: one per small file" :
	       "entries",
	       (unsigned long long)(size - FAMFS_LOG_OFFSET - loglen), us, hs,
	       noncoherent ? "\nfamfs mkfs: memory not cache-coherent (mounts use -o noncoherent)" : "");
out:
	famfs_map_unmap(&sbm);
	return rc;
}

int cli_loglen_opt(const char *arg, uint64_t *loglen)
{
	if (famfs_parse_size(arg, loglen) || !famfs_loglen_valid(*loglen)) {
		famfs_err("--loglen %s: must be a power of two from 2M to 1G", arg);
		return FAMFS_EXIT_USAGE;
	}
	return FAMFS_EXIT_OK;
}

int cli_log_format_opt(const char *arg, bool *compact)
{
	if (!strcmp(arg, "compact"))
		*compact = true;
	else if (!strcmp(arg, "v1"))
		*compact = false;
	else {
		famfs_err("--log-format %s: must be compact or v1", arg);
		return FAMFS_EXIT_USAGE;
	}
	return FAMFS_EXIT_OK;
}

int cli_mkfs_run(const char *dev, const char *const *members, int nmembers,
		 uint64_t loglen, bool force, bool kill, bool noncoherent,
		 bool compact)
{
	struct mkfs_members mm = { members, nmembers, { 0 } };
	struct famfs_dev d;
	int rc;

	if (nmembers && (kill || !compact)) {
		famfs_err("%s: members need the compact log (not --log-format=v1: only compact entries name a device), and -k takes no members",
			  dev);
		return FAMFS_EXIT_USAGE;
	}
	if (vet_members(dev, &mm, force))
		return FAMFS_EXIT_ERROR;
	rc = famfs_dev_open(dev, true, &d);
	if (rc)
		return FAMFS_EXIT_ERROR;
	rc = do_mkfs(&d, &mm, loglen, force, kill, noncoherent, compact);
	famfs_dev_close(&d);
	return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
}

int cmd_mkfs(int argc, char **argv)
{
	uint64_t loglen = FAMFS_LOG_LEN_DEFAULT;
	bool force = false, kill = false, noncoherent = false, compact = true;
	int c;

	while ((c = cli_getopt(argc, argv, &cli_doc_mkfs)) != -1) {
		switch (c) {
		case 'f': force = true; break;
		case 'k': kill = true; break;
		case 'l':
			if (cli_loglen_opt(optarg, &loglen))
				return FAMFS_EXIT_USAGE;
			break;
		case OPT_NONCOHERENT: noncoherent = true; break;
		case OPT_LOG_FORMAT:
			if (cli_log_format_opt(optarg, &compact))
				return FAMFS_EXIT_USAGE;
			break;
		case 'h': return cli_usage(&cli_doc_mkfs, 0);
		default: return cli_usage(&cli_doc_mkfs, 1);
		}
	}
	if (argc - optind < 1)
		return cli_usage(&cli_doc_mkfs, 1);
	return cli_mkfs_run(argv[optind], (const char *const *)argv + optind + 1,
			    argc - optind - 1, loglen, force, kill, noncoherent,
			    compact);
}
