// SPDX-License-Identifier: GPL-2.0
/* famfs getmap: print a file's map (MAP_GET_V3, MAP_GET_V2, or v1 MAP_GET/MAP_GETEXT). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_getmap = {
	.page = "famfs-getmap", .prog = "famfs getmap",
	.summary = "print the extent map of a file",
	.synopsis = { "famfs getmap [-q] [-j] FILE" },
	.description =
		"Print the map famfs.ko holds for FILE: file type, size and extents\n"
		"(offset and length on the device, in bytes).  An interleaved file\n"
		"(famfs mkfile -N) has interleaved extents: the file bytes each holds,\n"
		"its strip count and chunk size, and its strips (offset and length on\n"
		"the device); chunk c of the extent is in strip c % nstrips.  A file\n"
		"the log made has an identity: the index of the log entry that made it\n"
		"(a path removed and made again is a new file, of a new identity;\n"
		"every host's famfs.ko holds the same one).  Files made by an older\n"
		"famfs, and a famfs.ko without MAP_GET_V3, show none.\n",
	.opts = (const struct cli_opt[]){
		{ 'q', "quiet", NULL, "print nothing; the exit code tells" },
		{ 'j', "json", NULL, "print the map as JSON on stdout (see JSON)" },
		{ 0 } },
	.sections = (const struct cli_section[]){
		{ "JSON",
		  "One object: path, type (regular, superblock or log; unknown from\n"
		  "a famfs.ko without MAP_GET_V2, whose MAP_GET does not say), size,\n"
		  "extent_type (simple, interleaved, or pages: a small file's 4 KiB\n"
		  "pages in shared 2 MiB units), extents: for simple and pages, a list\n"
		  "of {offset, length}; for interleaved, a list of {length (file\n"
		  "bytes held), nstrips, chunk_size, strips (a list of {offset,\n"
		  "length})}; identity, the index of the log entry that made the\n"
		  "file (absent when it has none).  Always valid UTF-8: a byte of the path that is not\n"
		  "part of a valid UTF-8 sequence is given as the character U+00XX\n"
		  "(byte 0xff as \\u00ff).  Example:\n"
		  "  famfs getmap -j /mnt/famfs/f | jq '.extents[0].offset'\n"
		  "  famfs getmap -j /mnt/famfs/s | jq '.extents[0].strips[1].offset'\n", false },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ 0, "FILE is mapped" }, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("FILE cannot be opened, is not a famfs file or is not mapped"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-check(8), famfs-mkfile(8)",
};

static int print_map(const char *path, const struct famfs_fmap *m)
{
	bool il = m->extent_type == FAMFS_INTERLEAVED_EXTENT;
	bool md = famfs_fmap_multidev(m);	/* on members: say the device */
	char dv[32] = "";

	printf("%s\n  type: %s\n  size: %llu\n",
	       path, m->file_type_unknown ?
	       "unknown (a famfs.ko without MAP_GET_V2 does not say)" :
	       famfs_map_type_name(m->file_type),
	       (unsigned long long)m->file_size);
	if (m->has_ident)
		printf("  identity: log entry %llu\n",
		       (unsigned long long)m->ident);
	else
		printf("  identity: none (not made by a log entry, or famfs.ko does not say)\n");
	printf("  extent type: %s\n  extents: %u\n",
	       m->pages ? "pages (a small file: 4 KiB pages in shared 2 MiB units)" :
	       famfs_extent_type_name(m->extent_type), m->count);
	for (uint32_t i = 0; !il && i < m->count && i < FAMFS_IOC_MAX_EXTENTS_V2; i++) {
		if (md)
			snprintf(dv, sizeof(dv), " device %u", m->dev[i]);
		printf("    %u: offset 0x%llx len 0x%llx%s\n", i,
		       (unsigned long long)m->ext[i].offset,
		       (unsigned long long)m->ext[i].len, dv);
	}
	for (uint32_t i = 0; il && i < m->count && i < FAMFS_IOC_MAX_IEXTENTS; i++) {
		const struct famfs_ioc_iext *x = &m->iext[i];

		printf("    %u: interleaved, %llu bytes, %u strips, chunk size 0x%llx\n",
		       i, (unsigned long long)x->nbytes, x->nstrips,
		       (unsigned long long)x->chunk_size);
		for (uint32_t k = 0; k < x->nstrips && k < FAMFS_IOC_MAX_STRIPS; k++) {
			if (md)
				snprintf(dv, sizeof(dv), " device %u",
					 m->dev[i * FAMFS_IOC_MAX_STRIPS + k]);
			printf("      strip %u: offset 0x%llx len 0x%llx%s\n", k,
			       (unsigned long long)x->strips[k].offset,
			       (unsigned long long)x->strips[k].len, dv);
		}
	}
	return FAMFS_EXIT_OK;
}

int cmd_getmap(int argc, char **argv)
{
	struct famfs_fmap *map;
	const char *path;
	bool quiet = false, json = false;
	int c, fd, rc;

	while ((c = cli_getopt(argc, argv, &cli_doc_getmap)) != -1) {
		switch (c) {
		case 'q': quiet = true; break;
		case 'j': json = true; break;
		case 'h': return cli_usage(&cli_doc_getmap, 0);
		default: return cli_usage(&cli_doc_getmap, 1);
		}
	}
	if (argc - optind != 1)
		return cli_usage(&cli_doc_getmap, 1);
	path = argv[optind];
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (!quiet)
			famfs_err("%s: %s", path, strerror(errno));
		return FAMFS_EXIT_ERROR;
	}
	map = malloc(sizeof(*map));
	if (!map) {
		close(fd);
		famfs_err("%s: out of memory", path);
		return FAMFS_EXIT_ERROR;
	}
	rc = famfs_fmap_get(fd, map);
	close(fd);
	if (rc) {
		if (!quiet)
			famfs_err("%s: %s", path,
				  rc == -ENOTTY ? "not a famfs file" :
				  rc == -ENODATA ? "not mapped" :
				  rc == -EBADE ? "famfs.ko gave two different maps (MAP_GET_V2 twice, or MAP_GET and MAP_GETEXT)" :
				  rc == -EPROTO ? "a map of a type this tool does not know" :
				  strerror(-rc));
		free(map);
		return FAMFS_EXIT_ERROR;
	}
	if (quiet)
		rc = FAMFS_EXIT_OK;
	else if (json)
		rc = cli_json_print(famfs_json_map(path, map)) ?
			FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
	else
		rc = print_map(path, map);
	free(map);
	return rc;
}
