# SPDX-License-Identifier: BSD-2-Clause
"""progress.py GBPDUMP GBPGEN WORKDIR - gbpdump's progress line (issue 14).

gbpdump runs with standard error on a pseudo-terminal (and standard output
on a file, or on the same terminal), GBPDUMP_PROGRESS_INTERVAL_MS=0 so that
it redraws at every look at the clock (every 1024 frames) on a small
capture.  Checked: the line appears on the terminal (\\r, the file, the
position of the total, frames, rates), it is erased at the end (\\r ESC [K)
before anything else is written there (the summary, an error line), it
names the compression and counts compressed bytes for a compressed file,
it never appears with -q, with standard error a file or a pipe, nor with
frames printed on the terminal, and the output is the same as without it.
"""
import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

GD, GEN, WORK = sys.argv[1:4]
ERASE = b"\r\x1b[K"
FAILS = []


def run_pty(args, stdout_tty=False, stdin=None, env_extra=None, cols=200):
    """Run GD args with stderr (and stdout if stdout_tty) on a pty of cols
    columns.  Returns (exit status, bytes the terminal got, bytes of stdout
    when a file)."""
    out_path = os.path.join(WORK, "stdout")
    env = dict(os.environ, GBPDUMP_PROGRESS_INTERVAL_MS="0")
    env.update(env_extra or {})
    in_fd = os.open(stdin or os.devnull, os.O_RDONLY)
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(2, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
        os.dup2(in_fd, 0)
        if not stdout_tty:
            out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, 1)
        os.execve(GD, [GD] + args, env)
    os.close(in_fd)
    tty = b""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        tty += data
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    out = b""
    if not stdout_tty:
        with open(out_path, "rb") as f:
            out = f.read()
    return os.waitstatus_to_exitcode(status), tty, out


def plain(args, stdin=None):
    """GD args with stdout and stderr on pipes: (status, stdout, stderr)."""
    env = dict(os.environ, GBPDUMP_PROGRESS_INTERVAL_MS="0")
    with open(stdin or os.devnull, "rb") as f:
        p = subprocess.run([GD] + args, stdin=f, capture_output=True, env=env)
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": " + detail))
    if not cond:
        FAILS.append(name)


LINE = re.compile(rb"\rgbpdump: ([^:]+): [0-9.]+(/[0-9.]+)? MB( (gzip|zstd|xz))?( [0-9]+%)?, "
                  rb"[0-9]+ frames, [0-9.]+[kM]? frames/s, [0-9.]+ MB/s(, [0-9:]+ left)?\x1b\[K")


def progress_lines(tty):
    return LINE.findall(tty)


