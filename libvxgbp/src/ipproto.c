// SPDX-License-Identifier: BSD-2-Clause
/*
 * ipproto.c - the names of IP protocols, one table with a column per
 * spelling: tcpdump's (gbpdump's text), gbpdump --json's proto_name (IANA
 * keywords in lower case; 58 keeps the "icmp6" it always had) and the
 * --policy language's keyword.
 */
#include <stddef.h>

#include <vxgbp/vxgbp.h>

static const struct vxgbp_ipproto_info protos[] = {
	{ 0, "Options", NULL, NULL },
	{ 1, "ICMP", "icmp", "icmp" },
	{ 2, "IGMP", "igmp", NULL },
	{ 4, "IPIP", "ipip", NULL },
	{ 6, "TCP", "tcp", "tcp" },
	{ 17, "UDP", "udp", "udp" },
	{ 41, "IPv6", "ipv6", NULL },
	{ 43, "Routing", NULL, NULL },
	{ 44, "Fragment", NULL, NULL },
	{ 47, "GRE", "gre", NULL },
	{ 50, "ESP", "esp", NULL },
	{ 51, "AH", "ah", NULL },
	{ 58, "ICMPv6", "icmp6", "icmpv6" },
	{ 132, "SCTP", "sctp", NULL },
};

const struct vxgbp_ipproto_info *vxgbp_ipproto_get(uint8_t proto)
{
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].proto == proto)
			return &protos[i];
	return NULL;
}
