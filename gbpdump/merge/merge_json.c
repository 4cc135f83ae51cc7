// SPDX-License-Identifier: BSD-2-Clause
/*
 * merge_json.c - the JSON of gbpdump --merge (merge_json.h): json-c's
 * strict tokener, then its tree copied into struct jv, which keeps each
 * value's place in the document for the reader's messages.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "merge_json.h"

#define JDEPTH 32 /* a summary nests 5 deep */

void jfree(struct jv *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		jfree(v->a[i]);
	free(v->a);
	free(v->key);
	free(v->s);
	free(v);
}

static struct jv *convert(struct json_object *o, const struct jv *up, size_t idx,
			  const char *key, const char **err);

/* The elements (members) of container o into v.  0, or -1. */
static int children(struct jv *v, struct json_object *o, const char **err)
{
	size_t n = v->t == J_ARR ? json_object_array_length(o)
				 : (size_t)json_object_object_length(o);
	size_t i = 0;

	if (!(v->a = calloc(n ? n : 1, sizeof(*v->a))))
		return -1;
	if (v->t == J_ARR) {
		for (; i < n; i++, v->n++)
			if (!(v->a[i] = convert(json_object_array_get_idx(o, i), v, i, NULL, err)))
				return -1;
		return 0;
	}
	json_object_object_foreach(o, k, m) {
		if (!(v->a[i] = convert(m, v, i, k, err)))
			return -1;
		i++;
		v->n++;
	}
	return 0;
}

/* A number: J_INT with its sign and magnitude, or J_NUM. */
static void number(struct jv *v, struct json_object *o)
{
	int64_t i;

	if (json_object_get_type(o) == json_type_double) {
		v->t = J_NUM;
		return;
	}
	v->t = J_INT;
	i = json_object_get_int64(o);
	v->neg = i < 0;
	/* above INT64_MAX json-c holds the value unsigned */
	v->u = i < 0 ? (uint64_t)0 - (uint64_t)i : json_object_get_uint64(o);
}

static struct jv *convert(struct json_object *o, const struct jv *up, size_t idx,
			  const char *key, const char **err)
{
	struct jv *v = calloc(1, sizeof(*v));
	int ok = 1;

	if (!v || (key && !(v->key = strdup(key)))) {
		*err = "out of memory";
		jfree(v);
		return NULL;
	}
	v->up = up;
	v->idx = idx;
	switch (json_object_get_type(o)) {
	case json_type_null:
		v->t = J_NULL;
		break;
	case json_type_boolean:
		v->t = J_BOOL;
		v->u = json_object_get_boolean(o) != 0;
		break;
	case json_type_int:
	case json_type_double:
		number(v, o);
		break;
	case json_type_string:
		v->t = J_STR;
		if ((size_t)json_object_get_string_len(o) != strlen(json_object_get_string(o))) {
			*err = "a string holds \\u0000";
			ok = 0;
		} else if (!(v->s = strdup(json_object_get_string(o)))) {
			*err = "out of memory";
			ok = 0;
		}
		break;
	case json_type_array:
	case json_type_object:
		v->t = json_object_get_type(o) == json_type_array ? J_ARR : J_OBJ;
		if (children(v, o, err) < 0) {
			*err = *err ? *err : "out of memory";
			ok = 0;
		}
		break;
	}
	if (!ok) {
		jfree(v);
		return NULL;
	}
	return v;
}

/* The text through the tokener, INT_MAX bytes a call at most. */
static struct json_object *tokenize(struct json_tokener *tok, const char *text, size_t len,
				    size_t *end, const char **err)
{
	struct json_object *o = NULL;
	enum json_tokener_error e = json_tokener_continue;
	size_t at = 0;

	while (at < len && e == json_tokener_continue) {
		int n = len - at > INT_MAX ? INT_MAX : (int)(len - at);

		o = json_tokener_parse_ex(tok, text + at, n);
		e = json_tokener_get_error(tok);
		*end = at + json_tokener_get_parse_end(tok);
		at += (size_t)n;
	}
	if (e == json_tokener_success)
		return o;
	*err = e == json_tokener_continue ? "cut short" : json_tokener_error_desc(e);
	if (e == json_tokener_continue)
		*end = len;
	return NULL;
}

/* The first byte at or after i that is not JSON white space. */
static size_t after_ws(const char *t, size_t len, size_t i)
{
	while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
		i++;
	return i;
}

struct jv *jparse(const char *text, size_t len, const char **err, size_t *eoff)
{
	struct json_tokener *tok = json_tokener_new_ex(JDEPTH);
	struct json_object *o;
	struct jv *v = NULL;
	size_t end = 0;

	*err = NULL;
	*eoff = SIZE_MAX;
	if (!tok) {
		*err = "out of memory";
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	if (!(o = tokenize(tok, text, len, &end, err))) {
		*eoff = end;
	} else if ((end = after_ws(text, len, end)) < len) {
		*err = "more after the JSON value";
		*eoff = end;
	} else {
		v = convert(o, NULL, 0, NULL, err);
	}
	json_object_put(o);
	json_tokener_free(tok);
	return v;
}

const struct jv *jget(const struct jv *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->a[i]->key, key))
			return o->a[i];
	return NULL;
}

void jpath(const struct jv *v, char *buf, size_t n)
{
	char tail[256];

	if (!v || !v->up) {
		snprintf(buf, n, "the document");
		return;
	}
	if (v->key)
		snprintf(tail, sizeof(tail), "%s%s", v->up->up ? "." : "", v->key);
	else
		snprintf(tail, sizeof(tail), "[%zu]", v->idx);
	jpath(v->up, buf, n);
	if (!v->up->up)
		buf[0] = 0;
	if (strlen(buf) + strlen(tail) < n)
		strcat(buf, tail);
}
