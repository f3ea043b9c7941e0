#!/usr/bin/env python3
"""Checks for tests/e2e/diff_report.sh, independent of stagetop's C code.

  check_diff_report.py expect TRACE              stageload's summary of TRACE, as JSON
  check_diff_report.py diffjson A B OUT.json     `stagetop diff --json A B` against
                                                 summarize() of A and B
  check_diff_report.py pct A B                   100 * (peak B - peak A) / peak A
  check_diff_report.py difftext A B OUT.txt      the text form's stage rows and peak change
  check_diff_report.py summarytext TRACE OUT.txt `stagetop summary --text TRACE`: the exit
                                                 status, duration, peak footprint, swap start
                                                 -> peak and growth, min level, one row per
                                                 stage name: windows, time, mean, peak, min level
  check_diff_report.py report TRACE OUT.md       the Markdown report (python3-markdown or cmark-gfm)
  check_diff_report.py reportdiff A B OUT.md     `stagetop report A B`
  check_diff_report.py svg A B OUT.svg           `stagetop plot A B`
  check_diff_report.py charts OUT.md N [IMAGE]   the chart section read by python-markdown
                                                 with its default extensions (none), cmark
                                                 and cmark-gfm (tables): N text charts, each
                                                 a code block (two: on one time axis); the SVG
                                                 linked as IMAGE (or no image)
Checks joined by "+" run in one process, each trace's expectations derived
once.  TRACE is a stageload JSONL file (what the expectations are derived from);
the file stagetop read may be the same run in another format.  Exit 0 or a
message saying what differs.
"""
import functools
import html.parser
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stageload_ref import stage_windows  # noqa: E402


def records(path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(l) for l in fh if l.strip()]


@functools.lru_cache(maxsize=None)
def expected(path):
    """stageload's summarize(), re-derived: records sorted by t; the time
    before the first stage is "setup" unless that stage starts at t <= 0; a
    window holds t0 <= t < t1, the last one also t == end."""
    recs = records(path)
    samples = sorted((r for r in recs if r.get("type") == "sample"), key=lambda r: r["t"])
    events = sorted((r for r in recs if r.get("type") == "event"), key=lambda r: r["t"])
    last = samples[-1]["t"]
    sw = [s["swap_used"] for s in samples]
    out = {"duration": round(last - samples[0]["t"], 3),
           "peak_footprint": max(s["footprint"] for s in samples),
           "swap": {"start": sw[0], "peak": max(sw), "end": sw[-1]},
           "min_level": min(s["level"] for s in samples)}
    stages = []
    wins = stage_windows(samples, events)
    for i, (name, t0, t1, win) in enumerate(wins):
        fp = [s["footprint"] for s in win]
        stages.append({"stage": name, "t0": t0, "seconds": round(t1 - t0, 3),
                       "peak_footprint": max(fp) if fp else None,
                       "min_level": min(s["level"] for s in win) if win else None,
                       "loads": sum(1 for e in events if e["kind"] in ("load", "reload")
                                    and t0 <= e["t"] and (e["t"] < t1 or i + 1 == len(wins)))})
    out["stages"] = stages
    return out


def pct(a, b):
    return 100.0 * (b - a) / a


def fail(msg):
    sys.exit(msg)


