// SPDX-License-Identifier: BSD-2-Clause
/* csum.c - the Internet checksum (RFC 1071), used by the parser to verify
 * and by the builder to fill in IPv4 header and UDP/TCP/ICMP checksums.
 *
 * RFC 1071 sec. 2(B): the one's-complement sum is byte-order independent
 * up to a final swap, so the words are summed in host order and the result
 * swapped to network order once at the end; sec. 2(C): it may be taken in
 * any word size and folded.
 *
 * On x86-64 the bulk of a buffer is summed 16 (SSE2, the baseline) or 32
 * bytes (AVX2, chosen at run time) a step: pmaddwd multiplies each 16-bit
 * word by 1 and adds pairs into 32-bit lanes, but it takes the words as
 * signed, so they are first biased by 0x8000 (w ^ 0x8000 == w - 32768 as
 * int16) and 32768 per word is added back at the end.  Other architectures
 * keep the 64-bit scalar loop (scalar_sum()). */
#include <stddef.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "pkt.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define CSUM_X86 1
#include <immintrin.h>
#endif

static inline uint64_t add_carry(uint64_t s, uint64_t w)
{
	s += w;
	return s + (s < w); /* end-around carry */
}

/* The sum of the host-order 16-bit words of b[0..len), len < 32, not
 * folded (a value below 2^35); an odd last byte is padded with a zero
 * byte.  Also the tail after the vector steps. */
static uint64_t tail_sum(const uint8_t *b, size_t len)
{
	uint64_t s = 0;
	uint32_t w4;
	uint16_t w2;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w8;

		memcpy(&w8, b + i, 8);
		s += (w8 & 0xffffffffu) + (w8 >> 32);
	}
	if (len - i >= 4) {
		memcpy(&w4, b + i, 4);
		s += w4;
		i += 4;
	}
	if (len - i >= 2) {
		memcpy(&w2, b + i, 2);
		s += w2;
		i += 2;
	}
	if (i < len) {
		/* i is even: the byte is the first (high-order) byte of a
		 * network-order word, padded with zero */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		s += (uint64_t)b[i] << 8;
#else
		s += b[i];
#endif
	}
	return s;
}

/* The same for any len, not folded (any value congruent to the sum mod
 * 0xffff, zero only if it is): 8 bytes a step with end-around carry, four
 * independent accumulators so the adds overlap. */
static uint64_t scalar_sum(const uint8_t *b, size_t len)
{
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, w0, w1, w2, w3;
	size_t i = 0;

	if (len < 32)
		return tail_sum(b, len);
	for (; i + 32 <= len; i += 32) {
		memcpy(&w0, b + i, 8);
		memcpy(&w1, b + i + 8, 8);
		memcpy(&w2, b + i + 16, 8);
		memcpy(&w3, b + i + 24, 8);
		s0 = add_carry(s0, w0);
		s1 = add_carry(s1, w1);
		s2 = add_carry(s2, w2);
		s3 = add_carry(s3, w3);
	}
	/* four 64-bit sums -> eight 32-bit halves: no overflow in 64 bits */
	return (s0 & 0xffffffffu) + (s0 >> 32) + (s1 & 0xffffffffu) + (s1 >> 32) +
	       (s2 & 0xffffffffu) + (s2 >> 32) + (s3 & 0xffffffffu) + (s3 >> 32) +
	       tail_sum(b + i, len - i);
}

#ifdef CSUM_X86
/* Bytes summed into one set of 32-bit lanes before they are added up: the
 * words of a block sum to less than 32768 * 65535 < 2^31, so the lanes'
 * wrapped total plus the bias given back is exact in 32 bits. */
#define VEC_BLOCK 65536

/* The four 32-bit lanes of v added up (mod 2^32). */
static inline uint32_t lanes_sum(__m128i v)
{
	v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e)); /* + the other half */
	v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1)); /* + the neighbour */
	return (uint32_t)_mm_cvtsi128_si32(v);
}

/* One 16-byte step: the biased words' pair sums added to a. */
#define SSE_STEP(a, p)                                                              \
	((a) = _mm_add_epi32((a), _mm_madd_epi16(_mm_xor_si128(                     \
			_mm_loadu_si128((const __m128i *)(p)), bias), one)))

/* The sum of the host-order words of b[0..n), n a multiple of 16 and at
 * most VEC_BLOCK: 64 bytes a step (two accumulators, so the adds of a step
 * overlap), then 16. */
