// SPDX-License-Identifier: GPL-2.0
/* famfs df: space and log usage of a famfs file system. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "famfs.h"

const struct cli_doc cli_doc_df = {
	.page = "famfs-df", .prog = "famfs df",
	.summary = "show space and log usage",
	.synopsis = { "famfs df [-j] MPT|DEV" },
	.description =
		"Summarize the famfs file system mounted at MPT or on DEV (mounted or\n"
		"not): device size, the space the superblock and log reserve, the\n"
		"space allocated to files (every strip of an interleaved file) and the\n"
		"free space (in 2 MiB allocation units, as the allocator sees the log),\n"
		"log entries used and the log's capacity (in a compact log: 256-byte\n"
		"slots, one per small file, up to four for long paths or many\n"
		"extents), the number of files and\n"
		"directories, whether this host is the master or a client, and whether\n"
		"the memory is cache-coherent: as the superblock records it (famfs\n"
		"mkfs --noncoherent, famfs tune) and, when mounted, as this host's\n"
		"mount runs (-o coherent / -o noncoherent override the superblock).\n"
		"A file system with member devices (famfs mkfs PRIMARY MEMBER...,\n"
		"famfs devadd) also shows each device's size, used and free space on\n"
		"a line of its own; size, reserved, used and free are then the sums.\n"
		"\n"
		"A log entry that cannot be parsed at all (famfs fsck names it) may own\n"
		"any memory the other entries leave: then nothing is free (the master\n"
		"allocates nothing until the log is repaired), and that memory is shown\n"
		"as unknown, with a warning.\n"
		"A log at least 90% full is warned about on stderr: when it is full,\n"
		"new files and directories fail.\n"
		"\n"
		"Files and directories removed with famfs rm are not counted as files\n"
		"or directories; their number is shown on a line of its own, with the\n"
		"memory of the files: it stays used (pending reclaim) until the\n"
		"master logs a RECLAIM for it, once no host can reach it any more;\n"
		"then it is free (zeroed before a new file gets it) and shown as\n"
		"reclaimed.  The master reclaims only while the host table is armed\n"
		"(famfs hosts init before clients mount, or famfs hosts arm): while\n"
		"memory is pending and the table is not armed (or there is none), a\n"
		"\"reclaim waits\" line says so.  With -j: a \"deleted\" object (files,\n"
		"dirs, pending_bytes, reclaimed_files, reclaimed_bytes, host_table:\n"
		"armed, not armed, none or unreadable) on a file system that has\n"
		"deletes.\n"
		"\n"
		"Small files (below 2 MiB) take 4 KiB pages inside 2 MiB units that\n"
		"several of them share: such a unit counts as used, whole; a line of\n"
		"its own says how many units are shared and how many of their pages\n"
		"are used and free (room for more small files only).\n",
	.opts = (const struct cli_opt[]){
		{ 'j', "json", NULL, "print the summary as JSON on stdout (see JSON)" },
		{ 0 } },
	.sections = (const struct cli_section[]){
		{ "JSON",
		  "One object: target, mount_point and device (null when unknown),\n"
		  "fs_uuid, master_uuid, role (master or client), size, reserved,\n"
		  "used, free, unknown (memory entries that cannot be parsed may own)\n"
		  "and alloc_unit (bytes), free_1g_runs (wholly free 1 GiB-aligned\n"
		  "GiBs, where mkfile/cp --align put files), log {size, entries, capacity, free_entries,\n"
		  "format, slot_size, used} (format v1 or compact; capacity, used and\n"
		  "free_entries count slot_size slots), files, directories,\n"
		  "corrupt_entries, small_files {shared_units, pages_used,\n"
		  "pages_free, page_size} (a file system with small files only),\n"
		  "devices (an array, one object per device:\n"
		  "index, role primary or member, dev_uuid (members), path (this\n"
		  "host's node, null when not known), attached, failed and\n"
		  "mount_failed (as famfs.ko has the device: failed when it was\n"
		  "removed or poisoned, mount_failed when any device was,\n"
		  "which fails the whole mount; null when not mounted), size,\n"
		  "reserved, used, free,\n"
		  "unknown, free_1g_runs, and with small files small_shared_units,\n"
		  "small_pages_used, small_pages_free; the top-level ones are their\n"
		  "sums), coherence\n"
		  "(coherent or noncoherent, the superblock's) and mount_coherence\n"
		  "(this host's mount; null when not mounted).  Example:\n"
		  "  famfs df -j /mnt/famfs | jq .log.free_entries\n", false },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("the device or mount cannot be read (a mount that\n"
			       "failed: the device that was removed or poisoned is\n"
			       "named), or its superblock or log header is invalid"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-fsck(8), df(1)",
};

static const char *human(uint64_t v, char *buf, size_t n)
{
	static const char u[] = "KMGTP";
	double d = (double)v;
	int i = -1;

	while (d >= 1024 && i < 4) {
		d /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, n, "%llu B", (unsigned long long)v);
	else
		snprintf(buf, n, "%.1f %ciB", d, u[i]);
	return buf;
}

/* "noncoherent" or "coherent" as /proc/self/mounts shows the famfs mount
 * at mpt, NULL when it is not there */
