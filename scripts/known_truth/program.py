"""A program: a seed's base model and the edits that make its head."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .draw import Generation, Names, draw_app
from .draw_edits import draw_edits
from .edits import Edit, apply_edits
from .model import App


@dataclass
class Program:
    """What one seed draws: the base model and the edits; the head is computed, never stored."""

    seed: int
    base: App
    edits: list[Edit]

    def head(self) -> App:
        return apply_edits(self.base, self.edits)


def draw_program(seed: int, enabled: set[str]) -> Program:
    """The program of one seed, drawing only the `enabled` shapes (the same seed, the same program)."""
    rng = random.Random(seed)
    gen = Generation(rng, enabled, Names(rng))
    base = draw_app(gen)
    return Program(seed, base, draw_edits(gen, base))
