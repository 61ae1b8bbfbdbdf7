// SPDX-License-Identifier: GPL-2.0
/*
 * mkfs.famfs and fsck.famfs: the helpers util-linux mkfs(8) and fsck(8) run
 * for "mkfs -t famfs" and "fsck -t famfs" (links to famfs-cli, dispatched on
 * argv[0]).  They do what famfs mkfs and famfs fsck do, with mkfs(8)'s and
 * fsck(8)'s options and exit codes.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "famfs.h"

/* mkfs(8): 0 success, 1 failure */
enum { MKFS_EX_OK = 0, MKFS_EX_FAIL = 1 };
/* cli_getopt returns 256 + the option's index for long-only options */
#define MKFS_OPT_LOG_FORMAT	(256 + 4)
#define MKFS_OPT_NONCOHERENT	(256 + 5)

const struct cli_doc cli_doc_mkfs_helper = {
	.page = "mkfs.famfs", .prog = "mkfs.famfs",
	.summary = "create a famfs file system: the helper of mkfs -t famfs",
	.synopsis = { "mkfs.famfs [-V] [-f] [-k] [-l|--loglen N] [--log-format FMT] [--noncoherent] DEV [MEMBER...]",
		      "mkfs -t famfs [-V] [-f] [-k] [-l N] [--log-format FMT] [--noncoherent] DEV [MEMBER...]" },
	.description =
		"mkfs(8) runs mkfs.famfs for mkfs -t famfs DEV, passing on the options\n"
		"that follow the type.  It does what famfs mkfs does (see famfs-mkfs(8)):\n"
		"a superblock and an empty log on DEV (/dev/pmemN, /dev/daxX.Y or a\n"
		"file), and this host becomes the master.  famfs uses the whole\n"
		"device: mkfs(8)'s optional SIZE argument is refused (a number after DEV);\n"
		"other arguments after DEV are member devices, as for famfs mkfs.\n",
	.opts = (const struct cli_opt[]){
		{ 'V', "verbose", NULL, "say what is done (and the famfs version) first" },
		{ 'f', "force", NULL, "overwrite an existing famfs file system" },
		{ 'k', "kill", NULL, "destroy the superblock (and log header) of DEV" },
		{ 'l', "loglen", "N",
		  "log size: a power of two from 2M to 1G, default 8M\n"
		  "(k/m/g suffixes)" },
		{ 0, "log-format", "FMT",
		  "compact (the default) or v1, as for famfs mkfs" },
		{ 0, "noncoherent", NULL,
		  "the memory is not cache-coherent between hosts:\n"
		  "record it in the superblock, like the same option\n"
		  "of famfs mkfs (famfs-tune(8) changes it later)" },
		{ 0 } },
	.sections = (const struct cli_section[]){
		{ "FILES",
		  "/sbin/mkfs.famfs is a link to famfs-cli; mkfs(8) looks for\n"
		  "mkfs.TYPE in /sbin, /sbin/fs.d and /sbin/fs, then in PATH.\n", true },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ MKFS_EX_OK, "success" },
		{ MKFS_EX_FAIL, "failure (mkfs(8)'s one failure code): a bad option or\n"
				"argument, or DEV cannot be opened or written, is too small,\n"
				"or already holds famfs (without -f); the message says which" },
		CLI_EXIT_END },
	.see_also = "famfs-mkfs(8), fsck.famfs(8), mount.famfs(8), mkfs(8)",
};

const struct cli_doc cli_doc_fsck_helper = {
	.page = "fsck.famfs", .prog = "fsck.famfs",
	.summary = "check a famfs file system: the helper of fsck -t famfs",
	.synopsis = { "fsck.famfs [-n|-y|-a|-p] [-f] [-v] DEV|MPT",
		      "fsck -t famfs [-n|-y|-a|-p] [-f] [-v] DEV",
		      "fsck.famfs -V" },
	.description =
		"fsck(8) runs fsck.famfs for fsck -t famfs DEV (and for famfs lines of\n"
		"fstab with a non-zero pass number under fsck -A).  It checks what\n"
		"famfs fsck checks (see famfs-fsck(8)): the superblock, the log and\n"
		"every file's memory; DEV may be mounted.  The exit code is fsck(8)'s.\n"
		"\n"
		"famfs fsck never repairs: a client must not write the log and the\n"
		"master's log is append-only.  -n checks, as does no option.  -y, -a\n"
		"and -p (repair) are accepted so that fsck(8), fsck -A and boot scripts\n"
		"work, but only check: fsck.famfs says so on stderr, and a problem it\n"
		"finds is left uncorrected (exit 4).\n",
	.opts = (const struct cli_opt[]){
		{ 'n', NULL, NULL, "check only, change nothing (what famfs fsck always does)" },
		{ 'y', NULL, NULL, "repair: accepted, checks only (see above)" },
		{ 'a', NULL, NULL, "repair automatically: accepted, checks only" },
		{ 'p', NULL, NULL, "the same as -a" },
		{ 'f', NULL, NULL, "force a check: accepted, famfs always checks everything" },
		{ 'v', NULL, NULL, "list every log entry" },
		{ 'V', NULL, NULL, "print the version and exit" },
		{ 0 } },
	.sections = (const struct cli_section[]){
		{ "FILES",
		  "/sbin/fsck.famfs is a link to famfs-cli; fsck(8) looks for\n"
		  "fsck.TYPE in /sbin, /sbin/fs.d and /sbin/fs, then in PATH.  fsck(8)\n"
		  "exits 0 without checking when it finds no fsck.famfs.\n", true },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ FSCK_EX_OK, "no errors: the file system is clean" },
		{ FSCK_EX_CORRECTED, "errors corrected: never (famfs fsck corrects nothing)" },
		{ FSCK_EX_REBOOT, "errors corrected, reboot: never" },
		{ FSCK_EX_UNCORRECTED, "errors left uncorrected: problems found (also an\n"
				       "invalid superblock or log header)" },
		{ FSCK_EX_ERROR, "operational error: DEV or MPT cannot be opened or read" },
		{ FSCK_EX_USAGE, "usage or syntax error (also two of -n, -y, -a/-p)" },
		{ FSCK_EX_CANCELED, "canceled by user request: never" },
		{ FSCK_EX_LIBRARY, "shared-library error: never (fsck(8)'s own)" },
		CLI_EXIT_END },
	.see_also = "famfs-fsck(8), mkfs.famfs(8), mount.famfs(8), fsck(8)",
};

