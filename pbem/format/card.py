"""Identity cards (architecture §4): the public half of an identity, as players exchange it and as
every genesis holds it: a name, an email address, an Ed25519 signing key, an X25519 box key
and a short fingerprint of both keys that players read to each other out of band. The
private half, and how its keys are derived, is ``pbem.crypto.keys``.
"""

from __future__ import annotations

import base64
import hashlib
import re
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from nacl.bindings import crypto_core_ed25519_is_valid_point
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from pbem.format.canonical import b64d, b64e, canonical, parse
from pbem.format.errors import Rejected, UsageError
from pbem.format.i18n import N_

FINGERPRINT_DOMAIN = b"pbem/1/fingerprint\0"
#: The signing message of a card's own signature (format.md §3) begins with this.
CARD_DOMAIN = b"pbem/1/card\0"
#: The languages a card may ask its mail in (``pbem.format.i18n.LANGUAGES``).
CARD_LANGUAGES = ("en", "ja", "zh-Hant", "zh-Hans")

#: Names as they were before issue 30 (ASCII): every such name is still one.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
NAME_CHARACTERS = 64
#: 64 characters of the BMP's CJK (3 bytes each) fit; a file name may be 255 bytes.
NAME_BYTES = 192
# Printable ASCII only, no spaces or angle brackets: the address goes into mail headers.
EMAIL_PATTERN = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?"
)
_RESERVED_NAMES = {"con", "prn", "aux", "nul"} | {
    f"{p}{i}" for p in ("com", "lpt") for i in range(10)
}
_FINGERPRINT_PATTERN = re.compile(r"[A-Z2-7]{4}(?:-[A-Z2-7]{4}){4}")
#: 32 bytes in canonical base64url: 42 free characters, then one carrying 4 bits.
_KEY_PATTERN = r"^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$"
_SIGNATURE_PATTERN = r"^[A-Za-z0-9_-]{85}[AQgw]$"


# --------------------------------------------------------------------------- validation


def check_name(name: str) -> str:
    """Refuse names that are unsafe as file names or in mail headers, or that could pass
    for another name; return the name. The rule (format.md §3): 1 to 64 characters and at
    most 192 bytes of UTF-8; letters (Unicode categories L), digits (Nd), combining marks
    (Mn, Mc) and ``. _ -``, starting with a letter or digit; in Unicode normal form NFC
    and unchanged by NFKC (no full-width, ligature or circled look-alikes); and of one
    script as UTS #39's *highly restrictive* level says (``pbem.format.scripts``)."""
    from pbem.format.scripts import mixed_scripts

    if not isinstance(name, str) or not name:
        raise UsageError(N_("bad identity name {name!r}: it is empty").format(name=name))
    odd = next((c for c in name if unicodedata.category(c) in _INVISIBLE), None)
    if odd is not None:
        raise UsageError(
            N_(
                "bad identity name {name!r}: it holds the invisible or control character "
                "{code} ({what})"
            ).format(name=name, code=f"U+{ord(odd):04X}", what=unicodedata.name(odd, "unnamed"))
        )
    if not unicodedata.is_normalized("NFC", name):
        raise UsageError(
            N_(
                "bad identity name {name!r}: not in Unicode normal form NFC (write it as {nfc!r})"
            ).format(name=name, nfc=unicodedata.normalize("NFC", name))
        )
    if not NAME_PATTERN.fullmatch(name):
        _check_letters(name)
    if name.split(".")[0].lower() in _RESERVED_NAMES:
        raise UsageError(
            N_("bad identity name {name!r}: reserved as a device name on Windows").format(name=name)
        )
    scripts = mixed_scripts(name)
    if scripts:
        raise UsageError(
            N_(
                "bad identity name {name!r}: it mixes the scripts {scripts}, as a name "
                "made to look like another does; write it in one script"
            ).format(name=name, scripts=", ".join(scripts))
        )
    return name


