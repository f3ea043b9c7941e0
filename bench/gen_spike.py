#!/usr/bin/env python3
"""Write a stagetop JSONL record for the plot and report benches: a start
record, N samples at a 10 ms interval (footprint, swap used, level), a
stage event every 100,000 samples and one 7 GiB footprint spike at sample
612,345 (the peak a chart must keep), the end record.  Values come from
SEED: the same arguments write the same file.  With the word `stageload`
after SEED the start record has no "stagetop" key, as stageload writes it
(bench/plot.sh); bench/report.sh writes stagetop's.

usage: gen_spike.py PATH N SEED [stageload]"""
import random
import sys

path, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
stageload = len(sys.argv) > 4 and sys.argv[4] == "stageload"
random.seed(seed)
with open(path, "w") as f:
    f.write('{"type":"start",%s"utc":"2026-01-01T00:00:00+00:00","interval":0.01,"pipeline":"bench"}\n'
            % ('' if stageload else '"stagetop":"0.4.0",'))
    for i in range(n):
        if i % 100000 == 0:
            f.write('{"type":"event","kind":"stage","stage":"s%d","t":%.3f}\n' % (i // 100000, i * 0.01))
        fp = 2**30 + random.randrange(2**28) + (7 * 2**30 if i == 612345 else 0)
        f.write('{"type":"sample","t":%.3f,"footprint":%d,"swap_used":%d,"level":%d}\n'
                % (i * 0.01, fp, 2**30 + i * 1000, 50 + (i // 10000) % 40))
    f.write('{"type":"end"}\n')
