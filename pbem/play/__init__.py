"""Making signed steps: a new game, the steps a seat owes without a decision, its decisions
(``author``), how a seat signs and publishes through the journal (``signer``), the steps
that keep a game going when a player drops out (``rescue``), playing moves in the notation
on the store's head (``playing``), and whole bot games (``selfplay``). It uses the store,
the ledger and the rooms below them."""