static uint32_t sse2_block(const uint8_t *b, size_t n)
{
	const __m128i bias = _mm_set1_epi16((short)0x8000), one = _mm_set1_epi16(1);
	__m128i a0 = _mm_setzero_si128(), a1 = _mm_setzero_si128();
	size_t i = 0;

	for (; i + 64 <= n; i += 64) {
		SSE_STEP(a0, b + i);
		SSE_STEP(a1, b + i + 16);
		SSE_STEP(a0, b + i + 32);
		SSE_STEP(a1, b + i + 48);
	}
	for (; i < n; i += 16)
		SSE_STEP(a0, b + i);
	return lanes_sum(_mm_add_epi32(a0, a1)) + (uint32_t)(n / 2) * 32768u;
}

/* The AVX2 sum of the host-order words of b[0..len), 64 <= len <=
 * VEC_BLOCK, not folded, the odd last byte included: 128 bytes a step,
 * then the 0-3 whole 32-byte pieces left without a loop, then the last
 * 0..30 bytes of the even part as one 32-byte load that ends there, the
 * bytes before them (summed already) masked to zero: no 16-byte step and
 * no scalar tail. */
#define AVX_MADD(p)                                                                 \
	_mm256_madd_epi16(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(p)), \
					   bias),                                   \
			  one)

/* 32 zero bytes, then 32 0xff: the 32 bytes from offset k keep a window's
 * last k bytes. */
static const uint8_t keep_last[64] __attribute__((aligned(64))) = {
	[32] = 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

__attribute__((target("avx2"))) static uint64_t avx2_sum(const uint8_t *b, size_t len)
{
	__m256i bias = _mm256_set1_epi16((short)0x8000), one = _mm256_set1_epi16(1);
	__m256i a = _mm256_setzero_si256(), w;
	size_t even = len & ~(size_t)1;
	const uint8_t *p = b, *end = b + (even & ~(size_t)255);
	uint64_t s = 0;
	__m128i h;

	/* the constants made once, in registers: GCC 12 otherwise builds
	 * both again for every piece after the loop */
	__asm__("" : "+x"(bias), "+x"(one));
	if (len & 1) /* the first (high-order) byte of a word padded with zero */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		s = (uint64_t)b[even] << 8;
#else
		s = b[even];
#endif
	/* one accumulator: a step's eight products are added as a tree, so
	 * only one add a step waits for the one before */
	for (; p != end; p += 256) {
		w = _mm256_add_epi32(
			_mm256_add_epi32(_mm256_add_epi32(AVX_MADD(p), AVX_MADD(p + 32)),
					 _mm256_add_epi32(AVX_MADD(p + 64), AVX_MADD(p + 96))),
			_mm256_add_epi32(_mm256_add_epi32(AVX_MADD(p + 128), AVX_MADD(p + 160)),
					 _mm256_add_epi32(AVX_MADD(p + 192), AVX_MADD(p + 224))));
		a = _mm256_add_epi32(a, w);
	}
	switch ((even >> 5) & 7) {
	case 7:
		a = _mm256_add_epi32(a, AVX_MADD(p + 192));
		/* fall through */
	case 6:
		a = _mm256_add_epi32(a, AVX_MADD(p + 160));
		/* fall through */
	case 5:
		a = _mm256_add_epi32(a, AVX_MADD(p + 128));
		/* fall through */
	case 4:
		a = _mm256_add_epi32(a, AVX_MADD(p + 96));
		/* fall through */
	case 3:
		a = _mm256_add_epi32(a, AVX_MADD(p + 64));
		/* fall through */
	case 2:
		a = _mm256_add_epi32(a, AVX_MADD(p + 32));
		/* fall through */
	case 1:
		a = _mm256_add_epi32(a, AVX_MADD(p));
		/* fall through */
	default:
		break;
	}
	/* even >= 64, so the window starts inside b, at an even offset */
	w = _mm256_loadu_si256((const __m256i *)(keep_last + (even & 31)));
	w = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(b + even - 32)), w);
	a = _mm256_add_epi32(a, _mm256_madd_epi16(_mm256_xor_si256(w, bias), one));
	h = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
	/* every piece biased 16 words, the window's included; the true sum is
	 * below 2^31 (VEC_BLOCK), so the wrapped 32-bit total is exact */
	return s + (uint32_t)(lanes_sum(h) + (uint32_t)((even & ~(size_t)31) / 2 + 16) * 32768u);
}

/* Buffers of 64 bytes or more to the vector code, block by block (blocks
 * of an even size, so the words stay paired); a last block under 64 bytes
 * and the rest of the SSE2 path's 16-byte pieces to the scalar loops.
 * isa: 2 AVX2 if the CPU has it (libgcc's table, filled in before main()),
 * 1 SSE2, 0 scalar only (tests). */
