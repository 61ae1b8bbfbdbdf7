// SPDX-License-Identifier: GPL-2.0
/*
 * famfs (famfs-cli): the user-space tool that owns all famfs metadata.
 * One dispatcher, one file per subcommand, libfamfs underneath.  Run as
 * mount.famfs, mkfs.famfs or fsck.famfs (links), it is the helper of
 * mount(8), mkfs(8) or fsck(8) for "-t famfs".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "famfs.h"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct cli_doc *doc;
} cmds[] = {
#define CLI_ENTRY(n) { #n, cmd_##n, &cli_doc_##n },
	CLI_COMMANDS(CLI_ENTRY)
	{ "creat", cmd_mkfile, &cli_doc_mkfile },	/* alias */
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

/* every manual page, famfs(8) first; famfs(8) lists the commands among them */
static const struct cli_doc cli_doc_famfs;
static const struct cli_doc *const cli_pages[] = {
	&cli_doc_famfs,
#define CLI_PAGE(n) &cli_doc_##n,
	CLI_COMMANDS(CLI_PAGE)
	&cli_doc_mount_helper,
	&cli_doc_mkfs_helper,
	&cli_doc_fsck_helper,
	NULL,
};

static const struct cli_section famfs_sections[] = {
	{ "ENVIRONMENT",
	  "FAMFS_HOST_ID_FILE: the file holding this host's id (default\n"
	  "/etc/famfs/host-uuid, created on first use)\n"
	  "FAMFS_BOOT_ID_FILE: the file holding this boot's id (default\n"
	  "/proc/sys/kernel/random/boot_id; for tests)\n"
	  "FAMFS_CLAIM_DIR: where this host's claims of the master role are\n"
	  "kept (default /var/lib/famfs; for tests)\n"
	  "FAMFS_SCAN_ROOT: the directory whose pmemN and daxX.Y entries are\n"
	  "read to find a file system's devices (default /dev; for tests)\n"
	  "FAMFS_DEBUG_FLUSH=1: at exit, print on stderr how the command flushed\n"
	  "the metadata it wrote (msync calls, O_DIRECT writes, cache-line\n"
	  "flushes) and refreshed what it read (invalidations, CRC retries)\n"
	  "FAMFS_DEBUG_STORES=1: at exit, print on stderr the bytes the command\n"
	  "stored into shared memory: file data zeroed and filled, log entries\n"
	  "and commits, superblock-area records (the bench's per-file figure)\n"
	  "FAMFS_LOG_AUTOGROW=0: the master does not grow a full compact log by\n"
	  "itself (famfs-loggrow(8)); creates then fail with \"log full\"\n"
	  "FAMFS_HOST_SETTLE_MS: how long a host claiming a slot of the host\n"
	  "table waits before reading it back (default 1000; longer is taken,\n"
	  "shorter only with FAMFS_TEST_SETTLE=1: for tests)\n",
	  false },
	{ "FILES",
	  "/etc/famfs/host-uuid is this host's id: random, created on first\n"
	  "use, never derived from /etc/machine-id.  The host that runs famfs\n"
	  "mkfs is the master: only it can create files; every other host is a\n"
	  "client.  /var/lib/famfs/FS-UUID.claim remembers that this host holds\n"
	  "the master role of file system FS-UUID (famfs-master(8)).\n", true },
	{ "SHARING DATA BETWEEN HOSTS",
	  "The hosts share the memory, not their CPU caches: a byte one host\n"
	  "stored may sit in its cache, and another host may hold an old copy of\n"
	  "it in its own.  So a writer publishes: write(2) is published when it\n"
	  "returns (famfs.ko copies with cache-bypassing stores); stores through a\n"
	  "mapping are published by msync(2) with MS_SYNC, fsync(2) or\n"
	  "fdatasync(2) on the file, which write back the cache lines the caller\n"
	  "dirtied.  Then it tells the readers (e.g. through a flag it publishes\n"
	  "the same way).  A reader on another host that may have read the bytes\n"
	  "before drops its cached copies first: clflush or clflushopt of the\n"
	  "lines through its mapping, then a fence, then it reads.\n"
	  "\n"
	  "  p = mmap(NULL, len, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0);\n"
	  "  memcpy(p, buf, len);                    /* writer, host A */\n"
	  "  msync(p, len, MS_SYNC);                 /* published */\n"
	  "\n"
	  "  for (off = 0; off < len; off += 64)     /* reader, host B */\n"
	  "          _mm_clflushopt(p + off);\n"
	  "  _mm_mfence();\n"
	  "  memcpy(buf, p, len);\n"
	  "\n"
	  "The tool does the same with its metadata: the superblock, every log\n"
	  "entry and the log header are flushed before anyone can see them\n"
	  "(an entry before the header's next index that commits it), and a\n"
	  "reader that finds a bad CRC drops its cached copy and checks once\n"
	  "more before reporting it.  famfs logplay --follow keeps a client's\n"
	  "mount up to date with the master's log.\n", true },
	{ "MOUNTING",
	  "famfs mount DEV MPT, or mount -t famfs DEV MPT through the helper\n"
	  "mount.famfs, or an fstab line (see mount.famfs(8)):\n"
	  "  /dev/pmem0  /mnt/famfs  famfs  defaults,noauto  0 0\n"
	  "umount MPT unmounts.\n", false },
	{ "ONLY FAMFS CHANGES THE TREE",
	  "The log is the tree of a famfs file system: every host builds its\n"
	  "own from it.  So on a mount made by famfs mount, mount.famfs or\n"
	  "-o follow (the option protect, shown in /proc/mounts), famfs.ko\n"
	  "refuses what other programs would change behind the log: unlink,\n"
	  "rmdir, rename, link, symlink, mknod, mkdir, creating a new name\n"
	  "(open with O_CREAT) and chmod and chown fail with EPERM (rm, mv,\n"
	  "chmod, touch, cp print \"Operation not permitted\"), on the master\n"
	  "and on clients, and the kernel log says which famfs command to use:\n"
	  "  famfs (pmem0): rm of /d/x refused: use famfs rm\n"
	  "Use famfs creat, cp, mkdir, rm, mv, chmod and chown instead (on the\n"
	  "master); they log the change and then make it through famfs.ko's\n"
	  "FAMFSIOC_NS.  .meta is famfs's own.  Reading, writing and mapping\n"
	  "files, and their times (touch of an existing file), are as always.\n"
	  "A write that would clear a set-user-ID bit is refused as a chmod.\n"
	  "-o noprotect (or mount(2) without the option, as the 2024 famfs user\n"
	  "space did) lets every program change the tree again; those changes\n"
	  "reach no other host and the next replay undoes or refuses them.\n"
	  "famfs mount -o remount,protect|noprotect DEV MPT switches a mount.\n",
	  false },
	{ 0 }
};

