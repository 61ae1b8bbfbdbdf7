// SPDX-License-Identifier: GPL-2.0
/* famfs hosts: the host table (format revision 3, HOSTS; docs/lifecycle.md
 * "Reclaim across hosts") -- list its slots, make it (master), evict a
 * host by uuid or a slot by number, forget a fence, write a torn header
 * anew (master). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>
#include <uuid/uuid.h>

#include "famfs.h"

const struct cli_doc cli_doc_hosts = {
	.page = "famfs-hosts", .prog = "famfs hosts",
	.summary = "list the host table; make it, arm it, evict a host (master only)",
	.synopsis = { "famfs hosts [-j] MPT|DEVICE",
		      "famfs hosts init|arm|reclaim MPT",
		      "famfs hosts repair [--force] MPT",
		      "famfs hosts evict [--generation G] HOST-UUID MPT",
		      "famfs hosts evict --slot N | --forget HOST-UUID MPT" },
	.description =
		"The host table (format revision 3, INCOMPAT_HOSTS) has a slot for every\n"
		"host that mounts the file system: its host uuid, hostname, role,\n"
		"generation (one more at each boot that registers), the log index it\n"
		"registered at, the entries it has replayed, the lowest deleted file\n"
		"whose memory it still holds (holds_from) and how much, and its last\n"
		"beat.  The master reclaims a deleted file's memory only when the\n"
		"table is armed and no registered, not evicted slot can still reach\n"
		"it; beat times are shown, never used.  Hosts register when they mount\n"
		"and at every famfs logplay or follow round.\n"
		"\n"
		"Armed: a host that mounted before the table existed and never replays\n"
		"again (no -o follow, no logplay) has no slot, and nothing the master\n"
		"reads says it exists; so the master reclaims only once the table is\n"
		"known to list every host that can map the file system: a table made\n"
		"by init (before any client mounted) is armed; the one the first famfs\n"
		"rm of a file makes is not, until arm.\n"
		"\n"
		"Without a subcommand every slot in use is listed (-j: as JSON): state\n"
		"registered, evicted (its (uuid, boot id, generation) is in the\n"
		"header's evicted list), unregistered, or torn (no copy verifies, or\n"
		"one is a newer famfs's, -j: newer_famfs: it blocks every reclaim\n"
		"until evicted by slot).  NAMEHASH and BOOT\n"
		"(the first 8 hex digits of the whole name's hash and of the boot id;\n"
		"-j: name_hash and boot_id in full) tell apart clones whose names are\n"
		"cut to the same 15 bytes.\n"
		"\n"
		"init (master): makes the table, armed -- run it right after mkfs and\n"
		"the master's mount, before any client mounts.  The superblock gets the\n"
		"incompatible feature HOSTS (tools that predate it refuse the file\n"
		"system: unmount them first), 2 MiB of free memory of the primary\n"
		"device is zeroed and recorded by a HOSTS entry in the log, and mapped\n"
		"as .meta/.hosts.\n"
		"\n"
		"arm (master): arms a table that is not (the one the first famfs rm\n"
		"made).  Run it only once famfs hosts lists every host that has the\n"
		"file system mounted (a client registers at its next mount, famfs\n"
		"logplay or follow round): memory a host outside the table still maps\n"
		"would be given to new files.\n"
		"\n"
		"reclaim (master): the pass famfs rm and a create that finds no room\n"
		"run: a RECLAIM for every deleted file whose memory no registered host\n"
		"can reach any more (its replay is past the delete and its famfs.ko\n"
		"holds none of that memory: no mapping, pipe or O_DIRECT left); for\n"
		"each one kept, the host that keeps it and why (behind, holding,\n"
		"torn, or past the log's end: a slot that says it registered or\n"
		"replayed past the log's next index is not trusted); with the table\n"
		"not armed, nothing, and why.  What is freed is zeroed before a new\n"
		"file gets it.\n"
		"\n"
		"evict (master): fences a host that stopped: its (uuid, name, boot id,\n"
		"generation) goes to the evicted list (it stops if it is still running, and\n"
		"registers again only at its next boot).  --generation G (as famfs\n"
		"hosts shows it) refuses when the host has registered again since\n"
		"(a reboot: look again), and when two slots of the uuid have\n"
		"generation G (clones that registered at once: both named; --slot N\n"
		"fences one); without it the current generation is fenced, and\n"
		"named.  --slot N: a registration there is fenced and its record\n"
		"kept; a slot whose registration is fenced already (a host that is\n"
		"down), or that does not verify (torn: two claims at once, a write cut\n"
		"short; it blocks every reclaim until then), is zeroed -- not one\n"
		"holding a record of a later layout (a newer famfs's).  A slot whose\n"
		"host was evicted (by --slot or by uuid) and registered there again\n"
		"since (a reboot: its record says so, even once the fence is dropped\n"
		"as moot) is left alone (refused: a second --slot zeroes only the\n"
		"fenced boot's slot, never fences the live one); evict --generation\n"
		"G HOST-UUID fences that boot if meant.  A fenced host does not\n"
		"register again in the boot it was fenced in, whatever its slot holds\n"
		"later and whatever host uuid it shows then: a boot id is one kernel\n"
		"boot's, so every registration from a fenced boot is refused (a lost\n"
		"/etc/famfs/host-uuid made anew, or another container on that kernel,\n"
		"which shares its famfs.ko and its mappings).  The evicted list\n"
		"holds FAMFS_HOSTS_MAX_EVICT (50) fences (famfs hosts -j lists\n"
		"them); a full list drops only fences of hosts that registered again\n"
		"since under their name (rebooted; a clone of the uuid under another\n"
		"name never counts), else evict is refused.\n"
		"--forget HOST-UUID then drops every fence naming a host that is down\n"
		"for good (refused while a slot still holds its fenced registration:\n"
		"zero it first with a second evict --slot N); if that host runs again\n"
		"in the same boot it is no longer stopped, so forget only a host that\n"
		"will not.\n"
		"\n"
		"A slot is a host's by host uuid and host name (kept cut to 15 bytes\n"
		"and hashed whole).  Two hosts with one host uuid (a cloned image)\n"
		"and their own names have a slot each, and both count.  Clones that\n"
		"share a name too -- the image's default (empty, localhost,\n"
		"localhost.localdomain, (none)) included: a registration warns of it\n"
		"-- cannot be told apart: give each its own name or its own\n"
		"/etc/famfs/host-uuid.  A host renamed across a reboot (a name set\n"
		"late at boot, by DHCP say, too) registers in a new slot\n"
		"(said, naming the old one): its slot under the old name stays\n"
		"registered and keeps every later deleted file's memory until evict\n"
		"--slot N (a second one zeroes it).  A host renamed while it runs (the\n"
		"same boot) keeps its slot.  A reboot under the same name takes the\n"
		"slot again with a new generation.  Evicting by HOST-UUID fences every\n"
		"slot of that uuid (clones too): use --slot N for one of them.  Tools\n"
		"of the table's earlier layouts (FAMSHOS2, FAMSHOS3) must not share a\n"
		"file system with this one (FAMSHOS4): a FAMSHOS3 header is named as\n"
		"such and not understood, but its fences (uuid, boot id, generation,\n"
		"no name) are read and honoured, and repair --force carries them\n"
		"over (nameless: never dropped as moot); their slots are torn here.\n"
		"A FAMSHOS3 build does not refuse this file system (its HOSTS entry\n"
		"is the same): never mount it with one.\n"
		"\n"
		"repair (master): the header has two copies (a master write cut short\n"
		"leaves the other); one neither of whose copies verifies is written\n"
		"anew with no fences and not armed: hosts evicted before count again\n"
		"until evicted again, and nothing is reclaimed until famfs hosts arm.\n"
		"Meanwhile every host registers without the evicted list (one whose\n"
		"slot another host took stops) and nothing is reclaimed.  Refused\n"
		"while a copy verifies.  A header that verifies but is malformed (no\n"
		"writer makes it: an evicted count out of bounds, reserved bytes not\n"
		"zero, a fence with no host or generation 0, seq at its end, or two\n"
		"copies of one seq that differ) is treated as one that does not\n"
		"verify -- hosts register without the evicted list (said once) and\n"
		"nothing is reclaimed -- but is written anew only with --force (the\n"
		"refusal names the reason).  A header whose seq reached its end\n"
		"(UINT64_MAX - 1: no write past it) is started again from 1 by\n"
		"repair --force, its fences and flags kept.\n"
		"\n"
		"A newer famfs: a table armed by a newer famfs with a header flag this\n"
		"famfs does not know, a fence with such a flag, or a header of a later\n"
		"layout (FAMSHOS5 on) follows rules this one lacks.  This famfs then\n"
		"takes no part in it: its mount refuses (\"a newer famfs set flag X in\n"
		"the host table: this famfs cannot take part (upgrade it)\"), famfs\n"
		"logplay refuses, a follower stops, its master reclaims nothing, and\n"
		"repair refuses even with --force.  A slot holding a record of a\n"
		"later layout (FAMSHOR6 on), even beside one of this layout, shows\n"
		"torn here (it blocks every reclaim), and evict --slot does not zero\n"
		"it: the famfs that wrote it does.  Upgrade famfs on every host that\n"
		"mounts the file system; a host that goes back to this famfs leaves\n"
		"its slot torn until that famfs evicts it.\n"
		"\n"
		"famfs hosts shows a header it does not understand as \"unknown\"\n"
		"(-j: a \"header_error\" field with the reason).\n",
	.opts = (const struct cli_opt[]){
		{ 'j', "json", NULL, "list as JSON on stdout" },
		{ 's', "slot", "N", "evict: the slot to fence or zero" },
		{ 'g', "generation", "G", "evict: only if HOST-UUID's generation is G" },
		{ 'F', "forget", "HOST-UUID", "evict: drop the fences naming a host that is\n"
		  "down for good (room in a full evicted list)" },
		{ 'f', "force", NULL, "repair: also a header that verifies but is\n"
		  "malformed (written anew with no fences), or one whose\n"
		  "seq is at its end (started again, fences kept)" },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		CLI_EXIT_OK, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("no famfs file system there, it has no host table\n"
			       "(list, arm, evict), has one already (init), this\n"
			       "host is not the master (init, arm, reclaim, evict,\n"
			       "repair), no such host or slot, the host registered\n"
			       "again (evict --generation; evict --slot of a host\n"
			       "that registered there again since its eviction by\n"
			       "slot), two slots hold one boot of the host (evict\n"
			       "--slot, --generation), the slot holds a newer famfs's\n"
			       "record or changed while it was evicted (evict\n"
			       "--slot), the evicted list is full\n"
			       "(evict), no fence names the host or its slot still\n"
			       "holds its fenced registration (--forget), a header\n"
			       "copy verifies (repair; a malformed one without\n"
			       "--force; one a newer famfs set, always), or the\n"
			       "table could not be\n"
			       "read or written"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-rm(8), famfs-df(8), famfs-logplay(8)",
};

static const char *state_of(const struct famfs_host *h,
			    const struct famfs_hosts_ev *ev)
{
	if (h->state == FAMFS_HOST_TORN)
		return "torn";
	if (famfs_host_evicted(h, ev))
		return "evicted";
	return h->flags & FAMFS_HOST_REGISTERED ? "registered" : "unregistered";
}

static void clean_name(const struct famfs_host *h, char *out)
{
	memcpy(out, h->hostname, sizeof(h->hostname));
	out[sizeof(h->hostname)] = '\0';
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* the header's fences, for -j */
static struct json_object *evicted_json(const struct famfs_hosts_ev *ev)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < ev->n; i++) {
		struct json_object *e = json_object_new_object();
		char u[37], b[37], x[17], nm[17];

