"""Game-independent core: encoding, keys, the signed log, randomness, sealing, verification."""