def diffjson(fa, fb, out):
    ea, eb = expected(fa), expected(fb)
    got = json.load(open(out, encoding="utf-8"))
    for side, e in (("a", ea), ("b", eb)):
        g = got[side]
        for k in ("duration", "peak_footprint", "swap", "min_level"):
            if g[k] != e[k]:
                fail(f"{side}.{k}: expected {e[k]!r}, got {g[k]!r}")
    names = []
    for e in (ea, eb):
        for s in e["stages"]:
            if s["stage"] not in names:
                names.append(s["stage"])
    if [s["stage"] for s in got["stages"]] != names:
        fail(f"stages: expected {names}, got {[s['stage'] for s in got['stages']]}")
    for row in got["stages"]:
        for side, e in (("a", ea), ("b", eb)):
            mine = [s for s in e["stages"] if s["stage"] == row["stage"]]
            if not mine:
                if row[side] is not None:
                    fail(f"{row['stage']}.{side}: expected null, got {row[side]!r}")
                continue
            want = {"seconds": round(sum(s["seconds"] for s in mine), 3),
                    "peak_footprint": max((s["peak_footprint"] for s in mine
                                           if s["peak_footprint"] is not None), default=None)}
            lv = [s["min_level"] for s in mine if s["min_level"] is not None]
            g = row[side]
            if g is None or abs(g["seconds"] - want["seconds"]) > 1e-9 or \
                    g["peak_footprint"] != want["peak_footprint"] or \
                    (lv and g["min_level"] != min(lv)):
                fail(f"{row['stage']}.{side}: expected {want}, min level {min(lv) if lv else None}, got {g!r}")
        # the time's change, seconds and percent of A's
        if row["a"] is not None and row["b"] is not None:
            d = round(row["b"]["seconds"] - row["a"]["seconds"], 3)
            if abs(row["change"]["seconds"] - d) > 1.5e-3:
                fail(f"{row['stage']}.change.seconds: expected {d}, got {row['change']['seconds']}")
            if row["a"]["seconds"] > 0:
                p = pct(row["a"]["seconds"], row["b"]["seconds"])
                if abs(row["change"]["seconds_pct"] - p) > 1e-6 * max(1.0, abs(p)):
                    fail(f"{row['stage']}.change.seconds_pct: expected {p}, got {row['change']['seconds_pct']}")
    ch = got["change"]
    p = pct(ea["peak_footprint"], eb["peak_footprint"])
    if abs(ch["peak_footprint_pct"] - p) > 1e-9 * max(1.0, abs(p)):
        fail(f"change.peak_footprint_pct: expected {p!r}, got {ch['peak_footprint_pct']!r}")
    d = round(eb["duration"] - ea["duration"], 3)
    if abs(ch["duration_s"] - d) > 1.5e-3:
        fail(f"change.duration_s: expected {d!r}, got {ch['duration_s']!r}")
    p = pct(ea["duration"], eb["duration"])
    if abs(ch["duration_pct"] - p) > 1e-3 * max(1.0, abs(p)):
        fail(f"change.duration_pct: expected {p!r}, got {ch['duration_pct']!r}")
    g = (eb["swap"]["peak"] - eb["swap"]["start"]) - (ea["swap"]["peak"] - ea["swap"]["start"])
    if ch["swap_peak_rise_bytes"] != g:
        fail(f"change.swap_peak_rise_bytes: expected {g}, got {ch['swap_peak_rise_bytes']}")
    print(f"{len(names)} stages, peak change {p:+.3f} %")


def difftext(fa, fb, out):
    ea, eb = expected(fa), expected(fb)
    text = open(out, encoding="utf-8").read()
    if "\x1b" in text:
        fail("an ESC byte in the text output")
    rows = {l.split()[0]: l for l in text.splitlines() if l.strip()}
    for e in (ea, eb):
        for s in e["stages"]:
            if s["stage"] not in rows:
                fail(f"no row for stage {s['stage']!r}")
    p = f"{pct(ea['peak_footprint'], eb['peak_footprint']):+.1f}%"
    line = [l for l in text.splitlines() if l.startswith("peak footprint")]
    if not line or not line[0].rstrip().endswith(p):
        fail(f"peak footprint row should end in {p}: {line!r}")
    secs = {}  # a name that repeats: its row sums its windows (as diffjson's)
    for s in ea["stages"]:
        secs[s["stage"]] = secs.get(s["stage"], 0) + s["seconds"]
    for name, v in secs.items():
        t = f"{round(v, 3):.1f}s"
        if t not in rows[name]:
            fail(f"stage {name}: A's time {t} not in {rows[name]!r}")


def bytes_text(v, sign=False):
    """units.h's bytes: 3 significant digits, binary units."""
    s = ("-" if v < 0 else "+") if sign else ""
    v = abs(v)
    u = 0
    while v >= 1024 and u < 6:
        v /= 1024
        u += 1
    if u == 0:
        return f"{s}{int(v)} B"
    d = 2 if v < 10 else 1 if v < 100 else 0
    return f"{s}{v:.{d}f} {['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'][u]}"


def level_text(v):
    return f"{v:g}%" if float(v).is_integer() else f"{v:.2f}%"


