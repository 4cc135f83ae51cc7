// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_cipso.c - libFuzzer harness for the CIPSO (IPv4) and CALIPSO (IPv6)
 * label parsers, their category iterators and formatters.  Input: one
 * selector byte (bit 0: CALIPSO), then the option from its type byte, copied
 * into a buffer of exactly its size.
 */
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_cipso(const struct vxgbp_cipso_tag *t)
{
	unsigned iter = 0, steps = 0;
	uint16_t lo, hi;
	char buf[64], big[8192];

	while (vxgbp_cipso_cat_next(t, &iter, &lo, &hi)) {
		if (lo > hi || ++steps > 70000)
			abort();
	}
	if (vxgbp_cipso_cats_format(buf, sizeof(buf), t) >= (int)sizeof(buf))
		abort();
	if (vxgbp_cipso_cats_format(big, sizeof(big), t) >= (int)sizeof(big) ||
	    strlen(big) >= sizeof(big))
		abort();
	(void)vxgbp_cipso_tag_name(t->type);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *o;
	size_t n;
	int r;

	if (size < 1)
		return 0;
	n = size - 1;
	if (!(o = malloc(n ? n : 1)))
		return 0;
	memcpy(o, data + 1, n);
	if (!(data[0] & 1)) {
		struct vxgbp_cipso c;

		if (n)
			o[0] = VXGBP_CIPSO_OPT;
		r = vxgbp_cipso_parse(&c, o, n);
		if (r > 0) {
			if ((size_t)r > n || c.n_tags > VXGBP_CIPSO_MAX_TAGS)
				abort();
			for (unsigned i = 0; i < c.n_tags; i++) {
				const struct vxgbp_cipso_tag *t = &c.tags[i];

				if (t->data && (t->data < o || t->data + t->data_len > o + n))
					abort();
				walk_cipso(t);
			}
			(void)vxgbp_cipso_label_tag(&c);
		}
	} else {
		struct vxgbp_calipso c;
		char buf[64], big[16384];
		unsigned iter = 0, steps = 0;
		uint16_t lo, hi;

		if (n)
			o[0] = VXGBP_CALIPSO_OPT;
		r = vxgbp_calipso_parse(&c, o, n);
		if (r > 0) {
			if ((size_t)r > n)
				abort();
			if (c.cmpt && (c.cmpt < o || c.cmpt + c.cmpt_bytes > o + n))
				abort();
			while (vxgbp_calipso_cat_next(&c, &iter, &lo, &hi))
				if (lo > hi || ++steps > 70000)
					abort();
			if (vxgbp_calipso_cats_format(buf, sizeof(buf), &c) >= (int)sizeof(buf))
				abort();
			(void)vxgbp_calipso_cats_format(big, sizeof(big), &c);
		}
		(void)vxgbp_calipso_csum(o, n);
	}
	free(o);
	return 0;
}
