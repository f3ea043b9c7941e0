"""stageload's stage windows, written once for the tests that check stagetop's
summaries against them (tests/e2e/check_diff_report.py, tests/e2e/tui_replay.sh),
independent of stagetop's C code."""


def stage_windows(samples, events):
    """[(stage, t0, t1, samples of the window)] of a run whose samples and
    events are sorted by t: the time before the first stage is "setup" unless
    that stage starts at t <= 0; a window holds t0 <= t < t1, the last one
    also t == t1 (the last sample's t)."""
    last = samples[-1]["t"]
    starts = [e for e in events if e["kind"] == "stage"]
    bounds = [(e["stage"], e["t"]) for e in starts]
    if not starts or starts[0]["t"] > 0:
        bounds.insert(0, ("setup", 0.0))
    wins = []
    for i, (name, t0) in enumerate(bounds):
        t1 = bounds[i + 1][1] if i + 1 < len(bounds) else last
        wins.append((name, t0, t1, [s for s in samples if t0 <= s["t"] < t1 or s["t"] == t1 == last]))
    return wins
