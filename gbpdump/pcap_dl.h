/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcap_dl.h - libpcap, opened with dlopen() the first time gbpdump needs it.
 *
 * gbpdump reads classic pcap and pcapng files with its own readers; libpcap
 * is needed only for live capture through libpcap (-i, --libpcap), BPF
 * filter expressions, --libpcap and captures of other formats on -r, and
 * --version.  Linked, libpcap brought in D-Bus, systemd, libgcrypt and more,
 * whose relocation cost every run about 1.7 million instructions (3 ms) at
 * start-up.  Opened here instead, a plain -r never loads it.
 *
 * The types and constants still come from <pcap/pcap.h>; the functions are
 * called through the table gd_pcap, whose members have the names and the
 * types (taken from pcap.h's own declarations) of libpcap's functions:
 * gd_pcap.pcap_compile(...).  A function may be called only after
 * gd_pcap_open() returned 0 in this process (a pcap_t or a compiled program
 * exists only then).
 *
 * The library's file name is the SONAME of the libpcap the build found
 * (GD_PCAP_SONAME, gbpdump/CMakeLists.txt); the environment variable
 * GBPDUMP_LIBPCAP names another (a path or a file name), e.g. for tests.
 */
#ifndef GBPDUMP_PCAP_DL_H
#define GBPDUMP_PCAP_DL_H

#include <stddef.h>

#include <pcap/pcap.h>

#include "dl.h"

/* Every libpcap function gbpdump calls: a new one is one more entry. */
#define GD_PCAP_FUNCS(X)                                                       \
	X(pcap_activate)                                                       \
	X(pcap_breakloop)                                                      \
	X(pcap_close)                                                          \
	X(pcap_compile)                                                        \
	X(pcap_create)                                                         \
	X(pcap_datalink)                                                       \
	X(pcap_datalink_val_to_name)                                           \
	X(pcap_fopen_offline_with_tstamp_precision)                            \
	X(pcap_freecode)                                                       \
	X(pcap_get_tstamp_precision)                                           \
	X(pcap_geterr)                                                         \
	X(pcap_lib_version)                                                    \
	X(pcap_major_version)                                                  \
	X(pcap_next_ex)                                                        \
	X(pcap_offline_filter)                                                 \
	X(pcap_open_dead_with_tstamp_precision)                                \
	X(pcap_set_buffer_size)                                                \
	X(pcap_set_immediate_mode)                                             \
	X(pcap_set_promisc)                                                    \
	X(pcap_set_snaplen)                                                    \
	X(pcap_set_tstamp_precision)                                           \
	X(pcap_setfilter)                                                      \
	X(pcap_snapshot)                                                       \
	X(pcap_stats)

struct gd_pcap {
	GD_PCAP_FUNCS(GD_DL_MEMBER)
};

/* Filled by the first successful gd_pcap_open(); all NULL before. */
extern struct gd_pcap gd_pcap;

/* Open libpcap and resolve every function, once per process (gd_dl_open():
 * any thread may call it, and callers after the first get its outcome).
 * 0, or -1 with "WHAT needs libpcap: <dlerror()>" in err (n bytes), e.g.
 * "-i needs libpcap: libpcap.so.0.8: cannot open shared object file: No
 * such file or directory". */
int gd_pcap_open(const char *what, char *err, size_t n);

/* The BPF expression expr compiled into prog for link type dlt, snaplen and
 * time stamp precision, libpcap opened first: the pcap_t it was compiled
 * with (pcap_freecode(prog), then pcap_close() it), or NULL with the
 * reason in err (n bytes): "a filter expression needs libpcap: ...", or
 * "[WHO: ]filter 'EXPR': <libpcap's reason>". */
pcap_t *gd_pcap_filter(int dlt, int snaplen, int precision, const char *expr,
		       struct bpf_program *prog, const char *who, char *err, size_t n);

#endif
