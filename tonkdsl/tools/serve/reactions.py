"""Reactions at the table: a person taps one of a few faces and it shows at their seat for a
few seconds on every page (the table's short chat: no free text, so nothing to moderate)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

# What a person may react with, each with the words a screen reader says.
REACTIONS: dict[str, str] = {"\U0001F44D": "thumbs up", "\U0001F602": "laughs", "\U0001F62E": "is surprised",
                             "\U0001F44F": "applauds", "\U0001F62C": "grimaces"}
SHOWN_FOR = 5.0  # seconds a reaction stays at the seat
EVERY = 1.5  # seconds between two reactions of one person (a held finger is not a flood)


@dataclass
class Reactions:
    """Each seat's last reaction: (face, when, a number that grows with each one)."""

    last: dict[int, tuple[str, float, int]] = field(default_factory=dict)
    made: int = 0

    def react(self, seat: int, face: str, now: float | None = None) -> str | None:
        """Record ``face`` for ``seat``; the reason it is refused, or None."""
        if face not in REACTIONS:
            return f"react with one of {' '.join(REACTIONS)}"
        now = time.monotonic() if now is None else now
        before = self.last.get(seat)
        if before is not None and now - before[1] < EVERY:
            return "one reaction at a time"
        self.made += 1
        self.last[seat] = (face, now, self.made)
        return None

    def shown(self, seat: int, now: float | None = None) -> dict[str, object] | None:
        """The reaction to show at ``seat`` now (the face, its words, its number), or None."""
        last = self.last.get(seat)
        now = time.monotonic() if now is None else now
        if last is None or now - last[1] > SHOWN_FOR:
            return None
        return {"face": last[0], "words": REACTIONS[last[0]], "n": last[2],
                "left": round(SHOWN_FOR - (now - last[1]), 1)}
