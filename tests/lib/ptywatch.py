#!/usr/bin/env python3
"""ptywatch.py — run a terminal client (e.g. `ssh -tt ARENA watch`) on a
pseudo-terminal of a given size and measure what it receives, for the
arena's load bench (tests/bench/arena-load.sh).

    ptywatch.py [--seconds S] [--cols C] [--rows R] [--rate BPS]
                [--key K --expect TEXT --undo U --presses N --every SEC]
                [--warmup SEC] -- COMMAND [ARGS...]

Prints `name value` lines:
    bytes, seconds                      what arrived in all, in how long
                                        (SIGTERM ends the run early)
    bps_mean, bps_max                   bytes per whole second after the
                                        warm-up: their mean and the most
    exit                                the client's status if it ended
                                        before S seconds, else "running"
    latency_ms V...                     per key press: the time from the
                                        key to the first byte after it, or
                                        with --expect to the end of TEXT's
                                        first appearance after it; "none"
                                        where TEXT never came
    backlog_bytes, lag_s                with --rate: reading throttled to
                                        BPS (1200: a 9,600-baud line), what
                                        was still queued at the end (read at
                                        full speed until the stream pauses
                                        30 ms) and that over BPS, i.e. how
                                        many seconds behind the client fell
    head                                the first 300 bytes received, as
                                        printable text (for error messages)
"""
import argparse
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--cols", type=int, default=80)
    p.add_argument("--rows", type=int, default=24)
    p.add_argument("--rate", type=float, default=0.0, help="bytes/s read (0: as fast as they come)")
    p.add_argument("--key", default="", help="the key to press")
    p.add_argument("--expect", default="", help="text whose appearance shows the key's effect")
    p.add_argument("--undo", default="", help="a key pressed after each measure (closes what KEY opened)")
    p.add_argument("--presses", type=int, default=0)
    p.add_argument("--every", type=float, default=1.0, help="seconds between presses")
    p.add_argument("--warmup", type=float, default=2.0,
                   help="seconds before the first press and before bytes/s are counted")
    p.add_argument("--dump", default="", help="a file to keep every byte received in")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    if a.cmd and a.cmd[0] == "--":
        a.cmd = a.cmd[1:]
    if not a.cmd:
        p.error("no command to run")
    return a


def spawn(a):
    """The command on a new pty of COLS x ROWS; returns (pid, master fd)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", a.rows, a.cols, 0, 0))
            os.environ.setdefault("TERM", "xterm")
            os.execvp(a.cmd[0], a.cmd)
        finally:
            os._exit(127)
    return pid, fd


class Meter:
    """Bytes by whole second since the start, the first bytes, and the
    key presses with the times their effect showed."""

    def __init__(self, a):
        self.a = a
        self.t0 = time.monotonic()
        self.per_sec = {}
        self.total = 0
        self.head = b""
        self.pressed = None          # time of the press being measured
        self.after = b""             # what came since that press
        self.latencies = []
        self.presses = 0
        self.next_press = self.t0 + a.warmup
        self.dump = open(a.dump, "wb") if a.dump else None

    def got(self, data, now):
        s = int(now - self.t0)
        self.per_sec[s] = self.per_sec.get(s, 0) + len(data)
        self.total += len(data)
        if self.dump:
            self.dump.write(data)
        if len(self.head) < 300:
            self.head += data[:300 - len(self.head)]
        if self.pressed is not None:
            self.after += data
            want = self.a.expect.encode()
            if not want or want in self.after:
                self.latencies.append((now - self.pressed) * 1000.0)
                self.pressed = None
                return True          # measured: undo may follow
        return False

    def press_due(self, now):
        a = self.a
        if self.presses >= a.presses or not a.key or now < self.next_press:
            return False
        if self.pressed is not None:     # the last one never showed
            self.latencies.append(None)
            self.pressed = None
        return True


def write_all(fd, text):
    try:
        os.write(fd, text.encode())
    except OSError:
        pass


STOP = []


def on_term(signum, frame):
    """SIGTERM ends the measure early (the bench ends its watchers so):
    the figures are still printed."""
    STOP.append(signum)


def run(a, pid, fd):
    m = Meter(a)
    end = m.t0 + a.seconds
    status = None
    allowance, last = 0.0, m.t0
    while status is None:
        now = time.monotonic()
        if now >= end or STOP:
            break
        if m.press_due(now):
            write_all(fd, a.key)
            m.pressed, m.after = now, b""
            m.presses += 1
            m.next_press = now + a.every
        want = 65536
        if a.rate > 0:
            allowance = min(allowance + (now - last) * a.rate, a.rate)
            last = now
            want = int(allowance)
        timeout = min(0.05, max(0.0, end - now))
        if want <= 0:
            time.sleep(timeout)
            continue
        r, _, _ = select.select([fd], [], [], timeout)
        if r:
            try:
                data = os.read(fd, want)
            except OSError:          # EIO: the client closed its terminal
                data = b""
            if not data:
                status = wait_status(pid, block=True)
                break
            allowance -= len(data)
            if m.got(data, time.monotonic()) and a.undo:
                write_all(fd, a.undo)
    backlog = drain(fd) if a.rate > 0 and status is None else 0
    if m.pressed is not None:
        m.latencies.append(None)
    m.elapsed = time.monotonic() - m.t0
    return m, status, backlog


def drain(fd):
    """What is queued for a throttled client: read at full speed until the
    stream pauses 30 ms (the live stream's own pace resumes)."""
    n = 0
    while True:
        r, _, _ = select.select([fd], [], [], 0.03)
        if not r:
            return n
        try:
            data = os.read(fd, 65536)
        except OSError:
            return n
        if not data:
            return n
        n += len(data)


def wait_status(pid, block):
    try:
        got, st = os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        return 255
    if got == 0:
        return None
    return os.waitstatus_to_exitcode(st)


def stop(pid):
    for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        for _ in range(20):
            if wait_status(pid, block=False) is not None:
                return
            time.sleep(0.05)


def report(a, m, status, backlog):
    # the seconds after the warm-up (connecting, the first full screen)
    last = int(min(a.seconds, m.elapsed)) or 1
    first = min(int(a.warmup), last - 1)
    counts = [m.per_sec.get(s, 0) for s in range(first, last)]
    print("bytes", m.total)
    print("seconds", "%.1f" % m.elapsed)
    print("bps_mean", "%.0f" % (sum(counts) / len(counts)))
    print("bps_max", max(counts))
    print("exit", "running" if status is None else status)
    if a.presses:
        print("latency_ms", " ".join("none" if v is None else "%.1f" % v for v in m.latencies))
    if a.rate > 0:
        print("backlog_bytes", backlog)
        print("lag_s", "%.2f" % (backlog / a.rate))
    head = m.head.decode("utf-8", "replace")
    print("head", "".join(c if c.isprintable() else " " for c in head))


def main():
    a = parse()
    signal.signal(signal.SIGTERM, on_term)
    pid, fd = spawn(a)
    m, status, backlog = run(a, pid, fd)
    if status is None:
        stop(pid)
    report(a, m, status, backlog)
    return 0


if __name__ == "__main__":
    sys.exit(main())
