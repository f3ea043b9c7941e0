#!/usr/bin/env python3
"""Check the soak's record and export against its script, computed here again.

usage: check_soak.py OUTDIR N HISTORY_S

OUTDIR/soak.jsonl must hold: the start record, then for every k in 0..N-1 the
sample of the script (tests/faults/soak.c says what it is): t = k * 10 ms,
footprint, rss, swap_used, level exactly, procs 4 or 5 as the fifth process
lives; a mark every 100,000 samples; the end record last.  OUTDIR/soak.json
(the export at the end) must hold exactly what a ring of HISTORY_S / 0.01 + 1
samples keeps: the last samples, the same values, dropped_samples = the
rest, every mark.  Prints one line of figures."""
import json
import sys

MIB = 1 << 20


def expected(k):
    fp = sum((i + 1) * MIB + ((k * 7919 + i * 104729) % 65536) * 4096 for i in range(4))
    return fp, fp + 4 * MIB, (k % 100) * 4096, (5000 + k % 3000) / 100


def check_sample(s, k, where):
    fp, rss, swap, level = expected(k)
    if round(s["t"] * 1000) != k * 10:
        sys.exit(f"{where}: sample {k} has t {s['t']}, not {k * 10 / 1000}")
    got = (s["footprint"], s["rss"], s["swap_used"], s["level"])
    if got != (fp, rss, swap, level):
        sys.exit(f"{where}: sample {k}: (footprint, rss, swap, level) {got} != {(fp, rss, swap, level)}")
    alive = (k // 500) % 2 == 1
    if s["procs"] != 4 and not (alive and s["procs"] == 5):
        sys.exit(f"{where}: sample {k}: procs {s['procs']} (the fifth process is {'alive' if alive else 'gone'})")
    return s["procs"] == 5


def main():
    out, n, history = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    k = 0
    marks = []
    seen5 = 0
    first = last = None
    with open(f"{out}/soak.jsonl", "rb") as f:
        head = json.loads(f.readline())
        if head.get("type") != "start" or head.get("interval") != 0.01:
            sys.exit(f"soak.jsonl: bad start record {head}")
        end = None
        for lineno, raw in enumerate(f, 2):
            if not raw.strip():
                continue  # padding up to a page boundary: a line of its own
            if end is not None:
                sys.exit(f"soak.jsonl:{lineno}: a record after the end record")
            r = json.loads(raw)
            t = r.get("type")
            if t == "sample":
                seen5 += check_sample(r, k, f"soak.jsonl:{lineno}")
                if first is None:
                    first = r["t"]
                last = r["t"]
                k += 1
            elif t == "event" and r.get("kind") == "mark":
                marks.append(r)
            elif t == "end":
                end = r
            else:
                sys.exit(f"soak.jsonl:{lineno}: unexpected record {r}")
    if k != n:
        sys.exit(f"soak.jsonl: {k} samples, not {n}")
    if end is None:
        sys.exit("soak.jsonl: no end record")
    want_marks = [(j + 1) * 100000 - 1 for j in range(n // 100000)]
    if [round(m["t"] * 100) for m in marks] != want_marks:
        sys.exit(f"soak.jsonl: marks at {[m['t'] for m in marks][:5]}..., expected k = {want_marks[:5]}...")
    # The fifth process lives in 500-sample phases; discovery every 0.5 s
    # (50 samples) may see it late, never early.
    phases = sum(1 for j in range(n) if (j // 500) % 2 == 1)
    if seen5 < phases * 0.85:
        sys.exit(f"soak.jsonl: the fifth process seen in {seen5} samples of {phases}")

    d = json.load(open(f"{out}/soak.json"))
    cap = int(history / 0.01 + 1.0)
    hold = min(n, cap)
    s = d["samples"]
    if len(s) != hold:
        sys.exit(f"soak.json: {len(s)} samples, the ring holds {hold}")
    for i, x in enumerate(s):
        check_sample(x, n - hold + i, "soak.json")
    if d["dropped_samples"] != n - hold:
        sys.exit(f"soak.json: dropped_samples {d['dropped_samples']} != {n - hold}")
    ev = [e for e in d["events"] if e["kind"] == "mark"]
    if len(ev) != len(want_marks):
        sys.exit(f"soak.json: {len(ev)} marks, not {len(want_marks)}")
    print(f"soak.jsonl: {k} samples t {first:.2f}..{last:.2f} s, every value as scripted, "
          f"{len(marks)} marks, end record; soak.json: the ring's {len(s)} samples "
          f"t {s[0]['t']:.2f}..{s[-1]['t']:.2f} s, dropped_samples {d['dropped_samples']}")


main()
