#!/bin/sh
# --help (tui/usage.c), the man page (docs/stagetop.1) and the README name
# the same options:
#  - the options of --help (short and long) are exactly the man page's
#    OPTIONS entries (its .TP headings);
#  - every subcommand of --help's usage lines is in the man page's SYNOPSIS,
#    and each subcommand's options (its own usage line) are in the man page;
#  - the README names every option of --help, and every option it names (a
#    code span that starts with one, its usage lines) is one of --help's or
#    a subcommand's.
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
ST=$STAGETOP
opt_re='(^|[^A-Za-z0-9-])(-[A-Za-z]|--[a-z][a-z-]*[a-z])'
opts() { grep -o -E -- "$opt_re" | sed -E 's/^[^-]+//' | sort -u; }
same() { # description, file, file: the same lines
    if cmp -s "$2" "$3"; then echo "PASS: $1"; else
        echo "FAIL: $1"; diff "$2" "$3" | sed 's/^/    /' | head -20
    fi
}

"$ST" --help >"$T/help" 2>&1
sed -n '/^options:/,/^$/p' "$T/help" | grep -E '^ {2,6}-' | sed -E 's/^ +((-[A-Za-z], )?--[a-z-]+).*/\1/' |
    opts >"$T/help-opts"
# the man page's OPTIONS entries: the line after each .TP
sed 's/\\-/-/g' docs/stagetop.1 | sed -n '/^\.SH OPTIONS/,/^\.SH /p' | awk 'p { print; p = 0 } /^\.TP/ { p = 1 }' |
    sed -E 's/"[^"]*"//g; s/\\f[BIR]//g' | opts >"$T/man-opts"
check "--help lists $(wc -l <"$T/help-opts") options" sh -c "[ \$(wc -l <'$T/help-opts') -gt 30 ]"
same "the man page's OPTIONS entries are --help's options" "$T/help-opts" "$T/man-opts"

# subcommands: --help's usage lines, the man page's SYNOPSIS
sed -n 's/^\(usage:\)\{0,1\} *stagetop \([a-z][a-z]*\).*/\2/p' "$T/help" | sort -u >"$T/cmds"
printf 'mark\nstage\n' >>"$T/cmds"; sort -u -o "$T/cmds" "$T/cmds"
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' docs/stagetop.1 | sed -n 's/^\.B stagetop \([a-z][a-z]*\).*/\1/p' | sort -u >"$T/man-cmds"
same "the man page's SYNOPSIS has --help's subcommands ($(echo $(cat "$T/cmds")))" "$T/cmds" "$T/man-cmds"
sed 's/\\-/-/g' docs/stagetop.1 | opts >"$T/man-all"
: >"$T/sub-all"
for c in $(cat "$T/cmds"); do
    { "$ST" "$c" --help; "$ST" "$c"; } 2>&1 </dev/null | grep -E "^(stagetop: )?(usage:)? *stagetop $c( |\$)" |
        sed "s/.*stagetop $c//" | opts >"$T/sub-$c"
    cat "$T/sub-$c" >>"$T/sub-all"
    comm -23 "$T/sub-$c" "$T/man-all" >"$T/missing"
    check "stagetop $c's options ($(echo $(cat "$T/sub-$c"))) are in the man page" \
        sh -c "[ ! -s '$T/missing' ] || { cat '$T/missing'; exit 1; }"
done
sort -u -o "$T/sub-all" "$T/sub-all"
# each subcommand's --help: its usage on stdout, exit 0 (as diff and report do)
for c in $(cat "$T/cmds"); do
    check "stagetop $c --help prints its usage and ends 0" \
        sh -c "'$ST' $c --help </dev/null >'$T/h-$c' 2>'$T/e-$c' && grep -q '^usage: stagetop $c' '$T/h-$c' && [ ! -s '$T/e-$c' ]"
done

# the README: every option of --help; none that is not one.  Its options:
# a code span that starts with one (`--lanes LIST`, `-p`/`--pid PID`), and
# those of the usage lines in its Use block ("stagetop ..."); `sh -c` is not.
{ grep -o -E -- '`(-[A-Za-z]|--[a-z][a-z-]*[a-z])' README.md | tr -d '`'
  grep -E '^stagetop( |$)' README.md | opts; } | sort -u >"$T/readme-opts"
comm -23 "$T/help-opts" "$T/readme-opts" >"$T/missing"
check "the README names every option of --help" sh -c "[ ! -s '$T/missing' ] || { cat '$T/missing'; exit 1; }"
sort -u "$T/help-opts" "$T/sub-all" >"$T/known"
comm -23 "$T/readme-opts" "$T/known" >"$T/extra"
check "every option the README names is --help's or a subcommand's" \
    sh -c "[ ! -s '$T/extra' ] || { cat '$T/extra'; exit 1; }"
