// SPDX-License-Identifier: GPL-2.0
/* famfs logplay: create what the log has and the mount lacks; --follow:
 * keep doing it as the master adds to the log. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "famfs.h"

static const struct cli_section logplay_sections[] = {
	{ "FOLLOWING",
	  "With --follow, logplay replays the log, then keeps the mount up to date:\n"
	  "every interval it reads the log's next index (dropping this CPU's cached\n"
	  "copy of the log header first: the master's write reached the memory,\n"
	  "not this host's cache) and replays the entries added since, usually\n"
	  "within a second of the master's famfs mkfile, cp or mkdir.  Between\n"
	  "rounds it holds no file of the mount open, so it does not keep umount\n"
	  "busy (only while a round runs, a few milliseconds: umount may then\n"
	  "say the target is busy; try again).\n"
	  "\n"
	  "It stops, exiting as below after a summary line, when MPT is unmounted\n"
	  "(noticed at once through inotify, or at the next round: MPT is no longer\n"
	  "that mount or its meta files are gone), or on SIGINT or SIGTERM (after\n"
	  "the entry being replayed).  A full log is reported once; following goes\n"
	  "on.  A log entry not written whole as this host reads it (a CRC\n"
	  "mismatch, torn slots) is not skipped while following: it is reported\n"
	  "once and read again every round (the master may still have been writing\n"
	  "it), and nothing after it, nor any file before it, is replayed until it\n"
	  "verifies (it may be the DELETE of such a file).  One whose fields fail\n"
	  "their checks reads the same on every host and is skipped, reported.\n"
	  "With deletes in the log, a replay from the first entry (famfs logplay,\n"
	  "a mount, a follower's first round) makes nothing created before an\n"
	  "entry not written whole, nor anything after a log segment it cannot\n"
	  "read: each is named, not made (exit 3).\n"
	  "Replay never touches a file the mount already has: a file whose map\n"
	  "differs from the log is a conflict, reported (on stderr, as it is found)\n"
	  "and left alone.  A follower that is killed loses nothing: a new one\n"
	  "starts with a full replay, which only creates what is missing.\n"
	  "\n"
	  "  famfs logplay --follow /mnt/famfs &       # on a client, after mount\n"
	  "  famfs logplay --follow -v -i 50 /mnt/famfs  # every 50 ms, verbose\n", false },
	{ 0 }
};

const struct cli_doc cli_doc_logplay = {
	.page = "famfs-logplay", .prog = "famfs logplay",
	.summary = "create the files and directories of the log",
	.synopsis = { "famfs logplay [-n] [-v] MPT",
		      "famfs logplay --follow [-i MS] [-v] MPT" },
	.description =
		"Replay the log of the famfs file system mounted at MPT: create the\n"
		"files and directories it lacks (idempotent), and remove, move and\n"
		"give a mode or owner to what famfs rm, mv, chmod and chown changed\n"
		"on the master.  A replay from the log's first entry (famfs logplay,\n"
		"a mount, the first round of --follow) makes the tree what the whole\n"
		"log says: a deleted file still here is removed and a moved one\n"
		"moved where it ends (each found by its map: nothing else is ever\n"
		"removed or moved), and what the log deletes later is never made;\n"
		"--follow then applies each new entry in the log's order.  Reports\n"
		"conflicts: a\n"
		"file whose map differs from the log, a path logged twice, a file where\n"
		"a directory belongs, a directory at a logged directory's path owned by\n"
		"neither root nor the logged owner (not taken: nothing logged beneath it\n"
		"is replayed; one that is taken gets the logged owner and mode), a\n"
		"DELETE, RENAME or SETATTR of what the log does not have at its path\n"
		"(or of a file here that is not the logged one), a RENAME onto a path\n"
		"that is there, a directory to remove that is not empty here.\n"
		"Corrupt log entries are reported and skipped.\n"
		"famfs mount and mount.famfs replay the log already; a client runs\n"
		"logplay to see what the master created since, or keeps\n"
		"logplay --follow running to see it as it comes (see FOLLOWING).\n",
	.opts = (const struct cli_opt[]){
		{ 'n', "dryrun", NULL, "only print what would be created" },
		{ 'f', "follow", NULL,
		  "keep following the log until MPT is unmounted or\n"
		  "SIGINT/SIGTERM comes" },
		{ 'i', "interval", "MS",
		  "with --follow: look at the log every MS milliseconds\n"
		  "(10 to 60000, default 200)" },
		{ 'v', "verbose", NULL,
		  "print a summary (with --follow: a line for each\n"
		  "round that replayed entries)" },
		{ 0 } },
	.sections = logplay_sections,
	.exits = (const struct cli_exit[]){
		{ 0, "success; with --follow: MPT was unmounted, or SIGINT/SIGTERM\n"
		     "came, and no problem was found" },
		CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("MPT is not a famfs mount, or creating a file failed\n"
			       "(e.g. MAP_CREATE)"),
		{ 3, "conflicts or corrupt entries found (with --follow: while\n"
		     "following)" },
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-mount(8), famfs-fsck(8), inotify(7), msync(2)",
};

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static void print_summary(const struct famfs_logplay_result *r, bool dry)
{
	printf("famfs logplay: %lu files and %lu directories %s, %lu present, %lu conflicts, %lu corrupt entries skipped, %lu errors, %lu %s, %lu %s, %lu %s\n",
	       r->created_files, r->created_dirs,
	       dry ? "to create" : "created", r->present, r->conflicts,
	       r->bad_entries, r->errors, r->removed,
	       dry ? "to remove" : "removed", r->moved,
	       dry ? "to move" : "moved", r->changed,
	       dry ? "to change" : "changed");
	if (r->withheld)
		printf("famfs logplay: %lu files and directories of the log not made (named above: made before an entry or a log segment that cannot be read here, which may have deleted them, or on memory another file has)\n",
		       r->withheld);
}

static int exit_code(const struct famfs_logplay_result *r)
{
	if (r->errors)
		return FAMFS_EXIT_ERROR;
	return (r->conflicts || r->bad_entries || r->withheld) ?
	       FAMFS_EXIT_PROBLEM : FAMFS_EXIT_OK;
}

int cli_follow(const char *mpt, unsigned interval)
{
	struct sigaction sa;
	struct famfs_follow f;
	struct famfs_fs fs;
	int rc;

	/* refuse what is not a famfs mount before following it */
	if (famfs_fs_open_mount(mpt, false, &fs))
		return FAMFS_EXIT_ERROR;
	famfs_fs_close(&fs);
	if (famfs_follow_init(&f, mpt, interval, NULL)) {
		famfs_follow_fini(&f);
		return FAMFS_EXIT_ERROR;
	}
	/* no SA_RESTART: a signal cuts the wait short */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	f.stop_flag = &stop_sig;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("famfs logplay: following %s every %u ms (umount, SIGINT or SIGTERM stops)\n",
	       f.mpt, interval);
	rc = famfs_follow(&f);
	switch (rc) {
	case FAMFS_FOLLOW_UNMOUNTED:
		printf("famfs logplay: %s was unmounted: stopped after %llu entries\n",
		       f.mpt, (unsigned long long)f.played);
		break;
	case FAMFS_FOLLOW_STOPPED:
		printf("famfs logplay: %s: stopped by %s after %llu entries\n",
		       f.mpt, strsignal(stop_sig), (unsigned long long)f.played);
		break;
	default:
		famfs_err("%s: following stopped: %s", f.mpt, strerror(-rc));
		break;
	}
	print_summary(&f.r, false);
	famfs_follow_fini(&f);
	if (rc < 0)
		return FAMFS_EXIT_ERROR;
	return exit_code(&f.r);
}

