// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_out.c - gbpdump/print/out.c's formatters write exactly what libc writes:
 * out_addr what inet_ntop does, out_mac, out_hex, out_dec_pad, out_u64,
 * out_u64_w what snprintf does; the line writer's lw_u32, lw_u64 and hex
 * stores likewise.  Also when the buffer is nearly full (the
 * formatter flushes it first, or writes across the flush: to a memfd here).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <vxgbp/vxgbp.h>

#include "out.h"

static struct gd_out o;
static unsigned long checks, fails;

/* What the formatter wrote since o.len was at, against want. */
static void expect(size_t at, const char *want, const char *what)
{
	size_t n = strlen(want);

	checks++;
	if (o.len - at == n && memcmp(o.buf + at, want, n) == 0)
		return;
	if (++fails <= 20)
		fprintf(stderr, "%s: got '%.*s', want '%s'\n", what, (int)(o.len - at),
			o.buf + at, want);
}

static int fd; /* a memfd: what the flushes wrote */
static unsigned long near;

/* Every 37th check also runs with 10 bytes of room left in the buffer:
 * the formatter then writes part, or flushes first; what reaches the file
 * after those 10 bytes must be the same text. */
static void near_begin(void)
{
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET))
		abort();
	o.len = GD_OUT_CAP - 10;
}

static void near_expect(const char *want, const char *what)
{
	char got[128];
	ssize_t n;

	out_flush(&o);
	n = pread(fd, got, sizeof(got), GD_OUT_CAP - 10);
	checks++;
	if (n == (ssize_t)strlen(want) && !memcmp(got, want, (size_t)n))
		return;
	if (++fails <= 20)
		fprintf(stderr, "%s near the end: got '%.*s', want '%s'\n", what,
			n > 0 ? (int)n : 0, got, want);
}

#define CHECK(call, want, what)                      \
	do {                                         \
		o.len = 0;                           \
		call;                                \
		expect(0, (want), (what));           \
		if (near++ % 37 == 0) {              \
			near_begin();                \
			call;                        \
			near_expect((want), (what)); \
		}                                    \
	} while (0)

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check_addr(const uint8_t *a, int v6)
{
	char want[INET6_ADDRSTRLEN];

	if (!inet_ntop(v6 ? AF_INET6 : AF_INET, a, want, sizeof(want)))
		abort();
	CHECK(out_addr(&o, a, v6 ? 16 : 4), want, v6 ? "out_addr v6" : "out_addr v4");
}

static void test_ipv4(uint64_t *s)
{
	uint8_t a[4];

	for (int pos = 0; pos < 4; pos++)
		for (int b = 0; b < 256; b++) {
			for (int i = 0; i < 4; i++)
				a[i] = (uint8_t)rnd(s);
			a[pos] = (uint8_t)b;
			check_addr(a, 0);
		}
	for (int i = 0; i < 100000; i++) {
		uint32_t x = (uint32_t)rnd(s);

		memcpy(a, &x, 4);
		check_addr(a, 0);
	}
}

/* Every pattern of zero and non-zero groups (256), each non-zero group a
 * random 1-4 digit value; plus IPv4-mapped forms.  Not the deprecated
 * IPv4-compatible ones (96 zero bits, then not 0 or 1): glibc writes
 * ::a.b.c.d, libvxgbp (RFC 5952 sec. 5, which keeps the dotted form for
 * IPv4-mapped addresses) writes hex. */
static int v4_compatible(const uint8_t *a)
{
	static const uint8_t z[12];

	return !memcmp(a, z, 12) && (a[12] | a[13] | a[14] || a[15] > 1);
}

/* out_addr formats IPv6 itself: the same text as libvxgbp's formatter,
 * IPv4-compatible forms included. */
static void check_lib(const uint8_t *a)
{
	char want[64];

	if (vxgbp_addr_format(want, sizeof(want), a, 16) <= 0)
		abort();
	CHECK(out_addr(&o, a, 16), want, "out_addr v6 (libvxgbp)");
}

static void test_ipv6(uint64_t *s)
{
	uint8_t a[16];

	for (int rep = 0; rep < 40; rep++)
		for (unsigned mask = 0; mask < 256; mask++) {
			for (int g = 0; g < 8; g++) {
				uint16_t v = 0;

				if (mask & (1u << g)) {
					v = (uint16_t)(rnd(s) >> (4 * (rnd(s) % 4)));
					v = v ? v : 1;
				}
				a[2 * g] = (uint8_t)(v >> 8);
				a[2 * g + 1] = (uint8_t)v;
			}
			if (!v4_compatible(a))
				check_addr(a, 1);
			check_lib(a);
		}
	memset(a, 0, 16);
	a[10] = a[11] = 0xff;
	for (int i = 0; i < 1000; i++) {
		uint32_t x = (uint32_t)rnd(s);

		memcpy(a + 12, &x, 4);
		check_addr(a, 1);
	}
}