static const char *mount_mode(const char *mpt)
{
	char line[4096], m[PATH_MAX], opts[2048];
	const char *mode = NULL;
	FILE *f;

	if (!*mpt || !(f = fopen("/proc/self/mounts", "re")))
		return NULL;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %4095s famfs %2047s", m, opts) == 2 &&
		    !strcmp(m, mpt)) {
			size_t n = strlen(opts);

			mode = strstr(opts, ",noncoherent") &&
			       (strstr(opts, ",noncoherent,") ||
				!strcmp(opts + n - 12, ",noncoherent")) ?
			       "noncoherent" : "coherent";
		}
	fclose(f);
	return mode;
}

/* one line per device, when there is more than the primary (one device:
 * the output is as it always was) */
static void print_devices(const struct famfs_fs *fs, const struct famfs_df *df)
{
	char hs[32], hu[32], hf[32], u[37];

	printf("  devices      %u (size, used, free each; the lines above are their sums)\n",
	       df->ndevs);
	for (unsigned i = 0; i < df->ndevs; i++) {
		const struct famfs_logdev *ld = famfs_logdevs_get(&fs->devs, i);

		if (i && ld)
			famfs_uuid_str(ld->dev_uuid, u);
		printf("    %2u %-7s  %llu (%s)  used %llu (%s)  free %llu (%s)  %s%s%s%s\n",
		       i, i ? "member" : "primary",
		       (unsigned long long)df->dev[i].size,
		       human(df->dev[i].size, hs, sizeof(hs)),
		       (unsigned long long)df->dev[i].used,
		       human(df->dev[i].used, hu, sizeof(hu)),
		       (unsigned long long)df->dev[i].free,
		       human(df->dev[i].free, hf, sizeof(hf)),
		       i && ld ? u : "", df->dev[i].path[0] ? " " : "",
		       df->dev[i].path,
		       !df->dev[i].asked ? "" :
		       !df->dev[i].attached ? " (not attached to this mount)" :
		       df->dev[i].failed ? " (FAILED: removed or poisoned; the mount fails with EIO)" :
		       df->dev[i].mount_failed ? " (the mount failed: another device did)" : "");
	}
}