int cmd_logplay(int argc, char **argv)
{
	struct famfs_logplay_result r;
	struct famfs_fs fs;
	bool dry = false, follow_opt = false;
	uint32_t interval = 200;
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_logplay)) != -1) {
		switch (c) {
		case 'n': dry = true; break;
		case 'f': follow_opt = true; break;
		case 'i':
			if (famfs_parse_u32(optarg, 10, &interval) ||
			    interval < 10 || interval > 60000) {
				famfs_err("--interval %s: milliseconds from 10 to 60000",
					  optarg);
				return FAMFS_EXIT_USAGE;
			}
			break;
		case 'v': famfs_verbose++; break;
		case 'h': return cli_usage(&cli_doc_logplay, 0);
		default: return cli_usage(&cli_doc_logplay, 1);
		}
	}
	if (argc - optind != 1)
		return cli_usage(&cli_doc_logplay, 1);
	if (follow_opt && dry) {
		famfs_err("--follow and --dryrun do not go together");
		return FAMFS_EXIT_USAGE;
	}
	if (follow_opt)
		return cli_follow(argv[optind], interval);
	if (famfs_fs_open_mount(argv[optind], false, &fs))
		return FAMFS_EXIT_ERROR;
	/* this host in the host table: registered before the replay maps
	 * anything, its slot brought up to what it replayed after */
	{
		uint64_t n0 = famfs_log_refresh_next(&fs);
		struct famfs_logplay *lp;

		rc = dry ? 0 : famfs_hosts_checkin(&fs, false, false, 0, NULL);
		if (rc == -EPROTONOSUPPORT)
			famfs_err("%s: not replayed: a newer famfs set a flag in the host table (named above): this famfs cannot take part (upgrade it)",
				  argv[optind]);
		else if (rc && rc != -ESTALE)
			famfs_err("%s: not replayed: this host cannot register in the host table (%s)",
				  argv[optind], strerror(-rc));
		if (rc) {
			famfs_fs_close(&fs);
			return FAMFS_EXIT_ERROR;
		}
		/* kept for the check-in: its namespace says which DELETEs
		 * are pending */
		lp = famfs_logplay_new(n0);
		memset(&r, 0, sizeof(r));
		rc = lp ? famfs_logplay_more(lp, &fs, dry, &r, NULL, NULL) : -ENOMEM;
		/* evicted, or a newer famfs's table since: fails, as the
		 * follower stops (any other failure: said, the slot keeps
		 * its last report).  replayed is how far the replay read:
		 * one stopped at a lost segment reports no more */
		if (!rc && !dry) {
			int hr = famfs_hosts_checkin_lp(&fs, false, true,
							famfs_logplay_replayed(lp),
							lp, NULL);

			if (hr == -ESTALE || hr == -EPROTONOSUPPORT)
				rc = hr;
			else if (hr)
				famfs_err("%s: replayed, but this host's slot in the host table is not updated (%s): it keeps its last report",
					  argv[optind], strerror(-hr));
		}
		famfs_logplay_free(lp);
	}
	famfs_fs_close(&fs);
	if (rc)
		return FAMFS_EXIT_ERROR;
	if (famfs_verbose || dry)
		print_summary(&r, dry);
	return exit_code(&r);
}
