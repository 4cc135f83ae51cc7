/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * merge_json.h - a small JSON reader for gbpdump --merge: the whole text
 * into a tree; each value keeps its byte offset for error messages.
 * Integers are kept exact (64 bits, with their sign); other numbers are
 * accepted and marked as such.
 */
#ifndef GBPDUMP_MERGE_JSON_H
#define GBPDUMP_MERGE_JSON_H

#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_BOOL, J_INT, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jtype t;
	size_t off;          /* where the value starts in the text */
	char *key;           /* member name inside an object, else NULL */
	char *s;             /* J_STR: NUL-terminated (no NUL inside) */
	uint64_t u;          /* J_INT: magnitude; J_BOOL: 0/1 */
	int neg;             /* J_INT: negative */
	struct jv **a;       /* J_ARR, J_OBJ: the elements / members */
	size_t n, cap;
};

/* Parse text[0..len) (one value, then only white space).  The tree, or
 * NULL with *err a short reason and *eoff its byte offset. */
struct jv *jparse(const char *text, size_t len, const char **err, size_t *eoff);
void jfree(struct jv *v);
/* The member `key` of object o, or NULL. */
const struct jv *jget(const struct jv *o, const char *key);

#endif /* GBPDUMP_MERGE_JSON_H */
