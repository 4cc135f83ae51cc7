// SPDX-License-Identifier: BSD-2-Clause
/* test_groups.c - the group-name file parser ("0x200 web" per line). */
#include <vxgbp/vxgbp.h>

#include "guard.h"
#include "unit.h"

static int parse(struct vxgbp_groups *g, const char *line, size_t *col)
{
	return vxgbp_groups_parse_line(g, line, strlen(line), col);
}

START_TEST(test_good_lines)
{
	static const struct {
		const char *line;
		uint16_t id;
		const char *name;
	} c[] = {
		{ "0x200 web", 0x200, "web" },
		{ "512 web2", 512, "web2" },
		{ "0X1f\tdb", 0x1f, "db" },
		{ "  0xABcd   upper-hex  ", 0xabcd, "upper-hex" },
		{ "0 zero", 0, "zero" },
		{ "65535 max", 65535, "max" },
		{ "0xffff maxhex", 0xffff, "maxhex" },
		{ "00042 leading-zeros", 42, "leading-zeros" },
		{ "0x0000000010 long-hex", 0x10, "long-hex" },
		{ "7 seven # a comment", 7, "seven" },
		{ "8 eight#comment", 8, "eight" },
		{ "9 nine\r\n", 9, "nine" },
		{ "10 n@me_with.punct!", 10, "n@me_with.punct!" },
		{ "11 abcdefghijklmnopqrstuvwxyz01234", 11, "abcdefghijklmnopqrstuvwxyz01234" }, /* 31 */
	};
	struct vxgbp_group_name st[4];
	struct vxgbp_groups g;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t col = 99;

		CTX("line \"%s\"", c[i].line);
		vxgbp_groups_init(&g, st, 4);
		EXPECT_EQ(parse(&g, c[i].line, &col), 0);
		EXPECT_EQ(g.n, 1);
		EXPECT_STR(vxgbp_groups_name(&g, c[i].id), c[i].name);
		EXPECT(vxgbp_groups_name(&g, (uint16_t)(c[i].id + 1)) == NULL, "neighbour id named");
	}
}
END_TEST

START_TEST(test_blank_and_comments)
{
	static const char *c[] = { "", " ", "\t\t", "\n", "\r\n", "# comment", "   # indented",
				   "#0x200 web", "#" };
	struct vxgbp_group_name st[1];
	struct vxgbp_groups g;

	vxgbp_groups_init(&g, st, 1);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t col;

		CTX("line \"%s\"", c[i]);
		EXPECT_EQ(parse(&g, c[i], &col), 0);
		EXPECT_EQ(g.n, 0);
	}
	CTX("empty table lookups");
	EXPECT(vxgbp_groups_name(&g, 0) == NULL, "name in an empty table");
	EXPECT(vxgbp_groups_name(NULL, 0) == NULL, "name in no table");
}
END_TEST

START_TEST(test_syntax_errors)
{
	static const struct {
		const char *line;
		size_t col;
	} c[] = {
		{ "web", 0 },           /* no id */
		{ "-5 web", 0 },        /* sign */
		{ "0x web", 2 },        /* no hex digit */
		{ "0xg web", 2 },
		{ "512", 3 },           /* no name */
		{ "512   ", 6 },
		{ "512 # only a comment", 4 },
		{ "512web", 3 },        /* id runs into the name */
		{ "0x200web", 5 },
		{ "12a web", 2 },
		{ "512 web extra", 8 }, /* trailing word */
		{ "  512 a b", 8 },
		{ "512 abcdefghijklmnopqrstuvwxyz012345", 4 }, /* 32 characters */
		{ "1 \x01" "ab", 2 },     /* control character in a name */
		{ "1 a\x7f" "b", 3 },
	};
	struct vxgbp_group_name st[4];
	struct vxgbp_groups g;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t col = 999;

		CTX("line \"%s\"", c[i].line);
		vxgbp_groups_init(&g, st, 4);
		EXPECT_EQ(parse(&g, c[i].line, &col), VXGBP_E_SYNTAX);
		EXPECT_EQ(col, c[i].col);
		EXPECT_EQ(g.n, 0);
	}
}
END_TEST

/* An id too big for 16 bits is an error pointing at the number. */
START_TEST(test_id_range)
{
	static const struct {
		const char *line;
		size_t col;
	} c[] = {
		{ "65536 big", 0 },
		{ "0x10000 big", 0 },
		{ "  99999999999999999999 big", 2 },
		{ "0xfffffffffffffffffff big", 0 },
	};
	struct vxgbp_group_name st[4];
	struct vxgbp_groups g;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t col = 999;

		CTX("line \"%s\"", c[i].line);
		vxgbp_groups_init(&g, st, 4);
		EXPECT_EQ(parse(&g, c[i].line, &col), VXGBP_E_SYNTAX);
		EXPECT_EQ(col, c[i].col);
	}
}
END_TEST