static int mkfs_usage(int misuse)
{
	return cli_helper_usage(&cli_doc_mkfs_helper, misuse, MKFS_EX_OK,
				MKFS_EX_FAIL);
}

static int fsck_usage(int misuse)
{
	return cli_helper_usage(&cli_doc_fsck_helper, misuse, FSCK_EX_OK,
				FSCK_EX_USAGE);
}

int cmd_mkfs_helper(int argc, char **argv)
{
	uint64_t loglen = FAMFS_LOG_LEN_DEFAULT, size;
	bool force = false, kill = false, verbose = false, nc = false;
	bool compact = true;
	int c;

	while ((c = cli_getopt(argc, argv, &cli_doc_mkfs_helper)) != -1) {
		switch (c) {
		case 'V': verbose = true; break;
		case MKFS_OPT_NONCOHERENT: nc = true; break;
		case 'f': force = true; break;
		case 'k': kill = true; break;
		case 'l':
			if (cli_loglen_opt(optarg, &loglen))
				return MKFS_EX_FAIL;
			break;
		case MKFS_OPT_LOG_FORMAT:
			if (cli_log_format_opt(optarg, &compact))
				return MKFS_EX_FAIL;
			break;
		case 'h': return mkfs_usage(0);
		default: return mkfs_usage(1);
		}
	}
	/* mkfs(8)'s DEV SIZE; anything else after DEV is a member */
	if (argc - optind == 2 && !famfs_parse_size(argv[optind + 1], &size)) {
		famfs_err("%s: size argument '%s' refused: famfs uses the whole device",
			  argv[optind], argv[optind + 1]);
		return MKFS_EX_FAIL;
	}
	if (argc - optind < 1)
		return mkfs_usage(1);
	if (verbose)
		printf("mkfs.famfs (famfs %s, format %d): famfs mkfs%s%s%s --loglen %llu --log-format %s %s\n",
		       FAMFS_CLI_VERSION, FAMFS_FORMAT_VERSION, force ? " -f" : "",
		       kill ? " -k" : "", nc ? " --noncoherent" : "",
		       (unsigned long long)loglen, compact ? "compact" : "v1",
		       argv[optind]);
	return cli_mkfs_run(argv[optind], (const char *const *)argv + optind + 1,
			    argc - optind - 1, loglen, force, kill, nc,
			    compact) ?
	       MKFS_EX_FAIL : MKFS_EX_OK;
}

int cmd_fsck_helper(int argc, char **argv)
{
	char reason[FAMFS_REASON_LEN];
	struct famfs_fsck8 o = { 0 };
	int c;

	while ((c = cli_getopt(argc, argv, &cli_doc_fsck_helper)) != -1) {
		switch (c) {
		case 'h': return fsck_usage(0);
		case 'V':
			printf("fsck.famfs (famfs %s, format %d)\n", FAMFS_CLI_VERSION,
			       FAMFS_FORMAT_VERSION);
			return FSCK_EX_OK;
		case '?': return fsck_usage(1);
		default:
			if (famfs_fsck8_opt(&o, c, reason)) {
				famfs_err("fsck.famfs: %s", reason);
				return FSCK_EX_USAGE;
			}
		}
	}
	if (argc - optind != 1)
		return fsck_usage(1);
	famfs_verbose += o.verbose;
	if (o.mode == FAMFS_FSCK8_YES || o.mode == FAMFS_FSCK8_AUTO)
		fprintf(stderr, "fsck.famfs: %s: -%c: famfs fsck does not repair; checking only (problems found are left uncorrected: exit 4)\n",
			argv[optind], o.mode_opt);
	return famfs_fsck8_exit(cli_fsck_run("fsck.famfs", argv[optind], false));
}
