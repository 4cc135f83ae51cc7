// SPDX-License-Identifier: BSD-2-Clause
/*
 * counts.c - live.counts: the end counters of a live capture are checked
 * (live_check_counts(), live.h): received by filter = captured + dropped
 * by kernel + not analysed, or a message saying by how much it is off.
 * The rings' counts are set as live_finish() leaves them (finished: no
 * socket is read), so every case is exact without a capture.
 */
#include <stdio.h>
#include <string.h>

#include "live.h"
#include "reader.h"

static int failures;

/* One socket that counted packets (drops included), drops, and unread
 * frames; discarded: taken by a worker after the stop. */
static void expect(uint64_t packets, uint64_t drops, uint64_t unread, uint64_t discarded,
		   unsigned long long captured, int want, const char *msg)
{
	struct gd_live_sock s = { .fd = -1, .packets = packets, .drops = drops,
				  .unread = unread };
	struct gd_live l = { .name = "lo", .nsock = 1, .armed = 1, .finished = 1, .sock = &s,
			     .discarded = discarded };
	struct gd_reader r;
	char err[GD_ERRBUF] = "";
	int got;

	memset(&r, 0, sizeof(r));
	r.name = "lo";
	r.live = 1;
	r.lv = &l;
	got = live_check_counts(&r, captured, err);
	if (got != want || (msg && strcmp(err, msg) != 0) || (!msg && err[0])) {
		fprintf(stderr, "FAIL: %llu %llu %llu %llu, captured %llu: %d '%s', expected %d '%s'\n",
			(unsigned long long)packets, (unsigned long long)drops,
			(unsigned long long)unread, (unsigned long long)discarded, captured, got,
			err, want, msg ? msg : "");
		failures++;
	}
}

int main(void)
{
	expect(10, 2, 1, 0, 7, 0, NULL);
	expect(10, 0, 0, 0, 10, 0, NULL);
	expect(10, 2, 1, 3, 4, 0, NULL); /* 3 discarded: not analysed, not captured */
	expect(10, 2, 1, 0, 6, -1, "lo: 1 packets unaccounted for: received by filter 10, "
	       "captured 6 + dropped by kernel 2 + not analysed 1 = 9");
	expect(10, 2, 1, 0, 8, -1, "lo: 1 packets counted more than received: received by "
	       "filter 10, captured 8 + dropped by kernel 2 + not analysed 1 = 11");
	expect(400000, 0, 0, 0, 398016, -1, "lo: 1984 packets unaccounted for: received by "
	       "filter 400000, captured 398016 + dropped by kernel 0 + not analysed 0 = 398016");
	if (!failures)
		printf("ok: live.counts\n");
	return failures ? 1 : 0;
}
