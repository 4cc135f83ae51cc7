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
 * int16) and 32768 per word is added back at the end.  The outer UDP
 * checksum of a 1,500-byte frame was 0.7 instructions a byte with the
 * 64-bit scalar loop, which other architectures keep (scalar_sum()). */
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

/* The same with AVX2: 128 bytes a step, then 32, then 16 (VEX loads need
 * no alignment, so each folds into its vpxor). */
#define AVX_STEP(a, p)                                                              \
	((a) = _mm256_add_epi32((a), _mm256_madd_epi16(_mm256_xor_si256(            \
			_mm256_loadu_si256((const __m256i *)(p)), bias2), one2)))

__attribute__((target("avx2"))) static uint32_t avx2_block(const uint8_t *b, size_t n)
{
	const __m256i bias2 = _mm256_set1_epi16((short)0x8000), one2 = _mm256_set1_epi16(1);
	const __m128i bias = _mm256_castsi256_si128(bias2), one = _mm256_castsi256_si128(one2);
	__m256i a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
	__m128i a;
	size_t i = 0;

	for (; i + 128 <= n; i += 128) {
		AVX_STEP(a0, b + i);
		AVX_STEP(a1, b + i + 32);
		AVX_STEP(a0, b + i + 64);
		AVX_STEP(a1, b + i + 96);
	}
	for (; i + 32 <= n; i += 32)
		AVX_STEP(a0, b + i);
	a0 = _mm256_add_epi32(a0, a1);
	a = _mm_add_epi32(_mm256_castsi256_si128(a0), _mm256_extracti128_si256(a0, 1));
	if (i < n)
		SSE_STEP(a, b + i);
	return lanes_sum(a) + (uint32_t)(n / 2) * 32768u;
}

/* Buffers of 64 bytes or more: their whole 16-byte pieces to the vector
 * steps, block by block, the rest (an even count: the words stay paired)
 * to the scalar tail.  isa: 2 AVX2 if the CPU has it (libgcc's table,
 * filled in before main()), 1 SSE2, 0 scalar only (tests). */
static inline uint64_t host_sum(const uint8_t *b, size_t len, int isa)
{
	uint64_t s = 0;
	size_t n = len & ~(size_t)15, off, blk;
	int avx2;

	if (len < 64 || !isa)
		return scalar_sum(b, len);
	avx2 = isa > 1 && __builtin_cpu_supports("avx2");
	for (off = 0; off < n; off += blk) {
		blk = n - off < VEC_BLOCK ? n - off : VEC_BLOCK;
		s += avx2 ? avx2_block(b + off, blk) : sse2_block(b + off, blk);
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

/* UDP checksum over the pseudo-header (RFC 768, RFC 8200 sec. 8.1): the
 * whole sum in host order and one fold; a correct one is 0xffff in either
 * byte order, so there is nothing to swap. */
int vxgbpi_udp_csum_ok(const uint8_t *src, const uint8_t *dst, size_t alen,
		       const uint8_t *u, size_t ulen)
{
	/* pseudo-header: addresses, then protocol and UDP length as 16-bit
	 * words (the zero bytes add nothing) */
	uint64_t s = host16(IPPROTO_UDP_) + host16((uint32_t)(ulen >> 16) & 0xffff) +
		     host16((uint32_t)ulen & 0xffff);

	s += alen == 4 ? tail_sum(src, 4) + tail_sum(dst, 4)
		       : tail_sum(src, alen) + tail_sum(dst, alen);
	return fold16(s + host_sum(u, ulen, 2)) == 0xffff;
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
