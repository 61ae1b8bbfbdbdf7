// SPDX-License-Identifier: GPL-2.0
/* famfs cp: copy files and directories into a famfs mount (master only).
 * Data goes through the new file's DAX mapping, or a scratch mapping of its
 * memory when the file's cannot reach all of it, then msync (fill.c). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_cp = {
	.page = "famfs-cp", .prog = "famfs cp",
	.summary = "copy files and directories into famfs",
	.synopsis = { "famfs cp [-r] [-N NSTRIPS [-C CHUNK]] [-D N] [-A 1g|none|auto] [-T SIZE] [-m MODE] [-u UID] [-g GID] [-v] SRC... DEST" },
	.description =
		"Copy files into a famfs mount: each is allocated, logged, created and\n"
		"filled through its mapping.  With several SRCs, DEST must be an\n"
		"existing directory; a SRC directory needs -r.  Existing files are not\n"
		"overwritten.  Only the master can do this.  With -N, every file\n"
		"copied is interleaved as famfs mkfile -N makes it.  After its data,\n"
		"each file is msync()ed (on a non-coherent mount msync also writes\n"
		"back and drops those lines; the zeros after the data bypass the\n"
		"cache), so hosts on memory that is not cache-coherent see it.\n"
		"\n"
		"A famfs file cannot grow after it is created, so its size must be known\n"
		"first.  A source that reports 0 bytes but has data (files in /proc or\n"
		"/sys), and a FIFO or character device named as a SRC, is read into\n"
		"memory to its end first, up to 64 MiB, and the file gets the size\n"
		"read; a larger one is not copied (exit 2, the message names it).\n"
		"Symbolic links named as a SRC are followed; inside a directory\n"
		"copied with -r, links, FIFOs and devices are skipped with a message.\n"
		"A directory is not copied into itself (famfs cp -r d d/sub), also when\n"
		"SRC names it through a bind mount or another path (the same device\n"
		"and inode): refused with exit 2, as cp(1) does.  A directory found\n"
		"inside SRC by -r that is the copy or above it (a bind mount) is\n"
		"refused the same way, and the rest is still copied.\n"
		"\n"
		"Each file's bytes are copied in before it is logged (under the log\n"
		"lock, taken once for the whole command, so other creators and logplay\n"
		"on this host wait until it ends); the rest of its memory\n"
		"(of its last 2 MiB unit, of every strip) is zeroed: nobody ever sees\n"
		"the memory's old contents, through the file or the device.\n"
		"A small file (below 2 MiB, or -T SIZE) takes 4 KiB pages in a 2 MiB\n"
		"unit that other small files share: only its own pages are written.\n"
		"The first one sets the small-file feature in the superblock (tools\n"
		"without it refuse the file system).\n",
	.opts = (const struct cli_opt[]){
		{ 'r', "recursive", NULL, "copy directories and their contents" },
		{ 'R', NULL, NULL, "the same as -r" },
		{ 'm', "mode", "MODE", "octal mode of new files (default: the source's)" },
		{ 'u', "uid", "UID", "owner (default: the caller's)" },
		{ 'g', "gid", "GID", "group (default: the caller's)" },
		CLI_OPT_NSTRIPS,
		CLI_OPT_CHUNK,
		CLI_OPT_DEVICE,
		CLI_OPT_ALIGN,
		CLI_OPT_SMALL,
		{ 'v', "verbose", NULL, "print each file copied" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("a SRC could not be read or copied (the others are\n"
			       "copied), a directory would be copied into itself, DEST\n"
			       "is not in a famfs mount, this host is a client, the\n"
			       "device or the log is full, the --device is not\n"
			       "attached on this host, or famfs.ko lacks the v2\n"
			       "ioctls a file needs (see famfs-mkfile(8))"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mkfile(8), famfs-mkdir(8)",
};

struct cp_opts {
	bool recursive;
	int64_t mode;		/* -1: the source's */
	uint32_t uid, gid;
	struct cli_layout lay;	/* -N, -C */
};

