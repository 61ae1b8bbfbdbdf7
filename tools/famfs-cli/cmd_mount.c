// SPDX-License-Identifier: GPL-2.0
/* famfs mount: mount -t famfs, create .meta/.superblock and .meta/.log,
 * replay the log. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "famfs.h"

static const char usage[] =
	"usage: famfs mount [-r] [-o OPTS] DEV MPT\n"
	"\n"
	"Mount the famfs file system on DEV at MPT (mount -t famfs), create the\n"
	"meta files .meta/.superblock and .meta/.log and replay the log.  On the\n"
	"master the log is writable; on a client (or with -r) the log and every\n"
	"replayed file are read-only.  A superblock or log header that fails its\n"
	"checks (magic, CRC, version, unknown incompatible features) is refused.\n"
	"\n"
	"  -r, --read-only    map the log read-only even on the master\n"
	"  -o, --options OPTS options for the kernel mount (e.g. mode=0755)\n"
	"  -v, --verbose      print what logplay does\n"
	"  -h, --help         this text\n"
	"\n"
	EXIT_CODES_HELP;

static int meta_file(const char *mpt, const char *rel, mode_t mode,
		     uint32_t type, uint64_t off, uint64_t len)
{
	struct famfs_ioc_map map = {
		.extent_type = SIMPLE_DAX_EXTENT,
		.file_type = type,
		.file_size = len,
		.ext_list_count = 1,
		.ext_list = { { .offset = off, .len = len } },
	};
	char p[PATH_MAX];
	int fd, rc;

	if (famfs_join(p, sizeof(p), mpt, rel))
		return -ENAMETOOLONG;
	fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0) {
		rc = -errno;
		famfs_err("%s: cannot create: %s", p, strerror(errno));
		return rc;
	}
	rc = famfs_kernel->map_create(fd, &map);
	if (rc)
		famfs_err("%s: MAP_CREATE (%s): %s", p,
			  type == FAMFS_SUPERBLOCK ? "superblock" : "log",
			  strerror(-rc));
	else if (fchmod(fd, mode))
		famfs_warn("%s: chmod: %s", p, strerror(errno));
	close(fd);
	return rc;
}

static int mkmeta(const char *mpt, const struct famfs_superblock *sb, bool rw)
{
	char p[PATH_MAX];
	int rc;

	if (famfs_join(p, sizeof(p), mpt, FAMFS_META_DIR))
		return -ENAMETOOLONG;
	if (mkdir(p, 0755) && errno != EEXIST) {
		rc = -errno;
		famfs_err("%s: mkdir: %s", p, strerror(errno));
		return rc;
	}
	rc = meta_file(mpt, FAMFS_META_SB, 0444, FAMFS_SUPERBLOCK, 0,
		       FAMFS_SB_REGION_LEN);
	if (rc)
		return rc;
	return meta_file(mpt, FAMFS_META_LOG, rw ? 0644 : 0444, FAMFS_LOG,
			 le64toh(sb->log_offset), le64toh(sb->log_len));
}

int cmd_mount(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "read-only", no_argument, NULL, 'r' },
		{ "options", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct famfs_superblock sb;
	struct famfs_logplay_result r;
	struct famfs_fs fs;
	const char *dev, *mpt, *mopts = NULL;
	bool ro = false, master;
	struct stat st;
	int c, rc;

	while ((c = getopt_long(argc, argv, "ro:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'r': ro = true; break;
		case 'o': mopts = optarg; break;
		case 'v': famfs_verbose++; break;
		case 'h': return cmd_usage(usage, 0);
		default: return cmd_usage(usage, 1);
		}
	}
	if (argc - optind != 2)
		return cmd_usage(usage, 1);
	dev = argv[optind];
	mpt = argv[optind + 1];
	if (stat(mpt, &st) || !S_ISDIR(st.st_mode)) {
		famfs_err("%s: mount point is not a directory", mpt);
		return FAMFS_EXIT_ERROR;
	}
	/* 1. validate the device's superblock and log before mounting */
	rc = famfs_fs_open_dev(dev, false, &fs);
	if (rc)
		return FAMFS_EXIT_ERROR;
	memcpy(&sb, fs.sb, sizeof(sb));
	master = fs.master;
	famfs_fs_close(&fs);	/* /dev/pmemN: the mount holds it exclusively */

	/* 2. the kernel mount */
	rc = famfs_kernel->mount(dev, mpt, 0, mopts);
	if (rc) {
		famfs_err("%s: mount -t famfs on %s: %s%s", dev, mpt, strerror(-rc),
			  rc == -ENODEV ? " (is famfs.ko loaded?)" : "");
		return FAMFS_EXIT_ERROR;
	}
	/* 3. meta files, then check the superblock through them */
	rc = mkmeta(mpt, &sb, master && !ro);
	if (!rc)
		rc = famfs_fs_open_mount(mpt, false, &fs);
	if (!rc && memcmp(fs.sb, &sb, sizeof(sb))) {
		famfs_err("%s/%s: differs from the superblock of %s", mpt,
			  FAMFS_META_SB, dev);
		famfs_fs_close(&fs);
		rc = -EIO;
	}
	if (rc) {
		famfs_kernel->umount(mpt);
		return FAMFS_EXIT_ERROR;
	}
	/* 4. replay; a corrupt entry or a conflict is reported, not fatal */
	rc = famfs_logplay(&fs, false, &r);
	famfs_fs_close(&fs);
	if (rc) {
		famfs_kernel->umount(mpt);
		return FAMFS_EXIT_ERROR;
	}
	if (r.bad_entries || r.conflicts || r.errors)
		famfs_warn("%s: log replayed with %lu corrupt entries skipped, %lu conflicts, %lu errors; run famfs fsck",
			   mpt, r.bad_entries, r.conflicts, r.errors);
	if (famfs_verbose)
		printf("famfs mount: %s on %s (%s): %lu files, %lu directories\n",
		       dev, mpt, master && !ro ? "master" : "client",
		       r.created_files, r.created_dirs);
	return FAMFS_EXIT_OK;
}
