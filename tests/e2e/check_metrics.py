#!/usr/bin/env python3
"""Read stagetop's --metrics file independently of stagetop (a small parser of
the Prometheus text format), for tests/e2e/metrics.sh and tui_outputs.sh.

usage:
  check_metrics.py read FILE [--state S] [--min-footprint BYTES] [--procs N]
                   [--labels k=v,k=v] [--stage NAME] [--guard armed|tripped]
                   [--budget BYTES]
      one complete reading (the families every file has, a final newline,
      the labels where they belong: pid and command on stagetop_run_info
      only, the user's labels on every job series, none on the system's;
      once exited, no live reading)
  check_metrics.py loop FILE STOPFILE OUT [--save DIR] [--labels k=v,...]
      a scraper: read FILE over and over until STOPFILE exists, then once
      more; every read must be complete and valid, counters and the sample
      time never go back, the state never leaves "exited"; OUT gets
      "reads N distinct M states S"; --save keeps each distinct reading as
      DIR/NNNN.prom (at most 200) for promtool
  check_metrics.py match FILE RECORD.jsonl
      a final file against the record: the end summary's peaks, the swap
      growth, the samples counted, the start record's pid and command
  check_metrics.py cpu FILE TIMES
      a final file's stagetop_tree_cpu_seconds_total against the CPU the
      job's shell says (its `times`: its own and its reaped children's)
  check_metrics.py match-live FILE RECORD.jsonl
      a file written while the job ran against the record's sample of the
      same number (stagetop_samples_total)
"""
import json
import os
import sys

ALWAYS = ["stagetop_run_info", "stagetop_job_state", "stagetop_last_sample_timestamp_seconds",
          "stagetop_samples_total", "stagetop_dropped_samples_total"]
STATES = ("running", "paused", "exited")
LIVE = ("stagetop_tree_footprint_bytes", "stagetop_tree_rss_bytes", "stagetop_tree_gpu_bytes",
        "stagetop_tree_processes")
OWN = {"stagetop_job_state": {"state"}, "stagetop_guard_state": {"state"},
       "stagetop_stage_info": {"stage"}, "stagetop_tree_kernel_peak_info": {"source"},
       "stagetop_run_info": {"pid", "command", "version", "platform"}}


# Units Prometheus' naming guide replaces by base units (seconds, bytes,
# ratios): none may be part of a name.
NOT_BASE = {"milliseconds", "ms", "microseconds", "us", "nanoseconds", "ns", "minutes", "hours",
            "kb", "kib", "mb", "mib", "gb", "gib", "kilobytes", "megabytes", "percent", "pct",
            "bits", "pages"}


def is_name(k):
    return bool(k) and (k[0].isalpha() or k[0] == "_") and k.isascii() and \
        k.replace("_", "a").isalnum()


def unescape_labels(s, i):
    """Parse {k="v",...} from s[i] == '{'; returns (dict, index after '}')."""
    assert s[i] == "{", s[i:i + 20]
    i += 1
    labels = {}
    while s[i] != "}":
        eq = s.index("=", i)
        key = s[i:eq]
        assert is_name(key) and not key.startswith("__"), f"bad label name {key!r}"
        assert key not in labels, f"label {key} twice"
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
            name = line.split(" ")[2]
            assert name not in helps, f"HELP {name} twice"
            helps.add(name)
        elif line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ")
            assert name not in types, f"TYPE {name} twice"
            types[name] = typ
        elif line.startswith("#") or not line:
            raise ValueError(f"unexpected line {line!r}")
        else:
            if "{" in line:
                brace = line.index("{")
                name = line[:brace]
                labels, end = unescape_labels(line, brace)
            else:
                name, end, labels = line[:line.index(" ")], line.index(" "), {}
            assert line[end] == " ", line
            value = float(line[end + 1:])
            assert name in types and name in helps, f"{name} without HELP/TYPE"
            fams.setdefault(name, []).append((labels, value))
    return fams, types


def one(fams, name):
    rows = fams[name]
    assert len(rows) == 1, (name, rows)
    return rows[0]


def user_labels(spec):
    return dict(kv.split("=", 1) for kv in spec.split(",")) if spec else {}


