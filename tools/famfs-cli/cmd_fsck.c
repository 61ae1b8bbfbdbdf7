// SPDX-License-Identifier: GPL-2.0
/* famfs fsck: check a famfs file system on a device or at a mount point. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "famfs.h"

const struct cli_doc cli_doc_fsck = {
	.page = "famfs-fsck", .prog = "famfs fsck",
	.summary = "check superblock, log and allocations",
	.synopsis = { "famfs fsck [-v] [-j] DEV|MPT" },
	.description =
		"Check the superblock (magic, CRC, version, features, geometry), the log\n"
		"header, and every log entry: CRC, sequence number, fs uuid, path, every\n"
		"extent or strip inside the device and outside the superblock and log,\n"
		"the geometry of an interleaved file (strip count, chunk size, strips\n"
		"apart and large enough, the superblock's interleave feature set), no\n"
		"two files sharing memory, no path logged twice, no file where a\n"
		"directory belongs, no valid entry past the log's next index (a damaged\n"
		"header: the master appends nothing then).  A corrupt entry whose extents\n"
		"can still be read keeps its memory (counted as used); one that cannot\n"
		"be read stops the master from creating files until the log is\n"
		"repaired.  DEV may be mounted: its mount's meta files are read then.\n"
		"With member devices, overlap is judged per device (the same offset on\n"
		"two devices is no overlap), and every member the log added must be on\n"
		"this host with its member superblock (found by device uuid, as mount\n"
		"finds it, and no smaller than the log says): a missing or damaged one\n"
		"is a problem, named by index and device uuid.\n"
		"A RECLAIM entry (the memory of deleted files made free again) must name\n"
		"only DELETEs of files the log applied, each once in the whole log: any\n"
		"other is corrupt, and stops the master from creating files until the\n"
		"log is repaired.  The memory of deleted files that no RECLAIM freed yet\n"
		"is no problem: a line says how many files and bytes (pending reclaim).\n"
		"Nor is a host table slot that does not verify (torn: a first claim cut\n"
		"by a crash, or one being written at that moment): a line names it, as\n"
		"it blocks every reclaim until famfs hosts evict --slot N.\n"
		"Each problem is reported on stderr with the entry and path it concerns.\n",
	.opts = (const struct cli_opt[]){
		{ 'v', "verbose", NULL, "list every entry (text output only)" },
		{ 'j', "json", NULL, "print the result as JSON on stdout (see JSON)" },
		{ 0 } },
	.sections = (const struct cli_section[]){
		{ "JSON",
		  "One object: target, clean (true when no problem was found),\n"
		  "superblock_valid, entries, files, directories, corrupt_entries,\n"
		  "problems (a count), used and free (bytes; memory that several\n"
		  "files share counts once), pending_reclaim_files and\n"
		  "pending_reclaim_bytes (only when some are pending), torn_host_slots\n"
		  "and torn_host_slot_list (the first 8; only when some are torn),\n"
		  "problem_list\n"
		  "(the messages), devices\n"
		  "(index, role primary or member, path: where this host found the\n"
		  "member, ok: found with its superblock as the log added it).  Always\n"
		  "valid UTF-8: a byte of a name that is not part of a valid UTF-8\n"
		  "sequence is given as the character U+00XX (byte 0xff as \\u00ff).\n"
		  "Example:\n"
		  "  famfs fsck -j /dev/pmem0 | jq .clean\n", false },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ 0, "clean" }, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("the device or mount cannot be read (a mount that\n"
			       "failed: the device that was removed or poisoned is\n"
			       "named)"),
		{ 3, "problems found (also an invalid superblock or log header)" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-logplay(8), famfs-check(8), famfs-df(8)",
};

static void collect(void *arg, const char *msg)
{
	json_object_array_add(arg, famfs_json_string(msg));
}

int cli_fsck_run(const char *prog, const char *target, bool json)
{
	struct json_object *problems = NULL;
	struct famfs_fsck_result r;
	struct famfs_fs fs;
	char mpt[PATH_MAX];
	int rc;

	rc = cli_open_target(target, &fs, mpt, sizeof(mpt));
	if (rc == -EBADMSG) {
		memset(&r, 0, sizeof(r));
		if (json) {
			problems = json_object_new_array();
			collect(problems, "superblock or log header invalid");
			cli_json_print(famfs_json_fsck(target, false, &r, problems));
		} else {
			printf("%s: %s: superblock or log header invalid\n", prog, target);
		}
		return FAMFS_EXIT_PROBLEM;
	}
	if (rc) {
		cli_say_failed_devs(target);
		return FAMFS_EXIT_ERROR;
	}
	if (json) {
		problems = json_object_new_array();
		if (!problems) {
			famfs_fs_close(&fs);
			famfs_err("%s: out of memory", target);
			return FAMFS_EXIT_ERROR;
		}
		if (famfs_verbose)	/* stdout is for the JSON */
			famfs_verbose = 0;
	}
	rc = famfs_fsck_cb(&fs, &r, json ? collect : NULL, problems);
	famfs_fs_close(&fs);
	if (rc) {
		json_object_put(problems);
		cli_say_failed_devs(target);
		return FAMFS_EXIT_ERROR;
	}
	if (json) {
		if (cli_json_print(famfs_json_fsck(target, true, &r, problems)))
			return FAMFS_EXIT_ERROR;
	} else {
		printf("%s: %s: %lu log entries (%lu files, %lu directories, %lu corrupt), %lu problems; %llu bytes used, %llu free\n",
		       prog, target, r.entries, r.files, r.dirs, r.bad_entries, r.problems,
		       (unsigned long long)r.used_bytes, (unsigned long long)r.free_bytes);
	}
	if (!json && r.pending_files)
		printf("%s: %s: %lu deleted files' memory (%llu bytes) pending reclaim (no problem: used until no host can reach it)\n",
		       prog, target, r.pending_files,
		       (unsigned long long)r.pending_bytes);
	if (!json && r.torn_slots) {
		char list[96] = "";
		unsigned n = r.torn_slots < 8 ? r.torn_slots : 8;

		for (unsigned i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%u", i ? ", " : "", r.torn_slot[i]);
		printf("%s: %s: %u host table slots torn (%s%s): each blocks every reclaim -- a first claim cut by a crash, one being written now, or a newer famfs's record (famfs hosts says which; famfs hosts evict --slot N, for a newer famfs's record with that famfs)\n",
		       prog, target, r.torn_slots, list,
		       r.torn_slots > n ? ", ..." : "");
	}
	return r.problems ? FAMFS_EXIT_PROBLEM : FAMFS_EXIT_OK;
}

int cmd_fsck(int argc, char **argv)
{
	bool json = false;
	int c;

	while ((c = cli_getopt(argc, argv, &cli_doc_fsck)) != -1) {
		switch (c) {
		case 'v': famfs_verbose++; break;
		case 'j': json = true; break;
		case 'h': return cli_usage(&cli_doc_fsck, 0);
		default: return cli_usage(&cli_doc_fsck, 1);
		}
	}
	if (argc - optind != 1)
		return cli_usage(&cli_doc_fsck, 1);
	return cli_fsck_run("famfs fsck", argv[optind], json);
}