static const struct cli_doc cli_doc_famfs = {
	.page = "famfs", .prog = "famfs",
	.summary = "manage famfs, a file system for memory shared between hosts",
	.synopsis = { "famfs [--version] [--help] COMMAND [ARGS]",
		      "famfs COMMAND --help", "famfs help --man PAGE" },
	.description =
		"famfs lays out files in memory that several hosts share (CXL or\n"
		"NVDIMM memory, /dev/pmemN or /dev/daxX.Y).  It keeps all metadata in\n"
		"a log on the device; famfs.ko only maps each file to its memory.\n"
		"The tool is also installed as famfs-cli.  Each command has its own\n"
		"manual page, famfs-COMMAND(8), and --help.\n",
	.opts = (const struct cli_opt[]){
		{ 0, "version", NULL, "print the version and the on-media format version" },
		{ 0 } },
	.sections = famfs_sections,
	.exits = (const struct cli_exit[]){
		{ 0, "success" },
		{ 1, "usage error (bad option or argument)" },
		{ 2, "error: the operation failed (device, mount, I/O, permission,\n"
		     "device or log full, this host is a client, ...)" },
		{ 3, "the command ran to the end but found problems (fsck: an\n"
		     "inconsistency; check: unmapped files; logplay: conflicts or\n"
		     "skipped corrupt entries; verify: data mismatch)" },
		CLI_EXIT_END },
	.see_also = "famfs-mkfs(8), famfs-mount(8), famfs-logplay(8), famfs-mkfile(8),\n"
		    "famfs-cp(8), famfs-mkdir(8), famfs-rm(8), famfs-mv(8),\n"
		    "famfs-chmod(8), famfs-chown(8), famfs-fsck(8), famfs-getmap(8),\n"
		    "famfs-check(8), famfs-verify(8), famfs-df(8), famfs-bind(8),\n"
		    "famfs-master(8), famfs-flush(8), famfs-tune(8), famfs-loggrow(8), famfs-devices(8),\n"
		    "famfs-devadd(8), famfs-hosts(8), "
		    "mount.famfs(8), mkfs.famfs(8), fsck.famfs(8)\n",
	.commands = cli_pages,
	.exits_every = true,
};

