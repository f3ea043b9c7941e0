#!/usr/bin/env python3
"""The tests' own reading of a tree's memory, from the kernel's files.

usage: pss_sum.py PID...

Prints "PSS STATUS" in bytes: PSS is Pss_Anon + Pss_Shmem + SwapPss of
each /proc/PID/smaps_rollup summed (-1 when a kernel's file has no
Pss_Anon or Pss_Shmem: before 5.8), STATUS is RssAnon + RssShmem + VmSwap
of each /proc/PID/status summed (a shared page counted per process).  The
reference that tests/e2e/share_tree.sh and doctor_share.sh hold stagetop
against: read here, never from stagetop's own code."""
import sys


def kb_fields(path):
    r = {}
    for line in open(path):
        k, _, v = line.partition(":")
        if v.strip().endswith("kB"):
            r[k] = int(v.split()[0]) * 1024
    return r


pss = status = 0
for pid in sys.argv[1:]:
    r = kb_fields(f"/proc/{pid}/smaps_rollup")
    if pss >= 0 and "Pss_Anon" in r and "Pss_Shmem" in r:
        pss += r["Pss_Anon"] + r["Pss_Shmem"] + r.get("SwapPss", 0)
    else:
        pss = -1
    s = kb_fields(f"/proc/{pid}/status")
    status += s.get("RssAnon", 0) + s.get("RssShmem", 0) + s.get("VmSwap", 0)
print(pss, status)
