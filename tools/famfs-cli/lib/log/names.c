// SPDX-License-Identifier: GPL-2.0
/*
 * The namespace the log builds (format revision 3): every object (file or
 * directory) by the index of the FILE or MKDIR entry that made it, its id
 * for life, and where it is after each entry -- DELETE removes it, RENAME
 * moves it (a directory with everything beneath: one node changes parent),
 * SETATTR gives it a mode or an owner.  A directory that no entry made but
 * that a logged path goes through is implied (FAMFS_NAMES_IMPLIED): replay
 * makes it as a parent.  Fed entries in log order by the create cache, the
 * replay, fsck and df: the rules of famfs_format.h ("An object ... is named
 * by ... and by its path at that point of the log") are judged here once.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/log.h"

#define NIL	UINT32_MAX
#define TOMB	UINT32_MAX	/* a removed slot of the child table */
#define LIVE	1
#define ATTR	2		/* a SETATTR changed its attributes */
#define KIND(k)	((k) == FAMFS_LOG_FILE ? "file" : "directory")
#define WHY(...) do { if (why) snprintf(why, FAMFS_NAMES_WHY_LEN, __VA_ARGS__); } while (0)

struct node {
	uint64_t id;			/* FAMFS_NAMES_IMPLIED: no entry */
	uint64_t gone;			/* the DELETE that removed it */
	uint32_t parent, child, next, prev;
	uint32_t name;			/* offset in the name arena */
	uint16_t nlen;
	uint8_t kind, flags;
	uint32_t mode, uid, gid;
	uint32_t nchild;
};

struct ren {
	uint64_t idx, object;
	uint32_t from, to;		/* offsets in the name arena */
};

