// SPDX-License-Identifier: BSD-2-Clause
/* utf8.c - see utf8.h. */
#include "utf8.h"

size_t utf8_seq(const unsigned char *s, unsigned *cp)
{
	unsigned c = s[0], min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, *cp = c & 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		n = 3, *cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, *cp = c & 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3fu);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}
