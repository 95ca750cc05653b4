"""Settings of notebooks 08 and 09 per data size: the multi-sense model each trains (or reads),
on the bundled corpus or the user's (``settings(size, corpus=…, …)``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from workbench._validation import check_choice, check_int
from workbench.datasets import WORDSIM_NAMES, load_corpus
from workbench.embeddings import MultiSenseVectors
from workbench.senses import MultiSenseConfig, train_multisense

from ..data import DataChoice, split_overrides

__all__ = [
    "SIZES",
    "DEFAULT_WORDSIM",
    "SenseSettings",
    "settings",
    "train_preset",
    "wordsim_label",
    "data_record",
    "BASE_MODELS",
    "base_model_name",
    "base_model_config",
]

#: The data sizes of notebooks 08 and 09.
SIZES = ("small", "full")
#: The rating set notebook 09 scores with avgSim besides SCWS (WS-353, as the paper's Table 4).
DEFAULT_WORDSIM: tuple[str, ...] = ("WS",)
#: The multi-sense base models notebook 08's robustness table can train: fixed K by spherical
#: k-means, or NP-MSSG (a new sense when a context's cosine to every centre is below lambda).
BASE_MODELS: tuple[str, ...] = ("K=2", "K=3", "K=4", "NP-MSSG")
#: The data fields notebooks 08 and 09 use (SCWS and WordNet stay bundled; no lexicons, vectors
#: or parallel texts).
_USED = ("corpus", "corpus_format", "language", "wordsim")


@dataclass(frozen=True)
class SenseSettings:
    """The multi-sense model of notebooks 08 and 09 at one data size (both read the same cache).

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        The corpus (:func:`workbench.datasets.load_corpus`: a bundled name or the user's path)
        and its token budget.
    config : MultiSenseConfig
        Training settings (:func:`workbench.senses.train_multisense`); the seed is set per run.
    wordsim : tuple of str
        The rating set notebook 09 scores with avgSim besides SCWS (:data:`DEFAULT_WORDSIM`, or
        the user's ``WORDSIM``: one bundled name or file). SCWS itself is always the bundled one.
    data : DataChoice
        The data fields (corpus, its format and language, rating sets); every field empty: the
        bundled data.
    robustness : tuple of str
        The other base models (names of :data:`BASE_MODELS`) notebook 08 re-runs its first seed
        on, for the robustness table (the main model, :func:`base_model_name` of ``config``, is
        always its first row).
    np_threshold, np_max_senses : float, int
        NP-MSSG's lambda (a cosine of centred context vectors) and its cap on senses
        per word.
    """

    size: str
    corpus: str
    max_tokens: int | None
    config: MultiSenseConfig
    wordsim: tuple[str, ...] = DEFAULT_WORDSIM
    data: DataChoice = field(default_factory=DataChoice)
    robustness: tuple[str, ...] = ()
    np_threshold: float = 0.2
    np_max_senses: int = 5

    @property
    def base_model(self) -> str:
        """The name of the main base model (:func:`base_model_name`)."""
        return base_model_name(self.config)

    @property
    def pos_check(self) -> bool:
        """Rule: the part-of-speech test of notebook 08 (majority tags of the bundled English
        treebank) runs only for an English corpus."""
        return self.data.side_views()

    @property
    def wordnet(self) -> bool:
        """Rule: the WordNet check of notebook 09 (synset counts of the bundled, English WordNet)
        runs only for an English corpus."""
        return self.data.side_views()

    @property
    def wordsim_label(self) -> str:
        """The label of the avgSim rating set in tables and records: ``"WS-353"`` for the bundled
        WS-353 (the paper's name), otherwise the user's set name or file name."""
        return wordsim_label(self.wordsim[0])

    def data_note(self, notebook: int = 9) -> str:
        """One line: the corpus the model is trained on and, for notebook 9, the rating sets
        scored and whether the WordNet check runs (only for an English corpus); notebook 8
        uses no side data, so its note names the corpus only."""
        d = self.data.describe()
        if d["corpus"] == "bundled":
            corpus = f"corpus bundled {self.corpus} (en)"
        else:
            corpus = f"corpus {d['corpus']} ({d['corpus_format']}, {d['language']})"
        if notebook == 8:
            return (
                f"{corpus}; no side data (the pseudo-sense criterion uses the model's neighbours)"
            )
        wn = (
            "WordNet check on"
            if self.wordnet
            else f"WordNet check left out (the bundled WordNet is English, the corpus is "
            f"{d['language']!r})"
        )
        return f"{corpus}; rating sets: SCWS (bundled, English) and {self.wordsim_label}; {wn}"


def data_record(settings: SenseSettings) -> dict[str, Any]:
    """The ``data`` record of a sense study: :meth:`DataChoice.describe` of the settings' data,
    the corpus trained on (``corpus_used``: the bundled name, or the user's file name), the
    label of the avgSim rating set (``wordsim_label``) and whether the WordNet check ran
    (``wordnet``)."""
    d = settings.data.describe()
    return {**d,
            "corpus_used": settings.corpus if settings.data.bundled_corpus else d["corpus"],
            "wordsim_label": settings.wordsim_label, "wordnet": settings.wordnet}  # fmt: skip


def base_model_name(config: MultiSenseConfig) -> str:
    """``"K=3"`` for k-means with three senses, ``"NP-MSSG"`` for the non-parametric rule."""
    return "NP-MSSG" if config.method == "nonparametric" else f"K={config.n_senses}"


def base_model_config(settings: SenseSettings, name: str) -> MultiSenseConfig:
    """The training settings of base model ``name`` (one of :data:`BASE_MODELS`): the settings'
    config with only the sense model changed."""
    check_choice(name, "base model", BASE_MODELS)
    if name == "NP-MSSG":
        return replace(settings.config, method="nonparametric", threshold=settings.np_threshold,
                       max_senses=settings.np_max_senses)  # fmt: skip
    return replace(settings.config, method="kmeans", n_senses=int(name.split("=")[1]))


def wordsim_label(name: str) -> str:
    """``"WS-353"`` for ``"WS"``; a bundled name as it is; a path by its file name."""
    if name == "WS":
        return "WS-353"
    return name if name in WORDSIM_NAMES else Path(name).name


def settings(size: str, **overrides: Any) -> SenseSettings:
    """The settings of notebooks 08 and 09 at ``size``: ``"small"`` trains tiny (25-d) vectors
    on ~200K tokens of the 1M corpus (for tests); ``"full"`` trains 100-d vectors on the 5M
    corpus. Both use K = 3 senses (k-means) as the main base model; notebook 08's robustness
    table re-runs the first seed on NP-MSSG (``small``) or on K = 2, K = 4 and NP-MSSG
    (``full``).

    ``overrides``: the data fields of :class:`~workbench.studies.data.DataChoice` the sense
    studies use (``corpus``, ``corpus_format``, ``language``, ``wordsim``; empty values: the
    bundled data) and any other field of :class:`SenseSettings`. A user corpus replaces the
    bundled one (with the size's token budget and training settings; the model cache is keyed
    by the corpus content); ``wordsim`` names the one rating set notebook 09 scores besides the
    bundled SCWS.
    """
    check_choice(size, "size", SIZES)
    data_fields, own = split_overrides(
        overrides,
        {f.name for f in fields(SenseSettings)} - {"size", "data", "corpus", "wordsim"},
        used=_USED,
        study="the sense studies (notebooks 08, 09)",
    )
    data = DataChoice(**data_fields)
    if len(data.wordsim) > 1:
        raise ValueError(
            f"WORDSIM: notebook 09 scores one rating set besides SCWS, got {len(data.wordsim)} "
            f"({', '.join(data.wordsim)}); give one name or file"
        )
    if data.wordsim and wordsim_label(data.wordsim[0]).upper().startswith("SCWS"):
        raise ValueError(
            f"WORDSIM={data.wordsim[0]!r}: SCWS is scored by notebook 09 in any case (maxSimC, "
            "split into dev and test); give another rating set, or none for WS-353"
        )
    if size == "small":
        base = SenseSettings(size, "1M", 200_000, MultiSenseConfig(
            dim=25, window=4, epochs=3, negative=3, min_count=5, method="kmeans", n_senses=3,
            n_multi=300, min_sense_count=30, max_samples=500), robustness=("NP-MSSG",))  # fmt: skip
    else:
        base = SenseSettings(size, "5M", None, MultiSenseConfig(
            dim=100, window=5, epochs=5, negative=5, min_count=5, method="kmeans", n_senses=3,
            n_multi=2000, min_sense_count=50, max_samples=1000),
            robustness=("K=2", "K=4", "NP-MSSG"))  # fmt: skip
    base = replace(base, corpus=data.corpus_or(base.corpus),
                   wordsim=data.wordsim_or(DEFAULT_WORDSIM), data=data)  # fmt: skip
    return replace(base, **own) if own else base


def train_preset(
    settings: SenseSettings, *, seed: int = 0, progress: bool | None = None, **overrides: Any
) -> MultiSenseVectors:
    """Train (or load from the cache) the multi-sense model of ``settings`` with ``seed``.

    The cache key holds the corpus' sha256 (of its files' contents and the way they are read),
    the token budget and every training parameter, so a user's corpus never reads the bundled
    corpus' model, and an edited file is trained anew.

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
        load_corpus(settings.corpus, **_read_options(settings)),
        config=cfg,
        max_tokens=settings.max_tokens,
        cache=True,
        progress=progress,
    )


def _read_options(settings: SenseSettings) -> dict[str, Any]:
    """``load_corpus`` keywords of a user corpus (none for the bundled one, as before)."""
    if settings.data.bundled_corpus:
        return {}
    return {"format": settings.data.corpus_format, "language": settings.data.language}
