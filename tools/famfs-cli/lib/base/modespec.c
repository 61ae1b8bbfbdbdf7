// SPDX-License-Identifier: GPL-2.0
/* chmod's MODE (famfs chmod): octal, or chmod(1)'s symbolic clauses. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

/* the bits each "who" letter governs */
static uint32_t who_mask(char c)
{
	return c == 'u' ? 04700 : c == 'g' ? 02070 : c == 'o' ? 01007 : 07777;
}

/* apply one symbolic MODE to old (dry: only checked); 0 or -EINVAL */
static int symbolic(const char *s, uint32_t *mode, bool dir, char *reason)
{
	const char *p = s;
	uint32_t m = *mode;

	for (;;) {
		uint32_t who = 0;
		bool named;

		for (; strchr("ugoa", *p) && *p; p++)
			who |= who_mask(*p);
		named = who != 0;
		if (!who)
			who = 07777;
		if (!*p || !strchr("+-=", *p)) {
			REASON("mode '%s': expected +, - or = at '%s'", s, p);
			return -EINVAL;
		}
		while (*p && strchr("+-=", *p)) {
			char op = *p++;
			uint32_t bits = 0;

			/* [-+=]OCTAL, no who, alone in its clause (chmod(1)):
			 * names every bit, a directory's set-id bits too */
			if (*p >= '0' && *p <= '7') {
				for (; *p >= '0' && *p <= '7'; p++) {
					bits = bits * 8 + (uint32_t)(*p - '0');
					if (bits > 07777) {
						REASON("mode '%s': more than 07777", s);
						return -EINVAL;
					}
				}
				if (named || (*p && *p != ',')) {
					REASON("mode '%s': an octal mode after %c takes no u, g, o or a and ends its clause",
					       s, op);
					return -EINVAL;
				}
				m = op == '+' ? m | bits : op == '-' ? m & ~bits : bits;
				break;
			}

			for (; *p && strchr("rwxXst", *p); p++) {
				switch (*p) {
				case 'r': bits |= 0444; break;
				case 'w': bits |= 0222; break;
				case 'x': bits |= 0111; break;
				case 'X':
					if (dir || (m & 0111))
						bits |= 0111;
					break;
				case 's': bits |= 06000; break;
				default: bits |= 01000; break;	/* t */
				}
			}
			bits &= who;
			if (op == '+') {
				m |= bits;
			} else if (op == '-') {
				m &= ~bits;
			} else {
				/* =: the who's bits become bits (a directory
				 * keeps set-id bits not named, as chmod(1)) */
				uint32_t clear = who & (dir ? 01777 : 07777);

				m = (m & ~clear) | bits;
			}
		}
		if (!*p)
			break;
		if (*p != ',') {
			REASON("mode '%s': unexpected '%c'", s, *p);
			return -EINVAL;
		}
		p++;
	}
	*mode = m & 07777;
	return 0;
}

int famfs_mode_parse(const char *s, struct famfs_modespec *m, char *reason)
{
	uint32_t v = 0;

	memset(m, 0, sizeof(*m));
	if (!*s || strlen(s) >= sizeof(m->text)) {
		REASON("mode '%.40s': empty or too long", s);
		return -EINVAL;
	}
	snprintf(m->text, sizeof(m->text), "%s", s);
	if (strspn(s, "01234567") == strlen(s)) {
		for (const char *p = s; *p; p++) {
			v = v * 8 + (uint32_t)(*p - '0');
			if (v > 07777) {
				REASON("mode '%s': more than 07777", s);
				return -EINVAL;
			}
		}
		m->octal = true;
		m->bits = v;
		m->octal_all = strlen(s) >= 5;
		return 0;
	}
	/* symbolic: checked once on a directory and a file */
	if (symbolic(s, &v, true, reason))
		return -EINVAL;
	v = 0;
	return symbolic(s, &v, false, reason);
}

uint32_t famfs_mode_apply(const struct famfs_modespec *m, uint32_t old,
			  bool dir)
{
	uint32_t v = old & 07777;

	/* a directory keeps the set-id bits a numeric mode of at most 4
	 * digits does not name (chmod(1): 00755 clears them, 755 not) */
	if (m->octal && dir && !m->octal_all) {
		uint32_t keep = (S_ISUID | S_ISGID) & ~m->bits;

		return (m->bits & ~keep) | (v & keep);
	}
	if (m->octal)
		return m->bits;
	symbolic(m->text, &v, dir, NULL);
	return v;
}