		famfs_uuid_str(ev->e[i].host_uuid, u);
		famfs_uuid_str(ev->e[i].boot_id, b);
		json_object_object_add(e, "host_uuid", json_object_new_string(u));
		json_object_object_add(e, "boot_id", json_object_new_string(b));
		memcpy(nm, ev->e[i].hostname, sizeof(ev->e[i].hostname));
		nm[sizeof(ev->e[i].hostname)] = '\0';
		for (char *p = nm; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		json_object_object_add(e, "hostname", json_object_new_string(nm));
		snprintf(x, sizeof(x), "%016llx",
			 (unsigned long long)ev->e[i].name_hash);
		json_object_object_add(e, "name_hash", json_object_new_string(x));
		json_object_object_add(e, "generation",
				       json_object_new_int64((int64_t)ev->e[i].generation));
		json_object_object_add(e, "time",
				       json_object_new_int64((int64_t)ev->e[i].time));
		json_object_object_add(e, "by_slot", json_object_new_boolean(
			ev->e[i].flags & FAMFS_FENCE_BY_SLOT));
		json_object_array_add(a, e);
	}
	return a;
}

static int list(struct famfs_fs *fs, bool json)
{
	struct famfs_host *sl = calloc(FAMFS_HOST_SLOTS, sizeof(*sl));
	struct famfs_hosttab t;
	struct famfs_hosts_ev ev;
	struct json_object *o = NULL, *a = NULL;
	char why[FAMFS_REASON_LEN], nev[16];
	int rc, hdr_rc;

	if (!sl)
		return FAMFS_EXIT_ERROR;
	rc = famfs_hosttab_open(fs, false, &t);
	if (rc == -ENOENT)
		famfs_err("%s: no host table (famfs hosts init on the master makes it)",
			  fs->name);
	if (rc) {
		free(sl);
		return FAMFS_EXIT_ERROR;
	}
	rc = famfs_hosttab_read(&t, sl, &ev, why);
	if (rc)
		famfs_warn("%s: host table header: %s (the evicted list is not known: %s)",
			   fs->name, why, famfs_hosts_hdr_way(rc));
	if (rc)
		memset(&ev, 0, sizeof(ev));
	hdr_rc = rc;
	if (json) {
		o = json_object_new_object();
		a = json_object_new_array();
		json_object_object_add(o, "table_offset",
				       json_object_new_int64((int64_t)t.off));
		json_object_object_add(o, "hosts_entry",
				       json_object_new_int64((int64_t)t.entry));
		json_object_object_add(o, "nevicted", json_object_new_int((int)ev.n));
		json_object_object_add(o, "evicted", evicted_json(&ev));
		json_object_object_add(o, "armed", json_object_new_boolean(
			ev.flags & FAMFS_HOSTS_ARMED));
		/* not understood: nevicted, evicted and armed say nothing */
		json_object_object_add(o, "header_error", hdr_rc ?
				       json_object_new_string(why) : NULL);
		json_object_object_add(o, "slots", a);
	} else {
		snprintf(nev, sizeof(nev), "%u", ev.n);
		printf("famfs hosts: %s: host table at %llu (HOSTS entry %llu), %s evicted, armed %s\n",
		       fs->name, (unsigned long long)t.off,
		       (unsigned long long)t.entry, hdr_rc ? "unknown" : nev,
		       hdr_rc ? "unknown (the header is not understood: see above; nothing is reclaimed)" :
		       ev.flags & FAMFS_HOSTS_ARMED ? "yes" :
		       "no (nothing is reclaimed: famfs hosts arm once every host that has the file system mounted is listed)");
		printf("%-5s %-12s %-36s %-16s %-8s %-8s %-6s %4s %8s %8s %-10s %10s %s\n",
		       "SLOT", "STATE", "HOST", "NAME", "NAMEHASH", "BOOT",
		       "ROLE", "GEN", "REG_AT", "REPLAYED", "HOLDS", "HELD",
		       "BEAT");
	}
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++) {
		const struct famfs_host *h = &sl[i];
		char u[37] = "", name[32], holds[24], beat[32] = "-";
		char hash[17], boot[37];
		time_t bt;
		struct tm tm;

		if (h->state == FAMFS_HOST_FREE)
			continue;
		clean_name(h, name);
		if (h->state == FAMFS_HOST_VALID)
			famfs_uuid_str(h->host_uuid, u);
		/* clones whose names are cut alike told apart: the boot id
		 * and the whole name's hash (-j: in full) */
		snprintf(hash, sizeof(hash), "%016llx",
			 (unsigned long long)h->name_hash);
		famfs_uuid_str(h->boot_id, boot);
		bt = (time_t)h->beat_time;
		if (h->beat_time && gmtime_r(&bt, &tm))
			strftime(beat, sizeof(beat), "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (h->holds_from == FAMFS_HOLDS_NONE)
			snprintf(holds, sizeof(holds), "none");
		else
			snprintf(holds, sizeof(holds), "%llu",
				 (unsigned long long)h->holds_from);
		if (json) {
			struct json_object *s = json_object_new_object();

			json_object_object_add(s, "slot", json_object_new_int((int)i));
			json_object_object_add(s, "state",
					       json_object_new_string(state_of(h, &ev)));
			/* torn to this famfs: a newer famfs's record */
			if (h->state == FAMFS_HOST_TORN)
				json_object_object_add(s, "newer_famfs",
					json_object_new_boolean(famfs_hosttab_slot_newer(&t, i)));
			if (h->state == FAMFS_HOST_VALID) {
				char b[37];

				famfs_uuid_str(h->boot_id, b);
				json_object_object_add(s, "host_uuid", json_object_new_string(u));
				json_object_object_add(s, "boot_id", json_object_new_string(b));
				json_object_object_add(s, "hostname", json_object_new_string(name));
				json_object_object_add(s, "name_hash", json_object_new_string(hash));
				json_object_object_add(s, "role", json_object_new_string(
					h->flags & FAMFS_HOST_MASTER ? "master" : "client"));
				json_object_object_add(s, "generation",
						       json_object_new_int64((int64_t)h->generation));
				json_object_object_add(s, "registered_at",
						       json_object_new_int64((int64_t)h->registered_at));
				json_object_object_add(s, "replayed",
						       json_object_new_int64((int64_t)h->replayed));
				json_object_object_add(s, "holds_from",
						       h->holds_from == FAMFS_HOLDS_NONE ? NULL :
						       json_object_new_int64((int64_t)h->holds_from));
				json_object_object_add(s, "held_bytes",
						       json_object_new_int64((int64_t)h->held_bytes));
				json_object_object_add(s, "beat_time",
						       json_object_new_int64((int64_t)h->beat_time));
			}
			json_object_array_add(a, s);
			continue;
		}
		if (h->state == FAMFS_HOST_TORN && famfs_hosttab_slot_newer(&t, i)) {
			printf("%-5u %-12s (a newer famfs's record: blocks every reclaim; famfs hosts evict --slot %u with that famfs)\n",
			       i, "torn", i);
			continue;
		}
		if (h->state == FAMFS_HOST_TORN) {
			printf("%-5u %-12s (no copy verifies: blocks every reclaim; famfs hosts evict --slot %u)\n",
			       i, "torn", i);
			continue;
		}
		printf("%-5u %-12s %-36s %-16s %-8.8s %-8.8s %-6s %4llu %8llu %8llu %-10s %10llu %s\n",
		       i, state_of(h, &ev), u, name, hash, boot,
		       h->flags & FAMFS_HOST_MASTER ? "master" : "client",
		       (unsigned long long)h->generation,
		       (unsigned long long)h->registered_at,
		       (unsigned long long)h->replayed, holds,
		       (unsigned long long)h->held_bytes, beat);
	}
	famfs_hosttab_close(&t);
	free(sl);
	if (json)
		return cli_json_print(o) ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
	return FAMFS_EXIT_OK;
}