def summarytext(trace, out):
    e = expected(trace)
    raw = open(out, "rb").read()
    if b"\x1b" in raw:
        fail("an escape byte")
    text = raw.decode()
    lines = {l[:16].strip(): l[16:] for l in text.splitlines()[:6]}

    def want(key, v):
        if not lines.get(key, "").startswith(v):
            fail(f"{key}: {lines.get(key)!r}, expected {v!r}...")
    dur = e["duration"]
    d = int(dur)  # units.h's durations: cut to the unit shown
    want("duration", f"{dur:.1f}s" if dur < 60 else f"{d // 60}m{d % 60:02d}s" if dur < 3600
         else f"{d // 3600}h{d // 60 % 60:02d}m")
    want("peak footprint", bytes_text(e["peak_footprint"]))
    sw = e["swap"]
    want("swap", f"{bytes_text(sw['start'])} start → {bytes_text(sw['peak'])} peak, "
                 f"growth {bytes_text(sw['end'] - sw['start'], True)}")
    want("min level", level_text(e["min_level"]))
    ex = [r for r in records(trace) if r.get("type") == "event" and r.get("kind") == "exit" and "value" in r]
    want("exit status", str(ex[-1]["value"]) if ex else "–")
    rows = [l.split() for l in text.splitlines()[7:]]
    groups = []  # stage_table.h: one row per name, in the order names first appear
    for s in e["stages"]:
        g = next((g for g in groups if g["stage"] == s["stage"]), None)
        if g is None:
            g = {"stage": s["stage"], "n": 0, "seconds": 0.0, "peaks": [], "levels": []}
            groups.append(g)
        g["n"] += 1
        g["seconds"] += s["seconds"]
        if s["peak_footprint"] is not None:
            g["peaks"].append(s["peak_footprint"])
        if s["min_level"] is not None:
            g["levels"].append(s["min_level"])
    if len(rows) != len(groups):
        fail(f"{len(rows)} stage rows, expected {len(groups)}")
    for r, g in zip(rows, groups):
        m = g["seconds"] / g["n"]
        peak = r[4] if r[4] == "–" else " ".join(r[4:6])
        if r[0] != g["stage"] or r[1] != str(g["n"]) or r[2] != f"{g['seconds']:.1f}s" or \
                r[3] != (f"{m:.2f}s" if m < 9.995 else f"{m:.1f}s") or \
                peak != (bytes_text(max(g["peaks"])) if g["peaks"] else "–") or \
                r[-1] != (level_text(min(g["levels"])) if g["levels"] else "–"):
            fail(f"stage row {r!r}, expected {g!r} (mean {m})")
    print(f"{len(rows)} stage rows of {len(e['stages'])} windows, peak {bytes_text(e['peak_footprint'])}, "
          f"swap growth {bytes_text(sw['end'] - sw['start'], True)}")


