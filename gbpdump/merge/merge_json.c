// SPDX-License-Identifier: BSD-2-Clause
/*
 * merge_json.c - the JSON of gbpdump --merge (merge_json.h): json-c's
 * strict tokener, then its tree copied into struct jv, which keeps each
 * value's place in the document for the reader's messages.
 *
 * What json-c 0.16 does not say: it keeps the last of two equal keys in an
 * object, it saturates an integer past 64 bits, and it reads "00" as 0.  A summary gives each
 * key one meaning and each count its exact value, so the text (valid JSON
 * by then) is scanned once more for how many keys each object holds, in
 * document order, and for every integer's size and leading zeros.  An object whose json-c
 * form holds fewer members had a key twice.
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

/* The end of the string whose '"' is at t[i]: the index of its closing '"'. */
static size_t str_end(const char *t, size_t len, size_t i)
{
	for (i++; i < len && t[i] != '"'; i++)
		if (t[i] == '\\')
			i++;
	return i;
}

/* The first byte at or after i that is not JSON white space. */
static size_t after_ws(const char *t, size_t len, size_t i)
{
	while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
		i++;
	return i;
}

/* Whether the string at t[i] (ending at e) is a member name. */
static int is_key(const char *t, size_t len, size_t e)
{
	size_t k = after_ws(t, len, e + 1);

	return k < len && t[k] == ':';
}

/* Whether the integer t[i..j) (a minus, digits) fits 64 bits: unsigned, or
 * signed when negative (json_object_get_int64/_uint64 saturate). */
static int int_fits(const char *t, size_t i, size_t j)
{
	static const char umax[] = "18446744073709551615", nmin[] = "9223372036854775808";
	int neg = t[i] == '-';
	const char *lim = neg ? nmin : umax;
	size_t nd = j - i - (size_t)neg, nl = strlen(lim);

	return nd < nl || (nd == nl && memcmp(t + i + neg, lim, nl) <= 0);
}

/* A member name's text in the document. */
struct span {
	const char *t;
	size_t at, len;
};

/* The member names of the object whose '{' is t[at], into k (at most max;
 * k may be NULL): how many it has. */
static size_t obj_keys(const char *t, size_t len, size_t at, struct span *k, size_t max)
{
	size_t n = 0;
	int d = 0;

	for (size_t i = at; i < len; i++) {
		if (t[i] == '"') {
			size_t e = str_end(t, len, i);

			if (d == 1 && is_key(t, len, e)) {
				if (k && n < max)
					k[n] = (struct span){ t, i + 1, e - i - 1 };
				n++;
			}
			i = e;
		} else if (t[i] == '{' || t[i] == '[') {
			d++;
		} else if ((t[i] == '}' || t[i] == ']') && --d == 0) {
			break;
		}
	}
	return n;
}

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	int c = memcmp(x->t + x->at, y->t + y->at, x->len < y->len ? x->len : y->len);

	if (c || x->len != y->len)
		return c ? c : x->len < y->len ? -1 : 1;
	return x->at < y->at ? -1 : 1;
}

/* The object at t[at] has a key twice: *eoff and err name it (the second
 * of the first equal pair by text; a key spelled with escapes is not). */
static void dup_key(const char *t, size_t len, size_t at, char *err, size_t *eoff)
{
	size_t n = obj_keys(t, len, at, NULL, 0);
	struct span *k = calloc(n ? n : 1, sizeof(*k));

	snprintf(err, JERR_MAX, "an object with a key twice");
	*eoff = at;
	if (!k)
		return;
	obj_keys(t, len, at, k, n);
	qsort(k, n, sizeof(*k), span_cmp);
	for (size_t i = 1; i < n; i++)
		if (k[i].len == k[i - 1].len && !memcmp(t + k[i].at, t + k[i - 1].at, k[i].len)) {
			snprintf(err, JERR_MAX, "the key \"%.*s\" twice in one object",
				 k[i].len > 40 ? 40 : (int)k[i].len, t + k[i].at);
			*eoff = k[i].at - 1;
			break;
		}
	free(k);
}

/* Every object's '{' and number of keys, in document order. */
struct scan {
	size_t *at;
	uint32_t *nkeys;
	size_t n, cap;
};

static int scan_push(struct scan *sc, size_t at)
{
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 256;
		size_t *na = realloc(sc->at, cap * sizeof(*na));
		uint32_t *nk;

		if (na)
			sc->at = na;
		if (!na || !(nk = realloc(sc->nkeys, cap * sizeof(*nk))))
			return -1;
		sc->nkeys = nk;
		sc->cap = cap;
	}
	sc->at[sc->n] = at;
	sc->nkeys[sc->n++] = 0;
	return 0;
}

/* Scan valid JSON text: 0; 1 with err and *eoff for an integer past 64
 * bits; -1 when memory ran out. */
