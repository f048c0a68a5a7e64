"""Cryptography, on the primitives of ``cryptography`` and PyNaCl and nothing invented:
identities and the keyring (Ed25519, X25519, Argon2id), signatures, HPKE (RFC 9180), the
ed25519 group, sealed decks (ElGamal), their shuffle passes and shuffle proofs
(Terelius–Wikström), escrow (Feldman VSS), sealed commitments, per-game seat secrets, sealed
notes and the randomness beacon. It uses only ``pbem.format``: no rules, no game, no store."""
