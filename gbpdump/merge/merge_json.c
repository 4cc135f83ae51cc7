// SPDX-License-Identifier: BSD-2-Clause
/*
 * merge_json.c - the JSON reader of gbpdump --merge (merge_json.h):
 * recursive descent over RFC 8259, nesting bounded, every read of the
 * text inside [text, text + len).
 */
#include <stdlib.h>
#include <string.h>

#include "merge_json.h"

#define JDEPTH 32

struct jp {
	const char *t;
	size_t len, i;
	const char *err;
	size_t eoff;
};

static struct jv *value(struct jp *p, int depth);

static int fail(struct jp *p, const char *why)
{
	if (!p->err) {
		p->err = why;
		p->eoff = p->i;
	}
	return -1;
}

static void ws(struct jp *p)
{
	while (p->i < p->len && (p->t[p->i] == ' ' || p->t[p->i] == '\t' ||
				 p->t[p->i] == '\n' || p->t[p->i] == '\r'))
		p->i++;
}

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

static int push(struct jv *c, struct jv *e)
{
	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 8;
		struct jv **na = realloc(c->a, nc * sizeof(*na));

		if (!na)
			return -1;
		c->a = na;
		c->cap = nc;
	}
	c->a[c->n++] = e;
	return 0;
}

static int hex4(struct jp *p, unsigned *v)
{
	*v = 0;
	if (p->len - p->i < 4)
		return fail(p, "string cut short");
	for (int k = 0; k < 4; k++) {
		char c = p->t[p->i++];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return fail(p, "bad \\u escape");
	}
	return 0;
}

/* One escape after the backslash into o (room for 3 bytes); bytes written. */
static int escape(struct jp *p, char *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned u;

	if (p->i >= p->len)
		return fail(p, "string cut short");
	if (p->t[p->i] != 'u') {
		if (!p->t[p->i] || !(e = strchr(from, p->t[p->i])))
			return fail(p, "bad escape");
		p->i++;
		o[0] = to[e - from];
		return 1;
	}
	p->i++;
	if (hex4(p, &u) < 0)
		return -1;
	if (u == 0 || (u >= 0xd800 && u <= 0xdfff))
		return fail(p, "\\u escape not supported here (NUL or surrogate)");
	if (u < 0x80) {
		o[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		o[0] = (char)(0xc0 | (u >> 6));
		o[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	o[0] = (char)(0xe0 | (u >> 12));
	o[1] = (char)(0x80 | ((u >> 6) & 0x3f));
	o[2] = (char)(0x80 | (u & 0x3f));
	return 3;
}

/* A string at p->i (the opening quote) into a new NUL-terminated copy. */
static char *string(struct jp *p)
{
	size_t start = ++p->i, n = 0;
	char *s;

	/* the copy is never longer than the text */
	while (p->i < p->len && p->t[p->i] != '"')
		p->i += p->t[p->i] == '\\' ? 2 : 1;
	if (p->i >= p->len) {
		fail(p, "string cut short");
		return NULL;
	}
	if (!(s = malloc(p->i - start + 1))) {
		fail(p, "out of memory");
		return NULL;
	}
	for (p->i = start; p->t[p->i] != '"';) {
		unsigned char c = (unsigned char)p->t[p->i];
		int k;

		if (c < 0x20) {
			free(s);
			fail(p, "control character in a string");
			return NULL;
		}
		p->i++;
		if (c != '\\') {
			s[n++] = (char)c;
			continue;
		}
		if ((k = escape(p, s + n)) < 0) {
			free(s);
			return NULL;
		}
		n += (size_t)k;
	}
	p->i++;
	s[n] = 0;
	return s;
}

static int number(struct jp *p, struct jv *v)
{
	int digits = 0;

	v->t = J_INT;
	if (p->t[p->i] == '-') {
		v->neg = 1;
		p->i++;
	}
	while (p->i < p->len && p->t[p->i] >= '0' && p->t[p->i] <= '9') {
		unsigned d = (unsigned)(p->t[p->i++] - '0');

		if (v->u > (UINT64_MAX - d) / 10)
			v->t = J_NUM; /* too large for 64 bits: not an integer we use */
		else
			v->u = v->u * 10 + d;
		digits++;
	}
	if (!digits)
		return fail(p, "bad number");
	if (p->i < p->len && (p->t[p->i] == '.' || p->t[p->i] == 'e' || p->t[p->i] == 'E')) {
		v->t = J_NUM;
		p->i++;
		while (p->i < p->len && strchr("0123456789+-eE", p->t[p->i]) && p->t[p->i])
			p->i++;
	}
	return 0;
}

static int word(struct jp *p, const char *w, struct jv *v, enum jtype t, uint64_t u)
{
	size_t n = strlen(w);

	if (p->len - p->i < n || memcmp(p->t + p->i, w, n))
		return fail(p, "not JSON");
	p->i += n;
	v->t = t;
	v->u = u;
	return 0;
}

/* The elements of an array or members of an object (p->i after the opening
 * bracket). */
static int items(struct jp *p, struct jv *v, int depth, char close)
{
	ws(p);
	if (p->i < p->len && p->t[p->i] == close) {
		p->i++;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		struct jv *e;

		ws(p);
		if (close == '}') {
			if (p->i >= p->len || p->t[p->i] != '"')
				return fail(p, p->i >= p->len ? "cut short" : "member name expected");
			if (!(key = string(p)))
				return -1;
			ws(p);
			if (p->i >= p->len || p->t[p->i] != ':') {
				free(key);
				return fail(p, p->i >= p->len ? "cut short" : "':' expected");
			}
			p->i++;
		}
		if (!(e = value(p, depth + 1)) || push(v, e) < 0) {
			free(key);
			jfree(e);
			return e ? fail(p, "out of memory") : -1;
		}
		e->key = key;
		ws(p);
		if (p->i >= p->len)
			return fail(p, "cut short");
		if (p->t[p->i] == close) {
			p->i++;
			return 0;
		}
		if (p->t[p->i++] != ',')
			return fail(p, "',' expected");
	}
}

static struct jv *value(struct jp *p, int depth)
{
	struct jv *v;
	int rc;
	char c;

	ws(p);
	if (p->i >= p->len) {
		fail(p, "cut short");
		return NULL;
	}
	if (depth > JDEPTH) {
		fail(p, "nested too deep");
		return NULL;
	}
	if (!(v = calloc(1, sizeof(*v)))) {
		fail(p, "out of memory");
		return NULL;
	}
	v->off = p->i;
	c = p->t[p->i];
	if (c == '{' || c == '[') {
		p->i++;
		v->t = c == '{' ? J_OBJ : J_ARR;
		rc = items(p, v, depth, c == '{' ? '}' : ']');
	} else if (c == '"') {
		v->t = J_STR;
		rc = (v->s = string(p)) ? 0 : -1;
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		rc = number(p, v);
	} else {
		rc = c == 't' ? word(p, "true", v, J_BOOL, 1) : c == 'f' ? word(p, "false", v, J_BOOL, 0)
		     : word(p, "null", v, J_NULL, 0);
	}
	if (rc < 0) {
		jfree(v);
		return NULL;
	}
	return v;
}

struct jv *jparse(const char *text, size_t len, const char **err, size_t *eoff)
{
	struct jp p = { text, len, 0, NULL, 0 };
	struct jv *v = value(&p, 0);

	if (v) {
		ws(&p);
		if (p.i < p.len) {
			fail(&p, "more after the JSON value");
			jfree(v);
			v = NULL;
		}
	}
	*err = p.err;
	*eoff = p.eoff;
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
