// SPDX-License-Identifier: GPL-2.0
/*
 * famfs (famfs-cli): the user-space tool that owns all famfs metadata.
 * One dispatcher, one file per subcommand, libfamfs underneath.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "famfs.h"

#define FAMFS_CLI_VERSION "1.0"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} cmds[] = {
	{ "mkfs",    cmd_mkfs,    "create a famfs file system on a memory device" },
	{ "mount",   cmd_mount,   "mount famfs, create the meta files, replay the log" },
	{ "logplay", cmd_logplay, "create the files and directories of the log" },
	{ "mkfile",  cmd_mkfile,  "allocate and create a file" },
	{ "creat",   cmd_mkfile,  "alias of mkfile" },
	{ "cp",      cmd_cp,      "copy files and directories into famfs" },
	{ "mkdir",   cmd_mkdir,   "create a directory" },
	{ "fsck",    cmd_fsck,    "check superblock, log and allocations" },
	{ "getmap",  cmd_getmap,  "print the extent map of a file" },
	{ "check",   cmd_check,   "find files that are present but not mapped" },
	{ "verify",  cmd_verify,  "verify a file written by mkfile -S" },
};

static int usage(FILE *f)
{
	fprintf(f,
		"usage: famfs [--version] [--help] <command> [args]\n"
		"       famfs <command> --help\n\n"
		"Commands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f,
		"\nExit codes (every command):\n"
		"  0  success\n"
		"  1  usage error (bad option or argument)\n"
		"  2  error: the operation failed (device, mount, I/O, permission,\n"
		"     device or log full, this host is a client, ...)\n"
		"  3  the command ran to the end but found problems (fsck: an\n"
		"     inconsistency; check: unmapped files; logplay: conflicts or\n"
		"     skipped corrupt entries; verify: data mismatch)\n"
		"\nEnvironment:\n"
		"  FAMFS_HOST_ID_FILE  host id file (default /etc/famfs/host-uuid,\n"
		"                      created on first use; else /etc/machine-id)\n");
	return f == stdout ? FAMFS_EXIT_OK : FAMFS_EXIT_USAGE;
}

int cli_open_for(const char *path, bool allow_root, bool want_rw,
		 struct famfs_fs *fs, char *rel)
{
	char mpt[PATH_MAX];
	int rc = famfs_locate(path, allow_root, mpt, rel);

	if (rc)
		return rc;
	return famfs_fs_open_mount(mpt, want_rw, fs);
}

int main(int argc, char **argv)
{
	const char *name;

	if (argc < 2)
		return usage(stderr);
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help"))
		return usage(stdout);
	if (!strcmp(name, "--version")) {
		printf("famfs %s (format %d)\n", FAMFS_CLI_VERSION,
		       FAMFS_FORMAT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(name, cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "famfs: unknown command '%s'\n", name);
	return usage(stderr);
}
