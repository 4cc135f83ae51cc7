// SPDX-License-Identifier: BSD-2-Clause
/*
 * gbpblast - send VXLAN-GBP frames over UDP at a paced rate with
 * sendmmsg(2), for measuring live capture (bench/live.sh, tests/live).
 * Meant for a network namespace of its own (unshare -n) and its lo.
 *
 *   gbpblast [-6] [-r RATE] [-n COUNT | -d SECONDS] [-f FLOWS] [-w FILE]
 *
 * Each UDP payload is a VXLAN-GBP header (G and I set, a group, a VNI) and
 * an inner Ethernet/IPv4/TCP-or-UDP frame with correct checksums.  Flow i
 * (of -f) has its own VNI (1000 + i % 64), source group (100 + i % 32),
 * inner addresses (198.18.0.0/15, the benchmarking range) and ports; the
 * outer source port is one of 16 (a socket each), chosen by the flow, so
 * that a flow hash spreads the frames the way a VTEP's would.  Frames go
 * out in batches of sendmmsg(2), each batch at its absolute deadline
 * (clock_nanosleep TIMER_ABSTIME) so the rate holds on average without
 * drift.  At the end, on standard error: frames sent, seconds, the rate
 * achieved.  -w writes what was sent as a pcap, outer headers as lo
 * carries them (Ethernet with zero addresses, IP, UDP), for comparing a
 * live capture with gbpdump -r.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "pcap_writer.h"

#define NSOCK 16
#define SPORT0 40000 /* outer source ports SPORT0 .. SPORT0+NSOCK-1 */
#define MAXB 64      /* frames per sendmmsg */
#define INNER_MAX 1500

struct blast {
	int v6;
	double rate;              /* frames/s, 0: as fast as possible */
	unsigned long long count; /* 0: until -d */
	double secs;
	unsigned flows;
	unsigned payload;         /* inner L4 payload bytes */
	int fd[NSOCK];
	int sink;                 /* bound to 4789 so no ICMP comes back */
	struct pcapw w;
	int wopen;
	unsigned long long seq[NSOCK];
};

