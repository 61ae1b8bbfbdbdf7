// SPDX-License-Identifier: GPL-2.0
/*
 * jget: read one JSON document from stdin, strictly (json-c, no trailing
 * garbage), and print the value at PATH.  For the guest suites and host
 * tests, which have no jq.
 *
 *   jget [-t|-k|-n] PATH      PATH: "." or ".a.b[2].c"
 *
 * Prints strings raw, numbers, true/false/null, objects and arrays as
 * compact JSON; -t the type (object array string int double boolean null),
 * -k an object's keys one per line, -n an array's length.
 * A JSON null prints "null" (-t: null).
 * Exit: 0 found, 1 usage or invalid JSON, 2 no such path or wrong type.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

/* The value at p: *out (NULL for a JSON null); false if there is none. */
static bool walk(struct json_object *o, const char *p, struct json_object **out)
{
	char key[256];

	while (*p) {
		if (*p == '.') {
			size_t n = strcspn(++p, ".[");

			if (!n)
				continue;
			if (n >= sizeof(key) || !json_object_is_type(o, json_type_object))
				return false;
			memcpy(key, p, n);
			key[n] = '\0';
			if (!json_object_object_get_ex(o, key, &o))
				return false;
			p += n;
		} else if (*p == '[') {
			char *end;
			long i = strtol(p + 1, &end, 10);

			if (*end != ']' || i < 0 || !json_object_is_type(o, json_type_array) ||
			    (size_t)i >= json_object_array_length(o))
				return false;
			o = json_object_array_get_idx(o, (size_t)i);
			p = end + 1;
		} else {
			return false;
		}
	}
	*out = o;
	return true;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	struct json_tokener *tok = json_tokener_new();
	struct json_object *doc, *o;
	const char *mode = "", *path;
	size_t len = fread(buf, 1, sizeof(buf) - 1, stdin);

	if (argc == 3 && argv[1][0] == '-')
		mode = argv[1];
	if (argc < 2 || argc > 3 || (argc == 3 && !*mode) || !tok) {
		fprintf(stderr, "usage: jget [-t|-k|-n] PATH < JSON\n");
		return 1;
	}
	path = argv[argc - 1];
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	doc = json_tokener_parse_ex(tok, buf, (int)len);
	if (!doc || json_tokener_get_error(tok) != json_tokener_success ||
	    strspn(buf + json_tokener_get_parse_end(tok), " \t\r\n") !=
	    len - json_tokener_get_parse_end(tok)) {
		fprintf(stderr, "jget: invalid JSON at byte %zu: %s\n",
			json_tokener_get_parse_end(tok),
			json_tokener_error_desc(json_tokener_get_error(tok)));
		return 1;
	}
	if (!walk(doc, path, &o)) {
		fprintf(stderr, "jget: %s: no such path\n", path);
		return 2;
	}
	if (!strcmp(mode, "-t")) {
		printf("%s\n", json_type_to_name(json_object_get_type(o)));
	} else if (!strcmp(mode, "-k")) {
		if (!json_object_is_type(o, json_type_object))
			return 2;
		json_object_object_foreach(o, k, v) {
			(void)v;
			printf("%s\n", k);
		}
	} else if (!strcmp(mode, "-n")) {
		if (!json_object_is_type(o, json_type_array))
			return 2;
		printf("%zu\n", json_object_array_length(o));
	} else if (json_object_is_type(o, json_type_string)) {
		printf("%s\n", json_object_get_string(o));
	} else {
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
			JSON_C_TO_STRING_NOSLASHESCAPE));
	}
	json_object_put(doc);
	json_tokener_free(tok);
	return 0;
}