int cmd_df(int argc, char **argv)
{
	char mpt[PATH_MAX], dev[PATH_MAX], h[32], us[37];
	struct famfs_fs fs;
	struct famfs_df df;
	const char *target, *sbmode, *mmode;
	bool json = false;
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_df)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'h': return cli_usage(&cli_doc_df, 0);
		default: return cli_usage(&cli_doc_df, 1);
		}
	}
	if (argc - optind != 1)
		return cli_usage(&cli_doc_df, 1);
	target = argv[optind];
	if (cli_open_target(target, &fs, mpt, sizeof(mpt))) {
		cli_say_failed_devs(target);
		return FAMFS_EXIT_ERROR;
	}
	if (fs.dev.fd >= 0)
		snprintf(dev, sizeof(dev), "%s", fs.dev.path);
	else if (cli_mount_source(mpt, dev, sizeof(dev)))
		dev[0] = '\0';
	rc = famfs_df(&fs, &df);
	if (rc) {
		famfs_fs_close(&fs);
		cli_say_failed_devs(target);
		return FAMFS_EXIT_ERROR;
	}
	famfs_df_mount_devs(mpt, &df);
	sbmode = le32toh(fs.sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_NONCOHERENT ?
		 "noncoherent" : "coherent";
	mmode = mount_mode(mpt);
	if (json) {
		struct json_object *o = famfs_json_df(target, mpt, dev, &fs, &df);

		if (o) {
			json_object_object_add(o, "coherence",
					       json_object_new_string(sbmode));
			json_object_object_add(o, "mount_coherence", mmode ?
					       json_object_new_string(mmode) : NULL);
		}
		rc = cli_json_print(o);
		famfs_df_log_warn(*mpt ? mpt : dev, &df);
		famfs_fs_close(&fs);
		return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
	}
	famfs_uuid_str(fs.sb->fs_uuid, us);
	printf("famfs df: %s%s%s%s\n", *mpt ? mpt : dev, *mpt && *dev ? " (" : "",
	       *mpt && *dev ? dev : "", *mpt && *dev ? ")" : "");
	printf("  fs uuid      %s (%s here)\n", us, fs.master ? "master" : "client");
	printf("  size         %llu (%s)\n", (unsigned long long)df.size,
	       human(df.size, h, sizeof(h)));
	printf("  reserved     %llu (%s, superblock and log)\n",
	       (unsigned long long)df.reserved, human(df.reserved, h, sizeof(h)));
	printf("  used         %llu (%s)\n", (unsigned long long)df.used,
	       human(df.used, h, sizeof(h)));
	printf("  free         %llu (%s)\n", (unsigned long long)df.free,
	       human(df.free, h, sizeof(h)));
	printf("  free 1g runs %llu (wholly free 1 GiB-aligned GiBs: room for files famfs.ko maps with 1 GiB pages)\n",
	       (unsigned long long)df.free_1g);
	if (df.small_units)
		printf("  small files  %llu shared units (in used): %llu pages of 4 KiB used, %llu free\n",
		       (unsigned long long)df.small_units,
		       (unsigned long long)df.small_pages_used,
		       (unsigned long long)df.small_pages_free);
	if (df.ndevs > 1)
		print_devices(&fs, &df);
	if (df.unparsed_entries) {
		printf("  unknown      %llu (%s, may be owned by log entries that cannot be parsed)\n",
		       (unsigned long long)df.unknown,
		       human(df.unknown, h, sizeof(h)));
		famfs_warn("%s: %lu log entries cannot be parsed: the %llu bytes they may own are not counted as free, and nothing is allocated until the log is repaired (run famfs fsck)",
			   *mpt ? mpt : dev, df.unparsed_entries,
			   (unsigned long long)df.unknown);
	}
	if (df.log_compact)
		printf("  log entries  %llu in %llu of %llu slots (%llu free, compact log: a small file takes one slot)\n",
		       (unsigned long long)df.log_entries,
		       (unsigned long long)df.log_used,
		       (unsigned long long)df.log_capacity,
		       (unsigned long long)(df.log_capacity - df.log_used));
	else
		printf("  log entries  %llu of %llu (%llu free)\n",
		       (unsigned long long)df.log_entries,
		       (unsigned long long)df.log_capacity,
		       (unsigned long long)(df.log_capacity - df.log_entries));
	printf("  files        %lu\n  directories  %lu\n", df.files, df.dirs);
	if (df.deleted_files || df.deleted_dirs)
		printf("  deleted      %lu files, %lu directories: %llu bytes (%s) pending reclaim (used until no host can reach it), %llu bytes reclaimed (free again)\n",
		       df.deleted_files, df.deleted_dirs,
		       (unsigned long long)df.pending_reclaim,
		       human(df.pending_reclaim, h, sizeof(h)),
		       (unsigned long long)df.reclaimed);
	if (df.pending_reclaim && df.hosts_armed == 0)
		printf("  reclaim      waits: %s\n", FAMFS_UNARMED_WHY);
	else if (df.pending_reclaim && df.hosts_armed == -ENOENT)
		printf("  reclaim      waits: no host table (famfs hosts init on the master)\n");
	else if (df.pending_reclaim && df.hosts_armed < 0)
		printf("  reclaim      waits: the host table's header does not verify (famfs hosts repair on the master)\n");
	printf("  coherence    %s (superblock)", sbmode);
	if (mmode)
		printf(", this mount %s%s", mmode,
		       strcmp(mmode, sbmode) ? " (overridden)" : "");
	printf("\n");
	if (df.bad_entries)
		printf("  corrupt log entries  %lu (run famfs fsck)\n", df.bad_entries);
	famfs_df_log_warn(*mpt ? mpt : dev, &df);
	famfs_fs_close(&fs);
	return FAMFS_EXIT_OK;
}
