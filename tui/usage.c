/* usage.c: `stagetop --help`: the options, keys and exit codes (stagetop(1)
 * says each in full), and the GPU lane's one line. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "stagetop/doctor.h"

void cli_usage(FILE *f)
{
    fprintf(f,
"usage: stagetop -p PID [options]            watch PID and every descendant, live\n"
"       stagetop [options] -- CMD [ARG...]   start CMD in its own process group and watch it\n"
"       stagetop [options]                   pick a process tree from the largest ones\n"
"       stagetop replay FILE|-               view a saved trace; - follows a JSONL stream on stdin\n"
"       stagetop summary [--text] FILE|-     print a trace's summary as JSON (--text: for\n"
"                                            a terminal: exit, time, peaks, swap, stages)\n"
"       stagetop plot FILE -o OUT.svg        draw a trace as an SVG chart for a bug report\n"
"       stagetop mark TEXT | stage NAME      (inside a job stagetop started) mark a moment or\n"
"                                            a stage: appends to $STAGETOP_EVENTS\n"
"       stagetop plot A B -o OUT.svg         two traces on one chart (A solid, B dashed)\n"
"       stagetop diff [--json] [--fail-peak PCT] [--fail-time PCT] A B\n"
"                                            compare two traces: stages, times, peaks, swap;\n"
"                                            --fail-peak (--fail-time) exit 1 when B's peak\n"
"                                            footprint (duration) is more than PCT %% above\n"
"                                            A's (2: bad usage/input)\n"
"       stagetop report FILE|A B [-o OUT.md] a trace (or two compared) as Markdown\n"
"                                            (-o r.md: the SVG chart beside it, r.svg)\n"
"       stagetop doctor [-p PID] [--json]    check every number against an independent source\n"
"\n"
"Watches a process tree's memory footprint, the system's swap used and its\n"
"memory-available level; p pauses the job, k kills it, e exports the trace.\n"
"\n"
"options:\n"
"  -p, --pid PID           the root of the tree to watch\n"
"  -i, --interval SEC      seconds between samples, 0.01..60 (default 0.5)\n"
"  -r, --record FILE       stream every record to FILE as JSONL (flushed per line);\n"
"                          a FILE ending in .json gets the JSON trace at the end\n"
"      --overwrite         let --record replace an existing FILE (refused without)\n"
"      --record-sync WHEN  never, 1s or always: how often the record is pushed to\n"
"                          the disk (default 1s: at most once a second, and\n"
"                          soon after an event or a guard action: 10/s at most)\n"
"      --headless          no screen (needed without a terminal: the screen is\n"
"                          refused with exit 2 before the job starts)\n"
"      --jsonl             (headless) write JSONL records to stdout (the job's\n"
"                          stdout then goes to stderr: the trace is stagetop's)\n"
"      --history DURATION  how much the screen and export keep (default 2h)\n"
"      --export-dir DIR    where `e` writes traces (default .)\n"
"      --swap-budget SIZE  act when swap grows more than SIZE (8G, 512M) above its start\n"
"      --kill-free PCT     act when the memory level stays under PCT for two samples\n"
"      --on-budget ACTION  pause or kill (default: pause with a screen, kill headless)\n"
"      --wait-free PCT     (with CMD) wait until the level is at least PCT to start\n"
"      --start-timeout DURATION  give up waiting after this long (default 30m; exit 4)\n"
"      --grace SEC         seconds between SIGTERM and SIGKILL on kill (default 5)\n"
"      --job-log FILE      (with CMD and a screen) the job's output (default\n"
"                          stagetop-job-TIME.log in the export dir)\n"
"      --events FILE       follow a stageload trace the job writes (its stages and\n"
"                          loads become markers and trace events); without it -p\n"
"                          follows the job's own $STAGETOP_EVENTS, $STAGELOAD_TRACE\n"
"      --keep-events       (with CMD) keep the job's $STAGETOP_EVENTS file at the end\n"
"      --ascii             ASCII drawing (also with a non-UTF-8 locale)\n"
"      --lanes LIST        the screen's lanes, e.g. footprint,swap,level,cpu,pageins\n"
"                          (default footprint,swap,level and gpu; key l adds CPU and\n"
"                          page-ins); any of footprint rss swap level procs gpu\n"
"                          pressure tree_swap cpu pageins compressed limit_free\n"
"                          footprint_age metal tree_compressed (the last two:\n"
"                          macOS)\n"
"      --no-gpu            no GPU lane (NVIDIA, Linux)\n"
"      --metrics FILE      after each sample, replace FILE with the latest values in\n"
"                          Prometheus text format (node_exporter's textfile collector)\n"
"      --metrics-label NAME=VALUE  (repeatable, with --metrics) a label on the\n"
"                          job's series naming it across runs: job_name=gen\n"
"      --notify            bell + desktop notification (OSC 9/777; tmux passthrough)\n"
"                          when the guard acts, the job ends, or a limit is near\n"
"      --report OUT.md     when the run ends, its report (as stagetop report)\n"
"      --plot OUT.svg      when the run ends, its chart (as stagetop plot)\n"
"      --quiet             no closing summary on stderr\n"
"      --allow-wide        let p, k and the guard signal a wide tree (one holding\n"
"                          stagetop, or over half of the machine's processes);\n"
"                          without it such a tree is watched read-only\n"
"  -h, --help              this help\n"
"  -V, --version           the version\n"
"\n"
"keys: p pause/resume  k kill  e export  m mark  s stages  o job output  l lanes\n"
"      space freeze  +/- zoom  ? help  q quit\n"
"exit: the command's own code; 3 the guard stopped it; 4 no room to start;\n"
"      2 bad usage; 1 could not watch; 128+N a signal N ended it\n"
"NO_COLOR turns colour off.  STAGETOP_CGROUP=0: no cgroup of its own for a\n"
"launched job (Linux).  See stagetop(1) and docs/ for what each number means.\n");
}

/* One line on the GPU lane: there, or why not. */
void cli_gpu_status(FILE *f)
{
    char line[256];
    st_doctor_gpu_line(getenv("ST_NVML_LIB"), line, sizeof line);
    fprintf(f, "GPU lane: %s\n", line);
}