def check_reading(fams, types, want_labels=None):
    """The rules every file keeps (docs/metrics-export.md)."""
    for n in ALWAYS:
        if n not in fams:
            raise ValueError(f"{n} missing")
    for n, t in types.items():
        assert n.startswith("stagetop_") and ":" not in n, n
        assert t in ("gauge", "counter"), (n, t)
        assert (t == "counter") == n.endswith("_total"), f"{n}: type {t} (counters end in _total)"
        words = n.split("_")
        bad = set(words) & NOT_BASE
        assert not bad, f"{n}: {bad} is not a base unit (seconds, bytes, ratio)"
    info = one(fams, "stagetop_run_info")
    assert info[1] == 1 and {"pid", "command", "version"} <= set(info[0]), info
    user = {k: v for k, v in info[0].items() if k not in OWN["stagetop_run_info"]}
    if want_labels is not None:
        assert user == want_labels, f"user labels {user}, want {want_labels}"
    for name, rows in fams.items():
        for labels, _ in rows:
            if name.startswith("stagetop_system_"):
                assert labels == {}, f"{name} has labels {labels} (a system series has none)"
            elif name != "stagetop_run_info":
                own = {k: v for k, v in labels.items() if k not in OWN.get(name, set())}
                assert own == user, f"{name}: labels {labels}, the job's are {user}"
    states = {l["state"]: v for l, v in fams["stagetop_job_state"]}
    assert sorted(states) == sorted(STATES) and sum(states.values()) == 1, states
    if state_of(fams) == "exited":
        live = [n for n in fams if n in LIVE or n.startswith("stagetop_system_")]
        assert not live, f"exited, yet live readings: {live}"
    for name in ("stagetop_stage_info", "stagetop_tree_kernel_peak_info"):
        if name in fams:
            assert len(fams[name]) == 1 and fams[name][0][1] == 1, fams[name]
    return user


def reading(path, want_labels=None):
    with open(path, encoding="utf-8") as f:  # not UTF-8: an error too
        text = f.read()
    fams, types = parse(text)
    check_reading(fams, types, want_labels)
    return fams, text


def state_of(fams):
    return [l["state"] for l, v in fams["stagetop_job_state"] if v == 1][0]


def cmd_read(args):
    opts = dict(zip(args[1::2], args[2::2]))
    want = user_labels(opts["--labels"]) if "--labels" in opts else None
    fams, _ = reading(args[0], want)
    if "--state" in opts:
        assert state_of(fams) == opts["--state"], state_of(fams)
    if "--min-footprint" in opts:
        fp = one(fams, "stagetop_tree_footprint_bytes")[1]
        assert fp >= int(opts["--min-footprint"]), f"footprint {fp} < {opts['--min-footprint']}"
    if "--procs" in opts:
        n = one(fams, "stagetop_tree_processes")[1]
        assert n == int(opts["--procs"]), f"procs {n}"
    if "--guard" in opts:
        on = [l["state"] for l, v in fams["stagetop_guard_state"] if v == 1]
        assert on == [opts["--guard"]], f"guard {on}"
    if "--budget" in opts:
        b = one(fams, "stagetop_guard_swap_budget_bytes")[1]
        assert b == int(opts["--budget"]), f"budget {b}"
    if "--stage" in opts:
        st = one(fams, "stagetop_stage_info")[0]["stage"]
        assert st == opts["--stage"], f"stage {st!r}"


def cmd_loop(path, stop, out, *rest):
    opts = dict(zip(rest[0::2], rest[1::2]))
    want = user_labels(opts["--labels"]) if "--labels" in opts else None
    save = opts.get("--save")
    reads, texts, seen_states = 0, set(), []
    prev = None
    last_round = False
    while True:
        if os.path.exists(stop):
            last_round = True
        try:
            fams, text = reading(path, want)
        except FileNotFoundError:
            if last_round:
                raise
            continue
        reads += 1
        now = {"samples": one(fams, "stagetop_samples_total")[1],
               "dropped": one(fams, "stagetop_dropped_samples_total")[1],
               "t": one(fams, "stagetop_last_sample_timestamp_seconds")[1],
               "state": state_of(fams)}
        for name in fams:  # every counter (a _total: check_reading), by its labels
            if name.endswith("_total"):
                for labels, v in fams[name]:
                    now[(name, tuple(sorted(labels.items())))] = v
        if prev:
            for k in now:
                if k != "state" and k in prev:
                    assert now[k] >= prev[k], f"{k} went back: {prev[k]} -> {now[k]}"
            assert prev["state"] != "exited" or now["state"] == "exited", "left exited"
        prev = now
        if not seen_states or seen_states[-1] != now["state"]:
            seen_states.append(now["state"])
        if text not in texts:
            texts.add(text)
            if save and len(texts) <= 200:
                with open(os.path.join(save, f"{len(texts):04d}.prom"), "w", encoding="utf-8") as f:
                    f.write(text)
        if last_round:
            break
    with open(out, "w") as f:
        f.write(f"reads {reads} distinct {len(texts)} states {'>'.join(seen_states)}\n")


