// SPDX-License-Identifier: BSD-2-Clause
/*
 * live.c - live capture on TPACKET_V3 rings (see live.h, docs/live.md).
 *
 * Kernel interface (packet(7), Documentation/networking/packet_mmap.rst):
 * PACKET_VERSION TPACKET_V3, then PACKET_RX_RING with a tpacket_req3 (block
 * size and count, a frame size the kernel only validates, the block
 * retire timeout), mmap of block_size * block_nr bytes.  Each block starts
 * with a tpacket_block_desc; the kernel fills it with variable-length
 * frames (tpacket3_hdr, tp_next_offset to the next) and hands it over by
 * setting TP_STATUS_USER in block_status; we give it back by writing
 * TP_STATUS_KERNEL.  Blocks are used in order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <pcap/pcap.h>

#include "live.h"
#include "filter.h"

#define LINKTYPE_ETHERNET 1
#define RETIRE_MS 10     /* a block not full is handed over after this */
#define FRAME_SIZE 2048u /* validated by the kernel, not used for packing in V3 */
#define POLL_MS 100      /* how often a waiting worker looks at *stop */

/* A classic BPF program on the socket. */
static int attach(int fd, struct sock_filter *ins, unsigned n)
{
	struct sock_fprog prog = { .len = (unsigned short)n, .filter = ins };

	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
}

static int attach_drop_all(int fd)
{
	struct sock_filter drop = { BPF_RET | BPF_K, 0, 0, 0 };

	return attach(fd, &drop, 1);
}

/* The interface's link type: ARPHRD_ETHER and ARPHRD_LOOPBACK frames start
 * with an Ethernet header.  0, -1 (errbuf), -2 (another type). */
static int link_type(struct gd_live *l, int fd, char *errbuf)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", l->name);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		snprintf(errbuf, GD_ERRBUF, "%s: %s", l->name, strerror(errno));
		return -1;
	}
	switch (ifr.ifr_hwaddr.sa_family) {
	case ARPHRD_ETHER:
	case ARPHRD_LOOPBACK:
		l->linktype = LINKTYPE_ETHERNET;
		return 0;
	default:
		snprintf(errbuf, GD_ERRBUF, "%s: hardware type %u is neither Ethernet nor "
			 "loopback", l->name, (unsigned)ifr.ifr_hwaddr.sa_family);
		return -2;
	}
}

/* Block size and count for ring_bytes.  The kernel hands a block over
 * when it is full or RETIRE_MS after its first frame, so below the rate
 * that fills a block in RETIRE_MS a ring holds nblocks * RETIRE_MS of
 * traffic, not ring_bytes of it: many small blocks hold more.  128 KiB
 * (about 500 frames of 170 bytes: full in 10 ms at 50,000 frames/s; a
 * 64 KiB frame fits), halved down to 16 KiB until a ring has 8 of them
 * (docs/live.md has the measurements). */
static void geometry(size_t ring_bytes, struct tpacket_req3 *req)
{
	uint32_t bs = 128u * 1024;

	while (bs > 16384 && ring_bytes / bs < 8)
		bs >>= 1;
	memset(req, 0, sizeof(*req));
	req->tp_block_size = bs;
	req->tp_block_nr = (unsigned)(ring_bytes / bs) < 2 ? 2 : (unsigned)(ring_bytes / bs);
	req->tp_frame_size = FRAME_SIZE;
	req->tp_frame_nr = req->tp_block_nr * (bs / FRAME_SIZE);
	req->tp_retire_blk_tov = RETIRE_MS;
}

static int sock_fail(struct gd_live *l, const char *what, char *errbuf)
{
	int e = errno;

	snprintf(errbuf, GD_ERRBUF, "%s: %s: %s%s", l->name, what, strerror(e),
		 e == EPERM ? " (live capture needs CAP_NET_RAW)" : "");
	return -1;
}

/* One socket: TPACKET_V3, drop-all filter, the ring, bound to the
 * interface, in the fanout group when there are several.  0 or -1. */
