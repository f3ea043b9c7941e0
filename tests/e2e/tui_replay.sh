#!/bin/sh
# `stagetop replay` end to end, in a real terminal (tmux, 120x40):
#  - each stageload fixture: the header names the file; the summary (peak
#    footprint, kernel peak, swap start/peak/end, min level, every stage's
#    time and peak) equals what python computes from the file, formatted by
#    python's own copy of the documented size/duration formats; Home, End,
#    the arrows and + change the visible time range as computed from the
#    file; e exports a JSON trace that replays (as a file and on stdin);
#    q exits 0 and leaves the alternate screen;
#  - a truncated file and a file with a bad line: exit 1, the error names
#    the line, nothing is written to the terminal;
#  - `replay -` on a FIFO that the test feeds: new samples appear as they
#    are written, a junk line is reported (count, line number) and the
#    stream goes on, a window panned away holds while data arrives, End
#    follows again, the stream's end is shown (with and without an end
#    record).
set -u
. "$(dirname "$0")/tui_common.inc"
# fd 3 is the test's end of a FIFO: tmux must not inherit it.
tm() { tmux -L "$TM_SOCK" "$@" 3>&-; }

ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
FIX="$ROOT/tests/fixtures/stageload"   # stageload's traces, shipped with the repo (SOURCE.md there)

# ---- python: the expected numbers, from the files themselves ----------------
cat >"$T/expect.py" <<'PY'
import json, math, os, re, sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.environ.get("ST_ROOT", "."), "tests", "lib"))
from stageload_ref import stage_windows

def fmt_bytes(b):
    """Sizes as the screen writes them: binary units, 3 significant digits."""
    names = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
    v, u = float(b), 0
    while v >= 1024 and u < 5:
        v /= 1024
        u += 1
    if u == 0:
        return "%d B" % b
    return ("%.2f %s" if v < 10 else "%.1f %s" if v < 100 else "%.0f %s") % (v, names[u])

