"""Rulesets shipped with pbem, one sub-package each."""
