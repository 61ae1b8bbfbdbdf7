// SPDX-License-Identifier: GPL-2.0
/* famfs bind: put a /dev/daxX.Y in the mode famfs mount needs (bound to the
 * "famfs" dax-bus driver of famfs.ko), or give it back to device_dax. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "famfs.h"

#define DAX_BUS "/sys/bus/dax"

const struct cli_doc cli_doc_bind = {
	.page = "famfs-bind", .prog = "famfs bind",
	.summary = "bind a /dev/daxX.Y to famfs.ko so it can be mounted",
	.synopsis = { "famfs bind [-u] [-f] DAXDEV" },
	.description =
		"famfs mounts a device-dax device (/dev/daxX.Y, a devdax-mode\n"
		"namespace or a CXL dax region) only while it is bound to the\n"
		"\"famfs\" dax-bus driver of famfs.ko instead of device_dax.  This\n"
		"command moves DAXDEV (a path or a name such as dax0.0) there:\n"
		"  echo dax0.0 > /sys/bus/dax/drivers/device_dax/unbind\n"
		"  echo dax0.0 > /sys/bus/dax/drivers/famfs/new_id\n"
		"The data on the device is not touched; /dev/daxX.Y keeps working for\n"
		"famfs mkfs and fsck while bound.  The binding lasts until unbind,\n"
		"famfs bind -u, rmmod famfs or a reboot.  A device that is already\n"
		"bound to famfs is left as it is.  A device online as system RAM\n"
		"(kmem) is refused.  famfs bind -u refuses (without -f) a device\n"
		"that is mounted or attached to a famfs mount as a member (famfs\n"
		"devadd, or a mount of a file system with members), naming the\n"
		"mount: taking it away fails that whole mount.\n",
	.opts = (const struct cli_opt[]){
		{ 'u', "unbind", NULL, "give DAXDEV back to device_dax" },
		{ 'f', "force", NULL, "with -u: even if DAXDEV is mounted or a member\n"
				      "of a mount (the mount fails: EIO and SIGBUS\n"
				      "from then on)" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("DAXDEV is not a dax device, famfs.ko (or for -u\n"
			       "device_dax) is not loaded, DAXDEV is system RAM or\n"
			       "(-u) mounted or a member of a famfs mount, or the\n"
			       "driver refused it (see dmesg)"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mount(8), daxctl(1)",
};

/* "daxX.Y" for a path to the device node or a name. */
static int dax_name(const char *arg, char *name, size_t n)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *b, *path = arg;
	struct stat st;
	ssize_t len;

	if (strchr(arg, '/')) {
		if (stat(arg, &st)) {
			famfs_err("%s: %s", arg, strerror(errno));
			return -errno;
		}
		if (!S_ISCHR(st.st_mode)) {
			famfs_err("%s: not a dax device (/dev/daxX.Y)", arg);
			return -ENODEV;
		}
		snprintf(link, sizeof(link), "/sys/dev/char/%u:%u",
			 major(st.st_rdev), minor(st.st_rdev));
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0) {
			famfs_err("%s: not a dax device (no %s)", arg, link);
			return -ENODEV;
		}
		target[len] = '\0';
		b = strrchr(target, '/');
		arg = b ? b + 1 : target;
	}
	if (snprintf(name, n, "%s", arg) >= (int)n || strncmp(name, "dax", 3) ||
	    strchr(name, '/')) {
		famfs_err("%s: not a dax device (/dev/daxX.Y)", path);
		return -ENODEV;
	}
	snprintf(link, sizeof(link), DAX_BUS "/devices/%s", name);
	if (access(link, F_OK)) {
		famfs_err("%s: no such dax device (%s)", name, link);
		return -ENODEV;
	}
	return 0;
}

/* The name of the driver bound to @name, "" if none. */
static void dax_driver(const char *name, char *drv, size_t n)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *b;
	ssize_t len;

	snprintf(link, sizeof(link), DAX_BUS "/devices/%s/driver", name);
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0) {
		drv[0] = '\0';
		return;
	}
	target[len] = '\0';
	b = strrchr(target, '/');
	b = b ? b + 1 : target;
	if (strlen(b) >= n)
		b = "?";
	memcpy(drv, b, strlen(b) + 1);
}

/* Write @name to DAX_BUS/drivers/@drv/@attr. */
static int drv_write(const char *drv, const char *attr, const char *name)
{
	char p[PATH_MAX];
	ssize_t w;
	int fd, rc = 0;

	snprintf(p, sizeof(p), DAX_BUS "/drivers/%s/%s", drv, attr);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		famfs_err("%s: %s", p, strerror(errno));
		return rc;
	}
	w = write(fd, name, strlen(name));
	if (w != (ssize_t)strlen(name)) {
		rc = w < 0 ? -errno : -EIO;
		famfs_err("echo %s > %s: %s", name, p, strerror(-rc));
	}
	close(fd);
	return rc;
}

/* Is /dev/@name the source of a mount? */
static bool dax_mounted(const char *name)
{
	char dev[PATH_MAX], line[2 * PATH_MAX];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "r");

	if (!f)
		return false;
	snprintf(dev, sizeof(dev), "/dev/%s ", name);
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, dev, strlen(dev));
	fclose(f);
	return found;
}

