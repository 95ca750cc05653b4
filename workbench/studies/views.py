"""The views study (notebook ``02_views``): its settings per data size and its Discussion.

:func:`settings` gives what the notebook builds at a data size (corpus, vocabulary, offsets,
window, treebank split, bitext verses, pretrained GloVe rows); :func:`discussion_02` renders the
Discussion from the run's records. Every number in the text is read from the records the
notebook wrote in the same run (:func:`workbench.records.recorded`) or from the MVLSA paper's
reported values kept as data (:mod:`workbench.reported`), and every qualitative word
("densest", "grows", "sparser") is chosen by comparing those numbers, so a run at another size
cannot contradict its own text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from workbench._validation import check_choice
from workbench.reported import reported

from ._text import as_float, escape, join_and

__all__ = ["SIZES", "ViewsSettings", "settings", "discussion_02", "PAPER_VOCABULARY"]

#: The data sizes of notebook 02.
SIZES = ("small", "full")


@dataclass(frozen=True)
class ViewsSettings:
    """What notebook 02 builds at one data size.

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        :func:`workbench.datasets.load_corpus` arguments.
    vocab_size, min_count : int
        The vocabulary (:func:`workbench.views.vocabulary_and_encoding`).
    offsets : tuple of int
        Offsets of the positional views; ``window`` the half-width of the window view.
    conllu : str
        UD English-EWT split of the dependency views.
    bitext_verses, glove_limit : int or None
        Verses aligned for the bitext view; rows of pretrained GloVe read (None: all).
    """

    size: str
    corpus: str
    max_tokens: int | None
    vocab_size: int
    min_count: int
    offsets: tuple[int, ...]
    window: int
    conllu: str
    bitext_verses: int | None
    glove_limit: int | None


def settings(size: str) -> ViewsSettings:
    """The settings of notebook 02 at ``size`` (``"small"``: 200K tokens, 5K words, offsets 1-4;
    ``"full"``: the 5M-token corpus, 30K words, offsets 1-15)."""
    check_choice(size, "size", SIZES)
    if size == "small":
        return ViewsSettings(size, corpus="1M", max_tokens=200_000, vocab_size=5_000, min_count=2,
                             offsets=(1, 2, 3, 4), window=2, conllu="dev", bitext_verses=3_000,
                             glove_limit=50_000)  # fmt: skip
    return ViewsSettings(size, corpus="5M", max_tokens=None, vocab_size=30_000, min_count=5,
                         offsets=tuple(range(1, 16)), window=5, conllu="train", bitext_verses=None,
                         glove_limit=None)  # fmt: skip


#: The MVLSA paper's vocabulary: "We selected the top 500K words by occurrence" (§3, Data).
PAPER_VOCABULARY = 500_000
#: View families built from counts of a corpus (the others are lexicons or an embedding).
_COUNT_FAMILIES = ("positional", "window", "dependency", "bitext")
_LEXICON_FAMILIES = ("morphology", "synonyms", "ppdb", "framenet")


def _sci(v: float) -> str:
    """``0.000123 -> "1.2 × 10⁻⁴"`` (densities)."""
    if not np.isfinite(v) or v <= 0:
        return "0"
    exp = int(np.floor(np.log10(v)))
    mant = v / 10.0**exp
    sup = str(exp).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mant:.1f} × 10{sup}"


def _pct(v: float, digits: int = 0) -> str:
    return f"{100 * float(v):.{digits}f} %"


def discussion_02(rec: Mapping[str, Any]) -> str:
    """The Discussion of notebook 02 from its records (see the notebook's last cell).

    Parameters
    ----------
    rec : mapping
        The run's records: ``density_per_family``, ``observed_fraction_per_family``,
        ``positional_density`` (``{offset: density}``), ``dependency_nnz`` (``{relation: nnz}``),
        ``treebank_tokens``, ``bitext_top_god``, ``glove_coverage``, ``vocab_size``.

    Returns
    -------
    str
        Markdown, braces escaped for :func:`workbench.records.narrate`.
    """
    dens: dict[str, float] = {k: float(v) for k, v in rec["density_per_family"].items()}
    obs: dict[str, float] = {k: float(v) for k, v in rec["observed_fraction_per_family"].items()}
    n_vocab = int(rec["vocab_size"])
    lines = []
    # 1. positional / window
    pos = {int(k): float(v) for k, v in rec.get("positional_density", {}).items()}
    count = [f for f in _COUNT_FAMILIES if f in dens]
    ranked = sorted(count, key=lambda f: -dens[f])
    if "positional" in dens:
        text = (
            f"* **Positional views** have a mean density of {_sci(dens['positional'])} and observe "
            f"{'essentially the whole' if obs['positional'] >= 0.99 else _pct(obs['positional'])}"
            f"{' vocabulary' if obs['positional'] >= 0.99 else ' of the vocabulary'}"
        )
        place = ranked.index("positional")
        text += (
            "; they are the densest count family" if place == 0 else
            f"; among the count families only {join_and(ranked[:place])} {'is' if place == 1 else 'are'} denser"
        )  # fmt: skip
        if len(pos) >= 3:
            offsets = sorted(pos)
            rho = float(stats.spearmanr(offsets, [pos[k] for k in offsets])[0])
            first, last = pos[offsets[0]], pos[offsets[-1]]
            if rho > 0.8:
                text += (
                    f". Their density *grows* with the offset (offset {offsets[0]}: "
                    f"{_sci(first)}, offset {offsets[-1]}: {_sci(last)}, Spearman ρ = {rho:.2f} "
                    "over the offsets): adjacent words constrain each other (fewer distinct "
                    "pairs), distant words are nearly independent, so the same number of tokens "
                    "spreads over more distinct pairs"
                )
            else:
                text += (
                    f". Their density does not grow steadily with the offset (Spearman ρ = "
                    f"{rho:.2f}; offset {offsets[0]}: {_sci(first)}, offset {offsets[-1]}: "
                    f"{_sci(last)})"
                )
        if "window" in dens:
            text += (
                ". The symmetric window view sums `Z_k + Z_kᵀ` and is "
                + ("the densest count matrix" if ranked[0] == "window" else "denser than each")
                + f" ({_sci(dens['window'])})"
            )
        lines.append(text + ".")
    # 2. dependency
    if "dependency" in dens:
        dep = {k: int(v) for k, v in rec.get("dependency_nnz", {}).items()}
        sparsest = ranked[-1] == "dependency"
        all_fams = sorted(dens, key=lambda f: dens[f])
        text = (
            f"* **Dependency views** come from a treebank of {int(rec['treebank_tokens']):,} "
            "tokens of web text, not from Gigaword: "
            + (
                "the sparsest family of all"
                if all_fams[0] == "dependency"
                else "the sparsest count family"
                if sparsest
                else "a sparse family"
            )  # fmt: skip
            + f" (mean density {_sci(dens['dependency'])}), observing on average "
            f"{_pct(obs['dependency'], 1)} of the {n_vocab:,}-word Gutenberg vocabulary per view"
        )
        if dep:
            rare = sorted(dep, key=lambda k: dep[k])[:2]
            edges = ", ".join(f"`{r}`: {dep[r]:,}" for r in rare)
            text += (
                f"; the rarest relations have a handful of edges ({edges})"
                if dep[rare[-1]] <= 20
                else "; the two rarest relations have "
                + " and ".join(f"{dep[r]:,} (`{r}`)" for r in rare)
                + " edges"
            )
        lines.append(text + ". This is the least faithful part of the replication.")
    # 3. bitext
    if "bitext" in obs:
        top = rec.get("bitext_top_god")
        lines.append(
            f"* The **bitext view** observes only the {_pct(obs['bitext'])} of the vocabulary that "
            "occurs in the Bible (KJV)"
            + (f", and its IBM Model 1 links are sharp (*god → {top}*)." if top else ".")
        )
    # 4. lexicons, against the paper
    lex = [f for f in _LEXICON_FAMILIES if f in dens]
    if lex:
        lo, hi = min(dens[f] for f in lex), max(dens[f] for f in lex)
        spread = max(obs[f] for f in lex) - min(obs[f] for f in lex)
        text = (
            f"* **Lexicon views** are sparse (densities {_sci(lo)} to {_sci(hi)}) and "
            f"observe between {_pct(min(obs[f] for f in lex))} and "
            f"{_pct(max(obs[f] for f in lex))} of the words"
            + (
                ", each a different subset: the missing-row situation MVLSA handles with `K_j`"
                if spread > 0.1
                else ""
            )  # fmt: skip
            + "."
        )
        paper: dict[str, float] = {}
        try:
            density = reported("mvlsa", "view_density").table["density %"]
            paper = {str(k): as_float(v) for k, v in density.items()}
        except (FileNotFoundError, KeyError, ValueError):  # pragma: no cover - data ships with us
            pass
        shown = [f for f in ("morphology", "framenet") if f in paper and f in dens]
        if shown:
            scale = n_vocab / PAPER_VOCABULARY
            quoted = join_and([f"{f} {float(paper[f]):g} %" for f in shown])
            ours = join_and([f"{f} {100 * dens[f]:.2g} %" for f in shown])
            scaled = join_and([f"{100 * dens[f] * scale:.2g} %" for f in shown])
            verdicts = []
            for f in shown:
                ratio = 100 * dens[f] * scale / float(paper[f])
                where = "close to" if 1 / 3 <= ratio <= 3 else "below" if ratio < 1 else "above"
                verdicts.append(f"{where} the paper's for {f}")
            text += (
                f" The paper reports densities of {quoted} (§3); ours are {ours}. Its vocabulary "
                f"has {PAPER_VOCABULARY:,} words against our {n_vocab:,}: with a fixed number of "
                "links per word density falls like 1/N, and scaled to its vocabulary ours would "
                f"be {scaled}, {join_and(verdicts)}."
            )
        lines.append(text)
    # 5. embedding
    if "glove_coverage" in rec:
        lines.append(
            f"* The **GloVe view** is dense; the {_pct(1 - float(rec['glove_coverage']))} of the "
            "words GloVe lacks are masked rather than zero-filled."
        )
    lines.append(
        "* **Nothing here is random**: counting, IBM Model 1 (EM from a uniform start) and the "
        "lexicon look-ups are deterministic, so the notebook has no `SEEDS` parameter."
    )
    return escape("\n".join(lines))
