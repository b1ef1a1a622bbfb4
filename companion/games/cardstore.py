"""The cards a table has learned, kept in its box data beside the box check's answers.

One JSON file, ``{card_type: {card: values}}`` (`companion.games.cards.CardBook.learned_json`
form), by default ``cards.json`` beside ``boxcheck.json``. Any game's card types share it
(their names carry the game: ``crecy.friend``, ``colonia.…``). A new game copies what its
types know into its header; each answer given at the table is saved here and so not asked
again; the box check page lists them and corrects or forgets one.

    store = CardStore(path)
    store.learned()                                   # {} at first
    store.save(FRIEND, "Gertrude", {...})             # checked by the type, written atomically
    store.forget("crecy.friend", "Gertrude")

Reading never stops a table: an unreadable file or a bad entry is left out and said in
`problems`. Writing raises `companion.store.StorageUnavailable` (the file is unchanged)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from companion.games.cards import CardType, CardValueError

__all__ = ["CardStore", "cards_path"]


def cards_path(boxcheck: Path) -> Path:
    """Where the learned cards live: beside the box check's answers."""
    return boxcheck.with_name("cards.json")


class CardStore:
    """The learned cards of one table's boxes (``path`` None: kept in memory only)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.problems: list[str] = []
        self._data: dict[str, dict[str, dict[str, Any]]] = self._read()

    def _read(self) -> dict[str, dict[str, dict[str, Any]]]:
        if self.path is None or not self.path.exists():
            return {}
        try:
            raw = json.loads(self.path.read_text("utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            self.problems.append(f"cannot read the learned cards {self.path}: {exc}")
            return {}
        if not isinstance(raw, dict):
            self.problems.append(f"{self.path}: expected a JSON object; not used")
            return {}
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for kind, cards in raw.items():
            if not isinstance(cards, dict):
                self.problems.append(f"learned {kind!r}: not a JSON object; not used")
                continue
            good = {c: v for c, v in cards.items() if isinstance(v, dict)}
            self.problems += [f"learned {kind} {c!r}: not a JSON object; not used"
                              for c in cards if c not in good]
            out[str(kind)] = good
        return out

    def learned(self, prefix: str = "") -> dict[str, dict[str, dict[str, Any]]]:
        """A copy of what is learned, of the card types whose names start with ``prefix``."""
        with self._lock:
            return {k: {c: dict(v) for c, v in cards.items()}
                    for k, cards in self._data.items() if k.startswith(prefix)}

    def save(self, kind: CardType, card: str, values: Any) -> dict[str, Any]:
        """Keep (or correct) ``card``'s values; returns them as checked. Raises
        CardValueError for values that do not fit ``kind``, StorageUnavailable."""
        if not isinstance(card, str) or not card.strip():
            raise CardValueError(f"a card is named by its printed name, got {card!r}")
        checked = kind.check(values)
        with self._lock:
            new = {k: dict(v) for k, v in self._data.items()}
            new.setdefault(kind.name, {})[card] = checked
            self._write(new)
            self._data = new
        return checked

    def forget(self, card_type: str, card: str) -> bool:
        """Forget a card's answer (it is asked again). False if it was not known. Raises
        StorageUnavailable."""
        with self._lock:
            if card not in self._data.get(card_type, {}):
                return False
            new = {k: dict(v) for k, v in self._data.items()}
            del new[card_type][card]
            if not new[card_type]:
                del new[card_type]
            self._write(new)
            self._data = new
            return True

    def _write(self, data: dict[str, Any]) -> None:
        if self.path is None:
            return
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".cards-")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1, ensure_ascii=False, sort_keys=True)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            from companion.store import storage_error

            raise storage_error(self.path, exc) from exc