def _check_letters(name: str) -> None:
    """The characters and the length of a name that is not plain ASCII."""
    first = unicodedata.category(name[0])
    allowed = all(c in "._-" or unicodedata.category(c) in _NAME_CATEGORIES for c in name)
    if len(name) > NAME_CHARACTERS or len(name.encode("utf-8")) > NAME_BYTES:
        raise UsageError(
            N_(
                "bad identity name {name!r}: too long (at most 64 characters, and 192 "
                "bytes in UTF-8)"
            ).format(name=name)
        )
    if not allowed or (first[0] != "L" and first != "Nd"):
        raise UsageError(
            N_(
                "bad identity name {name!r}: use 1 to 64 letters, digits, '-', '_' "
                "or '.', starting with a letter or digit"
            ).format(name=name)
        )
    if unicodedata.normalize("NFKC", name) != name:
        raise UsageError(
            N_(
                "bad identity name {name!r}: it holds compatibility characters (full-width, "
                "ligatures, circled …); write it as {nfkc!r}"
            ).format(name=name, nfkc=unicodedata.normalize("NFKC", name))
        )


#: Controls, format characters (bidirectional overrides, zero-width joiners …), surrogates,
#: private use, unassigned, line and paragraph separators.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_NAME_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd"})


def is_name(text: str) -> bool:
    """Whether ``text`` is a valid identity name (a file stem in the keyring)."""
    try:
        check_name(text)
    except UsageError:
        return False
    return True


def check_lang(lang: str) -> str:
    """One of the languages a card may name; return it."""
    if lang not in CARD_LANGUAGES:
        raise UsageError(
            N_("bad language {lang!r}: use one of {languages}").format(
                lang=lang, languages=", ".join(CARD_LANGUAGES)
            )
        )
    return lang


def check_email(email: str) -> str:
    """Refuse addresses that could smuggle text into a mail header; return the address."""
    if not isinstance(email, str) or len(email) > 254 or not EMAIL_PATTERN.fullmatch(email):
        raise UsageError(
            N_("bad email address {email!r}: expected something like bob@example.org").format(
                email=email
            )
        )
    return email


def fingerprint_of(sign_key: bytes, box_key: bytes) -> str:
    """Five groups of four base32 characters (100 bits) of SHA-256 over both public keys:
    short enough to read over the phone, long enough that nobody can forge a match."""
    digest = hashlib.sha256(FINGERPRINT_DOMAIN + sign_key + box_key).digest()
    text = base64.b32encode(digest[:15]).decode("ascii")[:20]
    return "-".join(text[i : i + 4] for i in range(0, 20, 4))


def normalize_fingerprint(text: str) -> str:
    """Accept a fingerprint as typed (any case, spaces or dashes) in its canonical form."""
    compact = re.sub(r"[\s-]", "", text).upper()
    return "-".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def _unwrap(message: str) -> str:
    return message.removeprefix("Value error, ").removeprefix("Assertion failed, ")


def first_error(exc: ValidationError) -> str:
    """One line out of a pydantic error: the first problem and where it is."""
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"])
    message = _unwrap(err["msg"])
    return f"{where}: {message}" if where else message


# --------------------------------------------------------------------------- the public card


def _schema(**extra: Any) -> Any:
    """Constraints for the published JSON Schema only (the validators enforce them)."""
    return Field(json_schema_extra=extra)