START_TEST(test_duplicates_and_order)
{
	static const char *lines[] = { "0x300 c", "0x100 a", "0x200 b", "0x100 a2", "0x50 first",
				       "0xffff last", "256 a3" };
	struct vxgbp_group_name st[5];
	struct vxgbp_groups g;
	size_t col;

	vxgbp_groups_init(&g, st, 5);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		CTX("line \"%s\"", lines[i]);
		EXPECT_EQ(parse(&g, lines[i], &col), 0);
	}
	CTX("table");
	EXPECT_EQ(g.n, 5);
	for (size_t i = 1; i < g.n; i++)
		EXPECT(g.v[i - 1].id < g.v[i].id, "not sorted at %zu", i);
	EXPECT_STR(vxgbp_groups_name(&g, 0x100), "a3"); /* the last one wins */
	EXPECT_STR(vxgbp_groups_name(&g, 0x50), "first");
	EXPECT_STR(vxgbp_groups_name(&g, 0x200), "b");
	EXPECT_STR(vxgbp_groups_name(&g, 0x300), "c");
	EXPECT_STR(vxgbp_groups_name(&g, 0xffff), "last");
	EXPECT(vxgbp_groups_name(&g, 0) == NULL, "0 named");
	EXPECT(vxgbp_groups_name(&g, 0x101) == NULL, "0x101 named");
	/* full: a new id does not fit, a known one is still replaced */
	EXPECT_EQ(parse(&g, "0x400 d", &col), VXGBP_E_NOSPACE);
	EXPECT_EQ(g.n, 5);
	EXPECT_EQ(parse(&g, "0x200 b2", &col), 0);
	EXPECT_STR(vxgbp_groups_name(&g, 0x200), "b2");
	/* no storage at all */
	vxgbp_groups_init(&g, NULL, 10);
	EXPECT_EQ(parse(&g, "1 x", &col), VXGBP_E_NOSPACE);
}
END_TEST

/* Many ids in pseudo-random order: the table stays sorted and complete. */
START_TEST(test_many_sorted)
{
	static struct vxgbp_group_name st[1000];
	static uint8_t seen[65536];
	struct vxgbp_groups g;
	unsigned long long s = 777;
	size_t col;
	char line[64];
	unsigned n = 0;

	memset(seen, 0, sizeof(seen));
	vxgbp_groups_init(&g, st, 1000);
	while (n < 1000) {
		uint16_t id = (uint16_t)unit_rand(&s);

		snprintf(line, sizeof(line), (id & 1) ? "%u g%u" : "0x%x g%u", id, id);
		CTX("%s", line);
		EXPECT_EQ(parse(&g, line, &col), 0);
		if (!seen[id]++)
			n++;
	}
	CTX("table");
	EXPECT_EQ(g.n, 1000);
	for (size_t i = 1; i < g.n; i++)
		EXPECT(g.v[i - 1].id < g.v[i].id, "not sorted at %zu", i);
	for (unsigned id = 0; id < 65536; id++) {
		const char *nm = vxgbp_groups_name(&g, (uint16_t)id);

		snprintf(line, sizeof(line), "g%u", id);
		if (seen[id])
			EXPECT_STR(nm, line);
		else
			EXPECT(nm == NULL, "id %u named", id);
	}
}
END_TEST

/* Lines are (pointer, length): nothing past len is read, no NUL needed. */
START_TEST(test_line_bounds)
{
	static const char *lines[] = { "0x200 web", "512", "  # c", "512 web extra", "0x",
				       "65536 x", "1 abcdefghijklmnopqrstuvwxyz0123456789" };
	struct vxgbp_group_name st[4];
	struct vxgbp_groups g;
	struct guard gd;

	ck_assert_int_eq(guard_init(&gd, 256), 0);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		for (size_t len = 0; len <= strlen(lines[i]); len++) {
			const char *at = (const char *)guard_place(&gd, lines[i], len);
			size_t col = 999;
			int r;

			CTX("\"%s\" first %zu bytes", lines[i], len);
			vxgbp_groups_init(&g, st, 4);
			r = vxgbp_groups_parse_line(&g, at, len, &col);
			EXPECT(r == 0 || r == VXGBP_E_SYNTAX, "r = %d", r);
			if (r == VXGBP_E_SYNTAX)
				EXPECT(col <= len, "column %zu past the line", col);
		}
	CTX("prefix \"0x200 w\" of a longer line");
	vxgbp_groups_init(&g, st, 4);
	{
		size_t col;

		EXPECT_EQ(vxgbp_groups_parse_line(&g, "0x200 web", 7, &col), 0);
		EXPECT_STR(vxgbp_groups_name(&g, 0x200), "w");
	}
	guard_free(&gd);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("groups");
	TCase *tc = unit_tcase(s, "groups");

	tcase_add_test(tc, test_good_lines);
	tcase_add_test(tc, test_blank_and_comments);
	tcase_add_test(tc, test_syntax_errors);
	tcase_add_test(tc, test_id_range);
	tcase_add_test(tc, test_duplicates_and_order);
	tcase_add_test(tc, test_many_sorted);
	tcase_add_test(tc, test_line_bounds);
	return unit_run(s, "groups");
}
