/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cats.h - the text of a category set, shared by cipso.c (which writes it)
 * and calipso.c (internal, not installed; vxgbpi_ names stay out of the
 * shared library's exports).  The categories come from an iterator with the
 * contract of vxgbp_cipso_cat_next(); the text is "0,1,5-9": runs of three
 * or more as lo-hi, a run of two as two numbers.
 */
#ifndef VXGBP_CATS_H
#define VXGBP_CATS_H

#include <stddef.h>
#include <stdint.h>

#include <vxgbp/vxgbp.h>

typedef int (*vxgbpi_cat_next_fn)(const void *obj, unsigned *iter, uint16_t *lo,
				  uint16_t *hi);

/* The text to put(), one run (",5-9") a call.  Returns its length, or
 * put's negative return, or VXGBP_E_INVAL without put. */
int vxgbpi_cats_put(vxgbpi_cat_next_fn next, const void *obj, vxgbp_put_fn put, void *ctx);
/* The text into buf, always NUL-terminated when buflen > 0.  Returns its
 * length, or VXGBP_E_NOSPACE (buf holds the longest prefix that fits). */
int vxgbpi_cats_format(vxgbpi_cat_next_fn next, const void *obj, char *buf, size_t buflen);

#endif /* VXGBP_CATS_H */
