/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * famfs - a file system for memory that several hosts share
 *
 * The ioctl ABI between famfs.ko and the user-space tool that owns all
 * metadata.  Version 1 (numbers 1..4, struct famfs_ioc_map) is the ABI of the
 * 2024 famfs RFC and is frozen byte for byte: the enums of that RFC are 32-bit
 * fields here, which is the same layout on every ABI (i386 included), so
 * compat callers need no translation.  New calls only ever get new numbers.
 */
#ifndef _UAPI_LINUX_FAMFS_IOCTL_H
#define _UAPI_LINUX_FAMFS_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define FAMFS_MAX_EXTENTS	2

/* famfs_ioc_map.extent_type */
enum famfs_extent_type {
	SIMPLE_DAX_EXTENT = 13,
	INVALID_EXTENT_TYPE,
};

/* famfs_ioc_map.file_type */
enum famfs_file_type {
	FAMFS_REG,
	FAMFS_SUPERBLOCK,
	FAMFS_LOG,
};

/* One contiguous piece of a file: a byte range of the memory device. */
struct famfs_extent {
	__u64 offset;
	__u64 len;
};

/* The map of one file: what FAMFSIOC_MAP_CREATE takes and MAP_GET returns. */
struct famfs_ioc_map {
	__u32 extent_type;		/* enum famfs_extent_type */
	__u32 file_type;		/* enum famfs_file_type */
	__u64 file_size;
	__u64 ext_list_count;
	struct famfs_extent ext_list[FAMFS_MAX_EXTENTS];
};

#define FAMFSIOC_MAGIC		'u'

#define FAMFSIOC_MAP_CREATE	_IOW(FAMFSIOC_MAGIC, 1, struct famfs_ioc_map)
#define FAMFSIOC_MAP_GET	_IOR(FAMFSIOC_MAGIC, 2, struct famfs_ioc_map)
#define FAMFSIOC_MAP_GETEXT	_IOR(FAMFSIOC_MAGIC, 3, struct famfs_extent)
#define FAMFSIOC_NOP		_IO(FAMFSIOC_MAGIC, 4)

/* Sizes the v1 ABI is frozen at; checked by the module and the tools. */
#define FAMFS_IOC_EXTENT_SIZE	16
#define FAMFS_IOC_MAP_SIZE	56

#endif /* _UAPI_LINUX_FAMFS_IOCTL_H */
