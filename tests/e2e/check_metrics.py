#!/usr/bin/env python3
"""Read stagetop's --metrics file independently of stagetop (a small parser of
the Prometheus text format), for tests/e2e/metrics.sh and tui_outputs.sh.

usage:
  check_metrics.py read FILE [--state S] [--min-footprint BYTES] [--procs N]
      one complete reading (every family present, a final newline)
  check_metrics.py loop FILE STOPFILE OUT
      read FILE over and over until STOPFILE exists; every read must be
      complete; OUT gets "reads N distinct M"
  check_metrics.py match FILE RECORD.jsonl
      the file against the record's last sample, end summary and start record
"""
import json
import os
import sys

ALWAYS = ["stagetop_tree_footprint_bytes", "stagetop_tree_rss_bytes",
          "stagetop_tree_processes", "stagetop_job_state",
          "stagetop_last_sample_timestamp_seconds"]
STATES = ("running", "paused", "exited")


def unescape_labels(s, i):
    """Parse {k="v",...} from s[i] == '{'; returns (dict, index after '}')."""
    assert s[i] == "{", s[i:i + 20]
    i += 1
    labels = {}
    while s[i] != "}":
        eq = s.index("=", i)
        key = s[i:eq]
        assert key.replace("_", "a").isalnum(), f"bad label name {key!r}"
        assert s[eq + 1] == '"', s[eq:eq + 10]
        j, val = eq + 2, []
        while s[j] != '"':
            if s[j] == "\\":
                nxt = s[j + 1]
                assert nxt in '\\"n', f"bad escape \\{nxt}"
                val.append("\n" if nxt == "n" else nxt)
                j += 2
            else:
                assert s[j] != "\n", "raw newline in a label value"
                val.append(s[j])
                j += 1
        labels[key] = "".join(val)
        i = j + 1
        if s[i] == ",":
            i += 1
    return labels, i + 1


def parse(text):
    """{name: [(labels, value)]}, and the TYPE of each name; raises on anything odd."""
    if not text.endswith("\n"):
        raise ValueError("no final newline (a partial file)")
    fams, types, helps = {}, {}, set()
    for line in text[:-1].split("\n"):
        if line.startswith("# HELP "):
            helps.add(line.split(" ")[2])
        elif line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ")
            types[name] = typ
        elif line.startswith("#") or not line:
            raise ValueError(f"unexpected line {line!r}")
        else:
            brace = line.index("{")
            name = line[:brace]
            labels, end = unescape_labels(line, brace)
            assert line[end] == " ", line
            value = float(line[end + 1:])
            assert name in types and name in helps, f"{name} without HELP/TYPE"
            fams.setdefault(name, []).append((labels, value))
    return fams, types


def one(fams, name):
    rows = fams[name]
    assert len(rows) == 1, (name, rows)
    return rows[0]


def reading(path):
    with open(path, encoding="utf-8") as f:  # not UTF-8: an error too
        text = f.read()
    fams, types = parse(text)
    for n in ALWAYS:
        if n not in fams:
            raise ValueError(f"{n} missing")
    for n, t in types.items():  # gauges, and counters named *_total (Prometheus naming)
        assert n.startswith("stagetop_") and (t == "gauge" or (t == "counter" and n.endswith("_total"))), (n, t)
    states = {l["state"]: v for l, v in fams["stagetop_job_state"]}
    assert sorted(states) == sorted(STATES) and sum(states.values()) == 1, states
    return fams


def state_of(fams):
    return [l["state"] for l, v in fams["stagetop_job_state"] if v == 1][0]


def cmd_read(args):
    fams = reading(args[0])
    opts = dict(zip(args[1::2], args[2::2]))
    if "--state" in opts:
        assert state_of(fams) == opts["--state"], state_of(fams)
    if "--min-footprint" in opts:
        fp = one(fams, "stagetop_tree_footprint_bytes")[1]
        assert fp >= int(opts["--min-footprint"]), f"footprint {fp} < {opts['--min-footprint']}"
    if "--procs" in opts:
        n = one(fams, "stagetop_tree_processes")[1]
        assert n == int(opts["--procs"]), f"procs {n}"


def cmd_loop(path, stop, out):
    reads, stamps = 0, set()
    while not os.path.exists(stop):
        try:
            fams = reading(path)
        except FileNotFoundError:
            continue
        reads += 1
        stamps.add(one(fams, "stagetop_last_sample_timestamp_seconds")[1])
    with open(out, "w") as f:
        f.write(f"reads {reads} distinct {len(stamps)}\n")


def escaped_cut(cmd, n=120):
    """What the label should hold, computed here: controls as '?', cut at n code points."""
    out = []
    for ch in cmd[:n]:
        o = ord(ch)
        out.append(ch if ch == "\n" or not (o < 0x20 or o == 0x7F or 0x80 <= o <= 0x9F) else "?")
    return "".join(out) + ("..." if len(cmd) > n else "")


def cmd_match(path, record):
    fams = reading(path)
    recs = [json.loads(l) for l in open(record, encoding="utf-8") if l.strip()]
    start = recs[0]
    samples = [r for r in recs if r.get("type") == "sample"]
    end = [r for r in recs if r.get("type") == "end"]
    last, first = samples[-1], samples[0]
    labels, fp = one(fams, "stagetop_tree_footprint_bytes")
    assert labels["pid"] == str(start["pid"]), (labels, start["pid"])
    assert labels["command"] == escaped_cut(start["command"]), (labels["command"], start["command"])
    want = {"stagetop_tree_footprint_bytes": last["footprint"],
            "stagetop_tree_rss_bytes": last["rss"],
            "stagetop_tree_processes": last["procs"]}
    if "swap_used" in last:
        want["stagetop_swap_used_bytes"] = last["swap_used"]
        want["stagetop_swap_growth_bytes"] = last["swap_used"] - first["swap_used"]
    if "level" in last:
        want["stagetop_memory_available_ratio"] = last["level"] / 100.0
    if "pressure" in last:
        want["stagetop_memory_pressure"] = last["pressure"]
    if "gpu" in last:
        want["stagetop_tree_gpu_bytes"] = last["gpu"]
    if end and end[0]["summary"].get("kernel_peak") is not None:
        want["stagetop_tree_kernel_peak_bytes"] = end[0]["summary"]["kernel_peak"]
    for name, v in want.items():
        got = one(fams, name)[1]
        assert abs(got - v) <= 1e-9 * max(1.0, abs(v)), f"{name}: file {got}, record {v}"
        print(f"{name} = {got} (record {v})")
    assert state_of(fams) == "exited", state_of(fams)


def main(argv):
    what, args = argv[1], argv[2:]
    try:
        if what == "read":
            cmd_read(args)
        elif what == "loop":
            cmd_loop(*args)
        elif what == "match":
            cmd_match(*args)
        else:
            sys.exit(__doc__)
    except (AssertionError, ValueError, KeyError, IndexError) as e:
        sys.exit(f"{what}: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main(sys.argv)
