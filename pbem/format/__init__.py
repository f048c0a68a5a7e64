"""The file format, and nothing that needs a key or the rules: canonical JSON (RFC 8785) and
its strict parsing, base64url, the game file and its strict decoding (``gamefile``: bytes
verified are bytes signed), identity cards and notes as the file holds them, atomic writes,
the errors every command reports as one line, the few words shared by every message, and
where the shipped templates and schemas are. It imports nothing of pbem's other rooms."""
