"""``pbem ui``: a local web page to play by clicking on the board (Starlette and uvicorn,
imported only by the ``ui`` command). ``guard`` keeps the door, ``app`` holds the handlers,
``pages`` draws, ``decide`` and the pickers turn clicks into moves the rules judge."""
