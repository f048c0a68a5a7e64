"""Issue 32 (mail set-up): ``pbem config set --help`` names the CA file setting, which
was found only in ``config show``."""

from __future__ import annotations

from tests.helpers import ok


def test_config_set_help_names_the_ca_file_and_where_every_key_is() -> None:
    out = " ".join(ok("config", "set", "--help").stdout.split())
    assert "smtp.ca_file" in out and "every key: pbem config show" in out
