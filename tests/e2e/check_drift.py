#!/usr/bin/env python3
"""Samples of an exported trace sit on their deadlines k * interval: each
sample's k = floor(t / interval) is distinct and increasing, the samples plus
the dropped ones account for every deadline, and the run's length matches.

usage: check_drift.py TRACE.json INTERVAL SECONDS
"""
import json
import sys

path, interval, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
doc = json.load(open(path))
samples = doc["samples"]
step_ms = round(interval * 1000)
ks = [round(s["t"] * 1000) // step_ms for s in samples]
for a, b in zip(ks, ks[1:]):
    if b <= a:
        sys.exit(f"deadline {b} sampled after {a}: not increasing")
n, dropped = len(samples), doc["dropped_samples"]
if ks[0] != 0:
    sys.exit(f"first sample is for deadline {ks[0]}, not 0")
if ks[-1] + 1 != n + dropped:
    sys.exit(f"{n} samples + {dropped} dropped != {ks[-1] + 1} deadlines")
expect = seconds / interval
if abs((ks[-1] + 1) - expect) > 0.03 * expect:
    sys.exit(f"{ks[-1] + 1} deadlines in a {seconds}s run, expected about {expect:.0f}")
if dropped > 0.2 * (n + dropped):
    sys.exit(f"{dropped} of {n + dropped} deadlines dropped")
print(f"{n} samples, {dropped} dropped, last t {samples[-1]['t']}s")
