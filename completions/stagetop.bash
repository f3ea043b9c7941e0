# bash completion for stagetop(1).  `make install` puts it in
# PREFIX/share/bash-completion/completions/stagetop (bash-completion loads
# it when `stagetop` is first completed); or source it from ~/.bashrc.
# The options, subcommands and values below are those of `stagetop --help`
# (tui/usage.c): tests/make/completions.test.sh checks them against it and
# drives _stagetop with compgen.  Plain bash 3.2 (macOS's /bin/bash).

# Every option of --help; those that take a value; the subcommands; the
# values of --lanes, --on-budget, --record-sync and --sort.
_stagetop_opts='-p --pid -i --interval -r --record --overwrite --record-sync --headless --jsonl
    --history --export-dir --swap-budget --kill-free --on-budget --wait-free --start-timeout
    --grace --job-log --events --keep-events --ascii --lanes --sort --tree --no-gpu --metrics
    --metrics-label --notify --report --plot --quiet --allow-wide -h --help -V --version'
_stagetop_args='-p --pid -i --interval -r --record --record-sync --history --export-dir
    --swap-budget --kill-free --on-budget --wait-free --start-timeout --grace --job-log --events
    --lanes --sort --metrics --metrics-label --report --plot'
_stagetop_cmds='replay summary plot mark stage diff report doctor'
_stagetop_lanes='footprint rss swap level procs gpu pressure tree_swap cpu pageins compressed limit_free footprint_age metal tree_compressed gpu_system'
_stagetop_on_budget='pause kill'
_stagetop_record_sync='never 1s always'
_stagetop_sort='pid footprint rss swap gpu state cpu pageins command'
# Each subcommand's options (its usage line: `stagetop SUB --help`).
_stagetop_sub_replay='--ascii --export-dir'
_stagetop_sub_summary='--text'
_stagetop_sub_plot='-o'
_stagetop_sub_report='-o'
_stagetop_sub_diff='--json --fail-peak --fail-time'
_stagetop_sub_doctor='-p --json --no-gpu'

_stagetop_files() { # CUR: files and directories (-o filenames quotes and adds the /)
    local IFS='
'
    COMPREPLY=($(compgen -f -- "$1"))
}
_stagetop_dirs() { # CUR: directories
    local IFS='
'
    COMPREPLY=($(compgen -d -- "$1"))
}

_stagetop() {
    local cur prev cmd w i pre
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    # Read the words before this one: a subcommand, or `--` (the job follows).
    cmd="" i=1
    while [ "$i" -lt "$COMP_CWORD" ]; do
        w=${COMP_WORDS[i]}
        if [ "$w" = -- ] && [ -z "$cmd" ]; then
            if [ $((i + 1)) -eq "$COMP_CWORD" ]; then
                COMPREPLY=($(compgen -c -- "$cur"))   # the job's command
            else
                _stagetop_files "$cur"                # its arguments
            fi
            return 0
        fi
        case " $(echo $_stagetop_args) " in
        *" $w "*) [ -z "$cmd" ] && i=$((i + 1)) ;;    # a main option's value
        *) case $w in -*) ;; *) [ -z "$cmd" ] && [ "$i" -eq 1 ] && cmd=$w ;; esac ;;
        esac
        i=$((i + 1))
    done
    case $cmd in
    "")
        case $prev in
        -p|--pid) COMPREPLY=($(compgen -W "$(ps -A -o pid= 2>/dev/null)" -- "$cur")); return 0 ;;
        -r|--record|--job-log|--events|--metrics|--report|--plot) _stagetop_files "$cur"; return 0 ;;
        --export-dir) _stagetop_dirs "$cur"; return 0 ;;
        --on-budget) COMPREPLY=($(compgen -W "$_stagetop_on_budget" -- "$cur")); return 0 ;;
        --record-sync) COMPREPLY=($(compgen -W "$_stagetop_record_sync" -- "$cur")); return 0 ;;
        --sort) COMPREPLY=($(compgen -W "$_stagetop_sort" -- "$cur")); return 0 ;;
        --lanes) # a comma-separated list: complete its last item
            case $cur in *,*) pre=${cur%,*}, ;; *) pre="" ;; esac
            COMPREPLY=($(compgen -P "$pre" -W "$_stagetop_lanes" -- "${cur##*,}"))
            type compopt >/dev/null 2>&1 && compopt -o nospace 2>/dev/null
            return 0 ;;
        -i|--interval|--history|--swap-budget|--kill-free|--wait-free|--start-timeout|--grace|--metrics-label)
            return 0 ;;   # a number, a size, a duration, NAME=VALUE
        esac
        case $cur in
        -*) COMPREPLY=($(compgen -W "$_stagetop_opts --" -- "$cur")) ;;
        *) [ "$COMP_CWORD" -eq 1 ] && COMPREPLY=($(compgen -W "$_stagetop_cmds" -- "$cur")) ;;
        esac ;;
    replay)
        case $prev in --export-dir) _stagetop_dirs "$cur"; return 0 ;; esac
        case $cur in -*) COMPREPLY=($(compgen -W "$_stagetop_sub_replay" -- "$cur")) ;; *) _stagetop_files "$cur" ;; esac ;;
    summary)
        case $cur in -*) COMPREPLY=($(compgen -W "$_stagetop_sub_summary" -- "$cur")) ;; *) _stagetop_files "$cur" ;; esac ;;
    plot|report) # -o OUT, then the traces
        case $prev in -o) _stagetop_files "$cur"; return 0 ;; esac
        case $cur in -*) COMPREPLY=($(compgen -W "$_stagetop_sub_plot" -- "$cur")) ;; *) _stagetop_files "$cur" ;; esac ;;
    diff)
        case $prev in --fail-peak|--fail-time) return 0 ;; esac
        case $cur in
        -*) COMPREPLY=($(compgen -W "$_stagetop_sub_diff" -- "$cur")) ;;
        *) _stagetop_files "$cur" ;;
        esac ;;
    doctor)
        case $prev in -p|--pid) COMPREPLY=($(compgen -W "$(ps -A -o pid= 2>/dev/null)" -- "$cur")); return 0 ;; esac
        COMPREPLY=($(compgen -W "$_stagetop_sub_doctor" -- "$cur")) ;;
    esac
    return 0
}
complete -o filenames -F _stagetop stagetop
