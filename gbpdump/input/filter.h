/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filter.h - a BPF filter expression compiled once, for a link type, with
 * libpcap, and the message when it does not compile.  The file readers,
 * the other -r inputs and the TPACKET rings each compile theirs here.
 */
#ifndef GBPDUMP_FILTER_H
#define GBPDUMP_FILTER_H

#include <stddef.h>

#include <pcap/pcap.h>

/* The BPF expression expr compiled into prog for link type dlt, snaplen and
 * time stamp precision: the pcap_t it was compiled with (pcap_freecode(prog),
 * then pcap_close() it), or NULL with "[WHO: ]filter 'EXPR': <libpcap's
 * reason>" in err (n bytes). */
pcap_t *gd_pcap_filter(int dlt, int snaplen, int precision, const char *expr,
		       struct bpf_program *prog, const char *who, char *err, size_t n);

#endif
