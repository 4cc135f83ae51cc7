// SPDX-License-Identifier: BSD-2-Clause
/* test_addr.c - IPv4, IPv6 (RFC 5952) and MAC formatting. */
#include <vxgbp/vxgbp.h>

#include "guard.h"
#include "unit.h"

struct v6case {
	uint16_t g[8];
	const char *want;
};

/* RFC 5952 sec. 4: lower case, no leading zeros, "::" for the longest run
 * of two or more zero groups (the first on a tie), never for one group;
 * sec. 5: IPv4-mapped addresses end in dotted quad. */
static const struct v6case v6[] = {
	{ { 0, 0, 0, 0, 0, 0, 0, 0 }, "::" },
	{ { 0, 0, 0, 0, 0, 0, 0, 1 }, "::1" },
	{ { 1, 0, 0, 0, 0, 0, 0, 0 }, "1::" },
	{ { 0x2001, 0xdb8, 0, 0, 0, 0, 0, 1 }, "2001:db8::1" },
	{ { 0x2001, 0xdb8, 0, 0, 1, 0, 0, 1 }, "2001:db8::1:0:0:1" },
	{ { 0x2001, 0xdb8, 0, 1, 1, 1, 1, 1 }, "2001:db8:0:1:1:1:1:1" },
	{ { 0x2001, 0xdb8, 0, 0, 0, 1, 0, 0 }, "2001:db8::1:0:0" },
	{ { 0x2001, 0, 0, 1, 0, 0, 0, 1 }, "2001:0:0:1::1" },
	{ { 0x2001, 0xdb8, 0xa, 0xb0, 0xc00, 0xd000, 0xffff, 0xabcd }, "2001:db8:a:b0:c00:d000:ffff:abcd" },
	{ { 0xfe80, 0, 0, 0, 0x0211, 0x22ff, 0xfe33, 0x4455 }, "fe80::211:22ff:fe33:4455" },
	{ { 1, 0, 1, 0, 1, 0, 1, 0 }, "1:0:1:0:1:0:1:0" },
	{ { 0, 1, 0, 1, 0, 1, 0, 1 }, "0:1:0:1:0:1:0:1" },
	{ { 0, 0, 1, 0, 0, 1, 0, 0 }, "::1:0:0:1:0:0" },
	{ { 0xff02, 0, 0, 0, 0, 0, 0, 0x1 }, "ff02::1" },
	{ { 0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201 }, "::ffff:192.0.2.1" },
	{ { 0, 0, 0, 0, 0, 0xffff, 0, 0 }, "::ffff:0.0.0.0" },
	{ { 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff },
	  "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff" },
};

static void v6bytes(const uint16_t g[8], uint8_t a[16])
{
	for (int i = 0; i < 8; i++) {
		a[2 * i] = (uint8_t)(g[i] >> 8);
		a[2 * i + 1] = (uint8_t)g[i];
	}
}

START_TEST(test_ipv6)
{
	for (size_t i = 0; i < sizeof(v6) / sizeof(v6[0]); i++) {
		uint8_t a[16];
		char buf[64];
		size_t n = strlen(v6[i].want);

		CTX("%s", v6[i].want);
		v6bytes(v6[i].g, a);
		memset(buf, 'x', sizeof(buf));
		EXPECT_EQ(vxgbp_addr_format(buf, sizeof(buf), a, 16), n);
		EXPECT_STR(buf, v6[i].want);
		/* exactly big enough, one too small */
		EXPECT_EQ(vxgbp_addr_format(buf, n + 1, a, 16), n);
		EXPECT_STR(buf, v6[i].want);
		EXPECT_EQ(vxgbp_addr_format(buf, n, a, 16), VXGBP_E_NOSPACE);
		EXPECT_EQ(vxgbp_addr_format(buf, 0, a, 16), VXGBP_E_NOSPACE);
	}
}
END_TEST

