"""Drawing a game for people: the self-contained HTML page and the SVG boards of
``pbem show``, the walk through a game's history, and each game's own board. It reads the
games' packages and the ledger; it writes nothing and signs nothing."""