class Html(html.parser.HTMLParser):
    """Tables (rows of cell texts), code blocks, headings."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.code, self.heads, self.stack, self.text = [], [], [], [], None

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th", "code", "h3", "h4"):
            self.text = ""

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self.text.strip())
        elif tag == "code" and "pre" in self.stack:
            self.code.append(self.text)
        elif tag in ("h3", "h4"):
            self.heads.append(self.text.strip())
        if tag in ("td", "th", "code", "h3", "h4") and "td" not in self.stack and "th" not in self.stack:
            self.text = None

    def handle_data(self, data):
        if self.text is not None:
            self.text += data


def md_to_html(src):
    """python3-markdown (tables); where it is missing (Homebrew has none: macOS),
    cmark-gfm with its table extension (scripts/deps.sh).  ST_MD=cmark-gfm forces
    the second."""
    import os
    if os.environ.get("ST_MD") != "cmark-gfm":
        try:
            import markdown
            return markdown.markdown(src, extensions=["tables", "fenced_code"])
        except ImportError:
            pass
    import subprocess
    return subprocess.run(["cmark-gfm", "-e", "table"], input=src.encode("utf-8"),
                          stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")


def parse_md(path):
    raw = open(path, "rb").read()
    for bad in (b"\x1b", b"\xc2\x9b", b"\x07", b"\x00"):
        if bad in raw:
            fail(f"{path}: holds the control byte(s) {bad!r}")
    src = raw.decode("utf-8")
    h = Html()
    h.feed(md_to_html(src))
    return h, src


def clean(name):
    """What a stage name should read as in the report: controls dropped."""
    return "".join(c for c in name if not (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F
                                             or 0x202A <= ord(c) <= 0x202E
                                             or 0x2066 <= ord(c) <= 0x2069))


def stage_table(h, header0="stage"):
    t = [t for t in h.tables if t and t[0] and t[0][0] == header0]
    if len(t) != 1:
        fail(f"expected one table headed {header0!r}, found {len(t)}: {[x[0] for x in h.tables]}")
    return t[0]


def report(trace, out):
    e = expected(trace)
    h, src = parse_md(out)
    t = stage_table(h)
    want_cols = ["stage", "start", "time", "peak footprint", "swap growth", "min level", "loads"]
    if t[0] != want_cols:
        fail(f"stage table header {t[0]}")
    if len(t) - 1 != len(e["stages"]):
        fail(f"stage table has {len(t) - 1} rows, expected {len(e['stages'])}")
    for row, s in zip(t[1:], e["stages"]):
        if len(row) != len(want_cols):
            fail(f"row {row!r} has {len(row)} cells, expected {len(want_cols)}")
        if row[0] != clean(s["stage"]):
            fail(f"stage cell {row[0]!r}, expected {clean(s['stage'])!r}")
        if row[2] != f"{s['seconds']:.1f} s":
            fail(f"{row[0]}: time {row[2]!r}, expected {s['seconds']:.1f} s")
        lv = s["min_level"]
        want_lv = "–" if lv is None else f"{lv} %" if float(lv).is_integer() else f"{lv:.2f} %"
        if row[5] != want_lv.replace(".0 %", " %"):
            fail(f"{row[0]}: min level {row[5]!r}, expected {want_lv!r}")
        if int(row[6].split()[0]) != s["loads"]:
            fail(f"{row[0]}: loads {row[6]!r}, expected {s['loads']}")
    if len(h.code) != 1:
        fail(f"expected one code block (the chart), found {len(h.code)}")
    chart = h.code[0]
    for lab in ("footprint", "swap", "level", "stages", "time"):
        if not any(l.startswith(lab) for l in chart.splitlines()):
            fail(f"chart has no {lab!r} row")
    if not any(c in chart for c in "▁▂▃▄▅▆▇█"):
        fail("chart has no sparkline glyphs")
    if "Events" not in h.heads or h.heads[-1] != "Events":
        fail(f"headings {h.heads}: the chart's fence must close before Events")
    n_ev = sum(1 for r in records(trace) if r.get("type") == "event")
    items = [l for l in src.split("#### Events", 1)[1].splitlines() if l.startswith("- ")]
    if len(items) != n_ev:
        fail(f"{len(items)} event lines, expected {n_ev}")
    print(f"{len(t) - 1} stage rows, chart of {len(chart.splitlines())} lines, {n_ev} events")
    return chart


def reportdiff(fa, fb, out):
    ea, eb = expected(fa), expected(fb)
    h, _ = parse_md(out)
    t = stage_table(h)
    names = []
    for e in (ea, eb):
        for s in e["stages"]:
            if clean(s["stage"]) not in names:
                names.append(clean(s["stage"]))
    head = ["stage", "A time", "A peak", "B time", "B peak", "peak change", "time change",
            "A swap growth", "B swap growth", "A min level", "B min level"]
    if t[0] != head:
        fail(f"comparison stage table heading {t[0]}, expected {head}")
    if [r[0] for r in t[1:]] != names or any(len(r) != len(head) for r in t):
        fail(f"comparison stage rows {t[1:]}, expected names {names}")
    for r in t[1:]:  # the time's change where both sides have the stage
        a = [s for s in ea["stages"] if clean(s["stage"]) == r[0]]
        b = [s for s in eb["stages"] if clean(s["stage"]) == r[0]]
        if a and b:
            ta, tb = sum(s["seconds"] for s in a), sum(s["seconds"] for s in b)
            want = f"{tb - ta:+.1f} s ({pct(ta, tb):+.1f} %)" if ta > 0 else f"{tb - ta:+.1f} s"
            if r[6] != want:
                fail(f"{r[0]}: time change {r[6]!r}, expected {want!r}")
    summ = [x for x in h.tables if x and x[0] and x[0][0] == "measure"]
    p = f"{pct(ea['peak_footprint'], eb['peak_footprint']):+.1f} %"
    row = [r for r in summ[0] if r[0] == "peak footprint"] if summ else []
    if not row or row[0][3] != p:
        fail(f"peak footprint row {row!r}: change should be {p}")
    print(f"{len(names)} stages, peak {p}")


def svg(fa, fb, out):
    import xml.etree.ElementTree as ET
    NS = "{http://www.w3.org/2000/svg}"
    root = ET.parse(out).getroot()
    ids = {e.get("id"): e for e in root.iter() if e.get("id")}
    for need in ("run-a", "run-b", "a-series-footprint", "b-series-footprint", "legend"):
        if need not in ids:
            fail(f"no element with id {need!r}")
    if ids["b-series-footprint"].get("stroke-dasharray") in (None, "none"):
        fail("B's footprint is not dashed")
    if ids["a-series-footprint"].get("stroke-dasharray") not in (None, "none"):
        fail("A's footprint is dashed")
    for side, f in (("a", fa), ("b", fb)):
        n = sum(1 for r in records(f) if r.get("type") == "event" and r.get("kind") == "stage")
        g = ids.get(f"{side}-stages")
        bands = [x for x in g if x.get("class") == "stage"] if g is not None else []
        if len(bands) != n:
            fail(f"{side}: {len(bands)} stage bands, expected {n}")
    legend = " ".join(t.text or "" for t in root.iter(NS + "text"))
    for lab in ("A: ", "B: "):
        if lab not in legend:
            fail(f"legend lacks {lab!r}")
    print("ok")


def charts(out, n, image=None):
    """The chart section as three parsers read it: python-markdown with its
    defaults (no fenced_code: a fence would be inline <code>), cmark
    (CommonMark) and cmark-gfm with tables (GitHub); with ST_MD=cmark-gfm
    (a Mac's), cmark-gfm as CommonMark and with tables."""
    import re
    import subprocess
    src = open(out, encoding="utf-8").read()
    def run(*cmd):
        return lambda s: subprocess.run(list(cmd), input=s.encode(), stdout=subprocess.PIPE,
                                        check=True).stdout.decode()
    if os.environ.get("ST_MD") == "cmark-gfm":
        # a Mac: Homebrew has no python3-markdown, and its cmark conflicts
        # with cmark-gfm, which reads CommonMark without an extension
        parsers = {"CommonMark (cmark-gfm, no extension)": run("cmark-gfm")}
    else:
        import markdown
        parsers = {"python-markdown (defaults)": lambda s: markdown.markdown(s), "cmark": run("cmark")}
    parsers["cmark-gfm -e table"] = run("cmark-gfm", "-e", "table")
    for name, to_html in parsers.items():
        doc = to_html(src)
        h = Html()
        h.feed(doc)
        blocks = [c for c in h.code if any(l.startswith("footprint") for l in c.splitlines())]
        if len(blocks) != n:
            fail(f"{name}: {len(blocks)} text charts in <pre><code>, expected {n}")
        for c in blocks:
            rows = [l.split()[0] for l in c.splitlines() if l.strip() and not l.startswith(" ")]
            for lab in ("footprint", "swap", "level", "time"):
                if lab not in rows:
                    fail(f"{name}: a chart has no {lab!r} row: {rows}")
        if n == 2:  # one time axis for both runs
            times = [[l for l in c.splitlines() if l.startswith("time")] for c in blocks]
            if times[0] != times[1]:
                fail(f"{name}: the two charts' time axes differ: {times}")
        if re.search(r"<code>[^<]*footprint", doc.replace("<pre><code>", "")):
            fail(f"{name}: the chart is inline code")
        imgs = re.findall(r'<img[^>]*src="([^"]*)"', doc)
        if image is None and imgs:
            fail(f"{name}: an image {imgs} where none was written")
        if image is not None and imgs != [image]:
            fail(f"{name}: images {imgs}, expected [{image!r}]")
        if name.startswith("cmark-gfm") and doc.count("<table>") < 2:
            fail(f"{name}: {doc.count('<table>')} tables")
    print(f"{n} text chart(s) as blocks and {'the image ' + image if image else 'no image'} "
          f"in {', '.join(parsers)}")


def main(argv):
    if "+" in argv:
        i = argv.index("+")
        main(argv[:i])
        main(argv[:1] + argv[i + 1:])
        return
    cmd = argv[1]
    if cmd == "expect":
        print(json.dumps(expected(argv[2])))
    elif cmd == "timepct":
        print(repr(pct(expected(argv[2])["duration"], expected(argv[3])["duration"])))
    elif cmd == "pct":
        print(repr(pct(expected(argv[2])["peak_footprint"], expected(argv[3])["peak_footprint"])))
    elif cmd == "diffjson":
        diffjson(argv[2], argv[3], argv[4])
    elif cmd == "difftext":
        difftext(argv[2], argv[3], argv[4])
    elif cmd == "summarytext":
        summarytext(argv[2], argv[3])
    elif cmd == "report":
        report(argv[2], argv[3])
    elif cmd == "reportdiff":
        reportdiff(argv[2], argv[3], argv[4])
    elif cmd == "svg":
        svg(argv[2], argv[3], argv[4])
    elif cmd == "charts":
        charts(argv[2], int(argv[3]), argv[4] if len(argv) > 4 else None)
    else:
        fail(f"unknown check {cmd}")


if __name__ == "__main__":
    main(sys.argv)
