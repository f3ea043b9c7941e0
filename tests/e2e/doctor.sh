#!/bin/sh
# doctor.sh: `stagetop doctor` end to end, on real processes.  A workload
# holds 300 MiB of random bytes; `doctor -p PID --json` must agree on every
# lane, name each reference's source, and its numbers must match what this
# test reads itself (/proc/PID/statm, /proc/meminfo).  Also: a missing pid
# (exit 1, named), doctor's own child (exit 0, reaped), the table, bad usage
# (exit 2), and the GPU row through the fake NVML (tests/fakenvml): with no
# nvidia-smi it says "no reference" and does not fail; a stand-in nvidia-smi
# that agrees passes, one that disagrees makes doctor exit 1.
set -u
. "$(dirname "$0")/../lib/common.sh"
: "${ST_BUILD:=build}"
case $ST_BUILD in /*) B=$ST_BUILD ;; *) B=$PWD/$ST_BUILD ;; esac
FAKE=$B/fakenvml/libnvidia-ml.so.1

need_tool doctor python3 python3 || exit 0
[ -x "$WORKLOADS/holdmem" ] || { skip doctor "no $WORKLOADS/holdmem (make tests builds it)"; exit 0; }
# the references of rss and level (procps; scripts/deps.sh installs it)
need_tool doctor ps procps || exit 0
need_tool doctor free procps || exit 0

T=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null; cleanup_jobs; rm -rf "$T"' EXIT

mkfifo "$T/hold.in"
"$WORKLOADS/holdmem" --mib 300 <"$T/hold.in" >"$T/hold.out" &
HOLD=$!
remember_job $HOLD
exec 3>"$T/hold.in" # holdmem lives while its stdin is open
wait_for "holdmem holds 300 MiB" 120 grep -q '^ready' "$T/hold.out" || { echo "FAIL: doctor: holdmem not ready"; exit 1; }

# --- -p PID --json on a process holding 300 MiB ------------------------------------
cp /proc/meminfo "$T/meminfo.before"
"$STAGETOP" doctor -p "$HOLD" --json >"$T/p.json" 2>"$T/p.err"
rc=$?
cp /proc/meminfo "$T/meminfo.after"
check "doctor -p PID --json: exit 0 (every lane agrees)" sh -c "[ $rc -eq 0 ] || { cat '$T/p.err' '$T/p.json'; exit 1; }"
check "doctor -p PID --json: every lane agrees, each names its source, numbers match this test's own reads" \
    python3 - "$T/p.json" "$HOLD" "$T/meminfo.before" "$T/meminfo.after" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
pid = int(sys.argv[2])
page = os.sysconf("SC_PAGE_SIZE")
assert d["pid"] == pid and d["own_child"] is False and d["ok"] is True, d
c = {x["lane"]: x for x in d["checks"]}
need = ["footprint", "rss", "kernel peak", "swap used", "level", "cpu", "pageins"]
if os.path.exists("/proc/pressure/memory"):
    need.append("pressure")
for lane in need:
    x = c.get(lane)
    assert x is not None, f"no {lane} check: {sorted(c)}"
    assert x["ok"] is True, x
    assert x["source"] and x["reference"] is not None, x
for lane, x in c.items():  # nothing else may fail, and a lane left unchecked says why
    assert x["ok"] is not False, x
    assert x["ok"] is True or x["note"], x
# the Mac's rows (docs/doctor.md): here, not checked, no value, each saying it is macOS only
for lane in ("gpu system", "wired limit", "mps high", "mps low"):
    x = c.get(lane)
    assert x is not None, f"no {lane} row: {sorted(c)}"
    assert x["ok"] is None and x["stagetop"] is None and x["reference"] is None, x
    assert x["note"].startswith("macOS only (") and x["note"].endswith("not checked on linux"), x
assert c["mps high"]["unit"] == "ratio_milli", c["mps high"]
# the workload holds 300 MiB of its own: footprint and rss at least that, not far above
mib = 1 << 20
fp, rss = c["footprint"]["stagetop"], c["rss"]["stagetop"]
assert 300 * mib <= fp <= 300 * mib + 32 * mib, fp
# this test's own read: /proc/PID/statm's resident pages
resident = int(open(f"/proc/{pid}/statm").read().split()[1]) * page
assert abs(rss - resident) <= max(rss // 100, 4 * mib), (rss, resident)
assert c["kernel peak"]["stagetop"] >= 300 * mib
# cpu (ms) and pageins against this test's own read of /proc/PID/stat (fields 12, 14, 15)
st = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
hz = os.sysconf("SC_CLK_TCK")
assert c["cpu"]["unit"] == "ms" and c["pageins"]["unit"] == "count", (c["cpu"], c["pageins"])
assert abs(c["cpu"]["stagetop"] - (int(st[11]) + int(st[12])) * 1000 // hz) <= 20, (c["cpu"], st)
assert c["cpu"]["stagetop"] > 0, c["cpu"]  # it filled 300 MiB with random bytes
assert c["pageins"]["stagetop"] == int(st[9]), (c["pageins"], st)
# level, in percent, against /proc/meminfo copied here just before and after doctor ran
# (the machine is shared: other jobs move it; 3 points around the two copies)
def level(path):
    mi = {l.split(":")[0]: int(l.split()[1]) for l in open(path) if l.split()[1:2]}
    return mi["MemAvailable"] * 100 / mi["MemTotal"]
lo, hi = sorted((level(sys.argv[3]), level(sys.argv[4])))
assert lo - 3 <= c["level"]["stagetop"] <= hi + 3, (c["level"], lo, hi)
assert 0 <= c["level"]["stagetop"] <= 100
f = d["facts"]
assert f["backend"] == "linux" and f["rusage_flavor"] == "n/a" and f["kernel_peak"] is True, f
assert f["us_per_sample"] > 0 and f["samples_timed"] > 0, f
assert f["fd_limit"] is None or f["fd_limit"] > 0, f
print("ok:", {k: (v["stagetop"], v["reference"], v["source"]) for k, v in c.items()})
EOF

# --- a pid that does not exist ------------------------------------------------------
gone=$(free_pid)
"$STAGETOP" doctor -p "$gone" --json >"$T/gone.json" 2>"$T/gone.err"
rc=$?
check "doctor -p MISSING: exit 1, the message names the pid, nothing on stdout" \
    sh -c "[ $rc -eq 1 ] && grep -q 'no process' '$T/gone.err' && grep -q '$gone' '$T/gone.err' && [ ! -s '$T/gone.json' ]"

# --- no -p: doctor's own child ------------------------------------------------------------
"$STAGETOP" doctor --json >"$T/own.json" 2>"$T/own.err"
rc=$?
check "doctor without -p: exit 0, its own 256 MiB child agrees on every lane and is gone afterwards" \
    python3 - "$T/own.json" "$rc" <<'EOF'
import json, os, sys
assert sys.argv[2] == "0", "exit " + sys.argv[2]
d = json.load(open(sys.argv[1]))
mib = 1 << 20
assert d["own_child"] is True and d["child_bytes"] == 256 * mib and d["ok"] is True, d
c = {x["lane"]: x for x in d["checks"]}
assert 256 * mib <= c["footprint"]["stagetop"] <= 256 * mib + 32 * mib, c["footprint"]
peak = c["kernel peak"]
assert peak["ok"] is True and "ru_maxrss" in peak["source"], peak  # the reaped child's rusage
# the child was a fork of stagetop: if its pid exists now, it must be someone else
p = f"/proc/{d['pid']}/comm"
assert not os.path.exists(p) or open(p).read().strip() != "stagetop", "doctor's child was left behind"
EOF

# --- the table ------------------------------------------------------------------------------
"$STAGETOP" doctor -p "$HOLD" >"$T/table.txt" 2>&1
rc=$?
check "doctor -p PID (table): exit 0, a row per lane with its source, the facts, the verdict" \
    sh -c "[ $rc -eq 0 ] && grep -q '^footprint .*smaps_rollup' '$T/table.txt' && grep -q '^rss .*ps -o rss=' '$T/table.txt' \
        && grep -q '^level .*free -b' '$T/table.txt' && grep -q 'fd limit:' '$T/table.txt' \
        && grep -q 'us per sample' '$T/table.txt' && grep -q 'every checked lane agrees' '$T/table.txt' \
        || { cat '$T/table.txt'; exit 1; }"

# --- usage ------------------------------------------------------------------------------------
"$STAGETOP" doctor --bogus 2>"$T/u.err"; rc1=$?
"$STAGETOP" doctor -p 0 2>>"$T/u.err"; rc2=$?
"$STAGETOP" doctor -p 2>>"$T/u.err"; rc3=$?
check "doctor with a bad argument, pid 0, -p without a value: exit 2" \
    sh -c "[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && grep -q 'usage: stagetop doctor' '$T/u.err'"
"$STAGETOP" --help | grep -q 'stagetop doctor'
check "--help lists doctor" [ $? -eq 0 ]

# --- the GPU row, through the fake NVML -----------------------------------------------------------
if [ ! -f "$FAKE" ]; then
    skip "doctor gpu row" "no $FAKE (make tests builds it)"
elif command -v nvidia-smi >/dev/null 2>&1; then
    skip "doctor gpu row" "a real nvidia-smi is installed: it would not know the fake NVML's processes (tests/gpu/README.md has the real-GPU check)"
else
    printf 'device 10G 141G Fake H200\ndriver 580.159.04-fake\nproc 0 %s 1G c\n' "$HOLD" >"$T/nvml.script"
    gpu() { # NAME [PATH]: run doctor with the fake NVML; the JSON to $T/NAME.json, exit code echoed
        ST_NVML_LIB=$FAKE FAKE_NVML_SCRIPT=$T/nvml.script PATH=${2:-$PATH} \
            "$STAGETOP" doctor -p "$HOLD" --json >"$T/$1.json" 2>"$T/$1.err"
        echo $?
    }
    rc=$(gpu nosmi)
    check "GPU row without nvidia-smi: the lane is read (1 GiB), 'no reference', not a failure (exit 0)" \
        python3 - "$T/nosmi.json" "$rc" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
g = [x for x in d["checks"] if x["lane"] == "gpu"]
assert sys.argv[2] == "0" and d["ok"] is True, (sys.argv[2], d)
assert g and g[0]["stagetop"] == 1 << 30 and g[0]["reference"] is None and g[0]["ok"] is None, g
assert "no reference" in g[0]["note"] and "nvidia-smi" in g[0]["source"], g
n = d["facts"]["nvml"]
assert n["found"] is True and n["devices"] == ["Fake H200"] and n["version"] == "580.159.04-fake", n
EOF
    # A stand-in nvidia-smi: prints the query's CSV for the held pid.
    mkdir -p "$T/bin"
    for mib in 1024 512; do
        printf '#!/bin/sh\necho "%s, %s"\necho "1, 77"\n' "$HOLD" "$mib" >"$T/bin/nvidia-smi"
        chmod +x "$T/bin/nvidia-smi"
        rc=$(gpu "smi$mib" "$T/bin:$PATH")
        echo "$rc" >"$T/smi$mib.rc"
    done
    check "GPU row with an nvidia-smi that agrees (1024 MiB): ok, exit 0" \
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); g=[x for x in d["checks"] if x["lane"]=="gpu"][0]; assert open(sys.argv[2]).read().strip()=="0" and g["ok"] is True and g["reference"]==1<<30, g' \
        "$T/smi1024.json" "$T/smi1024.rc"
    check "GPU row with an nvidia-smi that disagrees (512 MiB): the lane fails, ok false, exit 1" \
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); g=[x for x in d["checks"] if x["lane"]=="gpu"][0]; assert open(sys.argv[2]).read().strip()=="1" and g["ok"] is False and d["ok"] is False and g["reference"]==512<<20, (g, d["ok"])' \
        "$T/smi512.json" "$T/smi512.rc"
fi
