#!/bin/sh
# Build Simon Tatham's solvers for the games we share, from Debian's sgt-puzzles source (the
# version the corpus was generated with), into a cache outside the repository, and print where.
#
#     tools/tatham/build.sh            -> prints the folder, e.g. ~/.cache/grader-tatham/bin
#
# Two kinds of program per game:
#   <game>solver  upstream's STANDALONE_SOLVER program, where the game has one (Light Up,
#                 Loopy, Pearl, Singles, Pattern), built as its CMakeLists.txt builds it;
#   <game>-solve  tools/tatham/solve.c linked with the game: its own parser and solver (the
#                 "Solve" menu item), timed in-process, for every game (Bridges and Range too).
# The source comes through apt-get from a deb-src line of the running Debian suite, kept in the
# cache with its own package lists, so /etc/apt is left as it is. Rerunning is cheap: only what
# changed is compiled again. Needs apt-get, dpkg-source, a C compiler and ar.
set -eu

VERSION=${SGT_VERSION:-20230122.806ae71-2}
CACHE=${GRADER_TATHAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/grader-tatham}
SUITE=${SGT_SUITE:-$(. /etc/os-release && echo "$VERSION_CODENAME")}
MIRROR=${SGT_MIRROR:-http://deb.debian.org/debian}
HERE=$(cd "$(dirname "$0")" && pwd)
GAMES="lightup bridges loopy pearl singles pattern range mines"
STANDALONE="lightup loopy pearl singles pattern"
COMMON="combi divvy drawing dsf findloop grid latin laydomino loopgen malloc matching midend
misc penrose ps random sort tdq tree234 version"
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}

SRC=$CACHE/src/sgt-puzzles-$VERSION
BIN=$CACHE/bin
OBJ=$CACHE/obj
mkdir -p "$CACHE/apt/lists/partial" "$CACHE/src" "$BIN" "$OBJ"

if [ ! -f "$SRC/CMakeLists.txt" ]; then
    echo "deb-src $MIRROR $SUITE main" > "$CACHE/apt/sources.list"
    APT="-o Dir::Etc::SourceList=$CACHE/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
         -o Dir::State::Lists=$CACHE/apt/lists -o APT::Sandbox::User=root"
    # shellcheck disable=SC2086
    apt-get -q $APT update >&2
    # shellcheck disable=SC2086
    (cd "$CACHE/src" && apt-get -q $APT source --download-only "sgt-puzzles=$VERSION" >&2)
    rm -rf "$SRC"
    (cd "$CACHE/src" && dpkg-source -x "sgt-puzzles_$VERSION.dsc" "$SRC" >&2)
fi

compile() {   # compile SOURCE OBJECT [FLAGS...]: only when the object is older than its source
    src=$1 obj=$2
    shift 2
    [ "$obj" -nt "$src" ] || "$CC" $CFLAGS "$@" -I"$SRC" -c -o "$obj" "$src"
}

for c in $COMMON nullfe; do
    compile "$SRC/$c.c" "$OBJ/$c.o"
done
rm -f "$OBJ/libcommon.a" && ar rcs "$OBJ/libcommon.a" $(for c in $COMMON; do echo "$OBJ/$c.o"; done)

compile "$HERE/solve.c" "$OBJ/solve.o"
for g in $GAMES; do
    compile "$SRC/$g.c" "$OBJ/$g.o"
    "$CC" -o "$BIN/$g-solve" "$OBJ/solve.o" "$OBJ/$g.o" "$OBJ/nullfe.o" \
        "$OBJ/libcommon.a" -lm
done
for g in $STANDALONE; do
    compile "$SRC/$g.c" "$OBJ/${g}solver.o" -DSTANDALONE_SOLVER
    "$CC" -o "$BIN/${g}solver" "$OBJ/${g}solver.o" "$OBJ/nullfe.o" \
        "$OBJ/libcommon.a" -lm
done
echo "$BIN"
