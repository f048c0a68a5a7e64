"""Playing by mail: composing messages (``compose``), sending and reading them (``transport``,
``sources``, ``extract``), importing what arrives (``inbox``), the send flow (``outgoing``),
the settings (``config``), and the robot behind ``pbem watch`` (``robot``, with its memory,
its waiting and its bot seats). It uses play, store, ledger and below, and the view for the
page a mail attaches; it never imports the command line."""