static int sock_open(struct gd_live *l, struct gd_live_sock *s, size_t ring_bytes,
		     char *errbuf)
{
	int v = TPACKET_V3;
	struct tpacket_req3 req;
	struct sockaddr_ll sll;
	void *m;

	/* protocol 0: nothing arrives before bind(), when the filter is on */
	if ((s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) < 0)
		return sock_fail(l, "AF_PACKET socket", errbuf);
	if (setsockopt(s->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) < 0) {
		int old = errno == EINVAL; /* a kernel before 3.2 */

		sock_fail(l, "TPACKET_V3", errbuf);
		return old ? -2 : -1;
	}
	if (attach_drop_all(s->fd) < 0)
		return sock_fail(l, "SO_ATTACH_FILTER", errbuf);
	geometry(ring_bytes, &req);
	if (setsockopt(s->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) < 0)
		return sock_fail(l, "PACKET_RX_RING", errbuf);
	s->block_size = req.tp_block_size;
	s->nblocks = req.tp_block_nr;
	s->ring_len = (size_t)s->block_size * s->nblocks;
	m = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED,
		 s->fd, 0);
	if (m == MAP_FAILED) /* MAP_LOCKED beyond RLIMIT_MEMLOCK: unlocked then */
		m = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (m == MAP_FAILED) {
		s->ring_len = 0;
		return sock_fail(l, "mmap of the ring", errbuf);
	}
	s->ring = m;
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = l->ifindex;
	if (bind(s->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		return sock_fail(l, "bind", errbuf);
	if (l->nsock > 1) {
		/* the group id: ours alone on this host (the pid's low bits) */
		uint32_t f = ((uint32_t)getpid() & 0xffff) |
			 (uint32_t)(PACKET_FANOUT_HASH | PACKET_FANOUT_FLAG_DEFRAG) << 16;

		if (setsockopt(s->fd, SOL_PACKET, PACKET_FANOUT, &f, sizeof(f)) < 0)
			return sock_fail(l, "PACKET_FANOUT", errbuf);
	}
	return 0;
}

/* -j's default: the CPUs this process may run on. */
static unsigned cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) < 0 || (n = CPU_COUNT(&set)) < 1)
		return 1;
	return (unsigned)n > GD_LIVE_MAX_SOCKS ? GD_LIVE_MAX_SOCKS : (unsigned)n;
}

int live_open(struct gd_live *l, const char *iface, uint32_t snaplen, size_t ring_bytes,
	      unsigned nsock, char *errbuf)
{
	int rc;

	memset(l, 0, sizeof(*l));
	l->name = iface;
	l->snaplen = snaplen;
	l->nsock = nsock ? nsock : cpus();
	if (l->nsock > GD_LIVE_MAX_SOCKS)
		l->nsock = GD_LIVE_MAX_SOCKS;
	if (strlen(iface) >= IFNAMSIZ || !(l->ifindex = (int)if_nametoindex(iface))) {
		snprintf(errbuf, GD_ERRBUF, "%s: no such interface", iface);
		return -1;
	}
	if (!(l->sock = calloc(l->nsock, sizeof(*l->sock)))) {
		snprintf(errbuf, GD_ERRBUF, "%s: out of memory", iface);
		return -1;
	}
	for (unsigned i = 0; i < l->nsock; i++)
		l->sock[i].fd = -1;
	for (unsigned i = 0; i < l->nsock; i++) {
		if ((rc = sock_open(l, &l->sock[i], ring_bytes, errbuf)) < 0 ||
		    (i == 0 && (rc = link_type(l, l->sock[0].fd, errbuf)) < 0)) {
			live_close(l);
			return rc;
		}
	}
	return 0;
}

/* The program each socket gets: on loopback, frames we sent pass twice
 * (outgoing, then incoming): the outgoing copy is dropped first, so that
 * the counts are of frames once.  Then the user's program, or accept all
 * (its jumps are relative: a prefix does not move their targets). */
