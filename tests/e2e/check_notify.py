#!/usr/bin/env python3
"""Find --notify's notifications in the raw bytes a terminal received
(a `script` typescript or a tmux pipe-pane log), independently of stagetop.

usage: check_notify.py RAW [--form plain|tmux] [--want KIND=N]... [--text KIND=SUBSTRING]...
KIND: level (near --kill-free), swap (near --swap-budget), guard (it acted), exit.
Checks: every notification is a bell, an OSC 9 and an OSC 777 with the same
text, in the form asked; exactly N of each kind; no other OSC 9/777 and no
other bell; a SUBSTRING in each notification of KIND.
"""
import re
import sys

ESC, BEL = b"\x1b", b"\x07"
PLAIN = re.compile(rb"\x07\x1b\]9;([^\x1b\x07]*)\x1b\\\x1b\]777;notify;([^;\x1b\x07]*);([^\x1b\x07]*)\x1b\\")
TMUX = re.compile(rb"\x07\x1bPtmux;\x1b\x1b\]9;([^\x1b\x07]*)\x1b\x1b\\\x1b\\"
                  rb"\x1bPtmux;\x1b\x1b\]777;notify;([^;\x1b\x07]*);([^\x1b\x07]*)\x1b\x1b\\\x1b\\")


def kind_of(body):
    if "within 5 points of --kill-free" in body:
        return "level"
    if "of the budget of" in body and "over the budget" not in body:
        return "swap"
    if " under " in body or "over the budget" in body:
        return "guard"
    if " ended (" in body:
        return "exit"
    raise SystemExit(f"a notification of no known kind: {body!r}")


def main(argv):
    raw = open(argv[1], "rb").read()
    form, want, texts = "plain", {}, []
    args = argv[2:]
    while args:
        opt, val = args[0], args[1]
        args = args[2:]
        if opt == "--form":
            form = val
        elif opt == "--want":
            k, n = val.split("=")
            want[k] = int(n)
        elif opt == "--text":
            k, s = val.split("=", 1)
            texts.append((k, s))
    rx = PLAIN if form == "plain" else TMUX
    found = []
    for m in rx.finditer(raw):
        text9, title, body = (g.decode("utf-8") for g in m.groups())
        if ";" in body:
            raise SystemExit(f"a ';' in an OSC 777 body (some terminals split on it): {body!r}")
        if text9 != f"{title}: {body}":
            raise SystemExit(f"OSC 9 and OSC 777 disagree: {text9!r} vs {title!r}/{body!r}")
        found.append((kind_of(body), title, body))
    rest = rx.sub(b"", raw)
    # Nothing else that looks like a notification, in either form; no stray bell.
    for what, pat in (("bell", BEL), ("OSC 9", b"]9;"), ("OSC 777", b"]777;")):
        if pat in rest:
            i = rest.index(pat)
            raise SystemExit(f"a {what} outside the {form} notifications: {rest[max(0, i - 40):i + 60]!r}")
    counts = {}
    for k, title, body in found:
        counts[k] = counts.get(k, 0) + 1
        print(f"{k}: {title} | {body}")
    for k, n in want.items():
        if counts.get(k, 0) != n:
            raise SystemExit(f"{k}: {counts.get(k, 0)} notification(s), want {n}; found {counts}")
    for k, s in texts:
        hits = [b for kk, t, b in found if kk == k]
        if not hits or not all(s in b for b in hits):
            raise SystemExit(f"{k}: no {s!r} in {hits}")


if __name__ == "__main__":
    main(sys.argv)
