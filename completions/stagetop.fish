# fish completion for stagetop(1).  `make install` puts it in
# PREFIX/share/fish/vendor_completions.d/stagetop.fish (fish loads it when
# `stagetop` is first completed).  Its options, subcommands and values are
# those of `stagetop --help` (tui/usage.c): tests/make/completions.test.sh
# checks them against it and completes with `complete -C`.

set -l cmds replay summary plot mark stage diff report doctor
set -l main "not __fish_seen_subcommand_from $cmds; and not contains -- -- (commandline -opc)"

function __stagetop_lanes # --lanes takes a comma-separated list: complete its last item
    set -l pre (string replace -r '[^,]*$' '' -- (commandline -ct))
    for l in footprint rss swap level procs gpu pressure tree_swap cpu pageins compressed limit_free footprint_age metal tree_compressed gpu_system
        echo $pre$l
    end
end

function __stagetop_job # after --: the job's own command line
    set -l args (commandline -opc)
    set -l i (contains -i -- -- $args)
    complete -C (string join ' ' -- (string escape -- $args[(math $i + 1)..-1]) (commandline -ct))
end

complete -c stagetop -f
complete -c stagetop -n "contains -- -- (commandline -opc)" -x -a '(__stagetop_job)'

# The subcommands, as the first word.
complete -c stagetop -n "$main; and test (count (commandline -opc)) -eq 1" -a replay -d 'view a saved trace'
complete -c stagetop -n "$main; and test (count (commandline -opc)) -eq 1" -a summary -d "a trace's summary as JSON"
complete -c stagetop -n "$main; and test (count (commandline -opc)) -eq 1" -a plot -d 'a trace as an SVG chart'
complete -c stagetop -n "$main; and test (count (commandline -opc)) -eq 1" -a mark -d 'mark a moment (inside a job)'
complete -c stagetop -n "$main; and test (count (commandline -opc)) -eq 1" -a stage -d 'start a stage (inside a job)'
complete -c stagetop -n "$main; and test (count (commandline -opc)) -eq 1" -a diff -d 'compare two traces'
complete -c stagetop -n "$main; and test (count (commandline -opc)) -eq 1" -a report -d 'a trace as Markdown'
complete -c stagetop -n "$main; and test (count (commandline -opc)) -eq 1" -a doctor -d 'check every number'

# The options of a watch.
complete -c stagetop -n $main -s p -l pid -x -a '(__fish_complete_pids)' -d 'the root of the tree to watch'
complete -c stagetop -n $main -s i -l interval -x -d 'seconds between samples'
complete -c stagetop -n $main -s r -l record -r -F -d 'stream every record to FILE'
complete -c stagetop -n $main -l overwrite -d 'let the record replace an existing file'
complete -c stagetop -n $main -l record-sync -x -a 'never 1s always' -d 'how often the record is synced'
complete -c stagetop -n $main -l headless -d 'no screen'
complete -c stagetop -n $main -l jsonl -d '(headless) JSONL records to stdout'
complete -c stagetop -n $main -l history -x -d 'how much the screen keeps'
complete -c stagetop -n $main -l export-dir -x -a '(__fish_complete_directories)' -d 'where e writes traces'
complete -c stagetop -n $main -l swap-budget -x -d 'act when swap grows more than SIZE'
complete -c stagetop -n $main -l kill-free -x -d 'act when the level stays under PCT'
complete -c stagetop -n $main -l on-budget -x -a 'pause kill' -d 'what the guard does'
complete -c stagetop -n $main -l wait-free -x -d 'wait until the level is at least PCT'
complete -c stagetop -n $main -l start-timeout -x -d 'give up waiting after this long'
complete -c stagetop -n $main -l grace -x -d 'seconds between SIGTERM and SIGKILL'
complete -c stagetop -n $main -l job-log -r -F -d "the job's output"
complete -c stagetop -n $main -l events -r -F -d 'follow a stageload trace'
complete -c stagetop -n $main -l keep-events -d "keep the job's events file"
complete -c stagetop -n $main -l ascii -d 'ASCII drawing'
complete -c stagetop -n $main -l lanes -x -a '(__stagetop_lanes)' -d "the screen's lanes"
complete -c stagetop -n $main -l sort -x -a 'pid footprint rss swap gpu state cpu pageins command' -d 'the process list sorted by'
complete -c stagetop -n $main -l tree -d 'the process list as the tree'
complete -c stagetop -n $main -l no-gpu -d 'no GPU lane'
complete -c stagetop -n $main -l metrics -r -F -d 'Prometheus text file'
complete -c stagetop -n $main -l metrics-label -x -d 'a label NAME=VALUE'
complete -c stagetop -n $main -l notify -d 'bell and desktop notification'
complete -c stagetop -n $main -l report -r -F -d "the run's report"
complete -c stagetop -n $main -l plot -r -F -d "the run's chart"
complete -c stagetop -n $main -l quiet -d 'no closing summary'
complete -c stagetop -n $main -l allow-wide -d 'signal a wide tree too'
complete -c stagetop -n $main -s h -l help -d 'the help'
complete -c stagetop -n $main -s V -l version -d 'the version'

# Each subcommand's options and files.
complete -c stagetop -n "__fish_seen_subcommand_from replay summary plot diff report" -F
complete -c stagetop -n "__fish_seen_subcommand_from replay" -l ascii -d 'ASCII drawing'
complete -c stagetop -n "__fish_seen_subcommand_from replay" -l export-dir -x -a '(__fish_complete_directories)' -d 'where e writes traces'
complete -c stagetop -n "__fish_seen_subcommand_from summary" -l text -d 'for a terminal'
complete -c stagetop -n "__fish_seen_subcommand_from plot report" -s o -r -F -d 'the output file'
complete -c stagetop -n "__fish_seen_subcommand_from diff" -l json -d 'as JSON'
complete -c stagetop -n "__fish_seen_subcommand_from diff" -l fail-peak -x -d 'exit 1 when the peak grew more than PCT'
complete -c stagetop -n "__fish_seen_subcommand_from diff" -l fail-time -x -d 'exit 1 when the duration grew more than PCT'
complete -c stagetop -n "__fish_seen_subcommand_from doctor" -s p -x -a '(__fish_complete_pids)' -d 'the process to check'
complete -c stagetop -n "__fish_seen_subcommand_from doctor" -l json -d 'as JSON'
complete -c stagetop -n "__fish_seen_subcommand_from doctor" -l no-gpu -d 'no GPU row'
