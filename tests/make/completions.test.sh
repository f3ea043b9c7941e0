#!/bin/sh
# The shell completions (completions/), as `make install` installs them
# (DESTDIR, PREFIX; tests/make/install.test.sh checks where), checked
# against `stagetop --help` (tui/usage.c) so they cannot drift from it:
#  - bash, the installed file sourced and _stagetop driven as bash does
#    (COMP_WORDS, COMP_CWORD): every option of --help and nothing else; the
#    subcommands of --help's usage lines; each subcommand's options (its own
#    usage line); --lanes' values as stagetop names them (its error for an
#    unknown lane), the last item of a comma list; --on-budget's and
#    --record-sync's (their errors); file names (with a space), directories
#    for --export-dir, pids for -p, a command after --;
#  - zsh (deps.sh installs it): compinit finds the installed _stagetop for
#    stagetop, and completing in an interactive zsh (zpty) lists the values;
#    its option list is --help's;
#  - fish (deps.sh installs it): `complete -C` with the installed file gives
#    the same options, values and subcommands.
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mk() { env -u MAKEFLAGS -u MFLAGS make "$@"; } # not the outer make check's flags (SANITIZE=1, -j)
ST=$STAGETOP

# --- what --help says ---------------------------------------------------------------
"$ST" --help >"$T/help" 2>&1
sed -n '/^options:/,/^$/p' "$T/help" | grep -E '^ {2,6}-' |
    sed -E 's/^  (-[A-Za-z]), (--[a-z-]+).*/\1 \2/; s/^ +(--[a-z-]+).*/\1/' | tr ' ' '\n' | sort -u >"$T/opts"
sed -n 's/^\(usage:\)\{0,1\} *stagetop \([a-z][a-z]*\).*/\2/p' "$T/help" | sort -u >"$T/cmds"
printf 'mark\nstage\n' >>"$T/cmds"; sort -u -o "$T/cmds" "$T/cmds"   # "stagetop mark TEXT | stage NAME"
words() { tr ' ,' '\n\n' | sed '/^$/d' | sort -u; }
"$ST" --lanes bogus -p 1 2>&1 | sed -n "s/.*unknown lane 'bogus' (\(.*\))/\1/p" | words >"$T/lanes"
"$ST" --on-budget bogus -p 1 2>&1 | sed -n "s/.* is neither \(.*\) nor \(.*\)/\1 \2/p" | words >"$T/budget"
"$ST" --record-sync bogus -p 1 2>&1 | sed -n "s/.* is not \(.*\) or \(.*\)/\1 \2/p" | words >"$T/sync"
"$ST" --sort bogus -p 1 2>&1 | sed -n "s/.*unknown column 'bogus' (\(.*\))/\1/p" | words >"$T/sort"
for c in $(cat "$T/cmds"); do # a subcommand's options: its own usage line
    { "$ST" "$c" --help; "$ST" "$c"; } 2>&1 </dev/null | grep -E "^(stagetop: )?(usage:)? *stagetop $c( |\$)" |
        grep -o -E '(^|[[ ])--?[a-z][a-z-]*' | tr -d '[ ' | sort -u >"$T/sub-$c"
