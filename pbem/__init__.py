"""pbem: play board games by email, with every rule enforced and every move signed."""

__version__ = "0.1.0"
