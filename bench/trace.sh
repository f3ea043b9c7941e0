#!/bin/sh
# Trace speed: export and import of a 1,000,000-sample trace, each timed,
# with the peak extra memory of the export; python3's json module on the
# same files is the peer (ratio = peer time / stagetop time).
#   sh bench/trace.sh BUILD_DIR [N]     (called by `make bench`)
# Goals: export < 1 s, import < 1 s, export extra memory < 16 MiB.
set -u
B=${1:-build}
N=${2:-1000000}
BIN="$B/bench/trace-bench"
[ -x "$BIN" ] || { echo "trace bench: $BIN not built (make $BIN)"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/st-trace-bench.XXXXXX"); trap 'rm -rf "$dir"' EXIT
"$BIN" "$dir" "$N" >"$dir/out" || { cat "$dir/out"; exit 1; }
val() { sed -n "s/^$1 //p" "$dir/out"; }

peer_doc=n/a peer_jsonl=n/a
if command -v python3 >/dev/null 2>&1; then
    peer_doc=$(python3 -c '
import json, sys, time
t = time.perf_counter(); json.load(open(sys.argv[1])); print("%.3f" % (time.perf_counter() - t))' "$dir/bench.json")
    peer_jsonl=$(python3 -c '
import json, sys, time
t = time.perf_counter()
recs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines() if l.strip()]
print("%.3f" % (time.perf_counter() - t))' "$dir/bench.jsonl")
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.1fx", a / b; else print "n/a" }'; }
extra=$(val export_extra_kib)
extra_mib=$(awk -v k="${extra:-}" 'BEGIN { if (k == "") print "n/a"; else printf "%.1f", k / 1024 }')

echo "trace bench: $(val samples) samples, $(val events) events, files in ${TMPDIR:-/tmp} ($(uname -sr))"
printf '%-40s %10s %10s %14s\n' "operation" "result" "goal" "python3 peer"
printf '%-40s %9ss %10s %14s\n' "export JSON ($(val export_mb) MB, incl. fsync)" "$(val export_s)" "< 1 s" "-"
printf '%-40s %7s MiB %10s %14s\n' "export: peak extra memory (VmHWM)" "$extra_mib" "< 16 MiB" "-"
printf '%-40s %9ss %10s %14s\n' "import JSON (same samples: $(val import_same))" "$(val import_s)" "< 1 s" \
    "${peer_doc}s $(ratio "$peer_doc" "$(val import_s)")"
printf '%-40s %9ss %10s %14s\n' "record JSONL ($(val record_mb) MB, 1 write/line)" "$(val record_s)" "-" "-"
printf '%-40s %9ss %10s %14s\n' "import JSONL" "$(val import_jsonl_s)" "-" \
    "${peer_jsonl}s $(ratio "$peer_jsonl" "$(val import_jsonl_s)")"
