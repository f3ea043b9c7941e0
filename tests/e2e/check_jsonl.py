#!/usr/bin/env python3
"""Validate a stagetop JSONL record stream, independently of stagetop's reader.

usage: check_jsonl.py FILE [--end|--no-end] [--min-samples N] [--event KIND]... [--min-procs N]
"""
import json
import sys


def main(argv):
    path, args = argv[1], argv[2:]
    lines = open(path, "rb").read().split(b"\n")
    # A killed recorder may leave a whitespace-only tail (page padding);
    # anything else unterminated is a torn line.
    if lines and lines[-1].strip() == b"":
        lines.pop()
    else:
        sys.exit(f"{path}: last line is not terminated (a partial write)")
    # Padding up to a 4 KiB page boundary is a whitespace-only line of its
    # own; every record starts its line.
    lines = [raw for raw in lines if raw.strip()]
    bad = [raw for raw in lines if not raw.startswith(b"{")]
    if bad:
        sys.exit(f"{path}: a record does not start its line: {bad[0][:80]!r}")
    recs = []
    for i, raw in enumerate(lines, 1):
        try:
            recs.append(json.loads(raw))
        except ValueError as e:
            sys.exit(f"{path}:{i}: not JSON: {e}: {raw[:80]!r}")
    if not recs or recs[0].get("type") != "start":
        sys.exit(f"{path}: first record is not a start record")
    for k in ("platform", "pid", "interval", "footprint_metric"):
        if k not in recs[0]:
            sys.exit(f"{path}: start record lacks {k}")
    samples = [r for r in recs if r.get("type") == "sample"]
    events = [r for r in recs if r.get("type") == "event"]
    last_t = -1
    for s in samples:
        for k in ("t", "footprint", "rss", "procs"):
            if k not in s:
                sys.exit(f"{path}: sample lacks {k}: {s}")
        for k in ("footprint", "rss", "swap_used"):
            if k in s and (not isinstance(s[k], int) or s[k] < 0):
                sys.exit(f"{path}: {k} is not a non-negative integer: {s}")
        if s["t"] < last_t:
            sys.exit(f"{path}: samples go back in time at t={s['t']}")
        last_t = s["t"]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--end" and recs[-1].get("type") != "end":
            sys.exit(f"{path}: no end record")
        if a == "--no-end" and recs[-1].get("type") == "end":
            sys.exit(f"{path}: unexpected end record")
        if a == "--min-samples":
            i += 1
            if len(samples) < int(args[i]):
                sys.exit(f"{path}: {len(samples)} samples < {args[i]}")
        if a == "--event":
            i += 1
            if not any(e.get("kind") == args[i] for e in events):
                sys.exit(f"{path}: no {args[i]} event among {[e.get('kind') for e in events]}")
        if a == "--min-procs":
            i += 1
            if max((s["procs"] for s in samples), default=0) < int(args[i]):
                sys.exit(f"{path}: never {args[i]} processes")
        i += 1


main(sys.argv)
