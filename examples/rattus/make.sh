#!/usr/bin/env bash
# Makes game.json beside this script: a complete 3-player game of Rattus (base game), every
# step made by the pbem commands: new identities in a throwaway keyring (PBEM_HOME), their
# exported identity cards, `pbem new`, then drive.py, which plays the game to its end with
# `pbem status`, `pbem moves` and `pbem play`, and finally `pbem verify`.
#
# Run it with the pbem whose rules are to be pinned first on the PATH (a game file pins the
# ruleset's content hash), e.g. `PATH=.venv/bin:$PATH examples/rattus/make.sh`.
# ../rattus-africanus/make.sh runs this script with PLAYERS, OPTIONS, SEED and OUT set.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
read -r -a players <<< "${PLAYERS:-alice bob carol}"
read -r -a options <<< "${OPTIONS:-}"
seed="${SEED:-3}"
out="${OUT:-$here/game.json}"
python="${PYTHON:-$(dirname "$(command -v pbem)")/python}"

PBEM_HOME="$(mktemp -d)"
export PBEM_HOME
work="$(mktemp -d)"
trap 'rm -rf "$PBEM_HOME" "$work"' EXIT
cd "$work"

seats=()
for name in "${players[@]}"; do
    pbem key new "$name" --email "$name@example.org" --no-passphrase
    pbem key export "$name" -o "$name.card.json"
    seats+=(--seat "$name.card.json")
done
flags=()
for option in "${options[@]}"; do
    flags+=(--option "$option")
done
pbem new rattus "${seats[@]}" "${flags[@]}" --as "${players[0]}" -o game.json

final="$("$python" "$here/drive.py" game.json "$seed")"
pbem verify "$final"
cp "$final" "$out"
echo "wrote $out"
