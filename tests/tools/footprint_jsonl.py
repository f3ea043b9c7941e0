#!/usr/bin/env python3
"""Write a lean JSONL trace: a start record, N samples with only a
footprint (at 10 ms; no randomness: every run writes the same file), the
end record.  Used where
the number of samples matters, not their lanes: the pipe cap of plot and
report (tests/e2e/plot_stream.sh, tests/e2e/report_stream.sh).

usage: footprint_jsonl.py PATH N"""
import sys

path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write('{"type":"start","stagetop":"0.4.0","utc":"2026-01-01T00:00:00+00:00","interval":0.01}\n')
    f.writelines('{"type":"sample","t":%d.%02d,"footprint":%d}\n' % (i // 100, i % 100, 2**30 + (i * 7919) % 2**28)
                 for i in range(n))
    f.write('{"type":"end"}\n')
