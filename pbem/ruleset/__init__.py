"""The contract between the engine and the games: the ``Ruleset`` base class and the
decisions a game can await (``rules``), what a seat privately knows (``knowledge``), the
registry that finds installed games through the ``pbem.rulesets`` entry point, options as
``pbem new`` takes them, and the rule book (numbered sections, rulings). It uses
``pbem.format`` and ``pbem.crypto`` (the random stream a draw gives a game)."""