class IdentityCard(BaseModel):
    """The public identity of a player, as it appears in game files and card files.

    Validation is complete: canonical base64url keys of the right size, keys that are
    valid and not of small order (such keys would let anyone forge signatures or learn the
    shared secret), and a fingerprint that matches the keys. So a card that exists as an
    object can be trusted to be self-consistent.
    """

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        strict=True,
        defer_build=True,
        json_schema_extra=lambda schema: _published(schema),
    )

    # The patterns are published in the schema; the validators below enforce them (and
    # more: valid points, a matching fingerprint) with messages people can act on.
    name: Annotated[
        str,
        _schema(
            minLength=1,
            maxLength=NAME_CHARACTERS,
            description=(
                "Letters, digits (Nd), combining marks and . _ -, starting with a letter "
                "or digit; NFC, unchanged by NFKC, at most 192 bytes of UTF-8, of one "
                "script (UTS #39 highly restrictive): format.md section 3"
            ),
        ),
    ]
    email: Annotated[str, _schema(maxLength=254, pattern=f"^{EMAIL_PATTERN.pattern}$")]
    sign_key: Annotated[str, _schema(pattern=_KEY_PATTERN, description="Ed25519, base64url")]
    box_key: Annotated[str, _schema(pattern=_KEY_PATTERN, description="X25519, base64url")]
    fingerprint: Annotated[str, _schema(pattern=f"^{_FINGERPRINT_PATTERN.pattern}$")]
    # Optional (issue 30): the language the player reads mail in, with the card's own
    # signature over the card; both or neither, and absent from the JSON when None.
    lang: (
        Annotated[
            Literal["en", "ja", "zh-Hant", "zh-Hans"],
            _schema(description="the language of the player's mail; needs signature"),
        ]
        | SkipJsonSchema[None]
    ) = None
    signature: (
        Annotated[
            str,
            _schema(
                pattern=_SIGNATURE_PATTERN,
                description="Ed25519 by sign_key over the card (format.md section 3)",
            ),
        ]
        | SkipJsonSchema[None]
    ) = None

    @model_validator(mode="before")
    @classmethod
    def _no_nulls(cls, value: Any) -> Any:
        if isinstance(value, dict):
            for key in ("lang", "signature"):
                if key in value and value[key] is None:
                    raise ValueError(
                        N_("{key}: null is not allowed (leave it out)").format(key=key)
                    )
        return value

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The optional members only when present: a card without them is the same JSON
        (the same bytes under every signature and hash) as before they existed."""
        out: dict[str, Any] = handler(self)
        for key in ("lang", "signature"):
            if out.get(key) is None:
                out.pop(key, None)
        return out

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        try:
            return check_name(value)
        except UsageError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        try:
            return check_email(value)
        except UsageError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("sign_key")
    @classmethod
    def _sign_key(cls, value: str) -> str:
        raw = _canonical_key(value, "sign_key")
        if not crypto_core_ed25519_is_valid_point(raw):
            raise ValueError(N_("sign_key is not a valid Ed25519 public key"))
        return value

    @field_validator("box_key")
    @classmethod
    def _box_key(cls, value: str) -> str:
        raw = _canonical_key(value, "box_key")
        try:
            # Any clamped scalar times a small-order point is the identity, which
            # cryptography refuses: this is how a small-order X25519 key is detected.
            X25519PrivateKey.from_private_bytes(b"\x01" * 32).exchange(
                X25519PublicKey.from_public_bytes(raw)
            )
        except ValueError:
            raise ValueError(N_("box_key is not a usable X25519 public key")) from None
        return value

    @field_validator("fingerprint")
    @classmethod
    def _fingerprint_form(cls, value: str) -> str:
        if not _FINGERPRINT_PATTERN.fullmatch(value):
            raise ValueError(N_("fingerprint must look like ABCD-EFGH-IJKL-MNOP-QRST"))
        return value

    @model_validator(mode="after")
    def _fingerprint_matches(self) -> IdentityCard:
        expected = fingerprint_of(self.sign_key_bytes, self.box_key_bytes)
        if self.fingerprint != expected:
            raise ValueError(
                N_(
                    "fingerprint {fingerprint} does not match the keys (they give {expected})"
                ).format(fingerprint=self.fingerprint, expected=expected)
            )
        return self

    @model_validator(mode="after")
    def _signed(self) -> IdentityCard:
        if (self.lang is None) != (self.signature is None):
            raise ValueError(N_("lang and signature go together: a card has both or neither"))
        if self.signature is not None:
            try:
                raw = b64d(self.signature, size=64, what="signature")
            except Rejected as exc:
                raise ValueError(str(exc)) from None
            if not self.verify(self.signing_message(), raw):
                raise ValueError(
                    N_(
                        "the card's signature does not match the card: its name, email "
                        "or lang was changed after {name} signed it"
                    ).format(name=self.name)
                )
        return self

    def signing_message(self) -> bytes:
        """What the card's own signature covers: ``"pbem/1/card\0"`` and the canonical
        bytes of the card without ``signature`` (format.md §3)."""
        value = self.model_dump()
        value.pop("signature", None)
        return CARD_DOMAIN + canonical(value)

    @classmethod
    def from_keys(
        cls,
        name: str,
        email: str,
        sign_key: bytes,
        box_key: bytes,
        lang: str | None = None,
        sign: Callable[[bytes], bytes] | None = None,
    ) -> IdentityCard:
        """Build the card for raw public keys, computing the fingerprint; with ``lang``,
        signed by ``sign`` (the identity's signing function)."""
        fields: dict[str, Any] = {
            "name": name,
            "email": email,
            "sign_key": b64e(sign_key),
            "box_key": b64e(box_key),
            "fingerprint": fingerprint_of(sign_key, box_key),
        }
        if lang is None:
            return cls(**fields)
        if sign is None:
            raise ValueError("a card with a language is signed: give sign")
        fields["lang"] = check_lang(lang)
        message = CARD_DOMAIN + canonical(fields)
        return cls(**fields, signature=b64e(sign(message)))

    @classmethod
    def from_value(cls, value: Any, *, what: str = "identity card") -> IdentityCard:
        """Validate parsed JSON as a card; any problem is one ``Rejected`` line."""
        if not isinstance(value, dict):
            raise Rejected(N_("{what} is not a JSON object").format(what=what))
        try:
            return cls.model_validate(value)
        except ValidationError as exc:
            raise Rejected(
                N_("{what} is not a valid identity card: {first_error}").format(
                    what=what, first_error=first_error(exc)
                )
            ) from None

    @classmethod
    def from_json(cls, data: bytes | str, *, what: str = "identity card") -> IdentityCard:
        """Parse untrusted JSON text strictly, then validate it as a card."""
        return cls.from_value(parse(data, what=what), what=what)

    @property
    def sign_key_bytes(self) -> bytes:
        return b64d(self.sign_key, size=32, what="sign_key")

    @property
    def box_key_bytes(self) -> bytes:
        return b64d(self.box_key, size=32, what="box_key")

    def verify(self, message: bytes, signature: bytes) -> bool:
        """True when ``signature`` is this card's raw Ed25519 signature over ``message``.
        Returns False rather than raising so that callers word the rejection themselves
        (naming the step and the seat)."""
        if len(signature) != 64:
            return False
        try:
            Ed25519PublicKey.from_public_bytes(self.sign_key_bytes).verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def label(self) -> str:
        """``name <email>``: how a player is named in messages and mail headers."""
        return f"{self.name} <{self.email}>"


def _published(schema: dict[str, Any]) -> None:
    """The optional members in the schema: no default (absent is absent, never null), and
    each present only with the other."""
    for key in ("lang", "signature"):
        schema["properties"][key].pop("default", None)
    schema["dependentRequired"] = {"lang": ["signature"], "signature": ["lang"]}


def _canonical_key(value: str, what: str) -> bytes:
    """A 32-byte key in its one canonical base64url spelling, so that equal cards are
    equal strings (cards are compared and hashed as JSON)."""
    try:
        raw = b64d(value, size=32, what=what)
    except Rejected as exc:
        raise ValueError(str(exc)) from None
    if b64e(raw) != value:
        raise ValueError(N_("{what} is not in canonical base64url (no padding)").format(what=what))
    return raw
