"""The peer: one sample of a process tree through psutil, the way psrecord
and glances-style monitors take it: Process.children(recursive=True) to
find the tree (psutil builds a ppid map from every /proc/PID/stat of the
machine), memory_info() of each process (/proc/PID/statm: rss, no anon or
swap split, so cheaper than what stagetop reads), virtual_memory() and
swap_memory() for the system.  memory_full_info() (smaps) is not used: it
costs milliseconds per GiB and would make the comparison unfair.

usage: python3 sampling_psutil.py PID  ->  "psutil <microseconds> <members>"
(median of 5 rounds of at least 0.25 s of process CPU time each)."""
import sys
import time

import psutil

ROUNDS, ROUND_S = 5, 0.25


def sample(root):
    procs = [root] + root.children(recursive=True)
    n = 0
    for p in procs:
        try:
            p.memory_info()
            n += 1
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    psutil.virtual_memory()
    psutil.swap_memory()
    return n


def main():
    root = psutil.Process(int(sys.argv[1]))
    for _ in range(5):
        members = sample(root)
    per = []
    for _ in range(ROUNDS):
        t0 = time.process_time()
        n = 0
        while True:
            members = sample(root)
            n += 1
            t = time.process_time()
            if t - t0 >= ROUND_S:
                break
        per.append((t - t0) / n)
    per.sort()
    print("psutil %.1f %d" % (per[ROUNDS // 2] * 1e6, members))


if __name__ == "__main__":
    main()