struct kept {
	struct famfs_fs *fs;
	const uint64_t *dels;
};

static void kept_by(void *arg, size_t di, unsigned slot,
		    enum famfs_host_block why)
{
	struct kept *k = arg;

	if (slot >= FAMFS_HOST_SLOTS)
		printf("  DELETE %llu: kept: the master has no registered slot\n",
		       (unsigned long long)k->dels[di]);
	else
		printf("  DELETE %llu: kept by slot %u (%s)\n",
		       (unsigned long long)k->dels[di], slot,
		       famfs_host_block_str(why));
}

static int reclaim(struct famfs_fs *fs)
{
	struct kept k = { .fs = fs };
	struct famfs_reclaim_pass p = { .blocked = kept_by, .arg = &k };
	int rc;

	if (!famfs_fs_has_hosts(fs)) {
		famfs_err("%s: no host table (famfs hosts init): nothing is reclaimed without one",
			  fs->name);
		return -ENOENT;
	}
	p.dels_out = &k.dels;
	rc = famfs_reclaim_pass(fs, &p);
	if (!rc && p.unarmed)
		printf("famfs hosts: %s: %zu deleted files pending, none reclaimed: %s\n",
		       fs->name, p.pending, FAMFS_UNARMED_WHY);
	else if (!rc)
		printf("famfs hosts: %s: %zu deleted files pending, %zu reclaimed (%llu bytes free again)\n",
		       fs->name, p.pending, p.reclaimed,
		       (unsigned long long)p.freed);
	return rc;
}

