// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_dissector.c - libFuzzer harness for the Wireshark plugin's
 * dissection path: the plugin's sources (dissector/packet-vxgbp.c,
 * vxgbp-groups.c, vxgbp-stats.c) are compiled in with the sanitizers,
 * registered the way Wireshark registers a plugin, and every input is
 * dissected by the whole of libwireshark as an Ethernet frame, with a
 * visible protocol tree (so every proto_tree_add_* and expert-info call
 * runs), the way tshark -V would.  The plugin is a postdissector: the edt
 * is primed with the fields it wants, as tshark primes it, and Wireshark's
 * own vxlan dissector hands it the VXLAN headers it finds (UDP 4789, and
 * 8472 through Decode As, as the documentation says to do).
 *
 * Input: one option byte (as fuzz_pkt; bit 6: the frame was longer on the
 * wire than captured; bit 5: dissect the frame a second time, as a later
 * pass does, from what the first pass kept), then the frame.  The frames
 * of one epan session are frames of one capture, so the plugin's
 * cross-frame tracker sees them all.  libwireshark itself is not
 * instrumented; ASan sees the plugin's and libvxgbp's reads, and the
 * tvbuff accessors keep Wireshark's own.
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include <epan/epan.h>
#include <epan/epan_dissect.h>
#include <epan/frame_data.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/tvbuff.h>
#include <wiretap/wtap.h>
#include <wsutil/filesystem.h>
#include <wsutil/privileges.h>
#include <wsutil/wslog.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

void plugin_register(void); /* dissector/packet-vxgbp.c */

static epan_t *session;
static epan_dissect_t *edt;

/* A session keeps state across frames (conversations, reassembly): a new
 * one every this many inputs keeps memory flat over millions of runs. */
#define FRAMES_PER_SESSION 65536

static const nstime_t *frame_ts(struct packet_provider_data *prov, guint32 num)
{
	static const nstime_t zero;

	(void)prov;
	(void)num;
	return &zero;
}

static const struct packet_provider_funcs funcs = { frame_ts, NULL, NULL, NULL };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *err;

	(void)argc;
	/* no profile, no user folders: the same dissection every run */
	g_setenv("XDG_CONFIG_HOME", "/nonexistent", TRUE);
	g_setenv("XDG_CACHE_HOME", "/nonexistent", TRUE);
	g_setenv("XDG_DATA_HOME", "/nonexistent", TRUE);
	g_setenv("WIRESHARK_DEBUG_WMEM_OVERRIDE", "simple", TRUE); /* plain malloc: ASan sees it */
	g_setenv("G_SLICE", "always-malloc", TRUE);
	ws_log_init("fuzz_dissector", NULL);
	ws_log_set_level(LOG_LEVEL_WARNING); /* not a debug line per frame */
	init_process_policies();
	if ((err = configuration_init((*argv)[0], NULL)))
		g_free(err);
	wtap_init(FALSE);
	plugin_register(); /* as Wireshark does for vxgbp.so */
	if (!epan_init(NULL, NULL, FALSE))
		abort();
	epan_load_settings();
	prefs_apply_all();
	/* Decode As: UDP 8472 as vxlan (Wireshark gives it to OTV) */
	if (find_dissector("vxlan"))
		dissector_change_uint("udp.port", 8472, find_dissector("vxlan"));
	session = epan_new(NULL, &funcs);
	edt = epan_dissect_new(session, TRUE, TRUE);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static guint32 num;
	wtap_rec rec;
	frame_data fd;
	tvbuff_t *tvb;
	guint8 *frame;
	guint32 len;

	if (size < 1 || size > 65536)
		return 0;
	if (num && num % FRAMES_PER_SESSION == 0) {
		epan_dissect_free(edt);
		epan_free(session);
		session = epan_new(NULL, &funcs);
		edt = epan_dissect_new(session, TRUE, TRUE);
	}
	len = (guint32)(size - 1);
	/* a copy of exactly the frame's size: ASan sees a read past it */
	frame = g_malloc(len ? len : 1);
	memcpy(frame, data + 1, len);
	wtap_rec_init(&rec);
	rec.rec_type = REC_TYPE_PACKET;
	rec.presence_flags = WTAP_HAS_TS | WTAP_HAS_CAP_LEN;
	rec.rec_header.packet_header.pkt_encap = WTAP_ENCAP_ETHERNET;
	rec.rec_header.packet_header.caplen = len;
	rec.rec_header.packet_header.len = (data[0] & 0x40) ? len + 100 : len;
	frame_data_init(&fd, ++num, &rec, 0, 0);
	tvb = tvb_new_real_data(frame, len, (gint)rec.rec_header.packet_header.len);
	prime_epan_dissect_with_postdissector_wanted_hfids(edt);
	epan_dissect_run(edt, WTAP_FILE_TYPE_SUBTYPE_UNKNOWN, &rec, tvb, &fd, NULL);
	epan_dissect_reset(edt); /* frees the tvb chain */
	if (data[0] & 0x20) {
		/* a later pass: fd->visited is set, nothing primed */
		tvb = tvb_new_real_data(frame, len, (gint)rec.rec_header.packet_header.len);
		epan_dissect_run(edt, WTAP_FILE_TYPE_SUBTYPE_UNKNOWN, &rec, tvb, &fd, NULL);
		epan_dissect_reset(edt);
	}
	frame_data_destroy(&fd);
	wtap_rec_cleanup(&rec);
	g_free(frame);
	return 0;
}