/* The famfs mount (to mpt) that has /dev/@name attached as device *index
 * (FAMFSIOC_DEV_GET of every famfs mount in /proc/self/mounts): true if
 * one has.  A mount source is only the primary; a member is attached by
 * famfs devadd or by the mount, and is in no mount table. */
static bool dax_attached(const char *name, char *mpt, size_t n,
			 unsigned *index)
{
	char p[PATH_MAX], line[64];
	unsigned maj, min;
	struct mntent *m;
	bool found = false;
	FILE *f;

	snprintf(p, sizeof(p), DAX_BUS "/devices/%s/dev", name);
	f = fopen(p, "re");
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f) || sscanf(line, "%u:%u", &maj, &min) != 2) {
		fclose(f);
		return false;
	}
	fclose(f);
	f = setmntent("/proc/self/mounts", "r");
	if (!f)
		return false;
	while (!found && (m = getmntent(f))) {
		if (strcmp(m->mnt_type, "famfs"))
			continue;
		for (unsigned i = 0; i < FAMFS_MAX_DEVS && !found; i++) {
			struct famfs_ioc_dev_info info;
			int rc = famfs_mount_dev_get(m->mnt_dir, i, &info);

			if (rc == -ENXIO)
				continue;
			if (rc)
				break;	/* an older module, or not ours */
			if (!(info.flags & FAMFS_DEV_DEVDAX) ||
			    info.major != maj || info.minor != min)
				continue;
			snprintf(mpt, n, "%s", m->mnt_dir);
			*index = i;
			found = true;
		}
	}
	endmntent(f);
	return found;
}

static int bind_famfs(const char *name)
{
	char drv[64];

	if (access(DAX_BUS "/drivers/famfs", F_OK)) {
		famfs_err("%s: famfs.ko is not loaded (modprobe famfs)", name);
		return -ENOENT;
	}
	dax_driver(name, drv, sizeof(drv));
	if (!strcmp(drv, "famfs")) {
		if (famfs_verbose)
			printf("famfs bind: %s is bound to famfs already\n", name);
		return 0;
	}
	if (!strcmp(drv, "kmem")) {
		famfs_err("%s: online as system RAM (kmem); to use it for famfs: daxctl offline-memory %s; daxctl reconfigure-device -m devdax %s; famfs bind %s",
			  name, name, name, name);
		return -EBUSY;
	}
	if (drv[0] && drv_write(drv, "unbind", name))
		return -EIO;
	if (drv_write("famfs", "new_id", name))
		goto restore;
	dax_driver(name, drv, sizeof(drv));
	if (!strcmp(drv, "famfs")) {
		if (famfs_verbose)
			printf("famfs bind: %s bound to famfs\n", name);
		return 0;
	}
	famfs_err("%s: the famfs driver refused the device (see dmesg)", name);
	drv_write("famfs", "remove_id", name);
restore:
	/* Leave it as it was found: with device_dax, if that is loaded. */
	if (!access(DAX_BUS "/drivers/device_dax", F_OK))
		drv_write("device_dax", "bind", name);
	return -EIO;
}

int cli_dax_bind_famfs(const char *dev)
{
	char name[64];

	if (dax_name(dev, name, sizeof(name)))
		return -EINVAL;
	return bind_famfs(name);
}

static int unbind_famfs(const char *name, bool force)
{
	char drv[64], mpt[PATH_MAX];
	unsigned index;

	dax_driver(name, drv, sizeof(drv));
	if (strcmp(drv, "famfs")) {
		famfs_err("%s: not bound to famfs (%s)", name,
			  drv[0] ? drv : "no driver");
		return -EINVAL;
	}
	if (dax_mounted(name) && !force) {
		famfs_err("%s: mounted; unmount it first (or -f: the mount fails)",
			  name);
		return -EBUSY;
	}
	if (!force && dax_attached(name, mpt, sizeof(mpt), &index)) {
		famfs_err("%s: %s %u of the famfs mount at %s; unmount it first (or -f: the whole mount fails)",
			  name, index ? "member" : "device", index, mpt);
		return -EBUSY;
	}
	if (drv_write("famfs", "unbind", name))
		return -EIO;
	/* Not the next time the device appears either. */
	drv_write("famfs", "remove_id", name);
	if (access(DAX_BUS "/drivers/device_dax", F_OK)) {
		famfs_err("%s: unbound, but device_dax is not loaded (modprobe device_dax)",
			  name);
		return -ENOENT;
	}
	if (drv_write("device_dax", "bind", name))
		return -EIO;
	if (famfs_verbose)
		printf("famfs bind: %s bound to device_dax\n", name);
	return 0;
}

int cmd_bind(int argc, char **argv)
{
	bool unbind = false, force = false;
	char name[64];
	int c;

	while ((c = cli_getopt(argc, argv, &cli_doc_bind)) != -1) {
		switch (c) {
		case 'u': unbind = true; break;
		case 'f': force = true; break;
		case 'h': return cli_usage(&cli_doc_bind, 0);
		default: return cli_usage(&cli_doc_bind, 1);
		}
	}
	if (argc - optind != 1 || (force && !unbind))
		return cli_usage(&cli_doc_bind, 1);
	if (dax_name(argv[optind], name, sizeof(name)))
		return FAMFS_EXIT_ERROR;
	if (unbind ? unbind_famfs(name, force) : bind_famfs(name))
		return FAMFS_EXIT_ERROR;
	return FAMFS_EXIT_OK;
}
