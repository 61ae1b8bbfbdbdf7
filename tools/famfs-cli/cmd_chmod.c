// SPDX-License-Identifier: GPL-2.0
/* famfs chmod: change the mode of files and directories and log it
 * (format rev 3). */
#define _GNU_SOURCE
#include <string.h>

#include "famfs.h"

const struct cli_doc cli_doc_chmod = {
	.page = "famfs-chmod", .prog = "famfs chmod",
	.summary = "change the mode of files and directories, on every host",
	.synopsis = { "famfs chmod [-j] MODE PATH..." },
	.description =
		"Give each PATH of a famfs mount a new mode and log it (master only):\n"
		"every host's replay gives it the same (a client's files keep no write\n"
		"permission, as when they are made).  MODE is octal (at most 7777) or\n"
		"chmod(1)'s symbolic form: clauses [ugoa]*[-+=][rwxXst]*, or [-+=]\n"
		"and an octal mode, separated by commas (no umask applies), applied\n"
		"to the mode the log has.  As chmod(1), a directory keeps its\n"
		"set-user-ID and set-group-ID bits unless MODE names them: 755 or\n"
		"0755 keeps them, 2755 sets set-group-ID (and keeps set-user-ID);\n"
		"00755 (5 digits or more), =755, -6000 or g-s clear them.  A file\n"
		"takes a numeric MODE whole.  Each PATH must be in the log, and here\n"
		"the logged file or not here; else nothing is logged for it.  The\n"
		"SETATTR entry is in the log before the mode changes here.  The\n"
		"first one sets the setattr feature in the superblock: famfs tools\n"
		"older than this one refuse the file system from then on.  As with\n"
		"mkfile, the mount is opened and the log lock taken once for all\n"
		"PATHs; one that fails does not stop the others, and the exit\n"
		"status is then 2.\n",
	.opts = (const struct cli_opt[]){ CLI_OPT_NSJSON, { 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK,
		{ FAMFS_EXIT_USAGE, "usage error: a bad option or argument, or a bad MODE" },
		CLI_EXIT_ERROR("a PATH is not in the log or not in a famfs mount,\n"
			       "the file here is not the logged one, this host\n"
			       "is a client, or the log is full"),
		CLI_EXIT_END },
	.sections = (const struct cli_section[]){
		{ "JSON", CLI_NSJSON_TEXT
		  "Example:\n"
		  "  famfs chmod -j g+s /mnt/famfs/d | jq -r '.paths[0].entries[0].mode'\n", false },
		{ "EXAMPLES",
		  "  famfs chmod 0640 /mnt/famfs/data/a /mnt/famfs/data/b\n"
		  "  famfs chmod go-rwx,u+x /mnt/famfs/bin/tool\n"
		  "  famfs chmod 00755 /mnt/famfs/shared   (clears a directory's g+s)\n", false },
		{ 0 } },
	.see_also = "famfs(8), famfs-chown(8), chmod(1)",
};

int cmd_chmod(int argc, char **argv)
{
	char rel[FAMFS_LOG_PATH_MAX], why[FAMFS_REASON_LEN];
	struct cli_batch b = { .open = false };
	struct cli_nsjson j = { .on = false };
	struct famfs_modespec m;
	int rc = FAMFS_EXIT_OK;

	/* "-w" is a MODE, not an option: only --help, and -j or --json
	 * before MODE, are taken */
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return cli_usage(&cli_doc_chmod, 0);
	optind = 1;
	if (argc >= 2 && (!strcmp(argv[1], "-j") || !strcmp(argv[1], "--json"))) {
		j.on = true;
		optind = 2;
	}
	if (argc > optind && !strcmp(argv[optind], "--"))
		optind++;
	if (argc - optind < 2)
		return cli_usage(&cli_doc_chmod, 1);
	if (famfs_mode_parse(argv[optind], &m, why)) {
		famfs_err("%s", why);
		return FAMFS_EXIT_USAGE;
	}
	for (int i = optind + 1; i < argc; i++) {
		bool bad;

		cli_nsjson_begin(&j);
		bad = cli_batch_open(&b, argv[i], rel);
		cli_nsjson_mark(&j, &b);
		bad = bad || famfs_setattr(&b.fs, rel, FAMFS_SETATTR_MODE, &m, 0, 0);
		cli_nsjson_end(&j, &b, argv[i], NULL, !bad);
		if (bad)
			rc = FAMFS_EXIT_ERROR;
	}
	if (cli_nsjson_print(&j))
		rc = FAMFS_EXIT_ERROR;
	cli_batch_close(&b);
	return rc;
}