static int scan_text(struct scan *sc, const char *t, size_t len, char *err, size_t *eoff)
{
	size_t open[JDEPTH + 1]; /* the object each open level is; SIZE_MAX: an array */
	int d = 0;

	for (size_t i = 0; i < len; i++) {
		if (t[i] == '"') {
			size_t e = str_end(t, len, i);

			if (d > 0 && open[d - 1] != SIZE_MAX && is_key(t, len, e))
				sc->nkeys[open[d - 1]]++;
			i = e;
		} else if ((t[i] == '{' || t[i] == '[') && d <= JDEPTH) {
			if (t[i] == '{' && scan_push(sc, i) < 0)
				return -1;
			open[d++] = t[i] == '{' ? sc->n - 1 : SIZE_MAX;
		} else if ((t[i] == '}' || t[i] == ']') && d > 0) {
			d--;
		} else if (t[i] == '-' || (t[i] >= '0' && t[i] <= '9')) {
			size_t j = i;
			int frac = 0;

			for (; j < len && t[j] && strchr("+-0123456789.eE", t[j]); j++)
				frac |= t[j] == '.' || t[j] == 'e' || t[j] == 'E';
			if (!frac && !int_fits(t, i, j)) {
				snprintf(err, JERR_MAX, "an integer past 64 bits");
				*eoff = i;
				return 1;
			}
			if (t[i + (t[i] == '-')] == '0' && i + (t[i] == '-') + 1 < j &&
			    t[i + (t[i] == '-') + 1] >= '0' && t[i + (t[i] == '-') + 1] <= '9') {
				snprintf(err, JERR_MAX, "not JSON (a number with a leading zero)");
				*eoff = i;
				return 1;
			}
			i = j - 1;
		}
	}
	return 0;
}

/* json-c's tree into struct jv: the document's text and scan beside it. */
struct conv {
	const char *text;
	size_t len;
	const struct scan *sc;
	size_t next_obj;      /* the next object in document order */
	char *err;
	size_t *eoff;
	int oom;
};

static struct jv *convert(struct conv *c, struct json_object *o, const struct jv *up,
			  size_t idx, const char *key);

/* The elements (members) of container o into v.  0, or -1. */
static int children(struct conv *c, struct jv *v, struct json_object *o)
{
	size_t n = v->t == J_ARR ? json_object_array_length(o)
				 : (size_t)json_object_object_length(o);
	size_t i = 0;

	if (v->t == J_OBJ) {
		size_t k = c->next_obj++;

		if (k < c->sc->n && c->sc->nkeys[k] != n) {
			dup_key(c->text, c->len, c->sc->at[k], c->err, c->eoff);
			return -1;
		}
	}
	if (!(v->a = calloc(n ? n : 1, sizeof(*v->a)))) {
		c->oom = 1;
		return -1;
	}
	if (v->t == J_ARR) {
		for (; i < n; i++, v->n++)
			if (!(v->a[i] = convert(c, json_object_array_get_idx(o, i), v, i, NULL)))
				return -1;
		return 0;
	}
	json_object_object_foreach(o, k, m) {
		if (!(v->a[i] = convert(c, m, v, i, k)))
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

static struct jv *convert(struct conv *c, struct json_object *o, const struct jv *up,
			  size_t idx, const char *key)
{
	struct jv *v = calloc(1, sizeof(*v));
	int ok = 1;

	if (!v || (key && !(v->key = strdup(key)))) {
		c->oom = 1;
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
			snprintf(c->err, JERR_MAX, "a string holds \\u0000");
			ok = 0;
		} else if (!(v->s = strdup(json_object_get_string(o)))) {
			c->oom = 1;
			ok = 0;
		}
		break;
	case json_type_array:
	case json_type_object:
		v->t = json_object_get_type(o) == json_type_array ? J_ARR : J_OBJ;
		ok = children(c, v, o) == 0;
		break;
	}
	if (!ok) {
		jfree(v);
		return NULL;
	}
	return v;
}

/* The text through the tokener, INT_MAX bytes a call at most: the value,
 * or NULL with err and *eoff. */
static struct json_object *tokenize(struct json_tokener *tok, const char *text, size_t len,
				    char *err, size_t *eoff)
{
	struct json_object *o = NULL;
	enum json_tokener_error e = json_tokener_continue;
	size_t at = 0;

	while (at < len && e == json_tokener_continue) {
		int n = len - at > INT_MAX ? INT_MAX : (int)(len - at);

		o = json_tokener_parse_ex(tok, text + at, n);
		e = json_tokener_get_error(tok);
		*eoff = at + json_tokener_get_parse_end(tok);
		at += (size_t)n;
	}
	if (e == json_tokener_success)
		return o;
	snprintf(err, JERR_MAX, "not JSON (%s)",
		 e == json_tokener_continue ? "cut short" : json_tokener_error_desc(e));
	if (e == json_tokener_continue)
		*eoff = len;
	return NULL;
}

int jparse(const char *text, size_t len, struct jv **out, char *err, size_t *eoff)
{
	struct json_tokener *tok = json_tokener_new_ex(JDEPTH);
	struct scan sc = { 0 };
	struct conv c = { text, len, &sc, 0, err, eoff, 0 };
	struct json_object *o = NULL;
	size_t end = 0;
	int rc = -1;

	*out = NULL;
	*eoff = SIZE_MAX;
	snprintf(err, JERR_MAX, "out of memory");
	if (!tok)
		return -2;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	if (!(o = tokenize(tok, text, len, err, &end))) {
		*eoff = end;
	} else if ((end = after_ws(text, len, end)) < len) {
		snprintf(err, JERR_MAX, "not JSON (more after the JSON value)");
		*eoff = end;
	} else if ((rc = scan_text(&sc, text, len, err, eoff)) < 0) {
		c.oom = 1;
	} else if (rc == 0) {
		rc = (*out = convert(&c, o, NULL, 0, NULL)) ? 0 : -1;
	}
	if (rc < 0 && c.oom) {
		snprintf(err, JERR_MAX, "out of memory");
		*eoff = SIZE_MAX;
	}
	json_object_put(o);
	json_tokener_free(tok);
	free(sc.at);
	free(sc.nkeys);
	return c.oom ? -2 : rc == 0 ? 0 : -1;
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