static uint16_t csum_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static uint32_t csum_add(uint32_t s, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The VXLAN-GBP payload of flow f into b: its length. */
static size_t build(const struct blast *bl, unsigned f, unsigned long long seq, uint8_t *b)
{
	int tcp = !(f & 1);
	size_t l4 = tcp ? 20 : 8, ilen = 20 + l4 + bl->payload;
	uint8_t *e = b + 8, *ip = e + 14, *th = ip + 20;
	uint32_t s;

	memset(b, 0, 8 + 14 + ilen);
	b[0] = 0x88; /* G, I */
	put16(b + 2, 100 + f % 32);
	b[4] = 0;
	put16(b + 5, 1000 + f % 64); /* VNI in bytes 4..6 */
	memcpy(e, (const uint8_t[]){ 0x02, 0, 0, 0, (uint8_t)(f >> 8), (uint8_t)f }, 6);
	memcpy(e + 6, (const uint8_t[]){ 0x02, 1, 0, 0, (uint8_t)(f >> 8), (uint8_t)f }, 6);
	put16(e + 12, 0x0800);
	ip[0] = 0x45;
	put16(ip + 2, (unsigned)ilen);
	put16(ip + 4, (unsigned)(seq & 0xffff));
	ip[8] = 64;
	ip[9] = tcp ? 6 : 17;
	memcpy(ip + 12, (const uint8_t[]){ 198, 18, (uint8_t)(f >> 8), (uint8_t)f }, 4);
	memcpy(ip + 16, (const uint8_t[]){ 198, 19, (uint8_t)(f >> 8), (uint8_t)f }, 4);
	put16(ip + 10, csum_fold(csum_add(0, ip, 20)));
	put16(th, 1024 + f % 60000);
	put16(th + 2, tcp ? 443 : 53);
	if (tcp) {
		put16(th + 4, (unsigned)(seq >> 16));
		put16(th + 6, (unsigned)seq);
		th[12] = 0x50;
		th[13] = 0x18; /* PSH ACK */
		put16(th + 14, 65535);
	} else {
		put16(th + 4, (unsigned)l4 + bl->payload);
	}
	for (unsigned i = 0; i < bl->payload; i++)
		th[l4 + i] = (uint8_t)(seq + i);
	s = csum_add(0, ip + 12, 8) + ip[9] + (uint32_t)(l4 + bl->payload);
	s = csum_fold(csum_add(s, th, l4 + bl->payload));
	put16(th + (tcp ? 16 : 6), s ? s : 0xffff);
	return 8 + 14 + ilen;
}

/* The frame as lo carries it (for -w): zero MAC addresses, IP, UDP. */
static void record(struct blast *bl, unsigned s, const uint8_t *pl, size_t n,
		   const struct timespec *ts)
{
	uint8_t f[14 + 40 + 8 + 8 + 14 + INNER_MAX];
	size_t iph = bl->v6 ? 40 : 20, len = 14 + iph + 8 + n;
	uint8_t *ip = f + 14, *u = ip + iph;

	memset(f, 0, 14 + iph + 8);
	put16(f + 12, bl->v6 ? 0x86dd : 0x0800);
	if (bl->v6) {
		ip[0] = 0x60;
		put16(ip + 4, (unsigned)(8 + n));
		ip[6] = 17;
		ip[7] = 64;
		ip[23] = 1; /* ::1 */
		ip[39] = 1;
	} else {
		ip[0] = 0x45;
		put16(ip + 2, (unsigned)(20 + 8 + n));
		put16(ip + 6, 0x4000); /* DF, as Linux sends it */
		ip[8] = 64;
		ip[9] = 17;
		memcpy(ip + 12, (const uint8_t[]){ 127, 0, 0, 1, 127, 0, 0, 1 }, 8);
		put16(ip + 10, csum_fold(csum_add(0, ip, 20)));
	}
	put16(u, SPORT0 + s);
	put16(u + 2, 4789);
	put16(u + 4, (unsigned)(8 + n));
	memcpy(u + 8, pl, n);
	pcapw_write(&bl->w, ts->tv_sec, (uint32_t)ts->tv_nsec, f, (uint32_t)len,
		    (uint32_t)len);
}

/* One socket per outer source port, and the sink on 4789. */
static int open_socks(struct blast *bl)
{
	int fam = bl->v6 ? AF_INET6 : AF_INET;
	struct sockaddr_storage ss;
	socklen_t sl = bl->v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);

	for (int i = 0; i <= NSOCK; i++) {
		int fd = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		unsigned port = i < NSOCK ? SPORT0 + (unsigned)i : 4789;

		memset(&ss, 0, sizeof(ss));
		if (bl->v6) {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

			a->sin6_family = AF_INET6;
			a->sin6_port = htons((uint16_t)port);
			a->sin6_addr = in6addr_loopback;
		} else {
			struct sockaddr_in *a = (struct sockaddr_in *)&ss;

			a->sin_family = AF_INET;
			a->sin_port = htons((uint16_t)port);
			a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		}
		if (fd < 0 || bind(fd, (struct sockaddr *)&ss, sl) < 0) {
			fprintf(stderr, "gbpblast: port %u: %s\n", port, strerror(errno));
			return -1;
		}
		if (i < NSOCK)
			bl->fd[i] = fd;
		else
			bl->sink = fd;
	}
	/* ss is the sink's address now: every sender sends there */
	for (int i = 0; i < NSOCK; i++) {
		if (connect(bl->fd[i], (struct sockaddr *)&ss, sl) < 0) {
			fprintf(stderr, "gbpblast: connect: %s\n", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void after(struct timespec *t, const struct timespec *start, double secs)
{
	long long ns = start->tv_nsec + (long long)(secs * 1e9);

	t->tv_sec = start->tv_sec + (time_t)(ns / 1000000000);
	t->tv_nsec = (long)(ns % 1000000000);
}

static double since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

/* n frames of socket s's flows in one sendmmsg (again for the rest when
 * the kernel takes fewer).  The frames sent. */
static unsigned send_batch(struct blast *bl, unsigned s, unsigned n)
{
	static uint8_t buf[MAXB][8 + 14 + INNER_MAX];
	struct mmsghdr mm[MAXB];
	struct iovec iov[MAXB];
	struct timespec ts;
	unsigned done = 0;

	memset(mm, 0, sizeof(mm));
	for (unsigned k = 0; k < n; k++) {
		unsigned long long q = bl->seq[s] + k;
		unsigned f = (unsigned)((q * NSOCK + s) % bl->flows);

		iov[k].iov_base = buf[k];
		iov[k].iov_len = build(bl, f, q, buf[k]);
		mm[k].msg_hdr.msg_iov = &iov[k];
		mm[k].msg_hdr.msg_iovlen = 1;
	}
	while (done < n) {
		int r = sendmmsg(bl->fd[s], mm + done, n - done, 0);

		if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == ENOBUFS))
			continue;
		if (r <= 0) {
			fprintf(stderr, "gbpblast: sendmmsg: %s\n", strerror(errno));
			break;
		}
		done += (unsigned)r;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	for (unsigned k = 0; bl->wopen && k < done; k++)
		record(bl, s, buf[k], iov[k].iov_len, &ts);
	bl->seq[s] += done;
	return done;
}

/* Batches at their deadlines until -n or -d.  The frames sent; *el the
 * seconds it took. */
static unsigned long long blast(struct blast *bl, double *el)
{
	unsigned b = bl->rate ? (unsigned)(bl->rate / 2000) : MAXB;
	unsigned long long sent = 0, batch = 0;
	struct timespec start, dl;

	b = b < 1 ? 1 : b > MAXB ? MAXB : b; /* a batch every 0.5 ms or more */
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		unsigned n = b, got;

		if (bl->count ? sent >= bl->count : since(&start) >= bl->secs)
			break;
		if (bl->count && bl->count - sent < n)
			n = (unsigned)(bl->count - sent);
		if (bl->rate) {
			after(&dl, &start, (double)sent / bl->rate);
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &dl, NULL) == EINTR)
				;
		}
		got = send_batch(bl, (unsigned)(batch++ % NSOCK), n);
		sent += got;
		if (got < n)
			break;
	}
	*el = since(&start);
	return sent;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: gbpblast [-6] [-r RATE] [-n COUNT | -d SECONDS] [-f FLOWS] [-s BYTES] [-w FILE]\n"
"Send VXLAN-GBP frames over UDP to the loopback address, port 4789.\n"
"  -6          IPv6 underlay (::1) instead of 127.0.0.1\n"
"  -r RATE     frames per second (default 0: as fast as possible)\n"
"  -n COUNT    send COUNT frames\n"
"  -d SECONDS  send for SECONDS (default 1; not with -n)\n"
"  -f FLOWS    inner flows, each with its VNI, group and addresses (default 1024,\n"
"              rounded up to a multiple of 16)\n"
"  -s BYTES    inner TCP/UDP payload bytes (default 64, at most 1400)\n"
"  -w FILE     also write the frames sent as a pcap (as lo carries them)\n"
"  -h          this text\n"
"At the end on standard error: 'sent N frames in S s (R frames/s)'.\n");
}

