#!/usr/bin/env python3
"""Write a large stagetop JSONL record: a start record, N samples (default
1,000,000) at a 10 ms interval with most lanes, a stage event every
N / STAGES samples (default 40 stages, 12 distinct names, so stages
repeat), a load, a mark and a release in each stage, some of them at the
same millisecond as a sample, the exit event and the end record.  Values
come from a fixed SEED (default 1): the same arguments write the same file;
two seeds give two runs to compare.  Used by bench/fold.sh,
tests/e2e/diff_summary_fold.sh and tests/tools/fold_compare.sh.

usage: gen_record.py PATH [N] [STAGES] [SEED]"""
import random
import sys

path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
stages = max(1, int(sys.argv[3])) if len(sys.argv) > 3 else 40
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
r = random.Random(seed)
every = max(1, n // stages)
names = ["load", "encode", "denoise", "decode", "vae", "save",
         "warmup", "step", "eval", "ckpt", "io", "tail"]
out = []
w = out.append
with open(path, "w") as f:
    f.write('{"type":"start","stagetop":"0.4.0","platform":"linux","pid":4242,'
            '"command":"python3 gen.py","interval":0.01,"mem_total":25276071936,'
            '"swap_total":8589934592,"footprint_metric":"pss_anon+pss_shmem+swap_pss"}\n')
    swap = 1 << 28
    for i in range(n):
        ms = i * 10
        if i % every == 0:
            k = i // every
            w('{"type":"event","kind":"stage","stage":"%s","t":%d.%03d}\n'
              % (names[(k * 7 + seed) % len(names)], ms // 1000, ms % 1000))
        elif i % every == every // 3:
            w('{"type":"event","kind":"load","name":"m%d","nbytes":%d,"seconds":%d.%03d,"t":%d.%03d}\n'
              % (i % 97, r.randrange(1 << 20, 1 << 33), r.randrange(9), r.randrange(1000),
                 ms // 1000, ms % 1000))
        elif i % every == every // 2:
            w('{"type":"event","kind":"mark","name":"half","t":%d.%03d}\n'
              % ((ms + 3) // 1000, (ms + 3) % 1000))
        elif i % every == (2 * every) // 3:
            w('{"type":"event","kind":"release","name":"m%d","nbytes":%d,"t":%d.%03d}\n'
              % (i % 89, r.randrange(1 << 20, 1 << 32), ms // 1000, ms % 1000))
        k = i // every  # each stage its own range of footprints and levels
        fp = (1 << 30) * (1 + (k * 5 + seed) % 11) + r.randrange(1 << 31)
        swap = max(0, swap + r.randrange(-1 << 20, 1 << 20))
        w('{"type":"sample","t":%d.%03d,"footprint":%d,"rss":%d,"swap_used":%d,"level":%d.%d,'
          '"procs":%d,"cpu":%d.%02d,"pageins":%d,"tree_swap":%d,"limit_free":%d}\n'
          % (ms // 1000, ms % 1000, fp, fp // 2 + r.randrange(1 << 20), swap,
             (k * 3 + seed) % 40 + r.randrange(60), r.randrange(10), 1 + i % 5, r.randrange(16), r.randrange(100),
             r.randrange(4000), swap // 2, (1 << 35) - fp))
        if len(out) >= 4096:
            f.write("".join(out))
            del out[:]
    ms = n * 10
    w('{"type":"event","kind":"exit","t":%d.%03d,"value":0}\n' % (ms // 1000, ms % 1000))
    w('{"type":"end","dropped_samples":0}\n')
    f.write("".join(out))
