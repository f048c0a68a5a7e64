#!/usr/bin/env bash
# Makes game.json beside this script: a complete 6-player game of Rattus with the Africanus
# expansion (class cards drawn at random), every step made by the pbem commands. The steps
# are those of ../rattus/make.sh (see there); only the players, options and seed differ.
# It takes a while: a 6-player game is well over a thousand commands (each verifies only the
# steps its store has not seen yet).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PLAYERS="alice bob carol dave erin frank" OPTIONS="africanus=on" SEED=6 OUT="$here/game.json" \
    exec "$here/../rattus/make.sh"