def fmt_dur(s):
    if s < 60:
        return "%.1fs" % s
    if s < 3600:
        return "%dm%02ds" % (int(s) // 60, int(s) % 60)
    return "%dh%02dm" % (int(s) // 3600, int(s) // 60 % 60)

def clock(s):
    x = int(math.floor(s)) if s > 0 else 0
    return "%d:%02d" % (x // 60, x % 60) if x < 3600 else "%d:%02d:%02d" % (x // 3600, x // 60 % 60, x % 60)

def load(path):
    text = open(path, encoding="utf-8").read()
    if text.lstrip().startswith("{") and '"format"' in text.split("\n", 1)[0]:
        doc = json.loads(text)
        return doc["samples"], doc["events"]
    recs = [json.loads(l) for l in text.splitlines() if l.strip()]
    return ([r for r in recs if r.get("type") == "sample"],
            [r for r in recs if r.get("type") == "event"])

def summary(path):
    samples, events = load(path)
    samples = sorted(samples, key=lambda r: r["t"])
    events = sorted(events, key=lambda r: r["t"])
    last = samples[-1]["t"]
    starts = [e for e in events if e["kind"] == "stage"]
    stages = []
    for name, t0, t1, win in stage_windows(samples, events):
        fp = [s["footprint"] for s in win]
        stages.append((name, round(t1 - t0, 3), max(fp) if fp else None))
    sw = [s["swap_used"] for s in samples]
    return dict(n=len(samples), first=samples[0]["t"], last=last, samples=samples,
                peak=max(s["footprint"] for s in samples), swap=(sw[0], max(sw), sw[-1]),
                min_level=min(s["level"] for s in samples), stages=stages,
                last_stage=starts[-1]["stage"] if starts else None)

def check_summary(path, screen):
    x = summary(path)
    lines = open(screen, encoding="utf-8").read().splitlines()
    text = "\n".join(lines)
    want = [r"^peak footprint +%s" % re.escape(fmt_bytes(x["peak"])),
            r"^kernel peak +n/a",
            r"^swap +%s → %s → %s" % tuple(re.escape(fmt_bytes(v)) for v in x["swap"]),
            r"^min level +%.1f%%" % x["min_level"],
            r"SUMMARY +%d samples over %s" % (x["n"], re.escape(fmt_dur(round(x["last"] - x["first"], 3)))),
            r"^%d samples " % x["n"]]
    if x["last_stage"]:
        want.append(r"^%d samples .* stage %s" % (x["n"], re.escape(x["last_stage"])))
    for name, secs, peak in x["stages"]:
        want.append(r" %s +%s +%s$" % (re.escape(name), re.escape(fmt_dur(secs)),
                                        re.escape(fmt_bytes(peak)) if peak is not None else "-"))
    bad = [w for w in want if not re.search(w, text, re.M)]
    for w in bad:
        print("not on the screen:", w)
    # one stage row per stage, in order
    rows = [l for l in lines if re.search(r" \S+ +[0-9.hms]+ +([0-9.]+ [KMGT]?i?B|-)$", l)]
    if len(rows) != len(x["stages"]):
        print("stage rows:", len(rows), "expected", len(x["stages"]))
        bad.append("rows")
    return not bad

def window(screen):
    """(start, end) of the window's range label on the axis row."""
    for l in open(screen, encoding="utf-8").read().splitlines():
        m = re.match(r"^(\d+:\d\d(?::\d\d)?)–(\d+:\d\d(?::\d\d)?)", l)
        if m and "┴" in l:
            return m.group(1), m.group(2)
    return None

def secs(c):
    s = 0
    for p in c.split(":"):
        s = s * 60 + int(p)
    return s

cmd = sys.argv[1]
if cmd == "summary":
    sys.exit(0 if check_summary(sys.argv[2], sys.argv[3]) else 1)
elif cmd == "eventsrow":        # the row under the axis: an S per stage, the last one named
    x = summary(sys.argv[2])
    lines = open(sys.argv[3], encoding="utf-8").read().splitlines()
    axis = [i for i, l in enumerate(lines) if "┴" in l and re.match(r"^\d+:\d\d", l)]
    row = lines[axis[0] + 1] if axis else ""
    # markers: "S" then as much of the stage's name as fits before the next
    # marker; several events in one column show their count (2-9, +) and
    # the last name among them.  The markers must be prefixes of the stage
    # events' names, in time order, ending with the last stage.
    names = [e["stage"] for e in sorted(load(sys.argv[2])[1], key=lambda e: e["t"]) if e["kind"] == "stage"]
    marks = re.findall(r"(?:S|[2-9+](?=[a-z_]))([a-z0-9_]*)", row[len("stage " + x["last_stage"]):])
    k = 0
    for m in marks:
        while k < len(names) and not names[k].startswith(m):
            k += 1
        k += 1
    ok = (row.startswith("stage " + x["last_stage"] + " ") and marks and k <= len(names)
          and x["last_stage"].startswith(marks[-1]))
    if not ok:
        print("event row:", repr(row), marks, names)
    sys.exit(0 if ok else 1)
elif cmd == "window":          # print "start end" of the label, in seconds
    w = window(sys.argv[2])
    print("none" if w is None else "%d %d" % (secs(w[0]), secs(w[1])))
elif cmd == "fmt":
    print(fmt_bytes(int(sys.argv[2])))
elif cmd == "lastclock":
    print(clock(summary(sys.argv[2])["last"]))
elif cmd == "lastsecs":
    print(int(math.floor(summary(sys.argv[2])["last"])))
elif cmd == "lastfp":
    print(fmt_bytes(summary(sys.argv[2])["samples"][-1]["footprint"]))
elif cmd == "exported":         # a JSON trace with the same samples as the fixture
    doc = json.load(open(sys.argv[2]))
    x = summary(sys.argv[3])
    assert doc["format"] == "stagetop-trace" and doc["version"] == 1, doc.get("format")
    assert len(doc["samples"]) == x["n"], (len(doc["samples"]), x["n"])
    assert doc["summary"]["peak_footprint"] == x["peak"], doc["summary"]["peak_footprint"]
    assert [s["stage"] for s in doc["summary"]["stages"]] == [s[0] for s in x["stages"]]
PY
ex() { python3 "$T/expect.py" "$@"; }
cap() { screen "$1" >"$T/$1.screen"; }
win() { cap "$1"; ex window "$T/$1.screen"; }

# ---- each stageload fixture --------------------------------------------------
fixtures=$(ls "$FIX"/*.jsonl 2>/dev/null)
[ -n "$fixtures" ] || skip "replay of stageload fixtures" "none found in $FIX"
i=0
longest="" longest_n=0
for f in $fixtures; do
    n=$(grep -c '"type": *"sample"' "$f")
    if [ "$n" -gt "$longest_n" ]; then longest=$f longest_n=$n; fi
done
for f in $fixtures; do
    i=$((i + 1))
    b=$(basename "$f")
    p=fix$i
    start_pane $p 120 40 "'$STAGETOP' replay --export-dir '$T' '$f'"
    check "$b: the header says REPLAY and names the file" wait_screen $p 10 "^\[REPLAY\] .*$b  "
    summary_ok() { cap $p && ex summary "$f" "$T/$p.screen"; }
    check "$b: peaks, swap, min level and every stage's time and peak equal python's" until_ok 5 summary_ok
    events_ok() { cap $p && ex eventsrow "$f" "$T/$p.screen"; }
    check "$b: the event row under the axis marks the stages and names the last one" until_ok 5 events_ok
    last=$(ex lastclock "$f") last_s=$(ex lastsecs "$f")
    fit_ok() { [ "$(win $p)" = "0 $last_s" ]; }
    check "$b: at first the window shows the whole trace (0:00-$last)" until_ok 5 fit_ok
    if [ "$f" = "$longest" ]; then
        # zoom in until one sample a column: then the trace is wider than the window
        zoom_label() { screen $p | grep -o '([0-9]*/col)' | head -1; }
        for _k in 1 2 3 4 5 6 7 8; do
            _z=$(zoom_label)
            [ -n "$_z" ] || break
            tm send-keys -t $p +
            until_ok 30 sh -c "[ \"\$(tmux -L $TM_SOCK capture-pane -p -t $p | grep -o '([0-9]*/col)' | head -1)\" != '$_z' ]"
        done
        no_zoom() { ! screen $p | grep -q '/col)'; }
        check "$b: + zooms in to one sample a column" until_ok 5 no_zoom
        lastfp=$(ex lastfp "$f")
        tm send-keys -t $p End
        end_ok() { set -- $(win $p); [ "$#" = 2 ] && [ "$2" = "$last_s" ] && [ "$1" -gt 0 ]; }
        check "$b: End: the window ends at the trace's end ($last)" until_ok 5 end_ok
        check "$b: End: the footprint lane shows the last sample ($lastfp)" wait_screen $p 5 "^now  $lastfp"
        end_range=$(win $p)
        tm send-keys -t $p Home
        home_ok() { set -- $(win $p); [ "$#" = 2 ] && [ "$1" = 0 ] && [ "$2" -gt 0 ] && [ "$2" -lt "${end_range#* }" ]; }
        check "$b: Home: the window starts at 0:00 and ends before the trace does" until_ok 5 home_ok
        home_range=$(win $p)
        tm send-keys -t $p Right
        right_ok() { set -- $(win $p) $home_range; [ "$1" -gt "$3" ] && [ "$2" -gt "$4" ]; }
        check "$b: Right: the window moves later" until_ok 5 right_ok
        tm send-keys -t $p End
        tm send-keys -t $p Left
        left_ok() { set -- $(win $p) $end_range; [ "$1" -lt "$3" ] && [ "$2" -lt "$4" ]; }
        check "$b: Left from the end: the window moves earlier" until_ok 5 left_ok
        not_last() { ! screen $p | grep -q "^now  $lastfp"; }
        tm send-keys -t $p End
        back_ok() { [ "$(win $p)" = "$end_range" ]; }
        check "$b: End again: the same range as before" until_ok 5 back_ok
        tm send-keys -t $p Home
        check "$b: Home: the lanes show the values at the window's edge, not the last ones" \
            until_ok 5 not_last
        tm send-keys -t $p e
        check "$b: e: the screen says where the trace went" wait_screen $p 10 "exported $T/stagetop-replay-"
        exported=$(ls "$T"/stagetop-replay-*.json 2>/dev/null | head -1)
        check "$b: e: a JSON trace with the fixture's samples, peak and stages" ex exported "$exported" "$f"
    fi
    tm send-keys -t $p q
    check "$b: q exits 0" wait_screen $p 10 "stagetop-exit=0"
    restored() { [ "$(tm display -p -t $p '#{alternate_on}')" = 0 ] && ! screen $p | grep -q 'REPLAY'; }
    check "$b: q: the terminal is restored (alternate screen left)" until_ok 5 restored
    tm kill-session -t $p
done

# ---- the exported JSON document: as a file and on stdin -----------------------
if [ -n "${exported:-}" ] && [ -f "$exported" ]; then
    start_pane doc 120 40 "'$STAGETOP' replay '$exported'"
    check "an exported JSON trace replays: header" wait_screen doc 10 "^\[REPLAY\] $exported"
    doc_ok() { cap doc && ex summary "$longest" "$T/doc.screen"; }
    check "an exported JSON trace replays: the same summary as its source" until_ok 5 doc_ok
    tm send-keys -t doc q
    wait_screen doc 10 "stagetop-exit=0" >/dev/null
    start_pane docin 120 40 "'$STAGETOP' replay - < '$exported'"
    check "a JSON document on stdin: read to its end, then shown" wait_screen docin 10 "stream ended (end record)"
    docin_ok() { cap docin && ex summary "$longest" "$T/docin.screen"; }
    check "a JSON document on stdin: the same summary as its source" until_ok 5 docin_ok
    tm send-keys -t docin q
    check "a JSON document on stdin: q exits 0" wait_screen docin 10 "stagetop-exit=0"
fi

# ---- bad files: exit 1, the line named, the terminal untouched ----------------
python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
recs = [{"type": "start", "stagetop": "0.1.0", "interval": 0.5, "command": "job"}]
recs += [{"type": "sample", "t": i * 0.5, "footprint": (100 + i) << 20, "swap_used": 0, "level": 50}
         for i in range(40)]
lines = [json.dumps(r) for r in recs]
# cut inside line 31: its text ends in the middle of a string
open(d + "/cut.jsonl", "w").write("\n".join(lines[:30]) + "\n" + lines[30][:25])
bad = lines[:]
bad[11] = '{"type":"sample","t":6.0,"footprint":-5,"swap_used":0,"level":50}'  # line 12
open(d + "/badline.jsonl", "w").write("\n".join(bad) + "\n")
PY
# A torn last line (a copy of a running record) is left out and said; the
# lines before it are kept (docs/reliability.md, docs/trace-format.md).
"$STAGETOP" summary "$T/cut.jsonl" >"$T/cut.out" 2>"$T/cut.err"
rc=$?
check "cut.jsonl: summary keeps the 30 whole lines (exit 0)" test "$rc" = 0
check "cut.jsonl: it says line 31 is cut and left out" grep -q "cut.jsonl: line 31 is cut .*left out, the 30 line(s) before it are read" "$T/cut.err"
start_pane cut 80 24 "'$STAGETOP' replay '$T/cut.jsonl'"
check "cut.jsonl in a terminal: the replay screen starts" \
    until_ok 10 sh -c "[ \"\$(tmux -L $TM_SOCK display -p -t cut '#{alternate_on}')\" = 1 ]"
check "cut.jsonl in a terminal: the screen says line 31 was cut and left out" \
    wait_screen cut 10 "line 31 is cut .*left out; the 30 before"
tm send-keys -t cut q
check "cut.jsonl in a terminal: q ends it (exit 0)" wait_screen cut 10 "stagetop-exit=0"
tm kill-session -t cut
for spec in "badline.jsonl 12"; do
    set -- $spec
    bad_line=$2
    "$STAGETOP" replay "$T/$1" >"$T/bad.out" 2>"$T/bad.err" </dev/null
    rc=$?
    check "$1: exit 1" test "$rc" = 1
    check "$1: the error names line $2" grep -q "$1: line $2: " "$T/bad.err"
    check "$1: nothing written to stdout" test ! -s "$T/bad.out"
    start_pane bad 80 24 "'$STAGETOP' replay '$T/$1'"
    check "$1 in a terminal: exit 1 with the message" wait_screen bad 10 "stagetop-exit=1"
    screen_untouched() {
        [ "$(tm display -p -t bad '#{alternate_on}')" = 0 ] && screen bad | grep -q "line $bad_line: "
    }
    check "$1 in a terminal: no screen was started" screen_untouched
    tm kill-session -t bad
done

# ---- replay - : following a stream on a FIFO -------------------------------------
emit() { # from to footprint_mib level: samples every 0.5 s
    python3 -c '
import json, sys
a, b, mib, lev = map(int, sys.argv[1:])
for i in range(a, b):
    print(json.dumps({"type": "sample", "t": i * 0.5, "footprint": mib << 20, "swap_used": 1 << 30, "level": lev}))
' "$@" >&3
}
mkfifo "$T/feed"
start_pane fol 120 40 "'$STAGETOP' replay - < '$T/feed'"
exec 3<>"$T/feed"
check "replay -: waiting for data" wait_screen fol 10 "waiting for data on stdin"
echo '{"type":"start","stagetop":"0.1.0","interval":0.5,"pid":4242,"command":"remote-job","host":"mac"}' >&3
emit 0 200 100 60
check "replay -: the start record names the job" wait_screen fol 10 "pid 4242 remote-job  on mac"
check "replay -: following, with the first samples" wait_screen fol 10 "following stdin: 201 lines"
check "replay -: the footprint lane shows them ($(ex fmt $((100 << 20))))" wait_screen fol 5 "^now  $(ex fmt $((100 << 20)))"
emit 200 400 300 40
check "replay -: samples written later appear ($(ex fmt $((300 << 20))))" wait_screen fol 10 "^now  $(ex fmt $((300 << 20)))"
check "replay -: the peak follows" wait_screen fol 5 "^peak $(ex fmt $((300 << 20)))"
echo 'this is { not json' >&3
check "replay -: a junk line is reported with its number" wait_screen fol 10 "skipped 1 malformed line; last: line 402: "
check "replay -: the header counts it" wait_screen fol 5 "1 bad line skipped"
emit 400 600 500 30
check "replay -: after the junk line the stream goes on" wait_screen fol 10 "^now  $(ex fmt $((500 << 20)))"
check "replay -: all good samples are counted" wait_screen fol 5 "^600 samples "
tm send-keys -t fol Left
check "replay -: Left holds the window" wait_screen fol 5 "window held; End follows"
emit 600 700 700 20
check "replay -: data still arrives while the window is held" wait_screen fol 10 "^700 samples "
held() { screen fol | grep -q "^now  $(ex fmt $((500 << 20)))" && ! screen fol | grep -q "^now  $(ex fmt $((700 << 20)))"; }
check "replay -: a held window does not jump to the newest sample" held
tm send-keys -t fol End
check "replay -: End follows the newest sample again" wait_screen fol 5 "^now  $(ex fmt $((700 << 20)))"
echo '{"type":"end"}' >&3
exec 3>&-
check "replay -: the end of the stream is shown, with its end record" wait_screen fol 10 "stream ended (end record)"
tm send-keys -t fol q
check "replay -: q exits 0" wait_screen fol 10 "stagetop-exit=0"
restored() { [ "$(tm display -p -t fol '#{alternate_on}')" = 0 ] && ! screen fol | grep -q 'REPLAY'; }
check "replay -: q: the terminal is restored" until_ok 5 restored
tm kill-session -t fol

# a stream that stops without an end record (the remote stagetop was killed)
rm -f "$T/feed"; mkfifo "$T/feed"
start_pane cut 120 40 "'$STAGETOP' replay - < '$T/feed'"
exec 3<>"$T/feed"
echo '{"type":"start","stagetop":"0.1.0","interval":0.5}' >&3
emit 0 10 100 60
check "replay - cut short: samples shown" wait_screen cut 10 "^10 samples "
exec 3>&-
check "replay - cut short: the header says the stream ended without an end record" \
    wait_screen cut 10 "stream ended without an end record"
tm send-keys -t cut q
check "replay - cut short: q exits 0" wait_screen cut 10 "stagetop-exit=0"
