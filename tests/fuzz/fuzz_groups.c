// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_groups.c - libFuzzer harness for the group-names parser
 * (vxgbp_groups_parse_line): the input is split into lines, each copied
 * into a buffer of exactly its length (no NUL terminator, so a parser that
 * ran to a NUL would be caught), into a small table so VXGBP_E_NOSPACE is
 * reached too.  The table must stay sorted and every name terminated.
 */
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vxgbp_group_name store[8];
	struct vxgbp_groups g;
	size_t at = 0;

	vxgbp_groups_init(&g, store, sizeof(store) / sizeof(store[0]));
	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) + 1 : size - at;
		char *line = malloc(len ? len : 1);
		size_t col = (size_t)-1;
		int r;

		if (!line)
			return 0;
		memcpy(line, data + at, len);
		r = vxgbp_groups_parse_line(&g, line, len, &col);
		if (r == VXGBP_E_SYNTAX && col > len)
			abort();
		if (r != 0 && r != VXGBP_E_SYNTAX && r != VXGBP_E_NOSPACE)
			abort();
		free(line);
		at += len;
	}
	if (g.n > g.cap)
		abort();
	for (size_t i = 0; i < g.n; i++) {
		if (!memchr(g.v[i].name, '\0', sizeof(g.v[i].name)))
			abort();
		if (i && g.v[i - 1].id >= g.v[i].id)
			abort();
		if (vxgbp_groups_name(&g, g.v[i].id) != g.v[i].name)
			abort();
	}
	return 0;
}
