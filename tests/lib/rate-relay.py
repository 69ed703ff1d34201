#!/usr/bin/env python3
"""rate-relay.py RATE CMD...: runs CMD on a terminal of its own and copies
what it writes to this terminal at RATE bytes a second, as a slow serial or
SSH link whose sshd reads eagerly: the program never blocks on a full
terminal, the bytes queue here.  Keys go through at once; the window size
is passed on once, at the start.  Exits with CMD's status."""
import fcntl
import os
import select
import subprocess
import sys
import termios
import time
import tty


def main():
    rate = float(sys.argv[1])
    cmd = sys.argv[2:]
    master, slave = os.openpty()
    ws = fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, ws)

    def ctty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave,
                            preexec_fn=ctty, close_fds=True)
    os.close(slave)
    old = termios.tcgetattr(0)
    tty.setraw(0)
    queued = bytearray()
    start = time.monotonic()
    sent = 0.0          # the bytes the link has carried, as a budget
    open_ = True
    try:
        while open_ or queued:
            rd = [0] + ([master] if open_ else [])
            r, _, _ = select.select(rd, [], [], 0.02)
            if master in r:
                try:
                    d = os.read(master, 65536)
                except OSError:
                    d = b""
                if d:
                    queued += d
                else:
                    open_ = False
            if 0 in r:
                k = os.read(0, 1024)
                if k and open_:
                    os.write(master, k)
            now = time.monotonic()
            # An idle link does not bank more than a tenth of a second.
            sent = max(sent, rate * (now - start) - rate * 0.1)
            n = int(rate * (now - start) - sent)
            if n > 0 and queued:
                n = min(n, len(queued))
                os.write(1, bytes(queued[:n]))
                del queued[:n]
                sent += n
    finally:
        termios.tcsetattr(0, termios.TCSADRAIN, old)
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())