def main():
    os.makedirs(WORK, exist_ok=True)
    cap = os.path.join(WORK, "cap.pcap")
    subprocess.run([GEN, "-w", cap, "--force",
                    "count=6000 flows=100 vni=100 gbp=512 proto=udp payload=300 step=1000"],
                   check=True)
    with open(cap, "rb") as f:
        data = f.read()
    cut = os.path.join(WORK, "cut.pcap")
    with open(cut, "wb") as f:
        f.write(data[: len(data) * 3 // 4 + 7])
    gz = cap + ".gz"
    with open(gz, "wb") as f:
        subprocess.run(["gzip", "-c", cap], stdout=f, check=True)

    ref = {m: plain(["-r", cap] + m.split()) for m in ("--stats", "--check", "-tt")}

    # --stats, stdout a file: lines, erased at the end, same summary
    rc, tty, out = run_pty(["-r", cap, "--stats"])
    lines = progress_lines(tty)
    check("--stats: progress lines on the terminal", len(lines) >= 3 and
          all(l[0] == cap.encode() for l in lines), repr(tty[:300]))
    check("--stats: percentage and time left of a file", b"%" in tty and b" left" in tty,
          repr(tty[:300]))
    check("--stats: erased at the end", tty.endswith(ERASE), repr(tty[-80:]))
    check("--stats: same output and status", (rc, out) == ref["--stats"][:2])

    # --check, summary on the same terminal: erased before it
    rc, tty, _ = run_pty(["-r", cap, "--check"], stdout_tty=True)
    last = tty.rfind(ERASE)
    summary = ref["--check"][1].replace(b"\n", b"\r\n")
    check("--check on the terminal: progress, then erased, then the report",
          len(progress_lines(tty)) >= 3 and last >= 0 and tty[last + len(ERASE):] == summary,
          repr(tty[-300:]))
    check("--check on the terminal: status", rc == ref["--check"][0])

    # text to a file (stdout not a terminal): shown; to the terminal: never
    rc, tty, out = run_pty(["-r", cap, "-tt"])
    check("-tt to a file: progress shown", len(progress_lines(tty)) >= 3, repr(tty[:200]))
    check("-tt to a file: same output", (rc, out) == ref["-tt"][:2])
    rc, tty, _ = run_pty(["-r", cap, "-tt"], stdout_tty=True)
    check("-tt on the terminal: no progress", b"frames/s" not in tty and rc == 0,
          repr(tty[:200]))

    # -w: shown, erased, the file written as without it
    wout = os.path.join(WORK, "w.pcap")
    rc, tty, _ = run_pty(["-r", gz, "-w", wout, "--force"])
    with open(wout, "rb") as f:
        check("-w: progress shown and erased, the capture written",
              rc == 0 and len(progress_lines(tty)) >= 3 and tty.endswith(ERASE) and
              f.read() == data, repr(tty[:200]))

    # compressed: the compressed file's bytes and the format
    rc, tty, out = run_pty(["-r", gz, "--stats"])
    lines = progress_lines(tty)
    size = os.path.getsize(gz) / 1e6
    check("gzip: progress names gzip, total = compressed size",
          len(lines) >= 3 and all(l[3] == b"gzip" for l in lines) and
          all(l[1] == b"/%.1f" % size for l in lines), repr(tty[:300]))
    check("gzip: erased, same output", tty.endswith(ERASE) and (rc, out) == ref["--stats"][:2])

    # standard input from a pipe: no total, still progress
    with open(gz, "rb") as f:
        p = subprocess.Popen(["cat"], stdin=f, stdout=subprocess.PIPE)
        fifo_in = "/dev/fd/%d" % p.stdout.fileno()
        rc, tty, out = run_pty(["-r", "-", "--stats"], stdin=fifo_in)
        p.wait()
    lines = progress_lines(tty)
    check("pipe: progress without total", len(lines) >= 3 and
          all(l[0] == b"(stdin)" and l[1] == b"" for l in lines), repr(tty[:300]))
    check("pipe: same output", (rc, out) == ref["--stats"][:2])

    # an error: the line is erased, then the error line from column 0
    rc, tty, out = run_pty(["-r", cut, "--stats"])
    m = re.search(rb"\r\x1b\[Kgbpdump: " + re.escape(cut.encode()) + rb": frame [0-9]+ at offset",
                  tty)
    check("truncated: progress erased before the error line", rc == 1 and m is not None and
          len(progress_lines(tty[:m.start()])) >= 2, repr(tty[-300:]))

    # -q, --quiet: nothing
    for q in ("-q", "--quiet"):
        rc, tty, out = run_pty(["-r", cap, "--stats", q])
        check(q + ": no progress", tty == b"" and (rc, out) == ref["--stats"][:2], repr(tty[:200]))

    # standard error a file or a pipe: never
    rc, sout, serr = plain(["-r", cap, "--stats"])
    check("stderr a pipe: no progress", serr == b"" and rc == 0, repr(serr[:200]))
    err_path = os.path.join(WORK, "stderr")
    with open(err_path, "wb") as e:
        rc = subprocess.run([GD, "-r", gz, "--check"], stdout=subprocess.DEVNULL, stderr=e,
                            env=dict(os.environ, GBPDUMP_PROGRESS_INTERVAL_MS="0")).returncode
    check("stderr a file: no progress", os.path.getsize(err_path) == 0 and rc == 0)

    # a narrow terminal: the line is cut to fit (no wrap, or \r would not
    # go back to its start)
    rc, tty, out = run_pty(["-r", cap, "--stats"], cols=40)
    draws = [d for d in tty.split(b"\r") if d and d != b"\x1b[K"]
    check("40 columns: lines cut to 39", len(draws) >= 3 and
          all(len(d) == 39 + 3 and d.endswith(b"\x1b[K") for d in draws), repr(tty[:200]))

    # the default interval: a short read draws nothing
    rc, tty, out = run_pty(["-r", cap, "--stats"], env_extra={"GBPDUMP_PROGRESS_INTERVAL_MS": ""})
    check("default interval: nothing for a read shorter than 250 ms", tty == b"",
          repr(tty[:200]))

    print("progress.py: %d failure(s)" % len(FAILS))
    return 1 if FAILS else 0


sys.exit(main())
