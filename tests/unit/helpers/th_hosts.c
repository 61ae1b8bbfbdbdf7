// SPDX-License-Identifier: GPL-2.0
/* Unit-test helpers: the host table tests' fixtures -- a file system with
 * a host table opened, another host's registration made up and planted in
 * a slot. */
#include <stdio.h>
#include <string.h>

#include "th.h"

struct th *th_hosts_new(struct famfs_hosttab *tab)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	th_fast_settle();
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, tab), 0);
	return t;
}

void th_host_named(struct famfs_host *g, uint8_t fill, uint8_t boot,
		   uint64_t gen, const char *name)
{
	memset(g, 0, sizeof(*g));
	g->state = FAMFS_HOST_VALID;
	g->flags = FAMFS_HOST_REGISTERED;
	memset(g->host_uuid, fill, 16);
	memset(g->boot_id, boot, 16);
	g->generation = gen;
	g->seq = 1;
	g->holds_from = FAMFS_HOLDS_NONE;
	snprintf(g->hostname, sizeof(g->hostname), "%s", name);
	g->name_hash = famfs_host_name_hash(name, strlen(name));
}

void th_host_plant(struct famfs_hosttab *tab, unsigned slot,
		   const struct famfs_host *h)
{
	uint8_t *p = famfs_host_slot_at(tab->m.addr, slot);

	memset(p, 0, FAMFS_HOST_SLOT_SIZE);
	famfs_host_rec_encode((struct famfs_host_rec *)p, h, tab->fs_uuid);
	assert_int_equal(famfs_map_flush(&tab->m, p, FAMFS_HOST_SLOT_SIZE), 0);
}