/* the master arms a table that is not (famfs_format.h: reclaim only then) */
static int arm(struct famfs_fs *fs)
{
	int rc = famfs_hosts_arm(fs);

	if (rc == -EALREADY) {
		printf("famfs hosts: %s: the host table is armed already\n",
		       fs->name);
		return 0;
	}
	if (!rc)
		printf("famfs hosts: %s: host table armed: a deleted file's memory is reclaimed once no host in it can reach it\n",
		       fs->name);
	return rc;
}

/* what famfs_hosts_repair wrote: no fences and not armed, or (a FAMSHOS3
 * header's, an overflowed seq's) the fences and flag kept */
static void repaired(struct famfs_fs *fs, struct famfs_hosttab *t)
{
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];

	if (famfs_hosttab_read_hdr(t, &ev, why) == 0 &&
	    (ev.n || (ev.flags & FAMFS_HOSTS_ARMED))) {
		printf("famfs hosts: %s: host table header written anew: %u fences kept, %s\n",
		       fs->name, ev.n,
		       ev.flags & FAMFS_HOSTS_ARMED ? "armed" : "not armed");
		return;
	}
	printf("famfs hosts: %s: host table header written anew, not armed: hosts evicted before count again until evicted again (famfs hosts; famfs hosts arm once it lists every host)\n",
	       fs->name);
}

