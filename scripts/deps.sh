#!/bin/sh
# Install what stagetop needs to build and test, where that is possible:
# Debian/Ubuntu as root with apt-get; otherwise print the exact command.
set -u
missing_pc=""
for pc in ncursesw libcjson cmocka; do
    pkg-config --exists "$pc" 2>/dev/null || missing_pc="$missing_pc $pc"
done
missing_cmd=""
for c in pkg-config tmux python3 cc; do
    command -v "$c" >/dev/null 2>&1 || missing_cmd="$missing_cmd $c"
done
[ -z "$missing_pc$missing_cmd" ] && exit 0

case "$(uname -s)" in
Darwin)
    echo "deps: missing:$missing_pc$missing_cmd"
    echo "deps: run: brew install ncurses cjson cmocka pkg-config tmux"
    exit 1 ;;
esac

pkgs="build-essential pkg-config libncurses-dev libcjson-dev libcmocka-dev tmux python3"
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        echo "deps: installing:$missing_pc$missing_cmd (apt-get)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq $pkgs >/dev/null || {
            echo "deps: apt-get failed; run: apt-get install $pkgs"; exit 1; }
        exit 0
    fi
    echo "deps: missing:$missing_pc$missing_cmd"
    echo "deps: run: sudo apt-get install $pkgs"
    exit 1
fi
echo "deps: missing:$missing_pc$missing_cmd"
echo "deps: install ncurses (wide), cJSON, cmocka, pkg-config, tmux and python3 with your package manager"
exit 1
