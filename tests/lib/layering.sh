# layering.sh: docs/design.md's floors checked on the built objects and the
# sources (sourced; POSIX sh, nm, awk).  The floors are data:
# tests/lib/layering.rules.  Used by tests/e2e/layering.sh (the real build)
# and tests/lib/layering.test.sh (synthetic violations it must catch).
#
#   layering_symtab BUILD ROOT  "D OBJ SYM" / "U OBJ SYM" lines from nm of
#                               BUILD/core/**/*.o and BUILD/tui/*.o (OBJ: the
#                               source path without its extension) whose
#                               source ROOT/OBJ.c exists (an object left by a
#                               moved file is not the build's)
#   layering_calls RULES SYMTAB PASS:/FAIL: lines: each module calls only the
#                               modules (and symbol sets) its floor allows
#   layering_sources RULES ROOT PASS:/FAIL: lines: includes (public headers by
#                               module, "stagetop/H" or <stagetop/H> alike; own
#                               internal headers, forbidden ones), calls
#                               through the backend's table, and platform
#                               #if's outside the files allowed them

# The symbol table of the objects under BUILD.  Darwin's nm writes C names
# with a leading '_': it is taken off.
layering_symtab() {
    _lb=$1 _lroot=$2
    _lstrip=""
    [ "$(uname -s)" = Darwin ] && _lstrip=1
    find "$_lb/core" "$_lb/tui" -name '*.o' 2>/dev/null | sort | while read -r _lo; do
        _lrel=${_lo#"$_lb"/}
        _lrel=${_lrel%.o}
        [ -f "$_lroot/$_lrel.c" ] || continue
        nm -g "$_lo" 2>/dev/null | awk -v o="$_lrel" -v strip="$_lstrip" '
            { sym = $NF; if (strip != "") sub(/^_/, "", sym) }
            NF == 2 && $1 == "U" { print "U", o, sym; next }
            NF == 3 && $2 != "U" && $2 != "w" && $2 != "v" { print "D", o, sym }'
    done
}

# Shared by both checks: the rules file's reader (awk functions).
# shellcheck disable=SC2016  # awk text, not shell
_layering_awk_rules='
function re(g,  r) { r = g; gsub(/\./, "\\.", r); gsub(/\*/, ".*", r); gsub(/\?/, ".", r); return "^" r "$" }
function match_any(s, list,  n, a, i) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++)
        if (s ~ re(a[i]))
            return 1
    return 0
}
function module_of(p,  i) {
    for (i = 1; i <= nmod; i++)
        if (match_any(p, modpat[i]))
            return modname[i]
    return ""
}
# allowed(from, to): "" when not allowed, "*" for every symbol, else the set name
function allowed(from, to) {
    if (from == to)
        return "*"
    return ((from SUBSEP to) in allow) ? allow[from, to] : ""
}
function rest(from,  s, i) {
    s = ""
    for (i = from; i <= NF; i++)
        s = s (s == "" ? "" : " ") $i
    return s
}
function read_rule(  i, n, a) {
    sub(/#.*/, "")
    if (NF == 0)
        return
    if ($1 == "module") { nmod++; modname[nmod] = $2; modpat[nmod] = rest(3) }
    else if ($1 == "calls") {
        ncalls++; callsmod[ncalls] = $2; callslist[ncalls] = ""
        for (i = 3; i <= NF; i++) {
            if ($i == "-") continue
            n = split($i, a, ":")
            allow[$2, a[1]] = n > 1 ? a[2] : "*"
            callslist[ncalls] = callslist[ncalls] (callslist[ncalls] == "" ? "" : " ") $i
        }
    }
    else if ($1 == "only") sets[$2] = rest(3)
    else if ($1 == "except") { nexc++; excobj[nexc] = $2; excsym[nexc] = $3; excwhy[nexc] = rest(4) }
    else if ($1 == "backend") backend = backend " " rest(2)
    else if ($1 == "backend-except") { nbex++; bexfile[nbex] = $2; bexwhy[nbex] = rest(3) }
    else if ($1 == "header") for (i = 3; i <= NF; i++) hdrmod[$i] = $2
    else if ($1 == "platform-if") platif = platif " " rest(2)
    else if ($1 == "clock-read") clockrd = clockrd " " rest(2)
    else if ($1 == "internal") { nint++; intdir[nint] = $2; intpat[nint] = rest(3) }
    else if ($1 == "forbid") {
        nforbid++; fpaths[nforbid] = ""; fhdrs[nforbid] = ""
        for (i = 2; i <= NF; i++)
            if ($i ~ /^(core|tui|include|tests|bench)\//) fpaths[nforbid] = fpaths[nforbid] " " $i
            else fhdrs[nforbid] = fhdrs[nforbid] " " $i
    }
    else bad_rule = bad_rule "\n    " FILENAME ": " $0
}
'

layering_calls() { # rules symtab
    awk "$_layering_awk_rules"'
    FNR == NR { read_rule(); next }
    $1 == "D" { if (!($3 in def)) def[$3] = $2; objs[$2] = 1; next }
    $1 == "U" { nu++; uobj[nu] = $2; usym[nu] = $3; objs[$2] = 1; next }
    END {
        if (bad_rule != "") print "FAIL: layering: the rules file reads" bad_rule
        nobj = 0; unplaced = ""
        for (o in objs) { nobj++; if (module_of(o) == "") unplaced = unplaced "\n    " o ".o" }
        if (unplaced != "") print "FAIL: layering: every object has a floor (tests/lib/layering.rules: module)" unplaced
        else print "PASS: layering: every object has a floor (" nobj " objects)"
        checked = 0
        for (k = 1; k <= nu; k++) {
            s = usym[k]; o = uobj[k]
            if (!(s in def) || def[s] == o) continue
            from = module_of(o); to = module_of(def[s])
            if (from == "" || to == "") continue
            checked++
            al = allowed(from, to)
            if (al == "*" || (al != "" && match_any(s, sets[al]))) continue
            ex = 0
            for (e = 1; e <= nexc; e++)
                if (o ~ re(excobj[e]) && s ~ re(excsym[e])) { ex = e; break }
            line = "\n    " o ".o calls " s " (" def[s] ".o, module " to ")"
            if (ex) { used[ex] = 1; exlines[from] = exlines[from] line "  [temporary exception: " excwhy[ex] "]" }
            else bad[from] = bad[from] line
        }
        if (checked == 0) print "FAIL: layering: calls between modules were read from the objects (none found)"
        for (c = 1; c <= ncalls; c++) {
            m = callsmod[c]
            what = "layering: " m " calls only " (callslist[c] == "" ? "itself" : callslist[c])
            if (m in bad) print "FAIL: " what bad[m] (m in exlines ? exlines[m] : "")
            else { print "PASS: " what; if (m in exlines) print "    (allowed for now:)" exlines[m] }
        }
        for (e = 1; e <= nexc; e++)
            if (!(e in used))
                print "FAIL: layering: exception still needed: " excobj[e] " " excsym[e] " (not called any more: delete it from the rules)"
    }' "$1" "$2"
}

# No two objects call each other (an import circle: docs/design.md, issue
# 26 item 5): for each pair where A calls a symbol B defines and B one A
# defines, a FAIL naming both and a symbol each way.
layering_no_cycles() { # symtab
    awk '
    $1 == "D" { if (!($3 in def)) def[$3] = $2; next }
    $1 == "U" { nu++; uobj[nu] = $2; usym[nu] = $3; next }
    END {
        for (k = 1; k <= nu; k++) {
            s = usym[k]; o = uobj[k]
            if (!(s in def) || def[s] == o) continue
            key = o SUBSEP def[s]
            if (!(key in edge)) edge[key] = s
        }
        bad = ""; n = 0
        for (key in edge) {
            split(key, ab, SUBSEP)
            back = ab[2] SUBSEP ab[1]
            if ((back in edge) && ab[1] < ab[2])
                bad = bad "\n    " ab[1] ".o calls " edge[key] ", " ab[2] ".o calls " edge[back]
            n++
        }
        if (n == 0) print "FAIL: layering: no calls between objects were read"
        else if (bad != "") print "FAIL: layering: no two objects call each other (an import circle)" bad
        else print "PASS: layering: no two objects call each other (" n " calls between objects)"
    }' "$1"
}

# Lines "I FILE <|\" NAME" (includes), "B FILE LINE" (calls through the
# backend table), "P FILE LINE" (a #if on a platform's macro) and "C FILE
# LINE" (a read of a clock: clock_gettime, gettimeofday, time(NULL)) of the
# sources under ROOT, read by layering_sources.
_layering_scan() {
    _lfields=$(grep -o '(\*[a-z_]*)' "$1/include/stagetop/platform.h" 2>/dev/null | tr -d '(*)' | sort -u | paste -sd'|' -)
    # shellcheck disable=SC2046  # file names of the tree: no blanks
    (cd "$1" && awk -v fields="$_lfields" '
        FNR == 1 { print "F", FILENAME }
        /^[ \t]*#[ \t]*include/ && match($0, /[<"][^>"]*[>"]/) {
            print "I", FILENAME, substr($0, RSTART, 1), substr($0, RSTART + 1, RLENGTH - 2)
        }
        fields != "" && $0 ~ ("(->|\\.)(" fields ")[ \t]*\\(") { print "B", FILENAME, FNR }
        /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)[ \t(]/ {
            l = " " $0 " "; gsub(/[^A-Za-z0-9_]/, " ", l)
            if (l ~ / (__linux__|__linux|linux|__gnu_linux__|__APPLE__|__MACH__|TARGET_OS_[A-Z_]*|__FreeBSD__|__NetBSD__|__OpenBSD__|__DragonFly__|__sun|__unix__|__unix|_WIN32|_WIN64|__CYGWIN__|__ANDROID__|__HAIKU__) /)
                print "P", FILENAME, FNR
        }
        /(^|[^A-Za-z0-9_])(clock_gettime|gettimeofday|timespec_get)[ \t]*\(|(^|[^A-Za-z0-9_.>])time[ \t]*\([ \t]*(NULL|0|&)/ {
            print "C", FILENAME, FNR
        }
        ' $(find core tui include/stagetop -name '*.[ch]' 2>/dev/null | sort))
}

layering_sources() { # rules root
    _layering_scan "$2" | awk "$_layering_awk_rules"'
    function dir(p) { sub(/\/[^\/]*$/, "", p); return p }
    function mod_of_file(f,  h) {
        if (f ~ /^include\/stagetop\//) { h = f; sub(/.*\//, "", h); return (h in hdrmod) ? hdrmod[h] : "" }
        h = f; sub(/\.[ch]$/, "", h); return module_of(h)
    }
    # the file a quoted include names, "" when outside the tree
    function target(f, name) {
        if (name ~ /^stagetop\//) return "include/" name
        if (name !~ /\//) return dir(f) "/" name
        return ""
    }
    FNR == NR { read_rule(); next }
    $1 == "F" { nf++; file[nf] = $2; isfile[$2] = 1; next }
    $1 == "I" { ni++; ifile[ni] = $2; ikind[ni] = $3; iname[ni] = $4; next }
    $1 == "B" { nb++; bfile[nb] = $2; bline[nb] = $3; next }
    $1 == "P" { np++; pfile[np] = $2; pline[np] = $3; next }
    $1 == "C" { nc++; cfile[nc] = $2; cline[nc] = $3; next }
    END {
        if (nf == 0) { print "FAIL: layering: sources were read (none found)"; exit }
        # 1. public headers by floor, and only own internal headers
        for (k = 1; k <= ni; k++) {
            f = ifile[k]; n = iname[k]; m = mod_of_file(f)
            if (m == "") { unplaced[f] = 1; continue }
            if (ikind[k] != "\"" && n !~ /^stagetop\//) continue   # <stagetop/H> is a public header too
            if (n ~ /^stagetop\//) {
                h = n; sub(/^stagetop\//, "", h)
                if (!(h in hdrmod)) { badown = badown "\n    " f " includes " n " (a public header with no module: rules, header)"; continue }
                if (allowed(m, hdrmod[h]) == "") badinc[m] = badinc[m] "\n    " f " includes " n " (module " hdrmod[h] ")"
            } else {
                d = dir(f); ok = 0
                for (e = 1; e <= nint && !ok && n !~ /\//; e++)
                    ok = d ~ re(intdir[e]) && match_any(n, intpat[e]) && ((d "/" n) in isfile)
                if (!ok)
                    badown = badown "\n    " f " includes \"" n "\" (not a public header, nor its folder'"'"'s own)"
            }
        }
        for (f in unplaced) badown = badown "\n    " f " has no module (rules: module or header)"
        for (c = 1; c <= ncalls; c++) {
            m = callsmod[c]
            what = "layering: includes of " m " follow its floor (public headers of " (callslist[c] == "" ? "itself" : "itself and " callslist[c]) ")"
            if (m in badinc) print "FAIL: " what badinc[m]; else print "PASS: " what
        }
        what = "layering: quoted includes are public headers or the folder'"'"'s own internal headers"
        if (badown != "") print "FAIL: " what badown; else print "PASS: " what
        # 2. forbidden headers, directly or through the tree'"'"'s own headers
        for (k = 1; k <= ni; k++) { inc[ifile[k]] = inc[ifile[k]] " " ikind[k] iname[k] }
        for (r = 1; r <= nforbid; r++) {
            out = ""
            for (i = 1; i <= nf; i++) {
                f = file[i]
                if (!match_any(f, fpaths[r])) continue
                # breadth-first over quoted includes that are files of the tree
                split("", seen); q = f; seen[f] = 1; via = ""
                while (q != "") {
                    sp = index(q, " "); cur = sp ? substr(q, 1, sp - 1) : q; q = sp ? substr(q, sp + 1) : ""
                    n2 = split(inc[cur], list, " ")
                    for (j = 1; j <= n2; j++) {
                        kind = substr(list[j], 1, 1); name = substr(list[j], 2)
                        if (match_any(name, fhdrs[r]))
                            out = out "\n    " f (cur == f ? "" : " (through " cur ")") " includes " name
                        if (kind == "\"" || name ~ /^stagetop\//) {
                            t = target(cur, name)
                            if (t != "" && (t in isfile) && !(t in seen)) { seen[t] = 1; q = q (q == "" ? "" : " ") t }
                        }
                    }
                }
            }
            what = "layering:" fpaths[r] " never include" fhdrs[r]
            if (out != "") print "FAIL: " what out; else print "PASS: " what
        }
        # 3. calls through the backend table
        out = ""; exl = ""
        for (k = 1; k <= nb; k++) {
            f = bfile[k]
            if (match_any(f, backend)) continue
            ex = 0
            for (e = 1; e <= nbex; e++) if (f ~ re(bexfile[e])) { ex = e; break }
            if (ex) { bused[ex] = 1; exl = exl "\n    " f ":" bline[k] "  [temporary exception: " bexwhy[ex] "]" }
            else out = out "\n    " f ":" bline[k] " calls a function of st_platform"
        }
        what = "layering: only" backend " call the backend through st_platform"
        if (out != "") print "FAIL: " what out exl
        else { print "PASS: " what; if (exl != "") print "    (allowed for now:)" exl }
        for (e = 1; e <= nbex; e++)
            if (!(e in bused))
                print "FAIL: layering: backend exception still needed: " bexfile[e] " (it no longer calls the backend: delete it from the rules)"
        # 4. a platform'"'"'s #if only in the backends and the files allowed one
        out = ""
        for (k = 1; k <= np; k++)
            if (!match_any(pfile[k], platif))
                out = out "\n    " pfile[k] ":" pline[k] " tests a platform'"'"'s macro (#if)"
        what = "layering: a platform #if only in" platif
        if (out != "") print "FAIL: " what out; else print "PASS: " what
        # 5. the clocks are read only in the files allowed to (clock.h)
        out = ""
        for (k = 1; k <= nc; k++)
            if (!match_any(cfile[k], clockrd))
                out = out "\n    " cfile[k] ":" cline[k] " reads a clock (st_now, st_wall_now, st_wall_time, st_cpu_self)"
        what = "layering: a clock read only in" clockrd
        if (out != "") print "FAIL: " what out; else print "PASS: " what
    }' "$1" -
}