START_TEST(test_ipv4)
{
	static const struct {
		uint8_t a[4];
		const char *want;
	} c[] = {
		{ { 0, 0, 0, 0 }, "0.0.0.0" },
		{ { 192, 0, 2, 1 }, "192.0.2.1" },
		{ { 10, 200, 9, 99 }, "10.200.9.99" },
		{ { 255, 255, 255, 255 }, "255.255.255.255" },
		{ { 100, 10, 1, 0 }, "100.10.1.0" },
	};
	struct guard g;

	ck_assert_int_eq(guard_init(&g, 64), 0);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char buf[32];
		size_t n = strlen(c[i].want);

		CTX("%s", c[i].want);
		EXPECT_EQ(vxgbp_addr_format(buf, sizeof(buf), c[i].a, 4), n);
		EXPECT_STR(buf, c[i].want);
		for (size_t len = 0; len <= n; len++)
			EXPECT_EQ(vxgbp_addr_format(buf, len, c[i].a, 4), VXGBP_E_NOSPACE);
		/* the address itself at a page end: no over-read */
		EXPECT_EQ(vxgbp_addr_format(buf, sizeof(buf), guard_place(&g, c[i].a, 4), 4), n);
		/* writing exactly n + 1 bytes up to a page end */
		{
			char *out = (char *)guard_place(&g, "", 0) - (n + 1);

			EXPECT_EQ(vxgbp_addr_format(out, n + 1, c[i].a, 4), n);
			EXPECT_STR(out, c[i].want);
		}
	}
	guard_free(&g);
}
END_TEST

START_TEST(test_bad_args)
{
	uint8_t a[16] = { 0 };
	char buf[64];

	for (size_t len = 0; len < 20; len++) {
		CTX("len %zu", len);
		if (len != 4 && len != 16)
			EXPECT_EQ(vxgbp_addr_format(buf, sizeof(buf), a, len), VXGBP_E_INVAL);
	}
	EXPECT_EQ(vxgbp_addr_format(buf, sizeof(buf), NULL, 4), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_mac_format(buf, sizeof(buf), NULL), VXGBP_E_INVAL);
}
END_TEST

START_TEST(test_mac)
{
	static const uint8_t m1[6] = { 0x00, 0x1b, 0x21, 0xab, 0xcd, 0xef };
	static const uint8_t m2[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t m3[6] = { 0, 0, 0, 0, 0, 0x0a };
	char buf[18];

	EXPECT_EQ(vxgbp_mac_format(buf, sizeof(buf), m1), 17);
	EXPECT_STR(buf, "00:1b:21:ab:cd:ef");
	EXPECT_EQ(vxgbp_mac_format(buf, sizeof(buf), m2), 17);
	EXPECT_STR(buf, "ff:ff:ff:ff:ff:ff");
	EXPECT_EQ(vxgbp_mac_format(buf, sizeof(buf), m3), 17);
	EXPECT_STR(buf, "00:00:00:00:00:0a");
	for (size_t len = 0; len < 18; len++) {
		CTX("len %zu", len);
		memset(buf, 'q', sizeof(buf));
		EXPECT_EQ(vxgbp_mac_format(buf, len, m1), VXGBP_E_NOSPACE);
		EXPECT_EQ(buf[0], 'q');
	}
}
END_TEST

/* Every IPv6 address made of groups from {0, 1, 0xabcd} (3^8 = 6561)
 * against a direct statement of RFC 5952's rules. */
static void rfc5952(const uint16_t g[8], char *out)
{
	int best = -1, bestlen = 1;
	char *p = out;

	for (int i = 0; i < 8; i++) {
		int j = i;

		while (j < 8 && g[j] == 0)
			j++;
		if (j - i > bestlen) {
			best = i;
			bestlen = j - i;
		}
	}
	if (best == 0 && bestlen == 5 && g[5] == 0xffff) {
		sprintf(out, "::ffff:%u.%u.%u.%u", g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff);
		return;
	}
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			p += sprintf(p, "::");
			i += bestlen - 1;
			continue;
		}
		p += sprintf(p, "%s%x", (i == 0 || i == best + bestlen) ? "" : ":", g[i]);
	}
	*p = '\0';
}

START_TEST(test_ipv6_all_small)
{
	static const uint16_t vals[3] = { 0, 1, 0xabcd };

	for (unsigned n = 0; n < 6561; n++) {
		uint16_t g[8];
		uint8_t a[16];
		char want[64], got[64];
		unsigned x = n;

		for (int i = 0; i < 8; i++, x /= 3)
			g[i] = vals[x % 3];
		v6bytes(g, a);
		rfc5952(g, want);
		CTX("case %u: %s", n, want);
		EXPECT_EQ(vxgbp_addr_format(got, sizeof(got), a, 16), strlen(want));
		EXPECT_STR(got, want);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("addr");
	TCase *tc = unit_tcase(s, "addr");

	tcase_add_test(tc, test_ipv6);
	tcase_add_test(tc, test_ipv4);
	tcase_add_test(tc, test_bad_args);
	tcase_add_test(tc, test_mac);
	tcase_add_test(tc, test_ipv6_all_small);
	return unit_run(s, "addr");
}