/* what famfs_hosts_evict_slot did to slot n */
static void evicted_slot(struct famfs_fs *fs, struct famfs_hosttab *t,
			 unsigned n)
{
	struct famfs_host h;
	char u[37];

	if (famfs_hosttab_slot(t, n, &h) != FAMFS_HOST_VALID) {
		printf("famfs hosts: %s: slot %u zeroed\n", fs->name, n);
		return;
	}
	famfs_uuid_str(h.host_uuid, u);
	printf("famfs hosts: %s: slot %u: host %s generation %llu evicted (its record is kept; evict --slot %u again zeroes it once that host is down)\n",
	       fs->name, n, u, (unsigned long long)h.generation, n);
}

int cmd_hosts(int argc, char **argv)
{
	char mpt[4096];
	const char *sub = NULL, *target, *who = NULL, *forget = NULL;
	long slot = -1;
	uint64_t gen = 0, fenced = 0;
	bool json = false, force = false;
	struct famfs_fs fs;
	struct famfs_hosttab t;
	uint8_t u[16];
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_hosts)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 's': {
			char *end;

			slot = strtol(optarg, &end, 10);
			if (end == optarg || *end || slot < 0 ||
			    slot >= (long)FAMFS_HOST_SLOTS) {
				famfs_err("--slot %s: not a slot number (0..%u)",
					  optarg, (unsigned)FAMFS_HOST_SLOTS - 1);
				return FAMFS_EXIT_USAGE;
			}
			break;
		}
		case 'g': {
			char *end;

			errno = 0;
			gen = strtoull(optarg, &end, 10);
			if (errno || *end || !gen || optarg[0] == '-') {
				famfs_err("--generation %s: not a generation (1 or more)",
					  optarg);
				return FAMFS_EXIT_USAGE;
			}
			break;
		}
		case 'F': forget = optarg; break;
		case 'f': force = true; break;
		case 'h': return cli_usage(&cli_doc_hosts, 0);
		default: return cli_usage(&cli_doc_hosts, 1);
		}
	}
	if (optind < argc && (!strcmp(argv[optind], "init") ||
			      !strcmp(argv[optind], "arm") ||
			      !strcmp(argv[optind], "reclaim") ||
			      !strcmp(argv[optind], "repair") ||
			      !strcmp(argv[optind], "evict")))
		sub = argv[optind++];
	if (sub && !strcmp(sub, "evict") && slot < 0 && !forget &&
	    optind < argc)
		who = argv[optind++];
	if (argc - optind != 1 || (sub && json) ||
	    (slot >= 0 && (!sub || strcmp(sub, "evict") || who)) ||
	    (forget && (!sub || strcmp(sub, "evict") || slot >= 0 || gen)) ||
	    (sub && !strcmp(sub, "evict") && slot < 0 && !who && !forget) ||
	    (gen && !who) || (force && (!sub || strcmp(sub, "repair"))))
		return cli_usage(&cli_doc_hosts, 1);
	if (forget)
		who = forget;
	if (who && (uuid_parse(who, u) || uuid_is_null(u))) {
		famfs_err("%s: not a host uuid", who);
		return FAMFS_EXIT_USAGE;
	}
	target = argv[optind];
	if (!sub) {
		if (cli_open_target(target, &fs, mpt, sizeof(mpt))) {
			cli_say_failed_devs(target);
			return FAMFS_EXIT_ERROR;
		}
		rc = list(&fs, json);
		famfs_fs_close(&fs);
		return rc;
	}
	if (famfs_fs_open_mount(target, true, &fs))
		return FAMFS_EXIT_ERROR;
	if (!strcmp(sub, "arm")) {
		rc = arm(&fs);
		famfs_fs_close(&fs);
		return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
	}
	/* a client: the refusal every master-only command gives */
	rc = famfs_fs_writable(&fs);
	if (!rc && !strcmp(sub, "reclaim")) {
		rc = reclaim(&fs);
	} else if (!rc && !strcmp(sub, "init")) {
		rc = famfs_hosts_init(&fs);
		if (rc == -EEXIST)
			famfs_err("%s: the host table exists already (famfs hosts; famfs hosts arm if it is not armed; a header that does not verify: famfs hosts repair)",
				  fs.name);
		else if (!rc)
			printf("famfs hosts: %s: host table made, armed\n", fs.name);
	} else if (!rc) {
		int orc = famfs_hosttab_open(&fs, true, &t);

		rc = orc;
		if (rc == -ENOENT)
			famfs_err("%s: no host table (famfs hosts init)", fs.name);
		if (!rc && !strcmp(sub, "repair")) {
			rc = famfs_hosts_repair(&fs, &t, force);
			if (!rc)
				repaired(&fs, &t);
		} else if (!rc && forget) {
			rc = famfs_hosts_forget(&fs, &t, u);
			if (!rc)
				printf("famfs hosts: %s: host %s forgotten: no fence names it any more\n",
				       fs.name, forget);
		} else if (!rc) {
			rc = who ? famfs_hosts_evict_gen(&fs, &t, u, gen, &fenced) :
			     famfs_hosts_evict_slot(&fs, &t, (unsigned)slot);
			if (rc == -ENOENT)
				famfs_err("%s: no slot of host %s in the host table",
					  fs.name, who ? who : "?");
			else if (!rc && who)
				printf("famfs hosts: %s: host %s generation %llu evicted\n",
				       fs.name, who, (unsigned long long)fenced);
			else if (!rc)
				evicted_slot(&fs, &t, (unsigned)slot);
		}
		if (!orc)
			famfs_hosttab_close(&t);
	}
	famfs_fs_close(&fs);
	return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
}