static struct sock_filter *build_prog(const struct gd_live *l, const struct bpf_program *bp,
				      int loopback, unsigned *n)
{
	static const struct sock_filter pre[] = {
		{ BPF_LD | BPF_B | BPF_ABS, 0, 0, (uint32_t)(SKF_AD_OFF + SKF_AD_PKTTYPE) },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, PACKET_OUTGOING },
		{ BPF_RET | BPF_K, 0, 0, 0 },
	};
	unsigned np = loopback ? 3 : 0, nu = bp ? bp->bf_len : 1;
	struct sock_filter *f = calloc(np + nu, sizeof(*f));

	if (!f)
		return NULL;
	memcpy(f, pre, np * sizeof(*f));
	for (unsigned i = 0; i < nu; i++) {
		if (bp) {
			f[np + i].code = bp->bf_insns[i].code;
			f[np + i].jt = bp->bf_insns[i].jt;
			f[np + i].jf = bp->bf_insns[i].jf;
			f[np + i].k = bp->bf_insns[i].k;
		} else {
			f[np + i] = (struct sock_filter){ BPF_RET | BPF_K, 0, 0, l->snaplen };
		}
	}
	*n = np + nu;
	return f;
}

static int is_loopback(const struct gd_live *l)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", l->name);
	return ioctl(l->sock[0].fd, SIOCGIFHWADDR, &ifr) == 0 &&
	       ifr.ifr_hwaddr.sa_family == ARPHRD_LOOPBACK;
}

/* Hand every block back and zero the counters: what came in under the
 * drop-all filter (nothing can; libpcap drains too) is not counted. */
