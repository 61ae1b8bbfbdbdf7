// SPDX-License-Identifier: GPL-2.0
/* famfs getmap: print a file's map (MAP_GET, MAP_GETEXT). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "famfs.h"

const struct cli_doc cli_doc_getmap = {
	.page = "famfs-getmap", .prog = "famfs getmap",
	.summary = "print the extent map of a file",
	.synopsis = { "famfs getmap [-q] [-j] FILE" },
	.description =
		"Print the map famfs.ko holds for FILE: file type, size and extents\n"
		"(offset and length on the device, in bytes).\n",
	.opts = (const struct cli_opt[]){
		{ 'q', "quiet", NULL, "print nothing; the exit code tells" },
		{ 'j', "json", NULL, "print the map as JSON on stdout (see JSON)" },
		{ 0 } },
	.sections = (const struct cli_section[]){
		{ "JSON",
		  "One object: path, type (regular, superblock or log), size,\n"
		  "extent_type (simple), extents (a list of {offset, length}).\n"
		  "Example:\n"
		  "  famfs getmap -j /mnt/famfs/f | jq '.extents[0].offset'\n", false },
		{ 0 } },
	.exits = (const struct cli_exit[]){
		{ 0, "FILE is mapped" }, CLI_EXIT_USAGE,
		CLI_EXIT_ERROR("FILE cannot be opened, is not a famfs file or is not mapped"),
		CLI_EXIT_END },
	.see_also = "famfs(8), famfs-check(8), famfs-mkfile(8)",
};

int cmd_getmap(int argc, char **argv)
{
	struct famfs_ioc_map map;
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
	rc = famfs_kernel->map_get(fd, &map);
	close(fd);
	if (rc) {
		if (!quiet)
			famfs_err("%s: %s", path,
				  rc == -ENOTTY ? "not a famfs file" :
				  rc == -EBADE ? "MAP_GET and MAP_GETEXT disagree" :
				  "not mapped (MAP_GET failed)");
		return FAMFS_EXIT_ERROR;
	}
	if (quiet)
		return FAMFS_EXIT_OK;
	if (json)
		return cli_json_print(famfs_json_map(path, &map)) ?
			FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
	printf("%s\n  type: %s\n  size: %llu\n  extent type: %s\n  extents: %llu\n",
	       path, famfs_map_type_name(map.file_type),
	       (unsigned long long)map.file_size,
	       map.extent_type == SIMPLE_DAX_EXTENT ? "simple" : "unknown",
	       (unsigned long long)map.ext_list_count);
	for (unsigned i = 0; i < map.ext_list_count && i < FAMFS_MAX_EXTENTS; i++)
		printf("    %u: offset 0x%llx len 0x%llx\n", i,
		       (unsigned long long)map.ext_list[i].offset,
		       (unsigned long long)map.ext_list[i].len);
	return FAMFS_EXIT_OK;
}
