#!/bin/sh
# stagetop's own memory after 100,000 samples (goal: under 8 MiB), and after
# 1,000,000 to show that it stays flat once the ring is full.
B=${1:-build}
make --no-print-directory "$B/bench/monitor_rss" >/dev/null || exit 1
"$B/bench/monitor_rss" 100000 0.01
"$B/bench/monitor_rss" 1000000 0.5
