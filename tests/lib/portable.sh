# portable.sh FILE...: the GNU/Linux-only idioms in shell tests that a Mac
# runs (macOS: bash 3.2 as sh, BSD sed/grep/awk/ps/date/stat/readlink, no
# coreutils, no /proc).  One line per finding, "FILE:LINE: WHAT: TEXT";
# exit 1 when there is any.  Comment lines are not read; a line that says
# `# portable: REASON` is taken as checked by hand (REASON must be given).
# tests/lib/portable.test.sh runs it on every test not in
# tests/linux-only.txt, and on a sample of each idiom.
awk '
function hit(what) { printf "%s:%d: %s: %s\n", FILENAME, FNR, what, $0; n++ }
/^[ \t]*#/ { next }
/# portable: [^ ]/ { next }
{
    line = $0
    if (line ~ /kill[ \t]+-[1-9][0-9]*([ \t]|$)/ || line ~ /kill[ \t]+-s[ \t]+[1-9][0-9]*/)
                                                                hit("numeric signal (numbers differ on macOS: use names)")
    if (line ~ /(^|[^a-z_])trap[ \t].*[ \t][1-9][0-9]*[ \t]*(;|$)/) hit("numeric signal in trap (use names)")
    if (line ~ /(USR1|USR2|BUS|CHLD|CONT|STOP|TSTP|URG|SYS|IO|POLL)\)[ \t]*echo[ \t]+[0-9]/ ||
        line ~ /SIG(USR1|USR2|BUS|CHLD|CONT|STOP|TSTP|URG|SYS)[ \t]*=[ \t]*[0-9]/)
                                                                hit("a signal number written down (the Linux numbers: use names)")
    if (line ~ /(^|[^a-zA-Z_])sed[ \t]+(-[a-zA-Z]*[ \t]+)*-i([ \t]|$)/ ||
        line ~ /(^|[^a-zA-Z_])sed[ \t]+-[a-zA-Z]*r/ || line ~ /(^|[^a-zA-Z_])sed[ \t]+--[a-z]/)                              hit("GNU sed option (-i without suffix, -r, --long)")
    if (line ~ /(^|[^a-zA-Z_])(sed|grep)[ \t].*\\[|+?]/)                       hit("GNU BRE escape (\\| \\+ \\?): use -E")
    if (line ~ /(^|[^a-zA-Z_])grep[ \t]+(-[a-zA-Z]*[ \t]+)*-[a-zA-Z]*P/ ||
        line ~ /(^|[^a-zA-Z_])grep[ \t]+(-[a-zA-Z]*[ \t]+)*--[a-z]/)
                                                                hit("GNU grep option (-P, --long)")
    if (line ~ /(^|[^a-zA-Z_])date[ \t].*%N/ || line ~ /(^|[^a-zA-Z_])date[ \t]+(-[a-zA-Z]*[ \t]+)*-d[ \t]/ ||
        line ~ /(^|[^a-zA-Z_])date[ \t]+--/)
                                                                hit("GNU date (%N, -d, --long)")
    if (line ~ /(^|[^a-zA-Z_])stat[ \t]+(-[a-zA-Z]*[ \t]+)*-c[ \t]/ || line ~ /(^|[^a-zA-Z_])stat[ \t]+--[a-z]/)
                                                                hit("GNU stat (-c, --long: BSD stat uses -f)")
    if (line ~ /(^|[^a-zA-Z_])readlink[ \t]+-[a-zA-Z]*[fem]/ || line ~ /(^|[^a-zA-Z_])readlink[ \t]+--/)
                                                                hit("GNU readlink (-f -e -m)")
    if (line ~ /(^|[^a-zA-Z_$./-])timeout[ \t]+(-[a-z][ \t]+[0-9]+[ \t]+)?[0-9]/)
                                                                hit("timeout (GNU coreutils: not on macOS)")
    if (line ~ /(^|[^a-zA-Z_.$-])setsid[ \t]+[^(]/ && line !~ /os\.setsid/)
                                                                hit("setsid command (util-linux: macOS has none; python os.setsid())")
    if (line ~ /(^|[^a-zA-Z_])ps[ \t].*-o[ \t]*[a-z,=]*sid/) hit("ps -o sid (Apple ps has no sid keyword: os.getsid)")
    if (line ~ /(^|[^a-zA-Z_])ps[ \t].*--[a-z]/)              hit("ps --long option (BSD ps: -p, pgrep -P, ps -A -o ppid=)")
    if (line ~ /(^|[^a-zA-Z_])script[ \t]+(-[a-zA-Z]*[ \t]+)*-[a-zA-Z]*c/)
                                                                hit("script -c (util-linux: Apple script takes the command after the file)")
    if (line ~ /\/proc\//)                                      hit("/proc (Linux only)")
    if (line ~ /C\.UTF-8/)                                      hit("C.UTF-8 (macOS 15 and later only)")
    if (line ~ /xargs[ \t]+(-[a-zA-Z]*[ \t]+)*-[a-zA-Z]*r/ || line ~ /find[ \t].*-printf/ || line ~ /(^|[^a-z_])nproc([ \t]|$|\))/)
                                                                hit("GNU findutils/coreutils (xargs -r, find -printf, nproc)")
}
END { exit n > 0 }
' "$@"