static const struct cli_doc *find_page(const char *name)
{
	for (int i = 0; cli_pages[i]; i++)
		if (!strcmp(name, cli_pages[i]->page))
			return cli_pages[i];
	for (size_t i = 0; i < NCMDS; i++)
		if (!strcmp(name, cmds[i].name))
			return cmds[i].doc;
	return NULL;
}

/* famfs help [CMD] | --man PAGE | --man-pages */
static int help(int argc, char **argv)
{
	const struct cli_doc *d;

	if (argc == 2 && !strcmp(argv[1], "--man-pages")) {
		for (int i = 0; cli_pages[i]; i++)
			printf("%s\n", cli_pages[i]->page);
		return FAMFS_EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "--man")) {
		d = find_page(argv[2]);
		if (!d) {
			famfs_err("help --man %s: no such page (famfs help --man-pages lists them)",
				  argv[2]);
			return FAMFS_EXIT_USAGE;
		}
		cli_man(stdout, d);
		return fflush(stdout) ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
	}
	if (argc == 2 && (d = find_page(argv[1])))
		return cli_usage(d, 0);
	if (argc == 1)
		return cli_usage(&cli_doc_famfs, 0);
	famfs_err("help: usage: famfs help [COMMAND | --man PAGE | --man-pages]");
	return FAMFS_EXIT_USAGE;
}

static void print_flush_stats(void)
{
	famfs_flush_stats_print(stderr);
}

static void print_store_stats(void)
{
	famfs_store_stats_print(stderr);
}

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

int main(int argc, char **argv)
{
	const char *name, *base = strrchr(argv[0], '/');

	base = base ? base + 1 : argv[0];
	famfs_replay_install();
	if (env_on("FAMFS_DEBUG_FLUSH"))
		atexit(print_flush_stats);
	if (env_on("FAMFS_DEBUG_STORES"))
		atexit(print_store_stats);
	if (!strcmp(base, "mount.famfs"))
		return cmd_mount_helper(argc, argv);
	if (!strcmp(base, "mkfs.famfs"))
		return cmd_mkfs_helper(argc, argv);
	if (!strcmp(base, "fsck.famfs"))
		return cmd_fsck_helper(argc, argv);
	if (argc < 2)
		return cli_usage(&cli_doc_famfs, 1);
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		return cli_usage(&cli_doc_famfs, 0);
	if (!strcmp(name, "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(name, "--version")) {
		printf("famfs %s (format %d)\n", FAMFS_CLI_VERSION,
		       FAMFS_FORMAT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < NCMDS; i++)
		if (!strcmp(name, cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	famfs_err("unknown command '%s'", name);
	return cli_usage(&cli_doc_famfs, 1);
}
