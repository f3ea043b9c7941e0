#!/usr/bin/env python3
"""The output pasted into the documentation, regenerated and compared, so
the docs cannot rot (tests/e2e/diff_report_docs.sh).

A pasted block sits between two comments:

    <!-- output: stagetop report A.jsonl B.jsonl -->
    ... what the command prints (raw Markdown, or inside one ~~~~ or ``` fence) ...
    <!-- /output -->

The command is run in tests/fixtures/stageload with the built binary (its
first word "stagetop" replaced by STAGETOP); "-o NAME" writes into a
temporary folder and the block is compared with that file.

  check_docs_output.py STAGETOP ROOT FILE...          compare; exit 1 naming the block
  check_docs_output.py --update STAGETOP ROOT FILE... rewrite the blocks in place
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True

BLOCK = re.compile(r"(<!-- output: (.*?) -->\n)(.*?)(<!-- /output -->)", re.S)
FENCE = re.compile(r"\A(~~~~+|```+)([a-z]*)\n((?:.*\n)?)\1\n\Z", re.S)


def run(stagetop, root, cmd):
    argv = shlex.split(cmd)
    if argv[0] != "stagetop":
        raise SystemExit(f"pasted output of {cmd!r}: not a stagetop command")
    argv[0] = stagetop
    with tempfile.TemporaryDirectory() as tmp:
        out = None
        if "-o" in argv:
            i = argv.index("-o")
            out = os.path.join(tmp, os.path.basename(argv[i + 1]))
            argv[i + 1] = out
        p = subprocess.run(argv, cwd=os.path.join(root, "tests", "fixtures", "stageload"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise SystemExit(f"{cmd}: exit {p.returncode}: {p.stderr.decode()[:300]}")
        text = open(out, encoding="utf-8").read() if out else p.stdout.decode("utf-8")
    return text


def main(argv):
    update = argv[1] == "--update"
    if update:
        argv = argv[1:]
    stagetop, root, files = argv[1], argv[2], argv[3:]
    bad, n = 0, 0
    for path in files:
        src = open(path, encoding="utf-8").read()
        pieces, pos = [], 0
        for m in BLOCK.finditer(src):
            n += 1
            body = m.group(3)
            fence = FENCE.match(body)
            pasted = fence.group(3) if fence else body
            now = run(stagetop, root, m.group(2))
            # the pasted block may drop the trailing blank lines
            if pasted.rstrip("\n") != now.rstrip("\n"):
                bad += 1
                a, b = pasted.splitlines(), now.splitlines()
                k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
                print(f"{path}: the output of '{m.group(2)}' changed at its line {k + 1}:\n"
                      f"  pasted: {a[k] if k < len(a) else '(end)'!r}\n"
                      f"  now:    {b[k] if k < len(b) else '(end)'!r}")
            new = now.rstrip("\n") + "\n"
            if fence:
                new = f"{fence.group(1)}{fence.group(2)}\n{new}{fence.group(1)}\n"
            pieces.append(src[pos:m.start(3)] + new)
            pos = m.end(3)
        pieces.append(src[pos:])
        if update:
            open(path, "w", encoding="utf-8").write("".join(pieces))
    if not n:
        print("no pasted output found")
        return 1
    if bad and not update:
        return 1
    print(f"{n} pasted outputs {'rewritten' if update else 'match the binary'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
