"""The local store, the one home of a player's games (as git's object store is of a
repository): one SQLite database under ``PBEM_HOME`` holding each step once, the verified
chain and a checkpoint per game, the journal of what the player signed, refused copies as
evidence, and the robot's memory. Importing a copy (``importing``), reading a head
(``head``), exporting files (``exports``), and the database itself (``db``). It uses the
ledger and the rooms below it; it signs nothing."""
