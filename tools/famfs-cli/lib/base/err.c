// SPDX-License-Identifier: GPL-2.0
/* Messages, number parsing and the text of a uuid, shared by every
 * command. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <uuid/uuid.h>

#include "base/base.h"

int famfs_quiet;
int famfs_verbose;

static void vmsg(const char *tag, const char *fmt, va_list ap)
{
	fprintf(stderr, "famfs: %s", tag);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void (*famfs_err_hook)(void *arg, const char *msg);
void *famfs_err_hook_arg;

void famfs_err(const char *fmt, ...)
{
	va_list ap;

	if (famfs_err_hook) {
		char msg[1024];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		famfs_err_hook(famfs_err_hook_arg, msg);
	}
	if (famfs_quiet)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void famfs_warn(const char *fmt, ...)
{
	va_list ap;

	if (famfs_quiet)
		return;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void famfs_note(const char *fmt, ...)
{
	va_list ap;

	if (famfs_quiet)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void famfs_info(const char *fmt, ...)
{
	va_list ap;

	if (famfs_quiet || !famfs_verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int famfs_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;
	bool hex;

	/* decimal, or hex after 0x: a leading zero is not octal ("010M" is
	 * 10 MiB); no sign, no blanks (strtoull would skip them) */
	if (!s)
		return -EINVAL;
	hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (!isxdigit((unsigned char)s[hex ? 2 : 0]) ||
	    (!hex && !isdigit((unsigned char)s[0])))
		return -EINVAL;
	errno = 0;
	v = strtoull(s + (hex ? 2 : 0), &end, hex ? 16 : 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	default: return -EINVAL;
	}
	if (*end == 'i' && shift)	/* accept "MiB"-ish "Mi" */
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -EINVAL;
	if (shift && v > (~0ULL >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

int famfs_parse_u32(const char *s, int base, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || *end || v > 0xffffffffUL)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

void famfs_uuid_str(const uint8_t uuid[16], char out[37])
{
	uuid_unparse_lower(uuid, out);
}
