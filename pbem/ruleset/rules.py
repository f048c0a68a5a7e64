"""The contract between the engine and a ruleset.

A ruleset is a pure state machine (architecture §2): every method is a deterministic function of
its arguments, with no I/O and no clock, so that anyone can re-run a whole game from the
signed log and reach the same states. States and actions are pydantic models that dump to
JSON without floats; the engine hashes ``state.model_dump(mode="json")`` after every step.

The engine owns signing, sealing, randomness and the file; the ruleset only says what is
awaited (``pending``) and how an action changes the state.
"""

from __future__ import annotations

import hashlib
import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from pbem.crypto.randomness import Rng
from pbem.format.canonical import MAX_SAFE_INTEGER, canonical, fast_encoding
from pbem.format.i18n import ENGLISH, N_
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rulebook import Rulebook, Topic, load


class RulesError(Exception):
    """An option, an action or a notation the rules refuse. The message says why and, where
    a rule section applies, cites it (``R-5.1: ...``)."""


def number(word: str) -> int:
    """A whole number typed in an action's notation: ASCII digits only, and small enough
    to be exact in the file format (a 5,000-digit number is an error, not a crash)."""
    if not (word.isascii() and word.isdigit()):
        raise RulesError(N_("expected a whole number, not {word!r}").format(word=word[:20]))
    if len(word) > len(str(MAX_SAFE_INTEGER)) or int(word) > MAX_SAFE_INTEGER:
        raise RulesError(
            N_("the number {start}… ({digits} digits) is out of range").format(
                start=word[:12], digits=len(word)
            )
        )
    return int(word)


class Model(BaseModel):
    """Base for states, actions and data: strict, no extra fields, JSON-friendly."""

    model_config = ConfigDict(extra="forbid", frozen=False, defer_build=True)


class Turn(Model):
    """One seat must choose a public action."""

    kind: Literal["turn"] = "turn"
    seat: int
    prompt: str = ""


class Parallel(Model):
    """Several seats must each submit an action, in any order.

    ``name`` identifies the decision (it is signed into every envelope). With ``sealed`` the
    actions are committed encrypted first and revealed once every seat has committed
    (architecture §6)."""

    kind: Literal["parallel"] = "parallel"
    seats: list[int]
    name: str
    sealed: bool = False
    prompt: str = ""


class Chance(Model):
    """Randomness is needed; the engine supplies an ``Rng`` to ``resolve_chance``."""

    kind: Literal["chance"] = "chance"
    reason: str = ""


class Reveal(Model):
    """Sealed items must be opened (architecture §7): to everyone (``to`` None) or privately to
    seat ``to``. ``items`` are handles of sealed items (``"<deck>/<index>"``, see
    ``Ruleset.sealed_decks``). The engine gathers the decryption shares it needs, then calls
    ``Ruleset.apply_reveal`` with the faces (public reveal) or without them (private reveal:
    the public state only records that the seat has seen the items)."""

    kind: Literal["reveal"] = "reveal"
    items: list[str]
    to: int | None = None


class Reshuffle(Model):
    """Seal ``items`` (known to all, e.g. a face-up discard pile) as a new deck ``deck`` and
    have every seat shuffle it, like the decks of ``sealed_decks`` at setup. The engine then
    calls ``Ruleset.apply_reshuffle``; the new handles are ``"<deck>/<i>"``. A deck name is
    used once per game (``regions-2``, ``regions-3``, ...)."""

    kind: Literal["reshuffle"] = "reshuffle"
    deck: str
    items: list[str]


class OptionHelp(Model):
    """One option of a ruleset as ``pbem rules`` lists it: ``--option name=value``."""

    name: str
    values: str = Field(description="what it takes, e.g. 'on|off' or '1-4'")
    default: str
    help: str = Field(description="what it does, citing its rule section")


class Result(Model):
    """The end of a game: scores per seat (in seat order) and the winning seats."""

    scores: list[int]
    winners: list[int]
    summary: str = ""


class Over(Model):
    """The game has ended."""

    kind: Literal["over"] = "over"
    result: Result


