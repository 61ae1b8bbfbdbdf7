/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libfamfs: the library under famfs-cli, in layers, one folder each,
 * lowest first (tools/famfs-cli/README.md has the picture; each layer's
 * header says what it owns and what it may call):
 *
 *   base/ media/ dev/ fs/ role/ space/ log/ ops/ replay/ report/
 *
 * A layer calls its own files and the layers before it, never one after
 * it, and no two files call each other in a circle (scripts/layers.sh,
 * scripts/layers.conf).  Each layer's header includes the one below it,
 * so this one (the commands' and the unit tests') has them all; a file
 * of the library includes its own layer's header only.
 *
 * Conventions: functions return 0 or a negative errno; on failure they have
 * already printed one message naming the path or device and the reason
 * (famfs_err), unless documented otherwise.  Format helpers (famfs_*_check)
 * only fill a reason string: callers decide how to report.
 */
#ifndef LIBFAMFS_H
#define LIBFAMFS_H

#include "report/report.h"

#endif /* LIBFAMFS_H */
