// SPDX-License-Identifier: BSD-2-Clause
/*
 * gbpdump - read VXLAN Group Policy traffic the way tcpdump reads the rest.
 *
 *   gbpdump -r capture.pcap [options] [BPF expression]
 *   gbpdump -i eth0 [options] [BPF expression]
 *
 * Data flow: reader (input/: pcap, pcapng, compressed, live) -> the frame
 * stages of frame.h: parse (BPF filter on the record in place,
 * vxgbp_pkt_parse(), --gbp/--vni filters), state (libvxgbp's cross-frame
 * tracker when the run needs it, --check, --report, -w), emit (print/: text
 * or --json) -> the summaries (report/).  options.c reads the command line,
 * run.c does the run.  Nothing on the per-frame path allocates.
 */
#include "options.h"
#include "run.h"

int main(int argc, char **argv)
{
	struct opts o;
	int rc;

	if ((rc = opts_parse(argc, argv, &o)) == GO_ON)
		rc = run_main(&o);
	opts_free(&o);
	return rc;
}
