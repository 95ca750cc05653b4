"""Settings of notebooks 08 and 09 per data size: the multi-sense model each trains (or reads)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from workbench._validation import check_choice, check_int
from workbench.datasets import load_corpus
from workbench.embeddings import MultiSenseVectors
from workbench.senses import MultiSenseConfig, train_multisense

__all__ = ["SIZES", "SenseSettings", "settings", "train_preset"]

#: The data sizes of notebooks 08 and 09.
SIZES = ("small", "full")


@dataclass(frozen=True)
class SenseSettings:
    """The multi-sense model of notebooks 08 and 09 at one data size (both read the same cache).

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        The corpus (:func:`workbench.datasets.load_corpus`) and its token budget.
    config : MultiSenseConfig
        Training settings (:func:`workbench.senses.train_multisense`); the seed is set per run.
    """

    size: str
    corpus: str
    max_tokens: int | None
    config: MultiSenseConfig


def settings(size: str) -> SenseSettings:
    """The settings of notebooks 08 and 09 at ``size``: ``"small"`` trains tiny (25-d) vectors
    on ~200K tokens of the 1M corpus (for tests); ``"full"`` trains 100-d vectors on the 5M
    corpus."""
    check_choice(size, "size", SIZES)
    if size == "small":
        return SenseSettings(size, "1M", 200_000, MultiSenseConfig(
            dim=25, window=4, epochs=3, negative=3, min_count=5, method="kmeans", n_senses=3,
            n_multi=300, min_sense_count=30, max_samples=500))  # fmt: skip
    return SenseSettings(size, "5M", None, MultiSenseConfig(
        dim=100, window=5, epochs=5, negative=5, min_count=5, method="kmeans", n_senses=3,
        n_multi=2000, min_sense_count=50, max_samples=1000))  # fmt: skip


def train_preset(
    settings: SenseSettings, *, seed: int = 0, progress: bool | None = None, **overrides: Any
) -> MultiSenseVectors:
    """Train (or load from the cache) the multi-sense model of ``settings`` with ``seed``.

    Parameters
    ----------
    settings : SenseSettings
        From :func:`settings`.
    seed : int
        Training seed (part of the cache key).
    progress : bool, optional
        Show training progress (default: only in an interactive session).
    **overrides
        Replace fields of ``settings.config``.
    """
    if not isinstance(settings, SenseSettings):
        raise TypeError(
            "settings must be a SenseSettings (workbench.studies.senses.settings(size)), "
            f"got {settings!r}"
        )
    seed = check_int(seed, "seed", low=0)
    cfg = MultiSenseConfig(**{**asdict(settings.config), **overrides, "seed": int(seed)})
    return train_multisense(
        load_corpus(settings.corpus),
        config=cfg,
        max_tokens=settings.max_tokens,
        cache=True,
        progress=progress,
    )