static inline uint64_t host_sum(const uint8_t *b, size_t len, int isa)
{
	uint64_t s = 0;
	size_t off, blk, n;

	if (len < 64 || !isa)
		return scalar_sum(b, len);
	if (isa > 1 && __builtin_cpu_supports("avx2")) {
		if (len <= VEC_BLOCK) /* any UDP datagram but a GSO one */
			return avx2_sum(b, len);
		for (off = 0; off < len; off += blk) {
			blk = len - off < VEC_BLOCK ? len - off : VEC_BLOCK;
			s += blk >= 64 ? avx2_sum(b + off, blk) : scalar_sum(b + off, blk);
		}
		return s;
	}
	n = len & ~(size_t)15;
	for (off = 0; off < n; off += blk) {
		blk = n - off < VEC_BLOCK ? n - off : VEC_BLOCK;
		s += sse2_block(b + off, blk);
	}
	return s + tail_sum(b + n, len - n);
}
#else
#define host_sum(b, len, isa) scalar_sum(b, len)
#endif

/* A host-order sum below 2^48 folded to 16 bits: 0 only for 0, 0xffff for
 * any other multiple of 0xffff (one's-complement arithmetic). */
static inline uint32_t fold16(uint64_t s)
{
	s = (s & 0xffffffffu) + (s >> 32); /* < 2^33 */
	s = (s & 0xffff) + (s >> 16);      /* < 2^18 */
	s = (s & 0xffff) + (s >> 16);      /* <= 0xffff + 3 */
	return (uint32_t)((s & 0xffff) + (s >> 16));
}

/* The 16-bit one's-complement sum of b[0..len), in network byte order,
 * folded to 16 bits (not complemented). */
static uint32_t sum16(const uint8_t *b, size_t len, int isa)
{
	uint32_t s = fold16(host_sum(b, len, isa));

#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
	s = ((s & 0xff) << 8) | (s >> 8);
#endif
	return s;
}

/* A 16-bit value as the host-order word its network-order bytes make. */
static inline uint64_t host16(uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return v;
#else
	return (v >> 8 | v << 8) & 0xffff;
#endif
}

/* A 32-bit value as the host-order word its network-order bytes make: its
 * two 16-bit words' sum mod 0xffff (65536 is 1 mod 0xffff). */
static inline uint64_t host32(uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return v;
#else
	return __builtin_bswap32(v);
#endif
}

/* The pseudo-header's two addresses (alen 4 or 16, RFC 768, RFC 8200 sec.
 * 8.1) as host-order words, not folded: IPv4's as two 32-bit words, IPv6's
 * as 64-bit ones with end-around carry (65536 is 1 mod 0xffff, so a wide
 * word counts as its 16-bit words do). */
static inline uint64_t addr_sum(const uint8_t *src, const uint8_t *dst, size_t alen)
{
	uint64_t s = 0, w;
	uint32_t v, x;

	if (alen == 4) {
		memcpy(&v, src, 4);
		memcpy(&x, dst, 4);
		return (uint64_t)v + x;
	}
	for (size_t i = 0; i < alen; i += 8) {
		memcpy(&w, src + i, 8);
		s = add_carry(s, w);
		memcpy(&w, dst + i, 8);
		s = add_carry(s, w);
	}
	return (s & 0xffffffffu) + (s >> 32);
}

/* host_sum() out of line: the UDP check inlines only its common path. */
static __attribute__((noinline)) uint64_t any_sum(const uint8_t *b, size_t len)
{
	return host_sum(b, len, 2);
}

/* UDP checksum over the pseudo-header (RFC 768, RFC 8200 sec. 8.1): the
 * whole sum in host order, not folded; a correct one folds to 0xffff in
 * either byte order, so there is nothing to swap.  fold16(s) == 0xffff is
 * tested as "s is a nonzero multiple of 0xffff": a multiply and a shift
 * for the four folds. */
int vxgbpi_udp_csum_ok(const uint8_t *src, const uint8_t *dst, size_t alen,
		       const uint8_t *u, size_t ulen)
{
	/* pseudo-header: addresses, then protocol and UDP length as 16-bit
	 * words (the zero bytes add nothing) */
	uint64_t s = host16(IPPROTO_UDP_) + host32((uint32_t)ulen) + addr_sum(src, dst, alen);

#ifdef CSUM_X86
	if (ulen >= 64 && ulen <= VEC_BLOCK && __builtin_cpu_supports("avx2"))
		s += avx2_sum(u, ulen);
	else
#endif
		s += any_sum(u, ulen);
	return s != 0 && s % 0xffff == 0;
}

uint32_t vxgbpi_csum_add_isa(uint32_t sum, const void *buf, size_t len, int isa)
{
	uint64_t s = (uint64_t)sum + (len ? sum16(buf, len, isa) : 0);

	return (uint32_t)((s & 0xffffffffu) + (s >> 32));
}

uint32_t vxgbp_csum_add(uint32_t sum, const void *buf, size_t len)
{
	return vxgbpi_csum_add_isa(sum, buf, len, 2);
}

uint16_t vxgbp_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}
