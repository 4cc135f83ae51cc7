// SPDX-License-Identifier: BSD-2-Clause
/* test_csum.c - vxgbp_csum_add() (csum.c: vector steps on x86-64, a 64-bit
 * scalar loop elsewhere and for the tail) against the plain RFC 1071 loop:
 * 16-bit network-order words, end-around carry.  Every length 0..2048 at
 * every start alignment 0..63, random bytes and all-0xff (every add
 * carries), each placed right after a PROT_NONE page, and each length also
 * right before one, so that a read outside the buffer faults. */
#include <stdlib.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "guard.h"
#include "pkt.h"
#include "unit.h"

#define MAXLEN 2048
#define NALIGN 64

/* RFC 1071 sec. 4.1, folded to 16 bits (not complemented). */
static uint32_t ref_sum(uint32_t sum, const uint8_t *b, size_t len)
{
	uint64_t s = sum;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (i < len)
		s += (uint32_t)b[i] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint32_t)s;
}

/* vxgbp_csum_add() folded the same way; each of the instruction sets
 * vxgbpi_csum_add_isa() can take must give the same. */
static uint32_t got_sum(uint32_t sum, const uint8_t *b, size_t len)
{
	uint32_t s = vxgbp_csum_add(sum, b, len);

	for (int isa = 0; isa <= 2; isa++)
		EXPECT_EQ(vxgbpi_csum_add_isa(sum, b, len, isa), s);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

/* src[0..MAXLEN) at every length and alignment, guarded at both ends. */
static void check_all(const uint8_t *src, const char *what)
{
	struct guard front, back;

	ck_assert_int_eq(guard_init(&front, MAXLEN + NALIGN), 0);
	ck_assert_int_eq(guard_init(&back, MAXLEN), 0);
	for (size_t n = 0; n <= MAXLEN; n++) {
		const uint8_t *b = guard_place(&back, src, n);
		uint32_t want = ref_sum(0, src, n);

		CTX("%s: %zu bytes before the guard page", what, n);
		EXPECT_EQ(got_sum(0, b, n), want);
		EXPECT_EQ(got_sum(0x1234, b, n), ref_sum(0x1234, src, n));
		for (size_t a = 0; a < NALIGN; a++) {
			uint8_t *d = front.data + a;

			memcpy(d, src, n);
			CTX("%s: %zu bytes at alignment %zu", what, n, a);
			EXPECT_EQ(got_sum(0, d, n), want);
		}
	}
	guard_free(&front);
	guard_free(&back);
}

START_TEST(test_random)
{
	static uint8_t src[MAXLEN];
	unsigned long long seed = 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < MAXLEN; i++)
		src[i] = (uint8_t)unit_rand(&seed);
	check_all(src, "random");
}
END_TEST

START_TEST(test_all_ones)
{
	static uint8_t src[MAXLEN];

	memset(src, 0xff, sizeof(src));
	check_all(src, "0xff");
}
END_TEST

/* Words just below and at the pmaddwd bias (0x7fff, 0x8000), and zeros:
 * a sum of zeros is 0, never 0xffff. */
START_TEST(test_edges)
{
	static uint8_t src[MAXLEN];
	static const uint8_t fill[][2] = { { 0, 0 }, { 0x7f, 0xff }, { 0x80, 0 },
					   { 0xff, 0xfe }, { 0x80, 0x01 } };

	for (size_t f = 0; f < sizeof(fill) / sizeof(fill[0]); f++) {
		char what[32];

		for (size_t i = 0; i < MAXLEN; i++)
			src[i] = fill[f][i & 1];
		snprintf(what, sizeof(what), "words %02x%02x", fill[f][0], fill[f][1]);
		check_all(src, what);
	}
}
END_TEST

/* Buffers past the vector code's 64 KiB block, and a sum already carried
 * in: the 32-bit lanes are added up block by block. */
START_TEST(test_large)
{
	const size_t n = 300000;
	uint8_t *b = malloc(n);
	unsigned long long seed = 42;

	ck_assert_ptr_nonnull(b);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++)
			b[i] = pass ? 0xff : (uint8_t)unit_rand(&seed);
		for (size_t len = n - 200; len <= n; len += 13) {
			CTX("pass %d, %zu bytes", pass, len);
			EXPECT_EQ(got_sum(0xffff, b, len), ref_sum(0xffff, b, len));
		}
	}
	free(b);
}
END_TEST

/* vxgbpi_udp_csum_ok() (the parser's outer UDP check: its own AVX2 path
 * for 64 bytes to 64 KiB, the pseudo-header summed apart) against the plain
 * loop over the pseudo-header and the datagram: every length 8..2048 at
 * alignments 0..3 and right before a PROT_NONE page, over IPv4 and IPv6,
 * with the checksum field made right, and each time one bit changed at a
 * place that moves with the length (a one-bit change is never a multiple
 * of 0xffff, so it must fail). */
static uint32_t ref_udp(const uint8_t *src, const uint8_t *dst, size_t alen,
			const uint8_t *u, size_t ulen)
{
	uint8_t ph[40] = { 0 };

	memcpy(ph, src, alen);
	memcpy(ph + alen, dst, alen);
	ph[2 * alen + 1] = 17;
	ph[2 * alen + 2] = (uint8_t)(ulen >> 8);
	ph[2 * alen + 3] = (uint8_t)ulen;
	return ref_sum(ref_sum(0, ph, 2 * alen + 4), u, ulen);
}

static void check_udp(struct guard *back, uint8_t *src, size_t n, size_t alen,
		      const uint8_t *a)
{
	uint8_t *front = back->data;
	uint32_t s;

	src[6] = src[7] = 0;
	s = ref_udp(a, a + 16, alen, src, n);
	src[6] = (uint8_t)(~s >> 8);
	src[7] = (uint8_t)~s;
	for (int bad = 0; bad < 2; bad++) {
		size_t at = (n * 7 + 3) % n;

		if (bad)
			src[at] ^= (uint8_t)(1u << (n % 8));
		CTX("udp: %zu bytes, alen %zu, bad %d", n, alen, bad);
		EXPECT_EQ(vxgbpi_udp_csum_ok(a, a + 16, alen, guard_place(back, src, n), n), !bad);
		for (size_t al = 0; al < 4; al++) {
			memcpy(front + al, src, n);
			EXPECT_EQ(vxgbpi_udp_csum_ok(a, a + 16, alen, front + al, n), !bad);
		}
		if (bad)
			src[at] ^= (uint8_t)(1u << (n % 8));
	}
}

START_TEST(test_udp)
{
	static uint8_t src[MAXLEN], addrs[32];
	unsigned long long seed = 7;
	struct guard back;

	ck_assert_int_eq(guard_init(&back, MAXLEN + 4), 0);
	for (size_t i = 0; i < sizeof(addrs); i++)
		addrs[i] = (uint8_t)unit_rand(&seed);
	for (size_t n = 8; n <= MAXLEN; n++) {
		for (size_t i = 0; i < n; i++)
			src[i] = (uint8_t)unit_rand(&seed);
		check_udp(&back, src, n, 4, addrs);
		check_udp(&back, src, n, 16, addrs);
	}
	guard_free(&back);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("csum");
	TCase *tc = unit_tcase(s, "csum");

	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_all_ones);
	tcase_add_test(tc, test_edges);
	tcase_add_test(tc, test_large);
	tcase_add_test(tc, test_udp);
	return unit_run(s, "csum");
}
