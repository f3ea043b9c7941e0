#!/usr/bin/env python3
"""Write a large JSONL trace: a start record, N samples (default 1,000,000;
random values from a fixed seed, so every run writes the same file) at a
0.5 s interval, the end record.  Used where stagetop must read a big file
in bounded memory (tests/faults/hostile_files.test.sh, bench/durability.sh).

usage: big_jsonl.py PATH [N]"""
import random
import sys

path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
r = random.Random(14)
with open(path, "w") as f:
    f.write('{"type":"start","stagetop":"0.1.0","platform":"linux","pid":7,"interval":0.5}\n')
    for i in range(n):
        fp = r.randrange(1 << 30, 1 << 34)
        f.write('{"type":"sample","t":%d.%03d,"footprint":%d,"rss":%d,"swap_used":%d,"level":%d.%02d,"procs":%d}\n'
                % (i // 2, 500 * (i % 2), fp, fp // 2, r.randrange(1 << 30), r.randrange(100), r.randrange(100), 1 + i % 5))
    f.write('{"type":"end"}\n')
