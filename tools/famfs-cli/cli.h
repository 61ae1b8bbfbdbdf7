/* SPDX-License-Identifier: GPL-2.0 */
/*
 * famfs-cli's helpers: what the commands call, below them and above
 * libfamfs.  cli_doc.c makes --help, the man pages and getopt's tables
 * from a struct cli_doc; cli_util.c opens the file system a path, device
 * or mount point names, reads /proc/self/mounts, prints JSON and parses
 * the options several commands share.  They call libfamfs and libc only:
 * never a command, nor the dispatcher (famfs.c) that lists them -- what a
 * page needs to know of the others (famfs(8)'s list of commands) it is
 * given in its struct cli_doc.
 */
#ifndef FAMFS_CLI_HELPERS_H
#define FAMFS_CLI_HELPERS_H

#include <getopt.h>
#include <stdio.h>
#include <json-c/json.h>

#include "libfamfs.h"

#define FAMFS_CLI_VERSION "1.0"

/*
 * One source for --help and the man pages: every command describes itself
 * in a struct cli_doc.  cli_usage() prints --help from it, cli_man() the
 * roff page (famfs help --man PAGE), and cli_getopt() builds getopt_long's
 * tables from its options, so no option is accepted that is not documented.
 * Text conventions: '\n' ends a line; an empty line starts a paragraph; a
 * line that starts with two spaces is printed as is (an example).
 */
struct cli_opt {
	char short_name;	/* 0: long only */
	const char *long_name;	/* NULL: short only */
	const char *arg;	/* NULL: a flag */
	const char *help;
};
struct cli_exit {
	int code;
	const char *meaning;
};
struct cli_section {
	const char *title;	/* upper case, e.g. "FSTAB" */
	const char *text;
	bool man_only;		/* not in --help */
};
#define CLI_SYNOPSIS_MAX 6	/* lines of a command's synopsis */

struct cli_doc {
	const char *page;		/* man page name: "famfs-mkfs" */
	const char *prog;		/* "famfs mkfs", "mount.famfs" */
	const char *summary;		/* one line, lower case */
	const char *synopsis[CLI_SYNOPSIS_MAX];	/* full lines: "famfs mkfs [-f] DEV" */
	const char *description;
	const struct cli_opt *opts;	/* {0}-terminated; -h/--help added */
	const struct cli_section *sections;	/* {0}-terminated or NULL */
	const struct cli_exit *exits;	/* {0, NULL}-terminated */
	const char *see_also;		/* "famfs-mount(8), mount(8)" */
	/* famfs: the pages whose commands ("famfs X") its --help and man
	 * page list with their summaries, NULL-terminated; NULL: none */
	const struct cli_doc *const *commands;
	bool exits_every;		/* famfs: its exit codes are every command's */
};

/* the common exit codes of every command */
#define CLI_EXIT_OK	{ FAMFS_EXIT_OK, "success" }
#define CLI_EXIT_USAGE	{ FAMFS_EXIT_USAGE, "usage error: a bad option or argument" }
#define CLI_EXIT_ERROR(what) { FAMFS_EXIT_ERROR, "error: " what }
#define CLI_EXIT_END	{ 0, NULL }

/* Print --help to stdout (misuse 0) or stderr, return the exit code. */
int cli_usage(const struct cli_doc *d, int misuse);
/* The same for the helpers of mount(8), mkfs(8) and fsck(8), whose exit
 * codes are their callers': ok_rc for --help, usage_rc for a misuse. */
int cli_helper_usage(const struct cli_doc *d, int misuse, int ok_rc,
		     int usage_rc);
/* Write the roff man page of d to f. */
void cli_man(FILE *f, const struct cli_doc *d);
/* getopt_long over d's options (and -h/--help, returned as 'h'). */
int cli_getopt(int argc, char **argv, const struct cli_doc *d);
/*
 * The ownership options that mkfile, mkdir and cp share: -m MODE (octal,
 * at most 07777), -u UID, -g GID.  Stores the value for option c and returns
 * FAMFS_EXIT_OK, or names the bad argument and returns FAMFS_EXIT_USAGE.
 */
int cli_owner_opt(int c, const char *arg, uint32_t *mode, uint32_t *uid,
		  uint32_t *gid);
/*
 * The interleave options of mkfile and cp: -N NSTRIPS (1..16; given, even
 * as 1, the file is interleaved) and -C CHUNK (a size, a non-zero multiple
 * of 2 MiB; default 2 MiB; only with -N).  cli_layout_opt() takes one
 * option, cli_layout_done() checks the pair after getopt; both name what is
 * wrong and return FAMFS_EXIT_USAGE, else FAMFS_EXIT_OK.  They also take
 * -D N (--device N, 0..FAMFS_MAX_DEVS-1; whether the file system has it is
 * checked when the file is allocated).
 */
#define CLI_CHUNK_DEFAULT	(2ULL << 20)
struct cli_layout {
	struct famfs_layout lay;	/* nstrips 0: not interleaved */
	bool have_n, have_c;
};
int cli_layout_opt(int c, const char *arg, struct cli_layout *l);
int cli_layout_done(struct cli_layout *l);
#define CLI_OPT_NSTRIPS { 'N', "nstrips", "NSTRIPS", \
	"interleave the file over NSTRIPS strips (1..16), each\n" \
	"a contiguous piece of the device; chunk c of the file\n" \
	"is in strip c % NSTRIPS (even -N 1 makes the file\n" \
	"interleaved)" }
