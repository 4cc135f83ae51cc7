/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live.h - live capture on Linux AF_PACKET sockets with TPACKET_V3 rings
 * (docs/live.md).
 *
 * One socket per worker, each with its own memory-mapped receive ring of
 * blocks; with several sockets they form one PACKET_FANOUT group that
 * hashes by flow (PACKET_FANOUT_HASH, fragments reassembled first), so the
 * frames of one flow always reach the same worker.  Frames are read in
 * place from the ring: a record's data points into a ring block, which goes
 * back to the kernel when the next frame is asked for after the block's
 * last one.  The BPF filter runs in the kernel on every socket; until it is
 * in place a drop-all filter keeps the rings empty.
 */
#ifndef GBPDUMP_LIVE_H
#define GBPDUMP_LIVE_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

/* Ring size per socket when -B is not given: 32 MiB, about 113,000
 * frames of 168 bytes (measured: docs/live.md). */
#define GD_LIVE_RING_DEFAULT (32u * 1024 * 1024)
#define GD_LIVE_RING_MIN (128u * 1024)
#define GD_LIVE_RING_MAX (4095u * 1024 * 1024)
#define GD_LIVE_MAX_SOCKS 256

struct gd_live_sock {
	int fd;
	uint8_t *ring;          /* the mapping: nblocks blocks of block_size */
	size_t ring_len;
	uint32_t block_size, nblocks;
	uint32_t blk;           /* the block read next (or being read) */
	int held;               /* 1: blk is ours, pkt/left walk it */
	uint32_t pkt_off;       /* offset of the next frame in the held block */
	uint32_t left;          /* frames left in the held block */
	uint64_t taken;         /* frames live_next() gave out */
	uint64_t unread;        /* frames in the ring at the end */
	uint64_t packets, drops, freezes; /* PACKET_STATISTICS, summed */
};

struct gd_live {
	const char *name;       /* the interface, for messages */
	int ifindex;
	int linktype;           /* LINKTYPE_ETHERNET */
	uint32_t snaplen;
	unsigned nsock;
	int armed;              /* the real filter (or none) replaced drop-all */
	int finished;           /* live_finish() stopped it: the counts are final */
	struct gd_live_sock *sock;
	uint64_t discarded;     /* taken from a ring after the stop, not analysed */
};

/* Open nsock sockets on iface.  0; -1 with errbuf; -2 when the interface's
 * link type is not one this reader handles or the kernel has no TPACKET_V3
 * (errbuf says which: the caller may use libpcap instead). */
int live_open(struct gd_live *l, const char *iface, uint32_t snaplen, size_t ring_bytes,
	      unsigned nsock, char *errbuf);
/* Compile expr (NULL: none) for the interface's link type and put it on
 * every socket in place of the drop-all filter.  0 or -1 with errbuf. */
int live_set_filter(struct gd_live *l, const char *expr, char *errbuf);
/* The next frame of socket i: 1, 0 when *sig (a signal handler's flag,
 * this thread's) or *halt (another thread's) became set, -1 on error;
 * either may be NULL.  Waits for frames (poll), looking at the flags at
 * least every 100 ms.  rec->data stays valid until the next call for the
 * same socket. */
int live_next(struct gd_live *l, unsigned i, struct gd_rec *rec,
	      const volatile sig_atomic_t *sig, const atomic_int *halt, char *errbuf);
/* 1 when socket i has a frame ready without waiting. */
int live_ready(struct gd_live *l, unsigned i);
/* Stop the capture (drop-all filter), wait until the kernel has handed
 * over every frame it counted (at most GD_LIVE_FINISH_MS), count what is
 * left in the rings and read the kernel's counters into c.  Later calls
 * give the same counts. */
#define GD_LIVE_FINISH_MS 1000
void live_finish(struct gd_live *l, struct gd_live_counts *c);
void live_close(struct gd_live *l);
/* Stop a live capture (reader_live_counts()) and say whether its end
 * counters add up: 0, or -1 with errbuf saying by how much they do not
 * (received by filter != captured + dropped by kernel + not analysed).
 * 0 when the source cannot tell (libpcap). */
int live_check_counts(struct gd_reader *r, unsigned long long captured, char *errbuf);
/* The end of a live capture on standard error (docs/live.md): captured
 * (frames gbpdump read), and what reader_live_counts() gives; when they
 * do not add up, live_check_counts()'s message after them. */
void live_print_counts(struct gd_reader *r, unsigned long long captured);

/* -B KIB ('B'), --ring-size SIZE ('R'), -j N ('j') into lo.  0, or -1
 * after a message. */
int live_opt(struct gd_live_opts *lo, int which, const char *arg);

/* Several workers (live_run.c): one thread per socket runs the frame
 * stages (frame.h) until *stop (a signal), -c, an output error or an
 * error; r->count becomes the frames analysed.  0, or -1 with errbuf. */
struct gd_frame_cfg;
struct gd_frame_state;
struct gd_out;
int live_run(struct gd_reader *r, const struct gd_frame_cfg *fc, struct gd_frame_state *fs,
	     struct gd_out *out, volatile sig_atomic_t *stop, char *errbuf);

#endif /* GBPDUMP_LIVE_H */
