/* SPDX-License-Identifier: GPL-2.0 */
/* famfs-cli: the subcommands (one file each: cmd_<name>.c). */
#ifndef FAMFS_CLI_H
#define FAMFS_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "libfamfs.h"

int cmd_mkfs(int argc, char **argv);
int cmd_mount(int argc, char **argv);
int cmd_logplay(int argc, char **argv);
int cmd_mkfile(int argc, char **argv);
int cmd_cp(int argc, char **argv);
int cmd_mkdir(int argc, char **argv);
int cmd_fsck(int argc, char **argv);
int cmd_getmap(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_verify(int argc, char **argv);

/* Common exit-code text appended to every command's --help. */
#define EXIT_CODES_HELP \
	"Exit codes: 0 ok, 1 usage error, 2 error, 3 problems found\n"

/* Print usage to stdout (help) or stderr (misuse) and return the exit code */
static inline int cmd_usage(const char *usage, int misuse)
{
	fputs(usage, misuse ? stderr : stdout);
	return misuse ? FAMFS_EXIT_USAGE : FAMFS_EXIT_OK;
}

/* Open the mounted file system that holds path; fills rel. */
int cli_open_for(const char *path, bool allow_root, bool want_rw,
		 struct famfs_fs *fs, char *rel);

#endif
