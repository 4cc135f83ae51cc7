// SPDX-License-Identifier: BSD-2-Clause
/*
 * progress.c - the progress line (see progress.h).
 *
 *   gbpdump: cap.pcap.gz: 2.1/7.7 MB gzip 27%, 83968 frames, 1.0M frames/s,
 *            27.3 MB/s, 0:02 left
 *
 * on one line (MB of the compressed file for compressed input, MB/s of
 * those bytes too; no total, percentage or time left from a pipe).  It is cut to the terminal's width, so that \r always goes
 * back to its start, and erased with \r and ESC [ K.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The redraw interval: GBPDUMP_PROGRESS_INTERVAL_MS, else GD_PROGRESS_MS. */
static uint64_t interval_ns(void)
{
	const char *e = getenv("GBPDUMP_PROGRESS_INTERVAL_MS");
	char *end;
	unsigned long ms;

	if (!e || !*e)
		return GD_PROGRESS_MS * 1000000ull;
	ms = strtoul(e, &end, 10);
	if (*end || ms > 3600000)
		return GD_PROGRESS_MS * 1000000ull;
	return (uint64_t)ms * 1000000u;
}

void progress_init(struct gd_progress *p, int want, int fd, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->name = name;
	p->on = want && isatty(fd);
	p->left = GD_PROGRESS_EVERY;
	if (!p->on)
		return;
	p->interval_ns = interval_ns();
	p->start_ns = now_ns();
	/* nothing for a read that is over within the first interval */
	p->next_ns = p->start_ns + p->interval_ns;
}

/* h:mm:ss or m:ss */
static void fmt_time(char *b, size_t n, uint64_t s)
{
	if (s >= 3600)
		snprintf(b, n, "%llu:%02u:%02u", (unsigned long long)(s / 3600),
			 (unsigned)(s / 60 % 60), (unsigned)(s % 60));
	else
		snprintf(b, n, "%u:%02u", (unsigned)(s / 60), (unsigned)(s % 60));
}

/* "1234", "12.3k", "1.2M" */
static void fmt_count(char *b, size_t n, double v)
{
	if (v >= 1e6)
		snprintf(b, n, "%.1fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(b, n, "%.0fk", v / 1e3);
	else
		snprintf(b, n, "%.0f", v);
}

/* The line: where reading is, of what total (when known), frames, rates. */
static int fmt_line(const struct gd_progress *p, const struct gd_reader *r, char *b,
		    size_t n, uint64_t elapsed_ns)
{
	uint64_t at, total;
	double secs = (double)elapsed_ns / 1e9;
	const char *z = r->zfmt ? gd_z_name(r->zfmt) : "";
	char left[32] = "", fps[16];
	int k;

	reader_position(r, &at, &total);
	fmt_count(fps, sizeof(fps), secs > 0 ? (double)r->count / secs : 0);
	if (total && at <= total && at > 0) {
		char t[24];

		fmt_time(t, sizeof(t), (uint64_t)((double)(total - at) / ((double)at / secs)));
		snprintf(left, sizeof(left), ", %s left", t);
		k = snprintf(b, n, "gbpdump: %s: %.1f/%.1f MB%s%s %u%%", p->name, (double)at / 1e6,
			     (double)total / 1e6, *z ? " " : "", z, (unsigned)(at * 100 / total));
	} else {
		k = snprintf(b, n, "gbpdump: %s: %.1f MB%s%s", p->name, (double)at / 1e6,
			     *z ? " " : "", z);
	}
	if (k < 0 || (size_t)k >= n)
		return k;
	return k + snprintf(b + k, n - (size_t)k, ", %llu frames, %s frames/s, %.1f MB/s%s",
			    (unsigned long long)r->count, fps,
			    secs > 0 ? (double)at / 1e6 / secs : 0, left);
}

static size_t term_width(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col;
	return 80;
}

void progress_step(struct gd_progress *p, const struct gd_reader *r)
{
	char line[512];
	uint64_t t = now_ns();
	size_t w = term_width(p->fd), len;
	int k;
	ssize_t wr;

	p->left = GD_PROGRESS_EVERY;
	if (t < p->next_ns)
		return;
	p->next_ns = t + p->interval_ns;
	line[0] = '\r';
	k = fmt_line(p, r, line + 1, sizeof(line) - 5, t - p->start_ns);
	if (k < 0)
		return;
	len = (size_t)k < sizeof(line) - 6 ? (size_t)k : sizeof(line) - 6;
	if (len > w - 1)
		len = w - 1; /* no wrap: \r must go back to the line's start */
	memcpy(line + 1 + len, "\033[K", 3);
	wr = write(p->fd, line, len + 4);
	(void)wr;
	p->shown = 1;
}

void progress_clear(struct gd_progress *p)
{
	ssize_t wr;

	if (!p->shown)
		return;
	wr = write(p->fd, "\r\033[K", 4);
	(void)wr;
	p->shown = 0;
}