done
check "--help gives the lists ($(wc -l <"$T/opts") options, subcommands: $(echo $(cat "$T/cmds")), lanes: $(wc -l <"$T/lanes"))" \
    sh -c "[ \$(wc -l <'$T/opts') -gt 30 ] && grep -qx -- --lanes '$T/opts' && grep -qx doctor '$T/cmds' &&
           grep -qx tree_swap '$T/lanes' && [ \"\$(echo \$(cat '$T/budget'))\" = 'kill pause' ] &&
           [ \"\$(echo \$(cat '$T/sync'))\" = '1s always never' ] && grep -qx -- --no-gpu '$T/sub-doctor'"

# --- installed as make install installs them (tests/make/install.test.sh
# checks make install itself) ------------------------------------------------------
if [ ! -x "$ST_ROOT/stagetop" ]; then
    skip "completions" "./stagetop is not built (a plain make builds it; make install installs it)"; exit 0
fi
mk -s -o stagetop install DESTDIR="$T/dest" PREFIX=/usr >"$T/install.out" 2>&1 ||
    { echo "FAIL: completions: make install: $(cat "$T/install.out")"; exit 1; }
mv "$T/dest/usr" "$T/keep"
BASHF=$T/keep/share/bash-completion/completions/stagetop
ZSHD=$T/keep/share/zsh/site-functions
FISHD=$T/keep/share/fish/vendor_completions.d

# --- bash: the installed file, _stagetop as bash calls it -----------------------------
need_tool "completions: bash" bash bash || exit 0
mkdir -p "$T/f/sub dir" && : >"$T/f/trace one.jsonl" && : >"$T/f/t2.json"
cat >"$T/comp.bash" <<'EOF'
. "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
_stagetop
printf '%s\n' "${COMPREPLY[@]}" | sort -u
EOF
bc() { bash "$T/comp.bash" "$BASHF" stagetop "$@"; }
same() { # description, file of expected words, command...: the words it prints are those
    _sd=$1 _sf=$2; shift 2
    "$@" >"$T/got" 2>&1
    if cmp -s "$T/got" "$_sf"; then echo "PASS: $_sd"; else
        echo "FAIL: $_sd"; diff "$_sf" "$T/got" | sed 's/^/    /' | head -20
    fi
}
{ cat "$T/opts"; echo --; } | sort -u >"$T/opts+"
same "bash: stagetop -<TAB> is every option of --help (and --)" "$T/opts+" bc -
same "bash: stagetop <TAB> is the subcommands of --help" "$T/cmds" bc ""
same "bash: --lanes <TAB> is every lane stagetop knows" "$T/lanes" bc --lanes ""
sed 's/^/cpu,/' "$T/lanes" | grep -x 'cpu,s.*' >"$T/x"
same "bash: --lanes cpu,s<TAB> completes the list's last item" "$T/x" bc --lanes cpu,s
same "bash: --on-budget <TAB>" "$T/budget" bc -p 1 --on-budget ""
same "bash: --record-sync <TAB>" "$T/sync" bc --record-sync ""
same "bash: --sort <TAB> is every column ($(echo $(cat "$T/sort")))" "$T/sort" bc --sort ""
for c in $(cat "$T/cmds"); do
    [ -s "$T/sub-$c" ] || continue
    same "bash: stagetop $c -<TAB> is its usage line's options ($(echo $(cat "$T/sub-$c")))" "$T/sub-$c" bc "$c" -
done
printf '%s\n' "$T/f/t2.json" "$T/f/trace one.jsonl" >"$T/x"
same "bash: replay <TAB> completes file names (one with a space)" "$T/x" bc replay "$T/f/t"
printf '%s\n' "$T/f/sub dir" >"$T/x"
same "bash: --export-dir <TAB> completes directories only" "$T/x" bc --export-dir "$T/f/"
printf '%s\n' "$T/f/t2.json" >"$T/x"
same "bash: --record FILE, -o FILE complete files" "$T/x" \
    sh -c "{ bash '$T/comp.bash' '$BASHF' stagetop --record '$T/f/t2'
            bash '$T/comp.bash' '$BASHF' stagetop plot '$T/f/trace one.jsonl' -o '$T/f/t2'; } | sort -u"
check "bash: -p <TAB> offers this shell's pid; -- <TAB> a command, then its files" \
    sh -c "bash '$T/comp.bash' '$BASHF' stagetop -p '' | grep -qx $$ &&
           bash '$T/comp.bash' '$BASHF' stagetop --lanes cpu -- ech | grep -qx echo &&
           bash '$T/comp.bash' '$BASHF' stagetop -- ls '$T/f/t2' | grep -qx '$T/f/t2.json'"
check "bash: complete -p stagetop names _stagetop (the installed file registers it)" \
    bash -c ". '$BASHF'; complete -p stagetop | grep -q -- '-F _stagetop stagetop\$'"

# --- zsh: compinit finds the installed _stagetop; a real completion in zpty ----------
if need_tool "completions: zsh" zsh zsh; then
    check "zsh: compinit maps stagetop to the installed _stagetop" \
        sh -c "[ \"\$(cd '$T' && HOME='$T' zsh -f -c 'fpath=($ZSHD \$fpath); autoload -U compinit; compinit -u -d $T/zcd; print -r -- \$_comps[stagetop]')\" = _stagetop ]"
    # the options of its main_opts: --help's
    sed -n '/^main_opts=(/,/^)/p' "$ZSHD/_stagetop" | grep -o -E "(\{-[A-Za-z],--[a-z-]+\}|'--[a-z-]+\[)" |
        tr -d "{}'[" | tr ',' '\n' | sort -u >"$T/zopts"
    same "zsh: its options are --help's" "$T/opts" cat "$T/zopts"
    sed -n 's/^lanes=(\(.*\))$/\1/p' "$ZSHD/_stagetop" | words >"$T/zlanes"
    same "zsh: its lanes are stagetop's" "$T/lanes" cat "$T/zlanes"
    # zdrive LINE WORD...: LINE and a TAB in an interactive zsh (zpty) that
    # ran compinit with the installed folder; what the terminal showed, as
    # words, once every WORD is in it (or after the wait's limit)
    cat >"$T/drive.zsh" <<'EOF'
zmodload zsh/zpty
limit=$1; shift
zpty -b z zsh -f -i
zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -d $2/zcd; PROMPT='%% '; LISTMAX=100000"
zpty -w z "setopt nolistambiguous; print -r -- RE''ADY"
zpty -r z line '*READY*'
zpty -n -w z "$3"$'\t'
shift 3
out="" end=$(( SECONDS + limit ))
while (( SECONDS < end )); do
  while zpty -r -t z chunk; do out+=$chunk; done
  all=1; for w in "$@"; do [[ $out == *$w* ]] || { all=0; break; }; done
  (( all )) && break
  sleep 0.05
done
zpty -d z
print -r -- "$out"
EOF
    esc=$(printf '\033') # (BSD sed has no \x1b)
    zdrive() { (cd "$T" && HOME="$T" zsh -f "$T/drive.zsh" "$(wait_secs 30)" "$ZSHD" "$T" "$@") 2>&1 |
        sed "s/$esc\[[0-9;?]*[A-Za-z]//g" | tr -c 'A-Za-z0-9_,.-' '\n' | sed '/^$/d' | sort -u; }
    zhas() { zdrive "$@" >"$T/z.out"; shift; for w; do grep -qx -- "$w" "$T/z.out" || { echo "no $w in:"; cat "$T/z.out"; return 1; }; done; }
    check "zsh: stagetop --on-budget <TAB> lists pause and kill" zhas 'stagetop --on-budget ' pause kill
    check "zsh: stagetop --lanes <TAB> lists every lane" zhas 'stagetop --lanes ' $(cat "$T/lanes")
    check "zsh: stagetop <TAB> lists the subcommands" zhas 'stagetop ' $(cat "$T/cmds")
    check "zsh: stagetop --record-sync <TAB> lists never, 1s and always" zhas 'stagetop --record-sync ' never 1s always
    check "zsh: stagetop --sort <TAB> lists every column" zhas 'stagetop --sort ' $(cat "$T/sort")
    check "zsh: stagetop diff --<TAB> lists its options" zhas 'stagetop diff --' $(cat "$T/sub-diff")
fi

# --- fish: complete -C with the installed file -----------------------------------------
if need_tool "completions: fish" fish fish; then
    # fish finds the installed file itself: its folder is PREFIX/share's
    # fish/vendor_completions.d, and PREFIX/share is on $XDG_DATA_DIRS; it
    # loads completions only for a command on the PATH (the installed one).
    fc() { (cd "$T" && HOME="$T" XDG_CONFIG_HOME="$T/cfg" XDG_DATA_HOME="$T/data" \
        XDG_DATA_DIRS="$T/keep/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" PATH="$T/keep/bin:$PATH" \
        fish -c "complete -C '$1'") 2>&1 | cut -f1 | sort -u; }
    { fc 'stagetop -'; fc 'stagetop --'; } | grep -v -x -e -- | sort -u >"$T/fopts" # - lists -p, -- --pid
    same "fish: stagetop -<TAB>, --<TAB> give every option of --help" "$T/opts" cat "$T/fopts"
    same "fish: stagetop <TAB> is the subcommands" "$T/cmds" fc 'stagetop '
    same "fish: --lanes <TAB> is every lane" "$T/lanes" fc 'stagetop --lanes '
    sed 's/^/cpu,/' "$T/lanes" | grep -x 'cpu,s.*' >"$T/x"
    same "fish: --lanes cpu,s<TAB> completes the list's last item" "$T/x" fc 'stagetop --lanes cpu,s'
    same "fish: --on-budget <TAB>" "$T/budget" fc 'stagetop --on-budget '
    same "fish: --record-sync <TAB>" "$T/sync" fc 'stagetop --record-sync '
    same "fish: --sort <TAB>" "$T/sort" fc 'stagetop --sort '
    for c in $(cat "$T/cmds"); do
        [ -s "$T/sub-$c" ] || continue
        { fc "stagetop $c -"; fc "stagetop $c --"; } | grep -v -x -e -- | sort -u >"$T/fsub"
        same "fish: stagetop $c -<TAB> is its usage line's options" "$T/sub-$c" cat "$T/fsub"
    done
    printf '%s\n' "$T/f/t2.json" "$T/f/trace one.jsonl" >"$T/x"
    same "fish: replay <TAB> completes file names" "$T/x" fc "stagetop replay $T/f/t"
fi
