/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit.h - shared helpers of the libvxgbp Check unit tests.
 *
 * Check's own ck_assert_*() report every passing assertion to the parent
 * process (_mark_point), which is far too slow for the millions of cases
 * the header and parser tests run.  EXPECT*() test, count, and only call
 * into Check on failure (ck_abort_msg).  unit_ctx says which iteration of a
 * loop failed.
 */
#ifndef VXGBP_UNIT_H
#define VXGBP_UNIT_H

#include <check.h>
#include <stdio.h>
#include <string.h>

extern unsigned long unit_nchecks;
extern char unit_ctx[256];

#define CTX(...) snprintf(unit_ctx, sizeof(unit_ctx), __VA_ARGS__)

#define EXPECT(cond, ...)                                                   \
	do {                                                                \
		unit_nchecks++;                                             \
		if (!(cond)) {                                              \
			char m_[512];                                       \
			snprintf(m_, sizeof(m_), __VA_ARGS__);              \
			ck_abort_msg("[%s] %s", unit_ctx, m_);              \
		}                                                           \
	} while (0)

#define EXPECT_EQ(a, b)                                                     \
	do {                                                                \
		long long a_ = (long long)(a), b_ = (long long)(b);         \
		EXPECT(a_ == b_, "%s == %s: %lld (0x%llx) != %lld (0x%llx)", \
		       #a, #b, a_, (unsigned long long)a_, b_,              \
		       (unsigned long long)b_);                             \
	} while (0)

#define EXPECT_STR(a, b)                                                    \
	do {                                                                \
		const char *a_ = (a), *b_ = (b);                            \
		EXPECT(a_ && b_ && strcmp(a_, b_) == 0, "%s == %s: \"%s\" != \"%s\"", \
		       #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");     \
	} while (0)

#define EXPECT_MEM(a, b, n)                                                 \
	do {                                                                \
		const void *a_ = (a), *b_ = (b);                            \
		EXPECT(a_ && b_ && memcmp(a_, b_, (n)) == 0, "%s == %s (%zu bytes)", \
		       #a, #b, (size_t)(n));                                \
	} while (0)

/* Fixed-seed xorshift64 (Marsaglia). */
static inline unsigned long long unit_rand(unsigned long long *s)
{
	unsigned long long x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* Run one suite; print the number of executed checks when
 * VXGBP_UNIT_COUNT is set (run with CK_FORK=no to count them all).
 * Returns the process exit status. */
int unit_run(Suite *s, const char *name);
/* A test case with a generous timeout (sanitizer builds are slower). */
TCase *unit_tcase(Suite *s, const char *name);

#endif
