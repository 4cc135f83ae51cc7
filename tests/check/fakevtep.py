#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""fakevtep.py - a tiny user-space VXLAN-GBP VTEP on 127.0.0.x for testing
gbpprobe's judgement without a kernel: one overlay host (TARGET) that
answers ARP, ping and UDP (port unreachable), MAC learning into an FDB,
flooding to a list of remotes, and one of these receive behaviours
(--model):

  linux      like an unpatched Linux 6.12 'gbp' device: drops frames with
             reserved bits in the first flags byte or a non-zero reserved
             byte, ignores the second byte and an ID without G, learns
             even with D=1, reflects the group into the reply
             (net.ipv4.fwmark_reflect=1)
  rfc        ignores every reserved bit (RFC 7348 sec. 5), does not learn
             from D=1 frames, sets A on replies (it "applies policy")
  remap      as rfc, but replies with a group of its own (the sent ID + 1):
             gbp.group-mapped must fail
  lax        as rfc, but takes frames without I (VNI used anyway), drops
             G with ID 0 and datagrams over 1400 bytes (on 127.0.0.1 nothing
             is fragmented: the size stands for the fragments it discards)
  deaf       never answers (but reads)

On the first echo request it takes, the VTEP sends an IGMPv3 and an MLDv2
report to every remote, as a Linux VTEP does when it joins a group: linux
with G and ID 148 (the bogus group our kernels give them), the others
without G.

A --static MAC@ADDR:PORT entry is pinned: linux drops a frame from that
MAC arriving from another remote (as vxlan_snoop() does), rfc and remap
take it without moving the entry, lax moves it (learns over it).

