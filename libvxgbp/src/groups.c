// SPDX-License-Identifier: BSD-2-Clause
/*
 * groups.c - names for Group Policy IDs, one "ID NAME" per line:
 *
 *     # comment
 *     0x200   web
 *     512     web        # the same ID in decimal
 *
 * IDs are 0..65535 in decimal or 0x-hex; names are 1..31 printable
 * characters without spaces.  A later line for the same ID replaces the
 * earlier name.  Storage is the caller's; the table is kept sorted by ID so
 * lookups are a binary search.
 */
#include <string.h>

#include <vxgbp/vxgbp.h>

void vxgbp_groups_init(struct vxgbp_groups *g, struct vxgbp_group_name *storage,
		       size_t cap)
{
	g->v = storage;
	g->n = 0;
	g->cap = storage ? cap : 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Binary search: index of id, or where it would go. */
static size_t find(const struct vxgbp_groups *g, uint16_t id)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int vxgbp_groups_parse_line(struct vxgbp_groups *g, const char *line, size_t len,
			    size_t *col)
{
	size_t i = 0, num_at, name_at, name_len, at, no_col;
	unsigned long id = 0;
	int digits = 0;

	if (!col)
		col = &no_col;
	*col = 0;
	while (i < len && is_space(line[i]))
		i++;
	if (i == len || line[i] == '#')
		return 0;
	num_at = i;
	if (i + 1 < len && line[i] == '0' && (line[i + 1] == 'x' || line[i + 1] == 'X')) {
		i += 2;
		while (i < len && hexval(line[i]) >= 0 && id <= 0xffff) {
			id = id * 16 + (unsigned)hexval(line[i++]);
			digits++;
		}
	} else {
		while (i < len && line[i] >= '0' && line[i] <= '9' && id <= 0xffff) {
			id = id * 10 + (unsigned)(line[i++] - '0');
			digits++;
		}
	}
	if (id > 0xffff) { /* out of range: point at the number, not past it */
		*col = num_at;
		return VXGBP_E_SYNTAX;
	}
	if (!digits || i == len || !is_space(line[i])) {
		*col = i;
		return VXGBP_E_SYNTAX;
	}
	while (i < len && is_space(line[i]))
		i++;
	name_at = i;
	while (i < len && !is_space(line[i]) && line[i] != '#') {
		if ((unsigned char)line[i] < 0x21 || (unsigned char)line[i] == 0x7f) {
			*col = i;
			return VXGBP_E_SYNTAX;
		}
		i++;
	}
	name_len = i - name_at;
	if (name_len == 0 || name_len >= sizeof(g->v[0].name)) {
		*col = name_at;
		return VXGBP_E_SYNTAX;
	}
	while (i < len && is_space(line[i]))
		i++;
	if (i < len && line[i] != '#') {
		*col = i;
		return VXGBP_E_SYNTAX;
	}
	at = find(g, (uint16_t)id);
	if (at == g->n || g->v[at].id != id) {
		if (g->n >= g->cap)
			return VXGBP_E_NOSPACE;
		memmove(&g->v[at + 1], &g->v[at], (g->n - at) * sizeof(g->v[0]));
		g->n++;
	}
	g->v[at].id = (uint16_t)id;
	memcpy(g->v[at].name, line + name_at, name_len);
	g->v[at].name[name_len] = '\0';
	return 0;
}

const char *vxgbp_groups_name(const struct vxgbp_groups *g, uint16_t id)
{
	size_t at;

	if (!g || !g->n)
		return NULL;
	at = find(g, id);
	return at < g->n && g->v[at].id == id ? g->v[at].name : NULL;
}