#define CLI_OPT_CHUNK { 'C', "chunksize", "CHUNK", \
	"the interleave chunk: a size with k/m/g suffix, a\n" \
	"non-zero multiple of 2 MiB (default 2M); needs -N" }
#define CLI_OPT_ALIGN { 'A', "align", "HOW", \
	"1g: put the file in one run starting on a 1 GiB\n" \
	"boundary (famfs.ko then maps it with 1 GiB pages),\n" \
	"or fail if there is none; none: never; auto (the\n" \
	"default): 1 GiB-aligned for files of 1 GiB or more\n" \
	"when a device has room so, else as without it.\n" \
	"With -N: every strip so, for a chunk (-C) that is\n" \
	"a multiple of 1 GiB (1g needs one; auto only then)" }
#define CLI_OPT_SMALL { 'T', "small-max", "SIZE", \
	"small files: a file below SIZE (k/m suffix, at most\n" \
	"2M, the default) takes 4 KiB pages in 2 MiB units\n" \
	"that several small files share, not whole 2 MiB\n" \
	"units; 0: no small files (every file in units).\n" \
	"Never for -N or -A 1g" }
#define CLI_OPT_DEVICE { 'D', "device", "N", \
	"put the file (every strip, with -N) on device N\n" \
	"of the file system (0: the primary; famfs df lists\n" \
	"them); default: a simple file on the device with\n" \
	"the most free space, the strips of -N k on k\n" \
	"different devices when there are k (else strip i\n" \
	"on device i % devices, said on stderr); only the\n" \
	"devices attached on this host (a member the log\n" \
	"added that is not here is skipped, said once; -D\n" \
	"of one is refused: exit 2)" }

/* Open the mounted file system that holds path; fills rel. */
int cli_open_for(const char *path, bool allow_root, bool want_rw,
		 struct famfs_fs *fs, char *rel);
/* Many paths in one command (famfs mkfile, mkdir): the mount of each path
 * is opened once, with the log lock held (famfs_fs_hold) until the next
 * path names another mount or cli_batch_close.  0, or -errno (message
 * printed: the path and why). */
struct cli_batch {
	struct famfs_fs fs;
	bool open;
};
int cli_batch_open(struct cli_batch *b, const char *path, char *rel);
void cli_batch_close(struct cli_batch *b);
/* Open the file system on a device or at a mount point (a mounted block
 * device through its mount's meta files); mpt gets the mount point or "".
 * -EBADMSG: superblock or log header invalid (message printed). */
int cli_open_target(const char *target, struct famfs_fs *fs, char *mpt,
		    size_t n);
/* The device of the famfs mount at mpt (from /proc/self/mounts). */
int cli_mount_source(const char *mpt, char *dev, size_t n);
/* After TARGET (a mount point, or a device mounted as famfs) could not be
 * read: name on stderr each device whose removal or memory failure failed
 * its mount (FAMFSIOC_DEV_GET), if any. */
void cli_say_failed_devs(const char *target);
/* Print a JSON object (pretty) on stdout and free it; -EIO on failure. */
int cli_json_print(struct json_object *o);
/*
 * -j of rm, mv, chmod, chown: one object {ok, paths: [{path, (mv:
 * destination,) ok, errors: [the messages said for it], entries: [the
 * namespace entries it appended: famfs_json_ns_entries]}]}.  For each
 * PATH: cli_nsjson_begin (its errors collected from then on),
 * cli_nsjson_mark once its mount is open (where its entries start),
 * cli_nsjson_end with its result; then cli_nsjson_print (0 or -errno).
 * With on false each does nothing.
 */
struct cli_nsjson {
	bool on;
	struct json_object *paths, *errors;
	uint64_t start;
	bool marked;
};
void cli_nsjson_begin(struct cli_nsjson *j);
#define CLI_OPT_NSJSON { 'j', "json", NULL, "print what was done as JSON on stdout (see JSON)" }
#define CLI_NSJSON_TEXT \
	"One object: ok (true when every PATH succeeded), paths: a list, in\n" \
	"the order given, of {path (as given), ok, errors (the messages said\n" \
	"for it on stderr too), entries: the log entries it appended, each\n" \
	"{index (in the log), action (delete, rename or setattr), type (file\n" \
	"or directory), path (under the mount point), to (rename: where it\n" \
	"went, else null), mode (setattr: the mode logged, octal text such\n" \
	"as \"0640\", else null), uid, gid (setattr: numbers, else null)}}.\n" \
	"A PATH whose entry is logged but whose change here failed has ok\n" \
	"false and its entry listed.  A usage error prints no JSON.  Always\n" \
	"valid UTF-8: a byte of a name that is not part of a valid UTF-8\n" \
	"sequence is given as the character U+00XX (byte 0xff as \\u00ff).\n"
void cli_nsjson_mark(struct cli_nsjson *j, struct cli_batch *b);
void cli_nsjson_end(struct cli_nsjson *j, struct cli_batch *b,
		    const char *path, const char *dest, bool ok);
int cli_nsjson_print(struct cli_nsjson *j);

#endif