static int rel_join(char *out, const char *dir, const char *name)
{
	int n = snprintf(out, FAMFS_LOG_PATH_MAX, "%s%s%s", dir, *dir ? "/" : "",
			 name);

	if (n < 0 || n >= FAMFS_LOG_PATH_MAX) {
		famfs_err("%s/%s: path longer than %d bytes", dir, name,
			  FAMFS_LOG_PATH_MAX - 1);
		return -ENAMETOOLONG;
	}
	return 0;
}

static int copy_file(struct famfs_fs *fs, const char *src, const char *rel,
		     const struct cp_opts *o)
{
	int in, rc;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		rc = -errno;
		famfs_err("%s: %s", src, strerror(errno));
		return rc;
	}
	rc = famfs_copy_fd(fs, in, src, rel, o->mode, o->uid, o->gid,
			   &o->lay.lay);
	close(in);
	if (!rc && famfs_verbose)
		printf("%s -> %s/%s\n", src, fs->mpt, rel);
	return rc;
}

static int copy_any(struct famfs_fs *fs, const char *src, const char *rel,
		    const struct cp_opts *o, bool top);
static int into_itself(struct famfs_fs *fs, const char *src, const char *rel);

static int copy_dir(struct famfs_fs *fs, const char *src, const char *rel,
		    const struct cp_opts *o, mode_t mode)
{
	struct dirent **names;
	int n, rc = 0;

	if (famfs_mkdir(fs, rel, mode & 07777, o->uid, o->gid, true))
		return -EIO;
	n = scandir(src, &names, NULL, alphasort);
	if (n < 0) {
		famfs_err("%s: %s", src, strerror(errno));
		return -errno;
	}
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		char s[PATH_MAX], r[FAMFS_LOG_PATH_MAX];

		if (strcmp(nm, ".") && strcmp(nm, "..")) {
			if (famfs_join(s, sizeof(s), src, nm) || rel_join(r, rel, nm) ||
			    copy_any(fs, s, r, o, false))
				rc = -EIO;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* top: a SRC named on the command line (symbolic links followed, FIFOs and
 * character devices read); else found by -r (links, FIFOs, devices
 * skipped: reading them could block or never end) */
static int copy_any(struct famfs_fs *fs, const char *src, const char *rel,
		    const struct cp_opts *o, bool top)
{
	struct stat st;

	if (top ? stat(src, &st) : lstat(src, &st)) {
		famfs_err("%s: %s", src, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		/* a SRC named: not copied into itself (before -r is asked
		 * for); only a directory can be (a file's stat is this one) */
		if (top && into_itself(fs, src, rel))
			return -EINVAL;
		if (!o->recursive) {
			famfs_err("%s: is a directory (use -r)", src);
			return -EISDIR;
		}
		/* found by -r: a bind mount of the copy (or of a directory
		 * above it) inside SRC would make each level create the
		 * next one to copy, until the path limit */
		if (!top && into_itself(fs, src, rel))
			return -EINVAL;
		return copy_dir(fs, src, rel, o, st.st_mode);
	}
	if (!S_ISREG(st.st_mode) &&
	    !(top && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))) {
		famfs_err("%s: %s; skipped (famfs cp copies regular files, and FIFOs and character devices named as a SRC)",
			  src, S_ISLNK(st.st_mode) ? "a symbolic link" :
			  S_ISFIFO(st.st_mode) ? "a FIFO" :
			  S_ISCHR(st.st_mode) ? "a character device" :
			  S_ISBLK(st.st_mode) ? "a block device" :
			  S_ISSOCK(st.st_mode) ? "a socket" :
			  "not a regular file or directory");
		return -EINVAL;
	}
	return copy_file(fs, src, rel, o);
}

/* -EINVAL (message printed) if SRC is a directory and rel (the copy, in
 * fs) is SRC or inside it: the copy would copy itself until the path
 * limit, and nothing can be deleted (cp(1) refuses it too).  By device and
 * inode, not by name: a bind mount or any other path may name SRC. */
static int into_itself(struct famfs_fs *fs, const char *src, const char *rel)
{
	char d[PATH_MAX];
	struct stat s, st;
	size_t root = strlen(fs->mpt);

	if (stat(src, &s) || !S_ISDIR(s.st_mode))
		return 0;	/* copy_any reports what is wrong */
	if (famfs_join(d, sizeof(d), fs->mpt, rel))
		return -ENAMETOOLONG;
	/* the copy, then each directory above it up to the mount root */
	for (size_t n = strlen(d);;) {
		char *slash;

		if (!stat(d, &st) && st.st_dev == s.st_dev &&
		    st.st_ino == s.st_ino) {
			char c[PATH_MAX];

			famfs_join(c, sizeof(c), fs->mpt, rel);
			famfs_err("cannot copy a directory, '%s', into itself, '%s' ('%s' is '%s')",
				  src, c, d, src);
			return -EINVAL;
		}
		if (n <= root)
			return 0;
		slash = strrchr(d, '/');
		if (!slash || (size_t)(slash - d) < root)
			return 0;
		n = (size_t)(slash - d) > root ? (size_t)(slash - d) : root;
		d[n] = '\0';
	}
}

int cmd_cp(int argc, char **argv)
{
	struct cp_opts o = { .mode = -1, .uid = geteuid(), .gid = getegid() };
	char drel[FAMFS_LOG_PATH_MAX];
	struct famfs_fs fs;
	const char *dest;
	bool dest_dir;
	struct stat st;
	uint32_t m;
	int c, nsrc, rc = FAMFS_EXIT_OK;

	while ((c = cli_getopt(argc, argv, &cli_doc_cp)) != -1) {
		switch (c) {
		case 'r': case 'R': o.recursive = true; break;
		case 'm':
		case 'u':
		case 'g':
			if (cli_owner_opt(c, optarg, &m, &o.uid, &o.gid))
				return FAMFS_EXIT_USAGE;
			if (c == 'm')
				o.mode = m;
			break;
		case 'N':
		case 'C':
		case 'D':
		case 'A':
		case 'T':
			if (cli_layout_opt(c, optarg, &o.lay))
				return FAMFS_EXIT_USAGE;
			break;
		case 'v': famfs_verbose++; break;
		case 'h': return cli_usage(&cli_doc_cp, 0);
		default: return cli_usage(&cli_doc_cp, 1);
		}
	}
	nsrc = argc - optind - 1;
	if (nsrc < 1)
		return cli_usage(&cli_doc_cp, 1);
	if (cli_layout_done(&o.lay))
		return FAMFS_EXIT_USAGE;
	dest = argv[argc - 1];
	dest_dir = stat(dest, &st) == 0 && S_ISDIR(st.st_mode);
	if (nsrc > 1 && !dest_dir) {
		famfs_err("%s: not a directory (several sources)", dest);
		return FAMFS_EXIT_ERROR;
	}
	if (cli_open_for(dest, dest_dir, true, &fs, drel))
		return FAMFS_EXIT_ERROR;
	/* the log lock once for the whole copy, not once per file */
	if (famfs_fs_writable(&fs) || famfs_fs_hold(&fs)) {
		famfs_fs_close(&fs);
		return FAMFS_EXIT_ERROR;
	}
	for (int i = optind; i < argc - 1; i++) {
		char tmp[PATH_MAX], rel[FAMFS_LOG_PATH_MAX];
		const char *src = argv[i];

		if (dest_dir) {
			snprintf(tmp, sizeof(tmp), "%s", src);
			if (rel_join(rel, drel, basename(tmp))) {
				rc = FAMFS_EXIT_ERROR;
				continue;
			}
		} else {
			memcpy(rel, drel, sizeof(rel));
		}
		if (copy_any(&fs, src, rel, &o, true))
			rc = FAMFS_EXIT_ERROR;
	}
	famfs_fs_close(&fs);
	return rc;
}