Decision = Annotated[
    Turn | Parallel | Chance | Reveal | Reshuffle | Over, Field(discriminator="kind")
]

Bot = Callable[["Ruleset", Any, int, Knowledge, Rng], Any]
"""A bot picks an action for ``seat`` in ``state``, knowing what the seat privately knows
(``knowledge``, and nothing else); ``rng`` is its own deterministic stream. Every driver
calls it the same way: self-play, the rules-only tournaments, a seat held by a bot."""


_CONTENT_HASHES: dict[type, str] = {}


class Ruleset(ABC):
    """Subclass per game and register it under the ``pbem.rulesets`` entry point group.

    Class attributes: ``id``, ``version``, ``min_seats``, ``max_seats``, ``State`` (the
    pydantic state model) and ``Action`` (the pydantic model, or union of models, of an
    action). States passed in must not be mutated: return a new one (``model_copy(deep=True)``).
    """

    id: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str] = ""
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    State: ClassVar[type[BaseModel]]
    Action: ClassVar[Any]

    # ----- identity of the rules -------------------------------------------------------

    def source_files(self) -> list[Path]:
        """Files whose bytes define these rules: the ruleset's package (code and data), or
        its module when it is a single file. Their hash is pinned in every genesis."""
        module_file = Path(inspect.getfile(type(self)))
        if module_file.name == "__init__.py":
            root = module_file.parent
            return sorted(
                p
                for p in root.rglob("*")
                if p.is_file() and p.suffix in {".py", ".json"} and "__pycache__" not in p.parts
            )
        return [module_file]

    def content_hash(self) -> str:
        """SHA-256 (hex) over the relative names and bytes of ``source_files``; read once
        per process and ruleset class (the rules a process runs are the ones it loaded)."""
        cls = type(self)
        if cls not in _CONTENT_HASHES:
            _CONTENT_HASHES[cls] = self._hash_source()
        return _CONTENT_HASHES[cls]

    def _hash_source(self) -> str:
        files = self.source_files()
        base = Path(inspect.getfile(type(self))).parent
        digest = hashlib.sha256(b"pbem/1/ruleset\0")
        for path in files:
            rel = path.relative_to(base).as_posix().encode()
            data = path.read_bytes()
            digest.update(len(rel).to_bytes(4, "big") + rel)
            digest.update(len(data).to_bytes(8, "big") + data)
        return digest.hexdigest()

    # ----- options and setup --------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """Turn ``--option K=V`` strings into the normalized JSON options stored in genesis.
        Unknown keys or bad values raise ``RulesError``. Default: no options."""
        if raw:
            raise RulesError(
                N_("{id} takes no options (got {options})").format(
                    id=self.id, options=", ".join(sorted(raw))
                )
            )
        return {}

    options_model: ClassVar[type[BaseModel] | None] = None
    """The options as the genesis holds them; None: the ruleset takes none."""

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse genesis options that ``parse_options`` could not have made: of the model's
        types with no coercion (``1`` is not ``true``), nothing unknown, and exactly the
        normal form (every default written out, none ``null``), so that the options the rules
        read are the bytes that were signed."""
        model = self.options_model
        if model is None:
            if options:
                raise RulesError(N_("{id} takes no options").format(id=self.id))
            return
        try:
            parsed = model.model_validate(dict(options), strict=True)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = "".join(f"{p}: " for p in error["loc"][:1])
            raise RulesError(f"{where}{error['msg'].removeprefix('Value error, ')}") from None
        if canonical(parsed.model_dump(mode="json", exclude_none=True)) != canonical(dict(options)):
            raise RulesError(N_("not in the normal form pbem new writes (a default left out)"))

    @abstractmethod
    def setup(self, options: Mapping[str, Any], seats: int) -> BaseModel:
        """The initial state. It may start with a ``Chance`` decision (the setup draw)."""

    # ----- the state machine ----------------------------------------------------------------

    @abstractmethod
    def pending(self, state: BaseModel) -> Decision:
        """What the game awaits now."""

    @abstractmethod
    def legal_actions(self, state: BaseModel, seat: int) -> list[Any]:
        """Every legal action of ``seat`` for the pending Turn or Parallel decision. Where the
        set is combinatorial, a ruleset may return a representative sample and override
        ``random_action``; ``check`` stays the judge."""

    def samples(self, state: BaseModel, seat: int) -> bool:
        """Whether ``legal_actions`` returns a sample here rather than every legal action
        (``pbem moves`` says so). Default: it lists them all."""
        return False

    def listed_actions(
        self, state: BaseModel, seat: int, known: Mapping[str, str] | None = None
    ) -> list[Any]:
        """The legal actions as ``pbem moves`` shows them to a player: with ``known`` (what
        the seat privately knows) none its own ``pbem`` would refuse to sign, the kinds that
        must come next first (``required_kinds``), then grouped by kind. ``legal_actions``
        keeps its order, which bots and search rely on."""
        legal = self.legal_actions(state, seat)
        if known:
            legal = [a for a in legal if self._honest(state, seat, a, known)]
        required = self.required_kinds(state, seat)
        kinds = [k for k in dict.fromkeys(map(_kind, legal)) if k in required]
        kinds += [k for k in dict.fromkeys(map(_kind, legal)) if k not in required]
        return sorted(legal, key=lambda a: kinds.index(_kind(a)))

    def required_kinds(self, state: BaseModel, seat: int) -> frozenset[str]:
        """The kinds of action (their ``type``) the seat must make before its decision
        can end, listed first by ``pbem moves``. Default: none."""
        return frozenset()

    @abstractmethod
    def check(self, state: BaseModel, seat: int, action: Any) -> None:
        """Raise ``RulesError`` (citing the rule) if ``action`` is not legal for ``seat`` now."""

    @abstractmethod
    def apply(self, state: BaseModel, seat: int, action: Any) -> BaseModel:
        """Apply a checked Turn action."""

    def apply_parallel(self, state: BaseModel, actions: Mapping[int, Any]) -> BaseModel:
        """Apply the checked actions of a complete Parallel decision, all at once."""
        raise NotImplementedError(f"{self.id} has no parallel decisions")

    def resolve_chance(self, state: BaseModel, rng: Rng) -> BaseModel:
        """Resolve a Chance decision with the engine's stream. Must not leave a Chance
        pending: draw everything that is needed at this point at once."""
        raise NotImplementedError(f"{self.id} has no chance decisions")

    def sealed_decks(self, options: Mapping[str, Any], seats: int) -> dict[str, list[str]]:
        """Item ids of each sealed deck (a multiset; order does not matter). The engine seals
        and shuffles them after the join (every seat in turn), so that ``<deck>/<i>`` is the
        handle of the i-th item of the shuffled deck, whose face nobody knows. Rules move
        handles around freely; faces become known only through ``Reveal``."""
        return {}

    def apply_reveal(
        self, state: BaseModel, reveal: Reveal, faces: Mapping[str, str] | None
    ) -> BaseModel:
        """Continue after a ``Reveal``: ``faces`` maps each handle to its item id for a public
        reveal, and is None for a private one."""
        raise NotImplementedError(f"{self.id} has no sealed items")

    def apply_reshuffle(self, state: BaseModel, reshuffle: Reshuffle) -> BaseModel:
        """Continue once the deck of a ``Reshuffle`` is sealed and shuffled by every seat."""
        raise NotImplementedError(f"{self.id} has no reshuffles")

    def check_private(
        self, state: BaseModel, seat: int, action: Any, known: Mapping[str, str]
    ) -> None:
        """Check what only ``seat`` can check, before it signs: ``known`` maps the handles
        opened to it alone to their items (e.g. that a region card it plays shows the right
        icon). Everyone checks the same once the items are revealed; this spares an honest
        player a move that would be refused then. Default: nothing to check."""
        return None

    # ----- text ------------------------------------------------------------------------------

    @abstractmethod
    def parse_action(self, state: BaseModel, seat: int, text: str) -> Any:
        """Read the compact notation (``"place 3 X"``); raise ``RulesError`` saying what was
        expected."""

    @abstractmethod
    def format_action(self, state: BaseModel, seat: int, action: Any) -> str:
        """The notation of ``action``: ``parse_action`` of it gives it back."""

    def name_action(
        self, state: BaseModel, seat: int, action: Any, known: Mapping[str, str]
    ) -> str:
        """``action`` as its player reads it: the notation with names where it has ids
        (a card in hand by what it shows, a token by where it lies), drawing on what
        ``seat`` alone knows (``known``, as for ``check_private``). ``pbem moves`` and the
        page show it, and the player may type it: ``pbem.play.naming`` turns it back into
        the listed move it names, whose notation (with the ids) is what is signed. Default:
        the notation, which has no ids to name."""
        return self.format_action(state, seat, action)

    def summary(self, state: BaseModel, seat: int, action: Any, names: list[str]) -> str:
        """One line for logs and mail subjects; ``state`` is the state before the action."""
        return f"{names[seat]}: {self.format_action(state, seat, action)}"

    def consequences(self, before: BaseModel, after: BaseModel, names: list[str]) -> list[str]:
        """What changed in a step, in lines for ``pbem log`` and mail bodies (the summary
        names the action; these say what followed: coins paid out, cards handed on, who
        had to leave). Default: nothing."""
        return []

    def notation_help(self, state: BaseModel, seat: int) -> str:
        """Explain the notation for the pending decision, with examples."""
        return ""

    def view(self, state: BaseModel, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: anyone) may see. All of a state is public by default."""
        return state.model_dump(mode="json")

    def render_text(self, state: BaseModel, names: list[str]) -> str:
        """The table as text for ``pbem status``."""
        return ""

    def render_private(self, state: BaseModel, seat: int, known: Mapping[str, str]) -> str:
        """What ``seat`` privately knows, for ``pbem status --as``: ``known`` maps handles of
        sealed items opened to it alone to their item ids."""
        return "\n".join(f"{handle}: {item}" for handle, item in sorted(known.items()))

    # ----- the rules at hand -----------------------------------------------------------------

    def _beside(self, name: str) -> Path | None:
        path = Path(inspect.getfile(type(self))).parent / name
        return path if path.is_file() else None

    def rulebook(self, lang: str = ENGLISH) -> Rulebook | None:
        """The rules in the project's own words, by numbered section: ``rules.md`` beside
        the ruleset's module, or None. The text explains, the code and data decide, so it
        is deliberately not in ``content_hash`` (its suffix is neither .py nor .json): a
        wording fix must not make every game file refuse to load.

        ``lang`` (``ja``, ``zh-Hant``, ``zh-Hans``) asks for the translation beside it,
        ``rules.ja.md``, with the same section ids, else the English. The English is the
        default because it is what the code reads (topics look up class cards by their
        English titles, the page's rules panel); ``pbem rules`` passes the language in
        use to show a person the text in it."""
        path = self._translated("rules", lang)
        return load(path) if path is not None else None

    def rulings(self, lang: str = ENGLISH) -> str | None:
        """``RULINGS.md`` beside the module: the engine's rulings and their reasons; with
        ``lang``, its translation (``RULINGS.ja.md``) where there is one."""
        path = self._translated("RULINGS", lang)
        return path.read_text(encoding="utf-8") if path is not None else None

    def _translated(self, stem: str, lang: str) -> Path | None:
        """``STEM.LANG.md`` beside the module when ``lang`` is not English and it exists,
        else ``STEM.md`` (None when neither does)."""
        if lang != ENGLISH:
            path = self._beside(f"{stem}.{lang}.md")
            if path is not None:
                return path
        return self._beside(f"{stem}.md")

    def topics(self, options: Mapping[str, Any] | None) -> list[Topic]:
        """Reference lists drawn from the game's data (``pbem rules GAME TOPIC``), for a
        game's ``options`` from its genesis, or for the defaults when None."""
        return []

    def options_help(self) -> list[OptionHelp]:
        """The options ``parse_options`` takes, for ``pbem rules`` and ``pbem new --help``.
        Values listed as ``a|b`` or ``1-4`` are also the check (``pbem.ruleset.options``)."""
        return []

    def notice(self, options: Mapping[str, Any]) -> str:
        """What players should be told once about the data a game with these options plays
        with (say, a reconstructed card set): at ``pbem new``, on the page and in ``pbem
        rules``, not in every status or mail. Default: nothing."""
        return ""

    # ----- bots --------------------------------------------------------------------------------

    def random_action(
        self, state: BaseModel, seat: int, rng: Rng, known: Mapping[str, str] | None = None
    ) -> Any:
        """A uniformly random legal action (the ``random`` bot); with ``known`` (what the
        seat privately knows, as for ``check_private``) one its own ``pbem`` would let it
        sign."""
        legal = self.legal_actions(state, seat)
        if known:
            legal = [a for a in legal if self._honest(state, seat, a, known)]
        return rng.choice(legal)

    def _honest(self, state: BaseModel, seat: int, action: Any, known: Mapping[str, str]) -> bool:
        try:
            self.check_private(state, seat, action, known)
        except RulesError:
            return False
        return True

    def bots(self) -> dict[str, Bot]:
        """Bots by name, for ``pbem selfplay``. ``random`` is always there. A bot that takes
        a parameter (``mcts:200``) has a method ``tuned(text) -> Bot``."""
        return {"random": _random_bot}

    def bot(self, spec: str) -> Bot:
        """The bot named ``spec``: a name of ``bots()``, or ``name:parameter``."""
        name, colon, parameter = spec.partition(":")
        known = self.bots()
        if name not in known:
            raise RulesError(
                N_("unknown bot {name!r} for {id} (known: {known})").format(
                    name=name, id=self.id, known=", ".join(known)
                )
            )
        if not colon:
            return known[name]
        tuned = getattr(known[name], "tuned", None)
        if tuned is None:
            raise RulesError(
                N_("bot {name!r} takes no parameter (got {spec!r})").format(name=name, spec=spec)
            )
        bot: Bot = tuned(parameter)
        return bot

    # ----- dropouts (architecture §11) ----------------------------------------------------

    can_end_early: ClassVar[bool] = False
    """Whether a game can be scored as it stands (a call when no escrow can be opened)."""

    def stand_in(self, state: BaseModel, seat: int, rng: Rng) -> Any:
        """The move made for ``seat`` when it was called or resigned: public, and knowing
        only what the public state shows (nobody holds the seat's private knowledge while
        it decides in the open). By default a random legal move."""
        return self.random_action(state, seat, rng)

    def result_now(self, state: BaseModel) -> Result:
        """The game scored as it stands, for a game ended early by a call."""
        raise NotImplementedError(f"{self.id} cannot be scored before its end")

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas this ruleset publishes, by file stem (``pbem schema`` writes them)."""
        return {
            f"{self.id}.state": self.State.model_json_schema(),
            f"{self.id}.action": _adapter(self.Action).json_schema(),
        }

    # ----- (de)serialization, shared by the engine --------------------------------------------

    def load_state(self, data: Any) -> BaseModel:
        return self.State.model_validate(data)

    def load_action(self, data: Any) -> Any:
        """An action as signed: validated strictly (no coercion, every field present), and
        it must dump back to exactly ``data``, so what the rules apply is what was signed."""
        action = _adapter(self.Action).validate_python(data, strict=True)
        dumped = fast_encoding(self.dump_action(action))  # injective: equal bytes, equal values
        if not dumped or dumped != fast_encoding(data):
            raise RulesError(
                N_("the action does not re-encode as signed (a default or a coerced type)")
            )
        return action

    def dump_action(self, action: Any) -> Any:
        return _adapter(self.Action).dump_python(action, mode="json")


def _random_bot(rules: Ruleset, state: BaseModel, seat: int, knowledge: Knowledge, rng: Rng) -> Any:
    return rules.random_action(state, seat, rng, knowledge.opened)


def _kind(action: Any) -> str:
    """An action's kind: its ``type`` field, else its class."""
    return str(getattr(action, "type", type(action).__name__))


_ADAPTERS: dict[int, TypeAdapter[Any]] = {}


def _adapter(tp: Any) -> TypeAdapter[Any]:
    """One TypeAdapter per action type: building them is slow, and they are reused a lot."""
    key = id(tp)
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(tp)
    return _ADAPTERS[key]
