"""The ``pbem`` command line: thin click commands over the core."""
