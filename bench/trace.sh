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

peer_doc="n/a n/a" peer_jsonl="n/a n/a"
if command -v python3 >/dev/null 2>&1; then   # wall and CPU seconds
    peer_doc=$(python3 -c '
import json, sys, time
t, c = time.perf_counter(), time.process_time()
json.load(open(sys.argv[1]))
print("%.3f %.3f" % (time.perf_counter() - t, time.process_time() - c))' "$dir/bench.json")
    peer_jsonl=$(python3 -c '
import json, sys, time
t, c = time.perf_counter(), time.process_time()
recs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines() if l.strip()]
print("%.3f %.3f" % (time.perf_counter() - t, time.process_time() - c))' "$dir/bench.jsonl")
fi
# cJSON's tree on the same document, against the codec, one process each
# (so each VmHWM is that reader's own): why the product does not use cJSON.
tree="n/a n/a n/a" codec="n/a n/a n/a"
if [ -x "$B/bench/cjson-tree" ]; then
    tree=$("$B/bench/cjson-tree" cjson "$dir/bench.json") || tree="n/a n/a n/a"
    codec=$("$B/bench/cjson-tree" codec "$dir/bench.json") || codec="n/a n/a n/a"
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.1fx", a / b; else print "n/a" }'; }
extra=$(val export_extra_kib)
extra_mib=$(awk -v k="${extra:-}" 'BEGIN { if (k == "") print "n/a"; else printf "%.1f", k / 1024 }')
pd_wall=${peer_doc% *} pd_cpu=${peer_doc#* } pj_wall=${peer_jsonl% *} pj_cpu=${peer_jsonl#* }

echo "trace bench: $(val samples) samples, $(val events) events, files in ${TMPDIR:-/tmp}"
echo "($(uname -sr), $(nproc 2>/dev/null || echo ?) CPUs, load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?));" \
     "wall and CPU (user+sys) seconds; ratio = python3 CPU / stagetop CPU"
printf '%-38s %8s %8s %10s %18s\n' "operation" "wall" "CPU" "goal" "python3 (CPU) ratio"
printf '%-38s %7ss %7ss %10s %18s\n' "export JSON ($(val export_mb) MB, fsync)" "$(val export_s)" "$(val export_cpu)" "< 1 s" "-"
printf '%-38s %16s %10s %18s\n' "export: peak extra memory (VmHWM)" "$extra_mib MiB" "< 16 MiB" "-"
printf '%-38s %7ss %7ss %10s %18s\n' "import JSON (same samples: $(val import_same))" "$(val import_s)" "$(val import_cpu)" \
    "< 1 s" "${pd_cpu}s $(ratio "$pd_cpu" "$(val import_cpu)")"
printf '%-38s %7ss %7ss %10s %18s\n' "record JSONL ($(val record_mb) MB, 1 write/line)" "$(val record_s)" "$(val record_cpu)" "-" "-"
printf '%-38s %7ss %7ss %10s %18s\n' "import JSONL" "$(val import_jsonl_s)" "$(val import_jsonl_cpu)" "-" \
    "${pj_cpu}s $(ratio "$pj_cpu" "$(val import_jsonl_cpu)")"
set -- $tree; t_wall=$1 t_cpu=$2 t_kib=$3
set -- $codec; c_wall=$1 c_cpu=$2 c_kib=$3
mib() { awk -v k="$1" 'BEGIN { if (k + 0 > 0) printf "%.0f MiB", k / 1024; else print "n/a" }'; }
echo
echo "the same JSON document read by a fresh process: peak RSS (VmHWM) and CPU"
printf '%-38s %8s %8s %12s\n' "reader" "wall" "CPU" "peak RSS"
printf '%-38s %7ss %7ss %12s\n' "stagetop codec (st_trace_load_file)" "$c_wall" "$c_cpu" "$(mib "$c_kib")"
printf '%-38s %7ss %7ss %12s\n' "cJSON tree (cJSON_Parse + walk)" "$t_wall" "$t_cpu" "$(mib "$t_kib")"
echo "cJSON / codec: CPU $(ratio "$t_cpu" "$c_cpu"), peak RSS $(ratio "$t_kib" "$c_kib")"