struct famfs_names {
	struct node *nd;
	uint32_t nnodes, ncap;
	char *ar;			/* names and rename paths, NUL-ended */
	size_t alen, acap;
	uint32_t *tab;			/* (parent, name) -> node + 1 */
	size_t tcap, tused;		/* used: live and tombstones */
	uint32_t *ids;			/* id -> node + 1 */
	size_t icap, iused;
	struct ren *ren;
	size_t nren, rcap;
	struct famfs_names_count count;
	struct famfs_dels dels;		/* DELETEs of files (reclaim.c) */
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static uint64_t name_hash(uint32_t parent, const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ parent;	/* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	return mix(h);
}

static const char *nm(const struct famfs_names *n, const struct node *x)
{
	return n->ar + x->name;
}

/* a copy of s[0..len) and a NUL in the arena: its offset, or UINT32_MAX */
static uint32_t store(struct famfs_names *n, const char *s, size_t len)
{
	uint32_t at;

	if (n->alen + len + 1 > n->acap) {
		size_t cap = n->acap ? n->acap * 2 : 4096;
		char *a;

		while (cap < n->alen + len + 1)
			cap *= 2;
		if (cap > UINT32_MAX || !(a = realloc(n->ar, cap)))
			return UINT32_MAX;
		n->ar = a;
		n->acap = cap;
	}
	at = (uint32_t)n->alen;
	memcpy(n->ar + at, s, len);
	n->ar[at + len] = '\0';
	n->alen += len + 1;
	return at;
}

/* the slot of (parent, s[0..len)) in the child table: its node, or NIL
 * and *slot where it would go */
static uint32_t find(const struct famfs_names *n, uint32_t parent,
		     const char *s, size_t len, size_t *slot)
{
	size_t i = name_hash(parent, s, len) & (n->tcap - 1);
	size_t free_at = SIZE_MAX;

	for (;; i = (i + 1) & (n->tcap - 1)) {
		uint32_t v = n->tab[i];
		const struct node *x;

		if (!v) {
			if (slot)
				*slot = free_at != SIZE_MAX ? free_at : i;
			return NIL;
		}
		if (v == TOMB) {
			if (free_at == SIZE_MAX)
				free_at = i;
			continue;
		}
		x = &n->nd[v - 1];
		if (x->parent == parent && x->nlen == len &&
		    !memcmp(nm(n, x), s, len))
			return v - 1;
	}
}

static int tab_grow(struct famfs_names *n)
{
	uint32_t *old = n->tab;
	size_t ocap = n->tcap, cap = ocap;

	/* twice the live entries, at most half full */
	while (cap < 4 * (size_t)n->nnodes + 64)
		cap *= 2;
	n->tab = calloc(cap, sizeof(*n->tab));
	if (!n->tab) {
		n->tab = old;
		return -ENOMEM;
	}
	n->tcap = cap;
	n->tused = 0;
	for (size_t i = 0; i < ocap; i++) {
		size_t slot;

		if (!old[i] || old[i] == TOMB)
			continue;
		find(n, n->nd[old[i] - 1].parent, nm(n, &n->nd[old[i] - 1]),
		     n->nd[old[i] - 1].nlen, &slot);
		n->tab[slot] = old[i];
		n->tused++;
	}
	free(old);
	return 0;
}

static int tab_add(struct famfs_names *n, uint32_t x)
{
	size_t slot;

	if ((n->tused + 1) * 2 > n->tcap && tab_grow(n))
		return -ENOMEM;
	find(n, n->nd[x].parent, nm(n, &n->nd[x]), n->nd[x].nlen, &slot);
	if (!n->tab[slot])
		n->tused++;
	n->tab[slot] = x + 1;
	return 0;
}

static void tab_del(struct famfs_names *n, uint32_t x)
{
	size_t i = name_hash(n->nd[x].parent, nm(n, &n->nd[x]),
			     n->nd[x].nlen) & (n->tcap - 1);

	for (; n->tab[i]; i = (i + 1) & (n->tcap - 1))
		if (n->tab[i] == x + 1) {
			n->tab[i] = TOMB;
			return;
		}
}

static uint32_t id_find(const struct famfs_names *n, uint64_t id, size_t *slot)
{
	size_t i = mix(id) & (n->icap - 1);

	for (;; i = (i + 1) & (n->icap - 1)) {
		if (!n->ids[i]) {
			if (slot)
				*slot = i;
			return NIL;
		}
		if (n->nd[n->ids[i] - 1].id == id)
			return n->ids[i] - 1;
	}
}

static int id_add(struct famfs_names *n, uint32_t x)
{
	size_t slot;

	if ((n->iused + 1) * 2 > n->icap) {
		uint32_t *old = n->ids;
		size_t ocap = n->icap;

		n->ids = calloc(ocap * 2, sizeof(*n->ids));
		if (!n->ids) {
			n->ids = old;
			return -ENOMEM;
		}
		n->icap = ocap * 2;
		for (size_t i = 0; i < ocap; i++)
			if (old[i]) {
				id_find(n, n->nd[old[i] - 1].id, &slot);
				n->ids[slot] = old[i];
			}
		free(old);
	}
	id_find(n, n->nd[x].id, &slot);
	n->ids[slot] = x + 1;
	n->iused++;
	return 0;
}

/* link x (its name, parent set) under its parent */
static int link_node(struct famfs_names *n, uint32_t x)
{
	struct node *p = &n->nd[n->nd[x].parent];

	n->nd[x].prev = NIL;
	n->nd[x].next = p->child;
	if (p->child != NIL)
		n->nd[p->child].prev = x;
	p->child = x;
	p->nchild++;
	return tab_add(n, x);
}

static void unlink_node(struct famfs_names *n, uint32_t x)
{
	struct node *c = &n->nd[x], *p = &n->nd[c->parent];

	tab_del(n, x);
	if (c->prev != NIL)
		n->nd[c->prev].next = c->next;
	else
		p->child = c->next;
	if (c->next != NIL)
		n->nd[c->next].prev = c->prev;
	p->nchild--;
	c->next = c->prev = NIL;
}

/* a new node under parent: its index, or NIL (out of memory) */
static uint32_t new_node(struct famfs_names *n, uint32_t parent,
			 const char *s, size_t len, uint64_t id, int kind)
{
	struct node *x;
	uint32_t name;

	if (n->nnodes == n->ncap) {
		uint32_t cap = n->ncap ? n->ncap * 2 : 64;
		struct node *nd = realloc(n->nd, cap * sizeof(*nd));

		if (!nd)
			return NIL;
		n->nd = nd;
		n->ncap = cap;
	}
	name = store(n, s, len);
	if (name == UINT32_MAX)
		return NIL;
	x = &n->nd[n->nnodes];
	memset(x, 0, sizeof(*x));
	x->id = id;
	x->parent = parent;
	x->child = x->next = x->prev = NIL;
	x->name = name;
	x->nlen = (uint16_t)len;
	x->kind = (uint8_t)kind;
	x->flags = LIVE;
	if (link_node(n, n->nnodes))
		return NIL;
	if (id != FAMFS_NAMES_IMPLIED && id_add(n, n->nnodes))
		return NIL;
	return n->nnodes++;
}

struct famfs_names *famfs_names_new(void)
{
	struct famfs_names *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->tcap = 64;
	n->icap = 64;
	n->tab = calloc(n->tcap, sizeof(*n->tab));
	n->ids = calloc(n->icap, sizeof(*n->ids));
	n->nd = calloc(64, sizeof(*n->nd));
	if (!n->tab || !n->ids || !n->nd || store(n, "", 0)) {
		famfs_names_free(n);
		return NULL;
	}
	n->ncap = 64;
	n->nnodes = 1;		/* the root: node 0, never in the tables */
	n->nd[0].id = FAMFS_NAMES_IMPLIED;
	n->nd[0].parent = n->nd[0].child = n->nd[0].next = n->nd[0].prev = NIL;
	n->nd[0].kind = FAMFS_LOG_MKDIR;
	n->nd[0].flags = LIVE;
	return n;
}

void famfs_names_free(struct famfs_names *n)
{
	if (!n)
		return;
	free(n->nd);
	free(n->ar);
	free(n->tab);
	free(n->ids);
	free(n->ren);
	famfs_dels_free(&n->dels);
	free(n);
}

/* the path of node x into out (FAMFS_LOG_PATH_MAX) */
static const char *path_of(const struct famfs_names *n, uint32_t x, char *out)
{
	size_t len = 0, at;

	for (uint32_t y = x; y; y = n->nd[y].parent)
		len += n->nd[y].nlen + (len ? 1 : 0);
	if (len >= FAMFS_LOG_PATH_MAX) {	/* never: renames check it */
		snprintf(out, FAMFS_LOG_PATH_MAX, "(a path too long)");
		return out;
	}
	at = len;
	out[at] = '\0';
	for (uint32_t y = x; y; y = n->nd[y].parent) {
		at -= n->nd[y].nlen;
		memcpy(out + at, nm(n, &n->nd[y]), n->nd[y].nlen);
		if (at)
			out[--at] = '/';
	}
	return out;
}

/*
 * Walk path from the root: the node at it (NIL if none); *deep the
 * deepest node found on the way, *rest where the part below it starts;
 * *file a logged file met on the way above path (else NIL).
 */
static uint32_t walk(const struct famfs_names *n, const char *path,
		     uint32_t *deep, const char **rest, uint32_t *file)
{
	uint32_t cur = 0;
	const char *p = path;

	*file = NIL;
	for (;;) {
		const char *s = strchr(p, '/');
		size_t len = s ? (size_t)(s - p) : strlen(p);
		uint32_t c = n->nd[cur].kind == FAMFS_LOG_FILE ? NIL :
			     find(n, cur, p, len, NULL);

		if (n->nd[cur].kind == FAMFS_LOG_FILE)
			*file = cur;
		if (c == NIL) {
			*deep = cur;
			*rest = p;
			return NIL;
		}
		if (!s) {
			*deep = c;
			*rest = p + len;
			return c;
		}
		cur = c;
		p = s + 1;
	}
}

int famfs_names_lookup(const struct famfs_names *n, const char *path,
		       uint64_t *id, int *kind)
{
	const char *rest;
	uint32_t deep, file, x = walk(n, path, &deep, &rest, &file);

	if (x == NIL)
		return 0;
	if (id)
		*id = n->nd[x].id;
	if (kind)
		*kind = n->nd[x].kind;
	return 1;
}

/*
 * A place for a new name at path: the directories beneath the deepest
 * one that exists made as implied ones.  The node the name goes under,
 * *last its name; NIL with *other/why filled if a logged file is on the
 * way (FAMFS_NAMES_UNDER_FILE) or out of memory (*err).
 */
static uint32_t make_parents(struct famfs_names *n, const char *path,
			     const char **last, uint64_t *other, char *why,
			     int *err)
{
	const char *rest, *slash = strrchr(path, '/');
	uint32_t deep, file, cur;
	char tmp[FAMFS_LOG_PATH_MAX];

	*err = 0;
	*last = slash ? slash + 1 : path;
	if (!slash)
		return 0;
	/* the parent: walked as a path of its own */
	memcpy(tmp, path, (size_t)(slash - path));
	tmp[slash - path] = '\0';
	cur = walk(n, tmp, &deep, &rest, &file);
	if (cur != NIL && n->nd[cur].kind == FAMFS_LOG_FILE)
		file = cur;
	if (file != NIL) {
		*other = n->nd[file].id;
		WHY("%s", path_of(n, file, tmp));
		return NIL;
	}
	if (cur != NIL)
		return cur;
	/* the missing ones, implied (rest is in tmp) */
	for (cur = deep; *rest;) {
		const char *s = strchr(rest, '/');
		size_t len = s ? (size_t)(s - rest) : strlen(rest);

		cur = new_node(n, cur, rest, len, FAMFS_NAMES_IMPLIED,
			       FAMFS_LOG_MKDIR);
		if (cur == NIL) {
			*err = -ENOMEM;
			return NIL;
		}
		rest = s ? s + 1 : rest + len;
	}
	return cur;
}

static int apply_make(struct famfs_names *n, uint64_t idx,
		      const struct famfs_log_entry *e, uint64_t *other,
		      char *why)
{
	const char *path = e->fm.path, *last, *rest;
	int kind = le16toh(e->type), err;
	uint32_t deep, file, x = walk(n, path, &deep, &rest, &file);
	char tmp[FAMFS_LOG_PATH_MAX];

	if (x == NIL && file != NIL) {
		*other = n->nd[file].id;
		WHY("%s", path_of(n, file, tmp));
		return FAMFS_NAMES_UNDER_FILE;
	}
	if (x != NIL && n->nd[x].id != FAMFS_NAMES_IMPLIED) {
		*other = n->nd[x].id;
		return FAMFS_NAMES_TWICE;
	}
	if (x != NIL && kind == FAMFS_LOG_FILE) {
		/* paths are logged beneath: one of them says where */
		*other = idx;
		WHY("%s", n->nd[x].child == NIL ? path :
		    path_of(n, n->nd[x].child, tmp));
		return FAMFS_NAMES_DIR_THERE;
	}
	if (x == NIL) {
		uint32_t p = make_parents(n, path, &last, other, why, &err);

		if (p == NIL)
			return err ? err : FAMFS_NAMES_UNDER_FILE;
		x = new_node(n, p, last, strlen(last), idx, kind);
		if (x == NIL)
			return -ENOMEM;
	} else {			/* an implied directory, made now */
		n->nd[x].id = idx;
		if (id_add(n, x))
			return -ENOMEM;
	}
	n->nd[x].mode = le32toh(e->fm.mode) & 07777;
	n->nd[x].uid = le32toh(e->fm.uid);
	n->nd[x].gid = le32toh(e->fm.gid);
	if (kind == FAMFS_LOG_FILE)
		n->count.files++;
	else
		n->count.dirs++;
	return FAMFS_NAMES_OK;
}

/* the object ns names, at the path it names: its node, or NIL (why) */
static uint32_t the_object(struct famfs_names *n, const struct famfs_ns *ns,
			   char *why)
{
	const char *rest;
	uint32_t deep, file, x = walk(n, ns->path, &deep, &rest, &file);
	struct famfs_names_obj o;
	char at[FAMFS_LOG_PATH_MAX];

	if (x == NIL || n->nd[x].id != ns->object) {
		if (x != NIL && n->nd[x].id == FAMFS_NAMES_IMPLIED)
			WHY("entry %llu is not there: a directory no entry made is (one implied by the paths beneath it)",
			    (unsigned long long)ns->object);
		else if (x != NIL)
			WHY("entry %llu is not there: entry %llu is",
			    (unsigned long long)ns->object,
			    (unsigned long long)n->nd[x].id);
		else if (famfs_names_get(n, ns->object, &o, at) != 1)
			WHY("nothing is there, and entry %llu made nothing the log has",
			    (unsigned long long)ns->object);
		else if (!o.live)
			WHY("nothing is there: entry %llu was deleted already (entry %llu)",
			    (unsigned long long)ns->object,
			    (unsigned long long)o.gone);
		else
			WHY("nothing is there: entry %llu is at %s",
			    (unsigned long long)ns->object, at);
		return NIL;
	}
	if (n->nd[x].kind != ns->kind) {
		WHY("entry %llu is a %s, not a %s", (unsigned long long)ns->object,
		    KIND(n->nd[x].kind), KIND(ns->kind));
		return NIL;
	}
	return x;
}

static int apply_delete(struct famfs_names *n, uint64_t idx,
			const struct famfs_ns *ns, char *why)
{
	uint32_t x = the_object(n, ns, why);
	char tmp[FAMFS_LOG_PATH_MAX];

	if (x == NIL)
		return FAMFS_NAMES_REFUSED;
	if (n->nd[x].nchild) {
		WHY("the directory is not empty (%s is in it)",
		    path_of(n, n->nd[x].child, tmp));
		return FAMFS_NAMES_REFUSED;
	}
	/* RECLAIM names it from here on (reclaim.c) */
	if (n->nd[x].kind == FAMFS_LOG_FILE &&
	    famfs_dels_add(&n->dels, idx, n->nd[x].id))
		return -ENOMEM;
	unlink_node(n, x);
	n->nd[x].flags &= (uint8_t)~LIVE;
	n->nd[x].gone = idx;
	if (n->nd[x].kind == FAMFS_LOG_FILE) {
		n->count.files--;
		n->count.deleted_files++;
	} else {
		n->count.dirs--;
		n->count.deleted_dirs++;
	}
	return FAMFS_NAMES_OK;
}

/* the longest path beneath x, less x's own (0 for a file) */
static size_t deepest(const struct famfs_names *n, uint32_t x)
{
	size_t best = 0;

	for (uint32_t c = n->nd[x].child; c != NIL; c = n->nd[c].next) {
		size_t d = 1 + n->nd[c].nlen + deepest(n, c);

		if (d > best)
			best = d;
	}
	return best;
}

static int apply_rename(struct famfs_names *n, uint64_t idx,
			const struct famfs_ns *ns, char *why)
{
	size_t fl = strlen(ns->path);
	uint32_t x = the_object(n, ns, why), p;
	const char *last, *rest;
	uint32_t deep, file, there, name;
	uint64_t other;
	struct ren *r;
	int err;

	if (x == NIL)
		return FAMFS_NAMES_REFUSED;
	if (!strncmp(ns->to, ns->path, fl) && (!ns->to[fl] || ns->to[fl] == '/')) {
		WHY("%s would be moved into itself", ns->path);
		return FAMFS_NAMES_REFUSED;
	}
	there = walk(n, ns->to, &deep, &rest, &file);
	if (there != NIL) {
		if (n->nd[there].id == FAMFS_NAMES_IMPLIED)
			WHY("onto an existing path: %s is a directory no entry made (one implied by the paths beneath it)",
			    ns->to);
		else
			WHY("onto an existing path: %s is entry %llu's",
			    ns->to, (unsigned long long)n->nd[there].id);
		return FAMFS_NAMES_REFUSED;
	}
	/* every path beneath a directory it moves must still fit */
	if (strlen(ns->to) + deepest(n, x) >= FAMFS_LOG_PATH_MAX) {
		WHY("a path beneath %s would be longer than %d bytes", ns->to,
		    FAMFS_LOG_PATH_MAX - 1);
		return FAMFS_NAMES_REFUSED;
	}
	p = make_parents(n, ns->to, &last, &other, NULL, &err);
	if (p == NIL) {
		if (err)
			return err;
		WHY("%s: a file in the log (entry %llu) is on its way",
		    ns->to, (unsigned long long)other);
		return FAMFS_NAMES_REFUSED;
	}
	if (n->rcap == n->nren) {
		size_t cap = n->rcap ? 2 * n->rcap : 64;
		struct ren *nr = realloc(n->ren, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		n->ren = nr;
		n->rcap = cap;
	}
	name = store(n, last, strlen(last));
	r = &n->ren[n->nren];
	r->from = store(n, ns->path, fl);
	r->to = store(n, ns->to, strlen(ns->to));
	if (name == UINT32_MAX || r->from == UINT32_MAX || r->to == UINT32_MAX)
		return -ENOMEM;
	r->idx = idx;
	r->object = ns->object;
	n->nren++;
	unlink_node(n, x);
	n->nd[x].parent = p;
	n->nd[x].name = name;
	n->nd[x].nlen = (uint16_t)strlen(last);
	return link_node(n, x) ? -ENOMEM : FAMFS_NAMES_OK;
}

static int apply_setattr(struct famfs_names *n, const struct famfs_ns *ns,
			 char *why)
{
	uint32_t x = the_object(n, ns, why);

	if (x == NIL)
		return FAMFS_NAMES_REFUSED;
	if (ns->valid & FAMFS_SETATTR_MODE)
		n->nd[x].mode = ns->mode;
	if (ns->valid & FAMFS_SETATTR_UID)
		n->nd[x].uid = ns->uid;
	if (ns->valid & FAMFS_SETATTR_GID)
		n->nd[x].gid = ns->gid;
	n->nd[x].flags |= ATTR;
	return FAMFS_NAMES_OK;
}

const struct famfs_dels *famfs_names_dels(const struct famfs_names *n)
{
	return &n->dels;
}

int famfs_names_apply(struct famfs_names *n, uint64_t idx,
		      const struct famfs_log_entry *e, uint64_t *other,
		      char *why)
{
	int type = le16toh(e->type);
	uint64_t dummy;
	struct famfs_ns ns;

	if (why)
		why[0] = '\0';
	if (!other)
		other = &dummy;
	if (type == FAMFS_LOG_FILE || type == FAMFS_LOG_MKDIR)
		return apply_make(n, idx, e, other, why);
	if (type == FAMFS_LOG_RECLAIM) {
		int rc = famfs_dels_reclaim(&n->dels, e, why);

		if (rc == FAMFS_NAMES_OK)
			n->count.reclaimed_files += n->dels.nrecl;
		return rc;
	}
	if (famfs_ns_get(e, &ns))
		return FAMFS_NAMES_OK;		/* no path: nothing to do */
	if (type == FAMFS_LOG_DELETE)
		return apply_delete(n, idx, &ns, why);
	if (type == FAMFS_LOG_RENAME)
		return apply_rename(n, idx, &ns, why);
	return apply_setattr(n, &ns, why);
}

static void obj_of(const struct famfs_names *n, uint32_t x,
		   struct famfs_names_obj *o)
{
	const struct node *y = &n->nd[x];

	o->id = y->id;
	o->kind = y->kind;
	o->live = y->flags & LIVE;
	o->attr_set = y->flags & ATTR;
	o->mode = y->mode;
	o->uid = y->uid;
	o->gid = y->gid;
	o->gone = y->gone;
	o->nchild = y->nchild;
}

int famfs_names_get(const struct famfs_names *n, uint64_t id,
		    struct famfs_names_obj *o, char *path)
{
	uint32_t x = id == FAMFS_NAMES_IMPLIED ? NIL : id_find(n, id, NULL);

	if (x == NIL)
		return 0;
	obj_of(n, x, o);
	if (path)
		path_of(n, x, path);
	return 1;
}

int famfs_names_each(const struct famfs_names *n, famfs_names_fn fn, void *arg)
{
	char path[FAMFS_LOG_PATH_MAX];
	struct famfs_names_obj o;

	for (uint32_t x = 1; x < n->nnodes; x++) {
		int rc;

		if (n->nd[x].id == FAMFS_NAMES_IMPLIED)
			continue;
		obj_of(n, x, &o);
		rc = fn(arg, o.live ? path_of(n, x, path) : "", &o);
		if (rc)
			return rc;
	}
	return 0;
}

/* depth first from node x: x, then what is beneath it */
static int walk_tree(const struct famfs_names *n, uint32_t x, char *path,
		     famfs_names_fn fn, void *arg)
{
	struct famfs_names_obj o;
	int rc;

	for (uint32_t c = n->nd[x].child; c != NIL; c = n->nd[c].next) {
		obj_of(n, c, &o);
		rc = fn(arg, path_of(n, c, path), &o);
		if (!rc && n->nd[c].child != NIL)
			rc = walk_tree(n, c, path, fn, arg);
		if (rc)
			return rc;
	}
	return 0;
}

int famfs_names_tree(const struct famfs_names *n, famfs_names_fn fn, void *arg)
{
	char path[FAMFS_LOG_PATH_MAX];

	return walk_tree(n, 0, path, fn, arg);
}

int famfs_names_beneath(const struct famfs_names *n, const char *dir,
			famfs_names_fn fn, void *arg)
{
	const char *rest;
	char path[FAMFS_LOG_PATH_MAX];
	uint32_t deep, file, x = walk(n, dir, &deep, &rest, &file);

	return x == NIL ? 0 : walk_tree(n, x, path, fn, arg);
}

size_t famfs_names_nrenames(const struct famfs_names *n)
{
	return n->nren;
}

void famfs_names_rename_at(const struct famfs_names *n, size_t i,
			   struct famfs_names_rename *r)
{
	r->idx = n->ren[i].idx;
	r->object = n->ren[i].object;
	r->from = n->ar + n->ren[i].from;
	r->to = n->ar + n->ren[i].to;
}

void famfs_names_counts(const struct famfs_names *n,
			struct famfs_names_count *c)
{
	*c = n->count;
}
