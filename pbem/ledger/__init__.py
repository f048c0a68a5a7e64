"""The verified log: the position a game is in after a prefix of its signed steps, and the
one place that decides whether the next step is valid (``position``, with what each kind of
step requires in ``steps``, the interruptions of a game with dropouts in ``interruptions``
and what the replay makes itself for seats played in the open in ``settle``); the sealed
decks at the table, replay of a whole file, the comparison of copies (forks, equivocation),
checkpoints, deadlines and who is awaited. Pure: no files, no store, no identity's secret.
It uses ``pbem.ruleset``, ``pbem.crypto`` and ``pbem.format``."""