static void drain(struct gd_live_sock *s)
{
	struct tpacket_stats_v3 st;
	socklen_t sl = sizeof(st);

	for (uint32_t b = 0; b < s->nblocks; b++) {
		struct tpacket_block_desc *d = (void *)(s->ring + (size_t)b * s->block_size);

		if (__atomic_load_n(&d->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER)
			__atomic_store_n(&d->hdr.bh1.block_status, TP_STATUS_KERNEL,
					 __ATOMIC_RELEASE);
	}
	getsockopt(s->fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl);
}

int live_set_filter(struct gd_live *l, const char *expr, char *errbuf)
{
	struct bpf_program bp;
	pcap_t *dead = NULL;
	struct sock_filter *f;
	unsigned n;
	int rc = 0;

	if (expr) {
		if (!(dead = gd_pcap_filter(DLT_EN10MB, (int)l->snaplen,
					    PCAP_TSTAMP_PRECISION_MICRO, expr, &bp, NULL, errbuf,
					    GD_ERRBUF)))
			return -1;
	}
	if (!(f = build_prog(l, expr ? &bp : NULL, is_loopback(l), &n))) {
		snprintf(errbuf, GD_ERRBUF, "%s: out of memory", l->name);
		rc = -1;
	}
	for (unsigned i = 0; f && i < l->nsock; i++) {
		drain(&l->sock[i]);
		if (attach(l->sock[i].fd, f, n) < 0) {
			snprintf(errbuf, GD_ERRBUF, "filter '%s': the kernel refused it: %s",
				 expr ? expr : "", strerror(errno));
			rc = -1;
			break;
		}
	}
	free(f);
	if (expr) {
		pcap_freecode(&bp);
		pcap_close(dead);
	}
	l->armed = rc == 0;
	if (l->armed) /* as tcpdump says it, when frames can come in */
		fprintf(stderr, "gbpdump: listening on %s, link-type EN10MB (Ethernet), snapshot "
			"length %u bytes, %u worker%s, TPACKET_V3 ring of %zu KiB each\n",
			l->name, l->snaplen, l->nsock, l->nsock > 1 ? "s" : "",
			l->sock[0].ring_len / 1024);
	return rc;
}

static struct tpacket_block_desc *block(const struct gd_live_sock *s, uint32_t b)
{
	return (struct tpacket_block_desc *)(void *)(s->ring + (size_t)b * s->block_size);
}

static void release(struct gd_live_sock *s)
{
	__atomic_store_n(&block(s, s->blk)->hdr.bh1.block_status, TP_STATUS_KERNEL,
			 __ATOMIC_RELEASE);
	s->held = 0;
	s->blk = (s->blk + 1) % s->nblocks;
}

/* Take the block at s->blk when the kernel handed it over: 1, or 0. */
static int take(struct gd_live_sock *s)
{
	struct tpacket_block_desc *d = block(s, s->blk);

	if (!(__atomic_load_n(&d->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
		return 0;
	s->held = 1;
	s->left = d->hdr.bh1.num_pkts;
	s->pkt_off = d->hdr.bh1.offset_to_first_pkt;
	return 1;
}

int live_ready(struct gd_live *l, unsigned i)
{
	struct gd_live_sock *s = &l->sock[i];

	while (!s->held || !s->left) {
		if (s->held)
			release(s);
		if (!take(s))
			return 0;
	}
	return 1;
}

/* The frame at s->pkt_off into rec, checked against the block's bounds.
 * 0, or -1 with errbuf. */
static int frame_at(struct gd_live *l, struct gd_live_sock *s, struct gd_rec *rec,
		    char *errbuf)
{
	const uint8_t *b = (const uint8_t *)block(s, s->blk);
	const struct tpacket3_hdr *h;
	uint32_t off = s->pkt_off;

	if (off < sizeof(struct tpacket_block_desc) ||
	    off > s->block_size - sizeof(*h) || off % 4)
		goto bad;
	h = (const struct tpacket3_hdr *)(const void *)(b + off);
	if (h->tp_mac > s->block_size - off || h->tp_snaplen > s->block_size - off - h->tp_mac)
		goto bad;
	rec->sec = h->tp_sec;
	rec->nsec = h->tp_nsec < 1000000000 ? h->tp_nsec : 999999999;
	rec->caplen = h->tp_snaplen;
	rec->wirelen = h->tp_len < h->tp_snaplen ? h->tp_snaplen : h->tp_len;
	rec->data = b + off + h->tp_mac;
	rec->off = 0;
	s->left--;
	if (s->left && (!h->tp_next_offset || h->tp_next_offset > s->block_size - off))
		goto bad;
	s->pkt_off = off + h->tp_next_offset;
	s->taken++;
	return 0;
bad:
	snprintf(errbuf, GD_ERRBUF, "%s: ring block %u: a frame header outside the block "
		 "(offset %u)", l->name, s->blk, off);
	return -1;
}

static int stopped(const volatile sig_atomic_t *sig, const atomic_int *halt)
{
	return (sig && *sig) || (halt && atomic_load(halt));
}

int live_next(struct gd_live *l, unsigned i, struct gd_rec *rec,
	      const volatile sig_atomic_t *sig, const atomic_int *halt, char *errbuf)
{
	struct gd_live_sock *s = &l->sock[i];
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN | POLLERR };

	if (!l->armed && live_set_filter(l, NULL, errbuf) < 0)
		return -1;
	while (!live_ready(l, i)) {
		if (stopped(sig, halt))
			return 0;
		if (poll(&pfd, 1, POLL_MS) < 0 && errno != EINTR) {
			snprintf(errbuf, GD_ERRBUF, "%s: poll: %s", l->name, strerror(errno));
			return -1;
		}
		if (pfd.revents & POLLERR) {
			int e = 0;
			socklen_t el = sizeof(e);

			getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &e, &el);
			if (e) {
				snprintf(errbuf, GD_ERRBUF, "%s: %s", l->name, strerror(e));
				return -1;
			}
		}
	}
	if (stopped(sig, halt))
		return 0;
	return frame_at(l, s, rec, errbuf) < 0 ? -1 : 1;
}

/* Frames in the blocks the kernel handed over and we did not read. */
static uint64_t count_unread(struct gd_live_sock *s)
{
	uint64_t n = 0;

	if (s->held) {
		n += s->left;
		release(s);
	}
	for (uint32_t k = 0; k < s->nblocks && take(s); k++) {
		n += s->left;
		release(s);
	}
	return n;
}

/* The kernel's counters since the last read (reading resets them) added
 * to s's, and the frames handed over since; 1 while the kernel counted
 * frames we have not seen: they are in the block it is filling, which
 * its timer hands over RETIRE_MS after the block's first frame. */
static int account(struct gd_live_sock *s)
{
	struct tpacket_stats_v3 st;
	socklen_t sl = sizeof(st);

	if (getsockopt(s->fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl) == 0) {
		s->packets += st.tp_packets; /* the kernel adds the drops in */
		s->drops += st.tp_drops;
		s->freezes += st.tp_freeze_q_cnt;
	}
	s->unread += count_unread(s);
	return s->packets > s->drops + s->taken + s->unread;
}

/* The drop-all filter on every socket, then every frame the kernel
 * counted read back out of the rings: at once when its timer runs on
 * time, later on a loaded machine (softirqs wait for a CPU), given up
 * after GD_LIVE_FINISH_MS (the counts then say what is missing). */
static void finish_rings(struct gd_live *l)
{
	struct timespec tick = { 0, RETIRE_MS * 1000000L };
	unsigned waited = 0;
	int owed;

	for (unsigned i = 0; i < l->nsock; i++)
		attach_drop_all(l->sock[i].fd);
	do {
		nanosleep(&tick, NULL);
		waited += RETIRE_MS;
		owed = 0;
		for (unsigned i = 0; i < l->nsock; i++)
			owed |= account(&l->sock[i]);
	} while (owed && waited < GD_LIVE_FINISH_MS);
	l->finished = 1;
}

void live_finish(struct gd_live *l, struct gd_live_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (!l->finished)
		finish_rings(l);
	for (unsigned i = 0; i < l->nsock; i++) {
		c->received += l->sock[i].packets;
		c->dropped += l->sock[i].drops;
		c->freezes += l->sock[i].freezes;
		c->unread += l->sock[i].unread;
	}
	c->unread += l->discarded;
}

void live_close(struct gd_live *l)
{
	for (unsigned i = 0; l->sock && i < l->nsock; i++) {
		if (l->sock[i].ring_len)
			munmap(l->sock[i].ring, l->sock[i].ring_len);
		if (l->sock[i].fd >= 0)
			close(l->sock[i].fd);
	}
	free(l->sock);
	memset(l, 0, sizeof(*l));
}

/* 0 when c adds up with captured, or -1 with errbuf saying by how much
 * it does not. */
static int counts_off(const struct gd_live_counts *c, const char *name,
		      unsigned long long captured, char *errbuf)
{
	unsigned long long received = c->received, counted;

	counted = captured + c->dropped + c->unread;
	if (!c->have_unread || counted == received)
		return 0;
	snprintf(errbuf, GD_ERRBUF, "%s: %llu packets %s: received by filter %llu, captured "
		 "%llu + dropped by kernel %llu + not analysed %llu = %llu", name,
		 counted < received ? received - counted : counted - received,
		 counted < received ? "unaccounted for" : "counted more than received",
		 received, captured, (unsigned long long)c->dropped,
		 (unsigned long long)c->unread, counted);
	return -1;
}

int live_check_counts(struct gd_reader *r, unsigned long long captured, char *errbuf)
{
	struct gd_live_counts c;

	if (reader_live_counts(r, &c) < 0)
		return 0;
	return counts_off(&c, r->name, captured, errbuf);
}

void live_print_counts(struct gd_reader *r, unsigned long long captured)
{
	struct gd_live_counts c;
	char err[GD_ERRBUF];

	if (reader_live_counts(r, &c) < 0)
		return;
	fprintf(stderr, "%llu packets captured\n%llu packets received by filter\n"
		"%llu packets dropped by kernel\n", captured,
		(unsigned long long)c.received, (unsigned long long)c.dropped);
	if (c.have_unread)
		fprintf(stderr, "%llu packets not analysed: in a ring when the capture stopped\n"
			"%llu times a ring was full\n", (unsigned long long)c.unread,
			(unsigned long long)c.freezes);
	if (counts_off(&c, r->name, captured, err) < 0)
		fprintf(stderr, "gbpdump: %s\n", err);
}