static int num(const char *s, double max, double *v)
{
	char *e;

	errno = 0;
	*v = strtod(s, &e);
	return errno || e == s || *e || *v < 0 || *v > max ? -1 : 0;
}

static int parse(struct blast *bl, int argc, char **argv, const char **wfile)
{
	double v;
	int c;

	while ((c = getopt(argc, argv, "6r:n:d:f:s:w:h")) != -1) {
		const char *bad = NULL;

		switch (c) {
		case '6': bl->v6 = 1; break;
		case 'r': bad = num(optarg, 1e9, &bl->rate) ? "-r" : NULL; break;
		case 'n': bad = num(optarg, 1e15, &v) ? "-n" : NULL; bl->count = (unsigned long long)v; break;
		case 'd': bad = num(optarg, 1e6, &bl->secs) ? "-d" : NULL; break;
		case 'f': bad = num(optarg, 65536, &v) || v < 1 ? "-f" : NULL; bl->flows = (unsigned)v; break;
		case 's': bad = num(optarg, 1400, &v) ? "-s" : NULL; bl->payload = (unsigned)v; break;
		case 'w': *wfile = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
		if (bad) {
			fprintf(stderr, "gbpblast: %s: bad value '%s'\n", bad, optarg);
			return -1;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return -1;
	}
	bl->flows = (bl->flows + NSOCK - 1) / NSOCK * NSOCK;
	return 0;
}

int main(int argc, char **argv)
{
	static struct blast bl = { .secs = 1, .flows = 1024, .payload = 64 };
	const char *wfile = NULL;
	char err[PCAPW_ERRBUF_SIZE];
	unsigned long long sent;
	double el;
	int rc = 0;

	if (parse(&bl, argc, argv, &wfile) < 0)
		return 2;
	if (open_socks(&bl) < 0)
		return 2;
	if (wfile) {
		struct pcapw_opts po = { .flags = PCAPW_FORCE | PCAPW_NSEC, .linktype = 1 };

		if (pcapw_open(&bl.w, wfile, &po, err) < 0) {
			fprintf(stderr, "gbpblast: %s\n", err);
			return 2;
		}
		bl.wopen = 1;
	}
	sent = blast(&bl, &el);
	if (bl.wopen && pcapw_close(&bl.w, 1, err) < 0) {
		fprintf(stderr, "gbpblast: %s\n", err);
		rc = 2;
	}
	fprintf(stderr, "sent %llu frames in %.3f s (%.0f frames/s)\n", sent, el,
		el > 0 ? (double)sent / el : 0.0);
	if (bl.count && sent < bl.count)
		rc = 1;
	return rc;
}
