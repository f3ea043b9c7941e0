# bench/holdmem.sh: sourced by the benchmarks that measure a tree held by
# tests/workloads/holdmem (bench/sampling.sh, bench/metrics.sh).

# holdmem_ready OUT: polls holdmem's output file OUT (30 s at most) for its
# "ready PID ..." line and prints PID; fails when it never comes.
holdmem_ready() {
    _i=0
    until grep -q '^ready ' "$1" 2>/dev/null; do
        _i=$((_i + 1)); [ $_i -lt 600 ] || { echo "holdmem did not start ($1)" >&2; return 1; }
        sleep 0.05
    done
    sed -n 's/^ready \([0-9]*\) .*/\1/p' "$1"
}
