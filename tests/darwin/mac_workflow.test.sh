#!/bin/sh
# .github/workflows/macos.yml as GitHub reads it (Ruby's YAML): the check
# job builds and tests against both curses a Mac can link (a matrix leg
# each: Homebrew's keg and Apple's), with CURSES in the job's environment
# so the makes that tests start build the same way; the otool step checks
# each leg's library; and every step has its own timeout-minutes, their sum
# within the job's (docs/macos.md, "The workflow's time").
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
need_tool mac_workflow ruby ruby || exit 0
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
W=.github/workflows/macos.yml

ruby -ryaml -e '
j = YAML.load_file(ARGV[0])["jobs"]["check"]
puts "curses #{j["strategy"]["matrix"]["curses"].inspect}"
puts "env #{j.fetch("env", {})["CURSES"]}"
puts "job #{j["timeout-minutes"]}"
j["steps"].each { |s| puts "step #{s["timeout-minutes"] || "none"} #{s["name"] || s["uses"]}" }
o = j["steps"].find { |s| s["run"].to_s.include?("otool -L") }
puts "otool #{o ? o["run"].gsub("\n", " ") : "none"}"
' "$W" >"$T/w" 2>&1
check "ruby reads $W" sh -c "grep -q '^job ' '$T/w' || { cat '$T/w'; exit 1; }"
check "a matrix leg for each curses: [\"keg\", \"apple\"]" grep -qx 'curses \["keg", "apple"\]' "$T/w"
check "CURSES comes from the matrix, in the job's environment" grep -qxF 'env ${{ matrix.curses }}' "$T/w"
check "the otool step checks the keg's libncursesw.6 and Apple's libncurses.5.4" \
    sh -c "grep '^otool ' '$T/w' | grep -F 'keg)' | grep -F 'libncursesw\\.6\\.dylib' |
           grep -F 'apple)' | grep -qF '/usr/lib/libncurses\\.5\\.4\\.dylib'"
# Every step after checkout has a limit; the job's covers them all.
check "every step but the checkout has timeout-minutes" \
    sh -c "! grep '^step none ' '$T/w' | grep -v 'actions/checkout'"
sum=$(sed -n 's/^step \([0-9][0-9]*\) .*/\1/p' "$T/w" | awk '{ s += $1 } END { print s + 0 }')
job=$(sed -n 's/^job //p' "$T/w")
check "the steps' limits ($sum min) fit in the job's timeout-minutes ($job)" \
    sh -c "[ '$sum' -gt 0 ] && [ '$job' -ge '$sum' ]"
check "the sizing comment names the Linux figure and the runner's cores" \
    sh -c "grep -q 'about 13 min on the 2-core Linux' '$W' && grep -q 'macos-14/15 arm64 runners, M1' '$W'"