def escaped_cut(cmd, n=120):
    """What the label should hold, computed here: controls as '?', cut at n code points."""
    out = []
    for ch in cmd[:n]:
        o = ord(ch)
        out.append(ch if ch == "\n" or not (o < 0x20 or o == 0x7F or 0x80 <= o <= 0x9F) else "?")
    return "".join(out) + ("..." if len(cmd) > n else "")


def records(path):
    recs = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    return recs[0], [r for r in recs if r.get("type") == "sample"], \
        [r for r in recs if r.get("type") == "end"]


def close(name, got, want):
    assert abs(got - want) <= 1e-9 * max(1.0, abs(want)), f"{name}: file {got}, record {want}"
    print(f"{name} = {got} (record {want})")


def cmd_match(path, record):
    fams, _ = reading(path)
    start, samples, end = records(record)
    assert end, "the record has no end"
    summ = end[0]["summary"]
    info = one(fams, "stagetop_run_info")[0]
    assert info["pid"] == str(start["pid"]), (info, start["pid"])
    assert info["command"] == escaped_cut(start["command"]), (info["command"], start["command"])
    assert state_of(fams) == "exited", state_of(fams)
    first, last = samples[0], samples[-1]
    want = {"stagetop_tree_footprint_peak_bytes": summ["peak_footprint"],
            "stagetop_samples_total": len(samples)}
    if "swap_used" in last:
        want["stagetop_swap_growth_bytes"] = last["swap_used"] - first["swap_used"]
        want["stagetop_swap_growth_peak_bytes"] = summ["swap"]["peak"] - summ["swap"]["start"]
    if summ.get("kernel_peak") is not None:
        want["stagetop_tree_kernel_peak_bytes"] = summ["kernel_peak"]
        src = one(fams, "stagetop_tree_kernel_peak_info")[0]["source"]
        assert src == summ["kernel_peak_source"], (src, summ["kernel_peak_source"])
    for name, v in want.items():
        close(name, one(fams, name)[1], v)


def cmd_cpu(path, times):
    """The counter against the shell's own `times` (dash: 0m0.004000s; bash
    0m0.004s): its second line is the reaped children's user and system."""
    import re
    fams, _ = reading(path)  # (a _total is a counter: check_reading)
    got = one(fams, "stagetop_tree_cpu_seconds_total")[1]
    vals = [int(m) * 60 + float(s) for m, s in re.findall(r"(\d+)m([\d.]+)s", open(times).read())]
    assert len(vals) == 4, vals
    own, children = vals[0] + vals[1], vals[2] + vals[3]
    print(f"counter {got:.3f} s; the shell {own:.3f} s, its reaped children {children:.3f} s")
    # Counted from the first sample on: all the children's CPU (they start
    # later), less a clock tick's rounding each; no more than everything.
    assert got >= children - 0.05, f"the exited children's CPU is missing: {got} < {children}"
    assert got <= own + children + 0.1, f"more than the job used: {got} > {own + children}"


def cmd_match_live(path, record):
    fams, _ = reading(path)
    assert state_of(fams) != "exited"
    _, samples, _ = records(record)
    n = int(one(fams, "stagetop_samples_total")[1])
    s = samples[n - 1]
    want = {"stagetop_tree_footprint_bytes": s["footprint"], "stagetop_tree_rss_bytes": s["rss"],
            "stagetop_tree_processes": s["procs"]}
    if "swap_used" in s:
        want["stagetop_system_swap_used_bytes"] = s["swap_used"]
        want["stagetop_swap_growth_bytes"] = s["swap_used"] - samples[0]["swap_used"]
    if "level" in s:
        want["stagetop_system_memory_available_ratio"] = s["level"] / 100.0
    if "pressure" in s:  # Linux: PSI percent in the record, a ratio in the file
        want["stagetop_system_memory_pressure_some_avg10_ratio"] = s["pressure"] / 100.0
    if "gpu" in s:
        want["stagetop_tree_gpu_bytes"] = s["gpu"]
    for name, v in want.items():
        close(name, one(fams, name)[1], v)
    assert "stagetop_memory_pressure" not in fams  # 0.2's name, PSI and macOS mixed


def main(argv):
    what, args = argv[1], argv[2:]
    try:
        if what == "read":
            cmd_read(args)
        elif what == "loop":
            cmd_loop(*args)
        elif what == "match":
            cmd_match(*args)
        elif what == "cpu":
            cmd_cpu(*args)
        elif what == "match-live":
            cmd_match_live(*args)
        else:
            sys.exit(__doc__)
    except (AssertionError, ValueError, KeyError, IndexError) as e:
        sys.exit(f"{what}: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main(sys.argv)