static void test_numbers(uint64_t *s)
{
	char want[64];

	for (int i = 0; i < 200000; i++) {
		uint64_t v = rnd(s) >> (rnd(s) % 64);
		int w = (int)(rnd(s) % 21);

		snprintf(want, sizeof(want), "%0*" PRIx64, w > 16 ? 16 : w, v);
		CHECK(out_hex(&o, v, w), want, "out_hex");
		snprintf(want, sizeof(want), "%020" PRIu64, v);
		CHECK(out_dec_pad(&o, v, w), want + 20 - w, "out_dec_pad");
		snprintf(want, sizeof(want), "%*" PRIu64, w, v);
		CHECK(out_u64_w(&o, v, w), want, "out_u64_w");
		snprintf(want, sizeof(want), "%" PRIu64, v);
		CHECK(out_u64(&o, v), want, "out_u64");
	}
}

/* The line writer's stores (lw_*, no room check: into a scratch buffer). */
static void lw_expect(const char *b, const char *e, const char *want, const char *what)
{
	checks++;
	if ((size_t)(e - b) == strlen(want) && !memcmp(b, want, strlen(want)))
		return;
	if (++fails <= 20)
		fprintf(stderr, "%s: got '%.*s', want '%s'\n", what, (int)(e - b), b, want);
}

static void lw_one(uint64_t v)
{
	char b[64], want[64];
	uint32_t x = (uint32_t)v;

	snprintf(want, sizeof(want), "%" PRIu64, v);
	lw_expect(b, lw_u64(b, v), want, "lw_u64");
	snprintf(want, sizeof(want), "%" PRIu32, x);
	lw_expect(b, lw_u32(b, x), want, "lw_u32");
	snprintf(want, sizeof(want), "%" PRIx32, x);
	lw_expect(b, lw_hex(b, x), want, "lw_hex");
	snprintf(want, sizeof(want), "%04" PRIx32, x & 0xffff);
	lw_expect(b, lw_hex4(b, (uint16_t)x), want, "lw_hex4");
	snprintf(want, sizeof(want), "%08" PRIx32, x);
	lw_expect(b, lw_hexw(b, x, 8), want, "lw_hexw");
}

/* lw_u32's and lw_dec6's fixed-point pairs are exact only where their
 * rounding error stays small: every value below 10^7 (past the six-digit
 * case) against plain division, below 10^6 against snprintf. */
static void test_lw_u32_all(void)
{
	char b[16], want[16];

	for (uint32_t v = 0; v < 10000000; v++) {
		char *e = want + sizeof(want), *q = e;
		uint32_t x = v;

		do
			*--q = (char)('0' + x % 10);
		while (x /= 10);
		if (v < 1000000) {
			snprintf(want, sizeof(want), "%06u", v);
			lw_expect(b, lw_dec6(b, v), want, "lw_dec6");
		}
		checks++;
		if (lw_u32(b, v) - b != e - q || memcmp(b, q, (size_t)(e - q))) {
			if (++fails <= 20)
				fprintf(stderr, "lw_u32(%u): got '%.*s'\n", v,
					(int)(lw_u32(b, v) - b), b);
		}
	}
}

static void test_lw(uint64_t *s)
{
	uint64_t p = 1;

	for (int i = 0; i < 20; i++, p *= 10) { /* every length's edges */
		lw_one(p - 1);
		lw_one(p);
		lw_one(p + 1);
	}
	lw_one(UINT32_MAX);
	lw_one(UINT64_MAX);
	for (int i = 0; i < 200000; i++)
		lw_one(rnd(s) >> (rnd(s) % 64));
}

static void test_mac(uint64_t *s)
{
	uint8_t m[6];
	char want[18];

	for (int i = 0; i < 10000; i++) {
		for (int j = 0; j < 6; j++)
			m[j] = (uint8_t)rnd(s);
		snprintf(want, sizeof(want), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
			 m[3], m[4], m[5]);
		CHECK(out_mac(&o, m), want, "out_mac");
	}
}

int main(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	if ((fd = memfd_create("unit_out", 0)) < 0) {
		perror("memfd_create");
		return 2;
	}
	out_init(&o, fd);
	test_ipv4(&seed);
	test_ipv6(&seed);
	test_numbers(&seed);
	test_mac(&seed);
	test_lw(&seed);
	test_lw_u32_all();
	close(fd);
	printf("unit_out: %lu checks, %lu failed\n", checks, fails);
	return fails ? 1 : 0;
}