A frame to a MAC the VTEP does not know (not the target's, not broadcast)
is forwarded to the other remotes, as a bridge with the VXLAN port in
hairpin mode does: linux, rfc and remap keep the header's G, A and ID,
lax clears A (it applies no policy but says nothing of it either).

ADDR may be IPv6 (::1:PORT: the port after the last colon); then rfc,
remap and lax take datagrams with UDP checksum 0 (UDP_NO_CHECK6_RX, as a
Linux tunnel with udp6zerocsumrx), linux leaves the kernel's default
(RFC 6936: discard them).

usage: fakevtep.py --listen ADDR:PORT --remote ADDR:PORT [--remote ...]
                   --model linux|rfc|remap|lax|deaf [--static MAC@ADDR:PORT]...
                   [--seconds N] [--ready FILE]
"""
import argparse
import select
import socket
import struct
import time

TARGET_IP = bytes([198, 51, 100, 1])
TARGET_MAC = bytes.fromhex("020000009901")
BCAST = b"\xff" * 6
F_G, F_I, F_D, F_A = 0x8000, 0x0800, 0x0040, 0x0008
UDP_NO_CHECK6_RX = 102  # linux/udp.h


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def arp(op, sha, spa, tha, tpa):
    eth = (BCAST if op == 1 else tha) + sha + b"\x08\x06"
    body = struct.pack("!HHBBH", 1, 0x0800, 6, 4, op) + sha + spa + \
        (b"\0" * 6 if op == 1 else tha) + tpa
    return eth + body + b"\0" * 18


def reports():
    """An IGMPv3 report (to 224.0.0.22) and an MLDv2 report (ff02::16,
    behind a hop-by-hop router alert), both with no group records."""
    ip4 = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0xc0, 28, 0, 0x4000, 1, 2, 0,
                                bytes(TARGET_IP), bytes([224, 0, 0, 22])))
    ip4[10:12] = struct.pack("!H", csum(bytes(ip4)))
    igmp = bytearray(struct.pack("!BBHHH", 0x22, 0, 0, 0, 0))
    igmp[2:4] = struct.pack("!H", csum(bytes(igmp)))
    v4 = bytes.fromhex("01005e000016") + TARGET_MAC + b"\x08\x00" + bytes(ip4) + bytes(igmp)
    src6 = bytes.fromhex("fe800000000000000000000000009901")
    dst6 = bytes.fromhex("ff020000000000000000000000000016")
    hbh = bytes([58, 0, 5, 2, 0, 0, 1, 0])
    mld = struct.pack("!BBHHH", 143, 0, 0, 0, 0)
    ip6 = struct.pack("!IHBB", 0x60000000, len(hbh) + len(mld), 0, 1) + src6 + dst6
    v6 = bytes.fromhex("333300000016") + TARGET_MAC + b"\x86\xdd" + ip6 + hbh + mld
    return v4 + b"\0" * max(0, 60 - len(v4)), v6


def port_unreachable(req):
    """ICMP port unreachable from TARGET for an Ethernet/IPv4/UDP frame:
    the IP header and 8 bytes of what it quotes, as a host answers."""
    ihl = (req[14] & 15) * 4
    icmp = bytearray(struct.pack("!BBHI", 3, 3, 0, 0) + req[14:14 + ihl + 8])
    icmp[2:4] = struct.pack("!H", csum(bytes(icmp)))
    hdr = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(icmp), 0, 0, 64, 1, 0,
                                bytes(TARGET_IP), bytes(req[26:30])))
    hdr[10:12] = struct.pack("!H", csum(bytes(hdr)))
    return req[6:12] + TARGET_MAC + b"\x08\x00" + bytes(hdr) + bytes(icmp)


def echo_reply(req):
    """The reply to an Ethernet/IPv4/ICMP echo request frame."""
    ihl = (req[14] & 15) * 4
    ip, icmp = req[14:14 + ihl], bytearray(req[14 + ihl:])
    icmp[0] = 0
    icmp[2:4] = b"\0\0"
    icmp[2:4] = struct.pack("!H", csum(bytes(icmp)))
    hdr = bytearray(ip[:20])
    hdr[8] = 64
    hdr[12:16], hdr[16:20] = ip[16:20], ip[12:16]
    hdr[10:12] = b"\0\0"
    hdr[10:12] = struct.pack("!H", csum(bytes(hdr)))
    return req[6:12] + TARGET_MAC + b"\x08\x00" + bytes(hdr) + bytes(icmp)


class Vtep:
    def __init__(self, a):
        self.model = a.model
        host, port = a.listen.rsplit(":", 1)
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET,
                                  socket.SOCK_DGRAM)
        if ":" in host and a.model != "linux":
            self.sock.setsockopt(socket.IPPROTO_UDP, UDP_NO_CHECK6_RX, 1)
        self.sock.bind((host, int(port)))
        self.remotes = [(r.rsplit(":", 1)[0], int(r.rsplit(":", 1)[1])) for r in a.remote]
        self.fdb = {}        # inner MAC -> remote
        self.static = set()  # pinned MACs
        for st in a.static or []:
            mac, rem = st.split("@")
            self.fdb[bytes.fromhex(mac.replace(":", ""))] = (rem.rsplit(":", 1)[0], int(rem.rsplit(":", 1)[1]))
            self.static.add(bytes.fromhex(mac.replace(":", "")))
        self.neigh = {}      # IP -> MAC
        self.pending = {}    # IP -> [(request frame, reply header)]
        self.reported = False

    def send(self, dmac, flags, group, vni, frame):
        hdr = struct.pack("!HHI", flags, group, vni << 8)
        for r in ([self.fdb[dmac]] if dmac in self.fdb else self.remotes):
            self.sock.sendto(hdr + frame, r)

    def forward(self, flags, group, vni, inner, src):
        """To every remote but the one it came from, the header as it
        came (lax: A cleared)."""
        if self.model == "lax":
            flags &= ~F_A
        hdr = struct.pack("!HHI", flags, group, vni << 8)
        for r in self.remotes:
            if r != src:
                self.sock.sendto(hdr + inner, r)

    def accept(self, flags, group, rsvd, size):
        if self.model == "lax":
            return not (flags & F_G and group == 0) and size <= 1400
        if not flags & F_I:
            return False
        if self.model == "linux":
            return not (flags & 0x7700) and rsvd == 0
        return self.model in ("rfc", "remap")

    def rx(self, data, src):
        if len(data) < 8 + 14:
            return
        flags, group, w = struct.unpack("!HHI", data[:8])
        vni, rsvd, inner = w >> 8, w & 0xff, data[8:]
        if not self.accept(flags, group, rsvd, len(data)):
            return
        g = flags & F_G
        rfc = self.model in ("rfc", "remap", "lax")
        smac = inner[6:12]
        if smac in self.static and self.fdb[smac] != src:
            if self.model == "linux":
                return
            if self.model == "lax":
                self.fdb[smac] = src
        elif not (rfc and g and flags & F_D):
            self.fdb[smac] = src
        # reply header: the group reflected (Linux: the mark, and mark 0
        # gets no G); A set by a policy-applying VTEP
        if self.model == "linux" and group == 0:
            g = 0
        rflags = F_I | (g and (F_G | (flags & F_A) | (F_A if rfc else 0)))
        rgroup = (group + (self.model == "remap")) & 0xffff if g else 0
        etype = inner[12:14]
        if inner[0:6] not in (TARGET_MAC, BCAST):
            self.forward(flags, group, vni, inner, src)
        elif etype == b"\x08\x06" and len(inner) >= 42:
            op = struct.unpack("!H", inner[20:22])[0]
            sha, spa, tpa = inner[22:28], inner[28:32], inner[38:42]
            self.neigh[spa] = sha
            if op == 1 and tpa == TARGET_IP:
                self.send(sha, rflags, rgroup, vni, arp(2, TARGET_MAC, TARGET_IP, sha, spa))
            for req, fl, gr in self.pending.pop(spa, []):
                self.send(sha, fl, gr, vni, (echo_reply if req[23] == 1 else port_unreachable)(req))
        elif etype == b"\x08\x00" and inner[30:34] == TARGET_IP and inner[23] in (1, 17):
            ihl = (inner[14] & 15) * 4
            if inner[23] == 1 and inner[14 + ihl] != 8:
                return
            sip = inner[26:30]
            answer = echo_reply if inner[23] == 1 else port_unreachable
            if not self.reported:  # "joins a group": reports to every remote
                self.reported = True
                for r in reports():
                    self.send(BCAST, F_I | (F_G if self.model == "linux" else 0),
                              148 if self.model == "linux" else 0, vni, r)
            if sip in self.neigh:
                self.send(self.neigh[sip], rflags, rgroup, vni, answer(inner))
            else:  # resolve first, like a kernel would: ARP request, flooded
                self.pending.setdefault(sip, []).append((inner, rflags, rgroup))
                self.send(BCAST, F_I, 0, vni, arp(1, TARGET_MAC, TARGET_IP, None, sip))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--listen", required=True)
    ap.add_argument("--remote", action="append", required=True)
    ap.add_argument("--model", choices=["linux", "rfc", "remap", "lax", "deaf"], required=True)
    ap.add_argument("--static", action="append", help="MAC@ADDR:PORT, a pinned FDB entry")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--ready", help="file to create once listening")
    a = ap.parse_args()
    v = Vtep(a)
    if a.ready:
        open(a.ready, "w").close()
    end = time.monotonic() + a.seconds
    while time.monotonic() < end:
        r, _, _ = select.select([v.sock], [], [], max(0.0, end - time.monotonic()))
        if r:
            data, src = v.sock.recvfrom(4096)
            src = src[:2]  # IPv6: (host, port, flowinfo, scope) as the remotes' (host, port)
            if a.model != "deaf":
                v.rx(data, src)


main()
