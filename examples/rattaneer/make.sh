#!/usr/bin/env bash
# Makes examples/rattaneer/game.json (a complete 3-player game) and morning.json (a copy in
# the middle of a sealed Morning) with pbem's own commands, as three players on three
# machines would by email: each has their own keyring, every step is one pbem command,
# and where several answer at once each answers on their own copy and `pbem merge` joins
# the copies. pick.py only reads the --json reports and chooses the moves.
#
# Run from anywhere: examples/rattaneer/make.sh   (PBEM=path/to/pbem to use another one)
# The game id and the draws are new on every run; the plan of play is the same.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PBEM=${PBEM:-$HERE/../../.venv/bin/pbem}
PYTHON=${PYTHON:-python3}
PLAYERS=(anne bart cleo)
unset PBEM_AS PBEM_PASSPHRASE PBEM_TEST_FAST_KDF PBEM_RULESETS

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
MAIL=$WORK/mail # the files as they travel
mkdir -p "$MAIL"
REPORT=$WORK/report.json # the last --json report: who is awaited next
TABLE=$WORK/table.json   # the public table, from pbem status --json
rm -f "$HERE/game.json" "$HERE/morning.json"

# pbem on WHO's machine: their own PBEM_HOME.
on() {
  local who=$1
  shift
  PBEM_HOME=$WORK/home-$who "$PBEM" "$@"
}
# pbem for anyone holding the file, with an empty keyring: reading needs no identity.
anyone() { PBEM_HOME=$WORK/home-nobody "$PBEM" "$@"; }
field() { "$PYTHON" "$HERE/pick.py" field "$1" <"$REPORT"; }
seat_of() {
  local i
  for i in "${!PLAYERS[@]}"; do [[ ${PLAYERS[$i]} == "$1" ]] && echo "$i"; done
}

# WHO makes the steps they owe on FILE and writes OUT: with DECIDE, a move chosen from
# `pbem moves` (and the table in $TABLE); without, the automatic ones (joining, supplying
# randomness, revealing a sealed placement).
act() {
  local who=$1 file=$2 out=$3 decide=$4 move=()
  if [[ -n $decide ]]; then
    move=("$(on "$who" moves "$file" --as "$who" --json |
      "$PYTHON" "$HERE/pick.py" move "$(seat_of "$who")" "$TABLE")")
  fi
  echo "  $who: ${move[0]:-automatic step(s)}"
  on "$who" play "$file" ${move[@]+"${move[@]}"} --as "$who" -o "$out" --json >"$REPORT"
}

echo "1. Identities: each player makes one (no passphrase: a script) and mails the card."
for who in "${PLAYERS[@]}"; do
  on "$who" key new "$who" --email "$who@example.org" --no-passphrase >/dev/null
  on "$who" key export "$who" -o "$WORK/$who.card.json"
done
for card in bart cleo; do on anne key import "$WORK/$card.card.json" >/dev/null; done

echo "2. anne creates the game (start player: anne) and mails it to bart and cleo."
on anne new rattaneer --seat anne --seat bart --seat cleo --option start_seat=0 \
  --as anne -o "$MAIL/game.000.json" --json >"$REPORT"
file=$MAIL/game.000.json
n=0

echo "3. Play until the game is over."
while [[ $(field over) != true ]]; do
  read -r -a awaiting <<<"$(field awaiting)"
  next=$(field next)
  n=$((n + 1))
  out=$(printf '%s/game.%03d.json' "$MAIL" "$n")
  echo "- $next"
  decide=yes
  if [[ $next == *"(automatic)" || $next == *" to join" ]]; then
    decide=
  else # the public table, which pick.py reads to choose
    anyone status "$file" --json >"$TABLE"
  fi
  if ((${#awaiting[@]} == 1)); then
    act "${awaiting[0]}" "$file" "$out" "$decide"
  else # a simultaneous decision: everyone answers on their own copy, then one merges
    copies=()
    for who in "${awaiting[@]}"; do
      act "$who" "$file" "${out%.json}-$who.json" "$decide"
      copies+=("${out%.json}-$who.json")
    done
    if [[ $next == *"(sealed): Morning of round 2:"* && ! -e $HERE/morning.json ]]; then
      cp "${copies[0]}" "$HERE/morning.json" # only the first player has committed here
    fi
    on "${awaiting[0]}" merge "${copies[@]}" -o "$out" --as "${awaiting[0]}" --json >"$REPORT"
    echo "  ${awaiting[0]} merged ${#copies[@]} copies"
  fi
  file=$out
done

cp "$file" "$HERE/game.json"
echo "4. The finished game, verified from scratch:"
anyone verify "$HERE/game.json"
anyone verify "$HERE/morning.json"
anyone status "$HERE/game.json" | grep "^game over"
