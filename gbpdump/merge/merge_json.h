/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * merge_json.h - the JSON of gbpdump --merge, parsed by json-c (strict
 * RFC 8259: no leading zeros, no comments, valid UTF-8) into a small tree
 * the summary reader walks.  Each value knows where it is in the document
 * (jpath), for error messages.  Integers are kept exact with their sign;
 * one past 64 bits is refused, and so is an object with a key twice (json-c
 * would saturate the one and keep the last of the other).  Other numbers
 * are marked as such.
 */
#ifndef GBPDUMP_MERGE_JSON_H
#define GBPDUMP_MERGE_JSON_H

#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_BOOL, J_INT, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jtype t;
	const struct jv *up; /* the array or object holding it; NULL: the document */
	size_t idx;          /* its index in up's array */
	char *key;           /* member name inside an object, else NULL */
	char *s;             /* J_STR: NUL-terminated (no NUL inside) */
	uint64_t u;          /* J_INT: magnitude; J_BOOL: 0/1 */
	int neg;             /* J_INT: negative */
	struct jv **a;       /* J_ARR, J_OBJ: the elements / members */
	size_t n;
};

#define JERR_MAX 96

/* Parse text[0..len) (one value, then only white space) into *out: 0; -1
 * with err (JERR_MAX bytes) the reason and *eoff its byte offset (SIZE_MAX
 * when there is none); -2 when memory ran out. */
int jparse(const char *text, size_t len, struct jv **out, char *err, size_t *eoff);
void jfree(struct jv *v);
/* The member `key` of object o, or NULL. */
const struct jv *jget(const struct jv *o, const char *key);
/* Where v is: "summary.pairs[3].vni" into buf (n bytes), "the document"
 * for the root. */
void jpath(const struct jv *v, char *buf, size_t n);

#endif /* GBPDUMP_MERGE_JSON_H */
