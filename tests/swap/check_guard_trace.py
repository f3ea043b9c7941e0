#!/usr/bin/env python3
"""Check a stagetop JSONL record of a guarded run, independently of stagetop.

usage: check_guard_trace.py FILE --budget BYTES --interval SEC --action kill|pause
                            [--own FILE [--most BYTES]]

--own FILE: the test's own readings of SwapTotal - SwapFree (KiB, one a line).
  kill:  taken every 0.1 s while stagetop ran.  The kill frees the swap of the
         crossing within milliseconds, so a poller cannot be relied on to see
         the peak stagetop saw just before it acted: the readings must show
         the swap really grew (by half the budget or more), and every sample
         must lie between the lowest reading and the lowest reading plus
         --most (what the workload can put in swap at all).
  pause: taken while the job was stopped, around samples that stagetop took
         after the pause.  A stopped job's swap stays where it is, so every
         sample from one interval after the pause event on must agree with
         these readings (within 32 MiB), and there must be two or more.
--most BYTES: with --own and kill, the most the workload can swap.

The crossing is computed here from the samples: base = the first sample's
swap_used (what the guard uses: the swap at the start), crossing = the first
sample whose swap_used - base exceeds the budget.  Exits non-zero with the
reason on any failure; prints one "measured:" line.
"""
import json
import sys

MIB = 1024 * 1024


def fail(msg):
    sys.exit("check_guard_trace: " + msg)


def main(argv):
    path = argv[1]
    opts = dict(zip(argv[2::2], argv[3::2]))
    budget = int(opts["--budget"])
    interval = float(opts["--interval"])
    action = opts["--action"]
    recs = []
    with open(path, "rb") as f:
        for i, raw in enumerate(f.read().split(b"\n"), 1):
            if raw.strip():
                try:
                    recs.append(json.loads(raw))
                except ValueError as e:
                    fail(f"{path}:{i}: not JSON: {e}")
    if not recs or recs[0].get("type") != "start":
        fail("no start record")
    samples = [r for r in recs if r.get("type") == "sample" and "swap_used" in r]
    events = [r for r in recs if r.get("type") == "event"]
    if len(samples) < 3:
        fail(f"only {len(samples)} samples with swap_used")
    base = samples[0]["swap_used"]
    cross = next((s for s in samples if s["swap_used"] - base > budget), None)
    if cross is None:
        fail(f"swap never grew past the budget in the trace (max growth "
             f"{(max(s['swap_used'] for s in samples) - base) / MIB:.1f} MiB)")
    budget_ev = [e for e in events if e.get("kind") == "budget"]
    kill_ev = [e for e in events if e.get("kind") == "kill"]
    pause_ev = [e for e in events if e.get("kind") == "pause"]
    if len(budget_ev) != 1:
        fail(f"{len(budget_ev)} budget events, expected 1")
    b = budget_ev[0]
    # not before the swap came near the budget, and within two samples of the crossing
    clearly_under = [s["t"] for s in samples
                     if s["swap_used"] - base < budget - 16 * MIB and s["t"] <= cross["t"]]
    if clearly_under and b["t"] <= max(clearly_under) + 1e-6:
        fail(f"budget event at t={b['t']} before the swap neared the budget")
    if b["t"] > cross["t"] + 2 * interval + 0.05:
        fail(f"budget event at t={b['t']}, crossing at t={cross['t']}: more than two samples late")
    if "value" in b and not b["value"] > budget:
        fail(f"budget event value {b['value']} is not above the budget {budget}")
    if "limit" in b and b["limit"] != budget:
        fail(f"budget event limit {b['limit']} != {budget}")
    if action == "kill":
        if not kill_ev:
            fail("no kill event")
        k = kill_ev[0]
        if not (b["t"] - 1e-6 <= k["t"] <= b["t"] + 2 * interval + 0.05):
            fail(f"kill event at t={k['t']}, budget at t={b['t']}")
        if pause_ev:
            fail("a pause event in a kill run")
    else:
        if not pause_ev:
            fail("no pause event")
        if kill_ev:
            fail("a kill event in a pause run")
        p = pause_ev[0]
        if not (b["t"] - 1e-6 <= p["t"] <= b["t"] + 2 * interval + 0.05):
            fail(f"pause event at t={p['t']}, budget at t={b['t']}")
    top = max(s["swap_used"] for s in samples)
    exit_ev = [e for e in events if e.get("kind") == "exit"]
    exit_txt = f", exit event t={exit_ev[0]['t']:.3f}" if exit_ev else ", no exit event"
    if action == "kill":
        # the job is gone (and stagetop ends with 3) within two samples of the crossing
        if not exit_ev:
            fail("no exit event in a kill run")
        if not (b["t"] - 1e-6 <= exit_ev[0]["t"] <= cross["t"] + 2 * interval + 0.05):
            fail(f"exit event at t={exit_ev[0]['t']}, crossing at t={cross['t']}: "
                 "not within two samples")
    elif exit_ev:
        fail(f"the paused job exited (t={exit_ev[0]['t']})")
    own_txt = ""
    if "--own" in opts:
        own = [int(x) * 1024 for x in open(opts["--own"]).read().split() if x.isdigit()]
        if len(own) < 3:
            fail("too few own readings")
        lo, hi = min(own), max(own)
        if action == "kill":
            most = int(opts["--most"])
            if hi - lo < budget // 2:
                fail(f"the test's own readings saw the swap grow {(hi - lo) / MIB:.1f} MiB only")
            for s in samples:
                if not (lo - 32 * MIB <= s["swap_used"] <= lo + most + 32 * MIB):
                    fail(f"sample t={s['t']} swap_used {s['swap_used']} outside "
                         f"[{lo}, {lo + most}] (the test's lowest reading + the workload's most)")
            own_txt = f", own readings {lo / MIB:.1f}-{hi / MIB:.1f} MiB"
        else:
            p = pause_ev[0]
            after = [s for s in samples if s["t"] >= p["t"] + interval - 1e-6]
            if len(after) < 2:
                fail(f"{len(after)} samples from one interval after the pause on, expected 2 or more")
            for s in after:
                if not (lo - 32 * MIB <= s["swap_used"] <= hi + 32 * MIB):
                    fail(f"sample t={s['t']} swap_used {s['swap_used']} (job paused) outside "
                         f"the test's own readings [{lo}, {hi}]")
            own_txt = (f", {len(after)} samples while paused within the test's own readings "
                       f"{lo / MIB:.1f}-{hi / MIB:.1f} MiB")
    print(f"measured: base {base / MIB:.1f} MiB, crossing sample t={cross['t']:.3f} "
          f"growth {(cross['swap_used'] - base) / MIB:.1f} MiB, budget event t={b['t']:.3f}, "
          f"{action} event t={(kill_ev or pause_ev)[0]['t']:.3f}, max growth in trace "
          f"{(top - base) / MIB:.1f} MiB, {len(samples)} samples{exit_txt}{own_txt}")


if __name__ == "__main__":
    main(sys.argv)
