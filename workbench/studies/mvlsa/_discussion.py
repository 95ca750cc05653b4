"""Discussion text of notebooks 03--05, rendered from a run's records.

Every number in these texts is read from the records the notebook wrote in the same run
(:func:`workbench.records.recorded`), and every qualitative word ("higher", "significantly")
is chosen by comparing those numbers, so a re-run with other data, parameters or seeds cannot
contradict its own text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .._text import dpts, escape, pts

__all__ = ["discussion_03", "discussion_04", "discussion_05", "findings", "compare_sizes"]


def _mpts(values: Mapping[str, float | None] | Sequence[float | None]) -> str:
    """Per-seed values as ``mean ± sd`` points (the value alone for one seed)."""
    vals = [float(v) for v in (values.values() if isinstance(values, Mapping) else values)
            if v is not None and math.isfinite(float(v))]  # fmt: skip
    if not vals:
        return "n/a"
    m = sum(vals) / len(vals)
    if len(vals) == 1:
        return f"{100 * m:.1f}"
    sd = math.sqrt(sum((v - m) ** 2 for v in vals) / (len(vals) - 1))
    return f"{100 * m:.1f} ± {100 * sd:.1f}"


def _per_seed(rec: Mapping[str, Any], system: str) -> list[float]:
    """The per-seed test means of ``system`` (one value when the run has no per-seed record)."""
    per = rec.get("test_mean_per_seed")
    if per:
        return [float(m[system]) for m in per.values() if m.get(system) is not None]
    return [float(rec["test_mean"][system])]


def _seeds_text(k: int, n: int) -> str:
    if n == 1:
        return ""
    return " in every seed" if k == n else f" in {k} of {n} seeds"


def _count(n: int, total: int) -> str:
    return f"{n} of {total}"


def _check_records(
    rec: object,
    notebook: str,
    keys: tuple[str, ...],
    other: object = None,
    other_size: object = None,
) -> None:
    """The records of a run of ``notebook`` (a mapping holding ``keys``) and, when given, the
    records of the run at ``other_size``; errors name what is missing."""
    if not isinstance(rec, Mapping):
        raise TypeError(
            f"rec must be the records of a run of notebook {notebook} (a mapping, e.g. "
            f"workbench.records.recorded()), got {type(rec).__name__}"
        )
    missing = [k for k in keys if k not in rec]
    if missing:
        raise KeyError(
            f"rec lacks the records {missing} that notebook {notebook} writes; pass the records "
            f"of a complete run of notebook {notebook}"
        )
    if other is not None and not isinstance(other, Mapping):
        raise TypeError(f"other must be a mapping of records or None, got {type(other).__name__}")
    if other_size is not None and not isinstance(other_size, str):
        raise TypeError(f"other_size must be a data size (str) or None, got {other_size!r}")
    if other is not None and other_size is None:
        raise ValueError("other is given without other_size: name the data size of that run")


def _scale_line(
    notebook: str, rec: Mapping[str, Any], other: Mapping[str, Any] | None, other_size: str | None
) -> str | None:
    if other_size is None:
        return None
    size = "this size"
    if other is None:
        return (
            f"* **Another data size.** No complete `{other_size}` run of this version of the "
            "notebook was found under `results/`, so the findings cannot be compared across corpus "
            "sizes here; run "
            f"`python -m workbench run {notebook} --size {other_size}` to add it."
        )
    table = compare_sizes(notebook, rec, other, here_size=size, other_size=other_size)
    moved = [str(k) for k, m in table["moved"].items() if m]
    kept = [k for k, m in table["moved"].items() if not m]
    text = f"* **Against the `{other_size}` run.** "
    if moved:
        text += (
            "Findings that move: "
            + "; ".join(
                f"{k} ({table.loc[k, size]!s} here, {table.loc[k, other_size]!s} there)"
                for k in moved
            )
            + ". "
        )
    else:
        text += "No finding moves. "
    if kept:
        text += f"Unchanged: {len(kept)} of {len(table)} findings."
    return text


def discussion_03(
    rec: Mapping[str, Any],
    other: Mapping[str, Any] | None = None,
    other_size: str | None = None,
) -> str:
    """The Discussion of notebook 03 from its records (see the notebook's last cell); with
    ``other`` (the records of a run at ``other_size``) the findings that move between the two
    corpus sizes are listed."""
    _check_records(rec, "03", ("test_mean", "test_wins", "tuning_path", "tuned"), other,
                   other_size)  # fmt: skip
    mean = rec["test_mean"]
    wins = rec["test_wins"]
    path = rec["tuning_path"]
    tuned = rec["tuned"]
    base_names = [n for n in ("PPMI-SVD", "SGNS", "GloVe") if n in mean]
    lines = []
    # 1. baselines
    loss = [x for x in rec.get("glove_loss", []) if x is not None]
    conv = ""
    if len(loss) >= 2:
        last_change = (loss[-2] - loss[-1]) / loss[-2] if loss[-2] else float("nan")
        conv = (f" GloVe's loss per pair fell from {loss[0]:.4g} to {loss[-1]:.4g} over "
                f"{len(loss)} epochs; the last epoch lowered it by {100 * last_change:.2f} %.")  # fmt: skip
    best_base = max(base_names, key=lambda n: mean[n])
    n_seeds = len(rec.get("test_mean_per_seed") or {0: None})
    seeds_note = f" (mean ± sd over {n_seeds} seeds)" if n_seeds > 1 else " (one seed)"
    lines.append(
        "* **Baselines on our corpus.** On the test halves the mean Spearman over the rating sets"
        f"{seeds_note} is "
        + ", ".join(f"{_mpts(_per_seed(rec, n))} for {n}" for n in base_names)
        + f"; {best_base} is the strongest on average. The paper's MVLSA configuration reaches "
        f"{_mpts(_per_seed(rec, 'MVLSA (paper config)'))}." + conv
    )
    # 2. the path
    order = [f for f in rec.get("tuning_order", []) if f in path] or list(path)
    steps = []
    for factor in order:
        row = path[factor]
        moved = row["chosen"] != row["previous"]
        what = (f"**{row['chosen']}** replaces {row['previous']}" if moved
                else f"**{row['chosen']}** stays")  # fmt: skip
        steps.append(
            f"  * {factor}: {what} (dev mean {pts(row['dev mean'])}, {dpts(row['gain'])}; "
            f"up on {_count(row['sets up'], row['n sets'])} dev sets, "
            f"{row['significantly up']} significantly, {row['significantly down']} significantly "
            "down after Holm)"
        )
    total_gain = sum(float(r["gain"]) for r in path.values())
    lines.append(
        "* **The dev-tuned path** raised the mean dev Spearman by "
        f"{dpts(total_gain)} points in all:\n" + "\n".join(steps)
    )
    # 3. what mattered
    ranked = sorted(path.items(), key=lambda kv: -float(kv[1]["gain"]))
    big = [(f, r) for f, r in ranked if float(r["gain"]) > 0][:2]
    why = []
    if big:
        why.append(
            "The largest gains came from "
            + " and ".join(f"{f} ({dpts(r['gain'])})" for f, r in big)
            + "."
        )
    nj = path.get("n_j", {})
    if str(nj.get("chosen", "")).startswith(("PPMI", "SPPMI")):
        why.append(
            "PPMI weighting replaces the paper's fourth root: the fourth root still leaves each "
            "view's leading singular directions to frequent words and contexts, while PPMI "
            "discounts what frequency alone predicts, as in count-based models since Church & Hanks."
        )
    r_row = path.get("r", {})
    chosen_r = str(r_row.get("chosen", ""))
    r_means = rec.get("tuning_means", {}).get("r", {})
    strong = {k: v for k, v in r_means.items() if k.startswith("rho=") and float(k[4:]) >= 1}
    if strong and chosen_r in r_means:
        worst = min(strong, key=lambda k: strong[k])
        if r_means[worst] < r_means[chosen_r]:
            why.append(
                f"Strong regularization is harmful: at {worst} of each view's top squared "
                f"singular value (close to a principal component analysis of the concatenated, "
                f"scaled views) the dev mean drops to {pts(r_means[worst])}, against "
                f"{pts(r_means[chosen_r])} at the chosen {chosen_r}. The whitening of MAX-VAR "
                "GCCA is not what holds MVLSA back here; it is part of what makes it work."
            )
    if chosen_r.startswith("rho="):
        rho = float(chosen_r.split("=", 1)[1])
        if rho >= 1:
            why.append(
                "A regularization as large as each view's top squared singular value is chosen: "
                "it moves MAX-VAR GCCA from whitened views (every direction of a view's top m "
                "counted alike) towards a principal component analysis of the concatenated, "
                "scaled views, which keeps each view's spectrum. The whitening of GCCA is part "
                "of what holds it back at this scale."
            )
        else:
            why.append(
                f"The chosen regularization ({chosen_r} of each view's top squared singular value) "
                "only damps the weakest directions of each view."
            )
    elif r_row:
        why.append("No relative regularization beats the paper's tiny absolute one on dev.")
    pos = path.get("positional", {})
    if pos and pos.get("chosen") != pos.get("previous"):
        why.append(
            f"Cutting the corpus into **{pos['chosen']}** instead of the paper's "
            f"{pos['previous']} ({dpts(pos['gain'])} on dev): separate offset views each carry "
            "a sparse, noisy slice of the same co-occurrences, and MAX-VAR GCCA, which weights "
            "every view alike and keeps only what the views share, does better with fewer, "
            "denser views."
        )
    views = path.get("views", {})
    if views and views.get("chosen") != "all":
        why.append(
            f"Not every view family helps: the dev halves prefer **{views['chosen']}**, so equal "
            "view weights let weak families pull the shared space away from the corpus views."
        )
    if why:
        lines.append("* **What it takes.** " + " ".join(why))
    # 4. the tuned MVLSA against the baselines
    ref = "MVLSA (tuned)"
    gap = mean[ref] - mean["PPMI-SVD"] if "PPMI-SVD" in mean else float("nan")
    ref_seeds = _per_seed(rec, ref)
    ppmi_seeds = _per_seed(rec, "PPMI-SVD") if "PPMI-SVD" in mean else []
    n_ge = sum(a >= b for a, b in zip(ref_seeds, ppmi_seeds))
    verdict = "at least as good as" if gap >= 0 else "below"
    comps = []
    for n in ["MVLSA (paper config)", "MVLSA (tuned, corpus views)", *base_names]:
        w = wins.get(n)
        if w:
            comps.append(
                f"against {n} it is significantly better on "
                f"{_count(w['better, every seed'], w['sets'])} sets"
                + (f" ({w['better, some seed']} in at least one seed)" if n_seeds > 1 else "")
                + f" and significantly worse on {w['worse, every seed']}"
                + (f" ({w['worse, some seed']} in at least one)" if n_seeds > 1 else "")
            )
    corpus_only = "MVLSA (tuned, corpus views)"
    if corpus_only in mean and "PPMI-SVD" in mean:
        g2 = mean[corpus_only] - mean["PPMI-SVD"]
        co_seeds = _per_seed(rec, corpus_only)
        k2 = sum(a >= b for a, b in zip(co_seeds, ppmi_seeds))
        w2 = wins.get(corpus_only, {})
        lines.append(
            f"* **On the corpus alone** (the baselines' data), the tuned configuration reaches "
            f"{_mpts(co_seeds)}, {'at least as good as' if g2 >= 0 else 'below'} "
            f"PPMI-SVD on average ({dpts(g2)} points"
            + (f"; at least as good{_seeds_text(k2, n_seeds)}" if n_seeds > 1 else "")
            + "); the full tuned system differs from this "
            "corpus-only one by its lexicon and other views."
            + (
                f" The full tuned MVLSA is significantly better than the corpus-only one on "
                f"{w2.get('better, every seed', 0)} of {w2.get('sets', 0)} test sets"
                f"{' in every seed' if n_seeds > 1 else ''} and worse on "
                f"{w2.get('worse, every seed', 0)}."
                if w2
                else ""
            )
        )
    lines.append(
        f"* **The best documented MVLSA** ({tuned['n_j']}, r = {tuned['r']}, m = {tuned['m']}, "
        f"k = {tuned['k']}, W_j {tuned['W_j']}, views {tuned['views']}, positional "
        f"{tuned['positional']}) reaches a mean test Spearman of {_mpts(ref_seeds)}: {verdict} "
        f"PPMI-SVD on average ({dpts(gap)} points)"
        + (f", and at least as good{_seeds_text(n_ge, n_seeds)}" if n_seeds > 1 else "")
        + ". Per set, with Holm over every comparison of a seed's table: "
        + "; ".join(comps)
        + "."
    )
    # 5. paper claims
    claims = rec.get("claims", {})
    if claims:
        held = [c for c, ok in claims.items() if ok]
        failed = [c for c, ok in claims.items() if not ok]
        parts = []
        if held:
            parts.append("holds: " + "; ".join(held))
        if failed:
            parts.append("does not hold: " + "; ".join(failed))
        lines.append(
            "* **The paper's hyper-parameter claims** on the dev halves — " + ". ".join(parts) + "."
        )
    lines.append(
        "* **Caveats.** Selection and the step tests use the same dev halves, so the step p-values "
        "are optimistic (winner's curse); the test halves were read once. Our corpus is several "
        "hundred times smaller than the paper's, and the rating sets' dev and test halves are small "
        "(the MRDS band in the figure shows how large a difference must be on MEN's dev half)."
        + (
            f" The path was walked with the first seed only; the test comparison rebuilds every "
            f"system with each of the {n_seeds} seeds."
            if n_seeds > 1
            else " Everything here is from one seed; the batch run at full size repeats it with three."
        )
    )
    scale = _scale_line("03", rec, other, other_size)
    if scale:
        lines.append(scale)
    return escape("\n".join(lines))


def _family(label: str) -> str:
    """``"!morphology !framenet"`` -> ``"morphology + framenet"``."""
    return " + ".join(part.lstrip("!") for part in label.split())


def discussion_04(
    rec: Mapping[str, Any],
    other: Mapping[str, Any] | None = None,
    other_size: str | None = None,
) -> str:
    """The Discussion of notebook 04 from its records (and the run at ``other_size``)."""
    _check_records(rec, "04", ("drops", "n_significantly_helped", "n_significantly_hurt",
                               "mean_wordsim_drop", "test_sets"), other, other_size)  # fmt: skip
    drops = rec["drops"]
    helped = rec["n_significantly_helped"]
    hurt = rec["n_significantly_hurt"]
    mean_drop = rec["mean_wordsim_drop"]
    n_sets = len(rec["test_sets"])
    lines = []
    order = sorted(
        mean_drop, key=lambda k: -float(mean_drop[k] if mean_drop[k] is not None else -1e9)
    )
    helpful = [k for k in order if (mean_drop[k] or 0) > 0]
    harmful = [k for k in order if (mean_drop[k] or 0) < 0]
    per_seed = rec.get("mean_wordsim_drop_per_seed") or {}
    n_seeds = max(len(per_seed), 1)
    every = " in every seed" if n_seeds > 1 else ""

    def drop_text(k: str) -> str:
        vals = [d.get(k) for d in per_seed.values()] if per_seed else [mean_drop[k]]
        vals = [v for v in vals if v is not None]
        if len(vals) > 1:
            m = _mpts(vals)
            return "+" + m if not m.startswith("-") else m
        return dpts(mean_drop[k])

    lines.append(
        "* **Mean drop over the rating sets** when a family is removed (positive: it helped"
        + (f"; mean ± sd over {n_seeds} seeds" if n_seeds > 1 else "")
        + "): "
        + ", ".join(f"{k} {drop_text(k)}" for k in order)
        + "."
    )
    sig_lines = []
    for k in order:
        if helped.get(k, 0) or hurt.get(k, 0):
            sig_lines.append(
                f"{_family(k)}: its views helped significantly on {helped.get(k, 0)} and hurt on "
                f"{hurt.get(k, 0)} of {n_sets} test sets"
            )
    if sig_lines:
        lines.append(
            f"* **Significant after Holm** over the whole table{every}: "
            + "; ".join(sig_lines)
            + "."
        )
    else:
        lines.append(f"* **No drop is significant after Holm**{every} over the whole table.")
    pos = drops.get("!positional", {})
    if pos:
        men = pos.get("MEN")
        lines.append(
            f"* **The corpus views.** Removing the positional views changes MEN by {dpts(-men if men is not None else None)} "
            "points; the paper's !Wikipedia drop was catastrophic."
            + (
                " Here too the corpus views carry the model."
                if (men or 0) > 0
                else " Here the other families make up for them on MEN."
            )
        )
    if harmful:
        lines.append(
            f"* **Views whose removal helps on average**: {', '.join(_family(h) for h in harmful)} — with equal view weights in "
            "MAX-VAR GCCA, views from small or noisy sources pull the shared space away from the "
            "corpus views; notebook 03's path measures the same effect on dev data."
        )
    if helpful:
        lines.append(f"* **Views that help on average**: {', '.join(_family(h) for h in helpful)}.")
    lines.append(
        "* **Reading the table.** The configuration was chosen on the dev halves; the drops are on "
        "the test halves and the analogies, which the tuning never saw. Small drops are below the "
        "sets' MRDS and not significant after correction."
    )
    scale = _scale_line("04", rec, other, other_size)
    if scale:
        lines.append(scale)
    return escape("\n".join(lines))


def discussion_05(
    rec: Mapping[str, Any],
    other: Mapping[str, Any] | None = None,
    other_size: str | None = None,
) -> str:
    """The Discussion of notebook 05 from its records (and the run at ``other_size``)."""
    _check_records(rec, "05", ("wordsim_mean", "gain_counts", "r_s_mean", "men", "scores"),
                   other, other_size)  # fmt: skip
    wmean = rec["wordsim_mean"]
    counts = rec["gain_counts"]
    rs = rec["r_s_mean"]
    n_sets = len(rec["men"]) and len(next(iter(rec["scores"].values())))
    lines = []
    ranked = sorted(wmean, key=lambda k: -float(wmean[k] if wmean[k] is not None else -1e9))
    per_seed = rec.get("wordsim_mean_per_seed") or {}
    n_seeds = max(len(per_seed), 1)
    every = " in every seed" if n_seeds > 1 else ""

    def mean_text(k: str) -> str:
        vals = [d.get(k) for d in per_seed.values()] if per_seed else [wmean[k]]
        return _mpts([v for v in vals if v is not None])

    lines.append(
        "* **Mean Spearman over the rating sets (test halves"
        + (f"; mean ± sd over {n_seeds} seeds" if n_seeds > 1 else "")
        + ")**: "
        + ", ".join(f"{k} {mean_text(k)}" for k in ranked)
        + "."
    )
    own = [k for k in ranked if k != "GloVe 6B-50d"]
    lines.append(
        f"* **Among the systems trained on our corpus** {own[0]} is the strongest"
        + (f", ahead of {own[1]}" if len(own) > 1 else "")
        + "; pretrained GloVe 6B-50d, trained "
        "on a corpus over a thousand times larger, is an external reference."
    )
    for g in ("MV Gain", "G-WSG Gain", "Combined Gain"):
        if f"{g} > 0" in counts:
            lines.append(
                f"* **{g}**: positive on {_count(counts[f'{g} > 0'], n_sets)} test sets; "
                f"significantly up on {counts[f'{g} significant up']} and significantly down on "
                f"{counts[f'{g} significant down']} after Holm{every}"
                + (
                    f" ({counts.get(f'{g} significant up, some seed', 0)} up and "
                    f"{counts.get(f'{g} significant down, some seed', 0)} down in at least one seed)"
                    if n_seeds > 1
                    else ""
                )
                + "."
            )
    try:
        before, after = rs["WSG"]["MVLSA (all views)"], rs["WSG"]["MVLSA Combined"]
        g_before, g_after = rs["GloVe"]["MVLSA (all views)"], rs["GloVe"]["MVLSA Combined"]
        lines.append(
            f"* **r_s** (the paper: fusion raises the correlation with the fused systems): MVLSA "
            f"Combined moves {'towards' if after > before else 'away from'} skip-gram (mean r_s "
            f"{pts(before)} to {pts(after)}) and {'towards' if g_after > g_before else 'away from'} "
            f"GloVe ({pts(g_before)} to {pts(g_after)})."
        )
    except (KeyError, TypeError):
        pass
    scale = _scale_line("05", rec, other, other_size)
    if scale:
        lines.append(scale)
    return escape("\n".join(lines))


def findings(notebook: str, rec: Mapping[str, Any]) -> dict[str, str]:
    """The qualitative findings of a run of notebook ``"03"``, ``"04"`` or ``"05"`` (from its
    records), as short labels that can be compared across data sizes."""
    if notebook not in ("03", "04", "05"):
        raise ValueError(f"notebook must be '03', '04' or '05', got {notebook!r}")
    _check_records(rec, notebook, ())
    out: dict[str, str] = {}
    if notebook == "03":
        for factor, row in rec.get("tuning_path", {}).items():
            out[f"chosen {factor}"] = str(row["chosen"])
        mean = rec.get("test_mean", {})
        if "MVLSA (tuned)" in mean and "PPMI-SVD" in mean:
            out["tuned MVLSA vs PPMI-SVD (test mean)"] = (
                "at least as good" if mean["MVLSA (tuned)"] >= mean["PPMI-SVD"] else "below"
            )
        base = {k: v for k, v in mean.items() if k in ("PPMI-SVD", "SGNS", "GloVe")}
        if base:
            out["strongest baseline"] = max(base, key=lambda k: base[k])
        if "MVLSA (tuned, corpus views)" in mean and "PPMI-SVD" in mean:
            out["corpus-only tuned MVLSA vs PPMI-SVD (test mean)"] = (
                "at least as good"
                if mean["MVLSA (tuned, corpus views)"] >= mean["PPMI-SVD"]
                else "below"
            )
        for claim, ok in rec.get("claims", {}).items():
            out[claim] = "holds" if ok else "does not hold"
    elif notebook == "04":
        for label, d in rec.get("mean_wordsim_drop", {}).items():
            out[f"{label} (mean drop)"] = "helped" if (d or 0) > 0 else "hurt"
            n = rec.get("n_significant", {}).get(label, 0)
            out[f"{label} (significant cells)"] = "some" if n else "none"
    elif notebook == "05":
        counts = rec.get("gain_counts", {})
        n = len(next(iter(rec.get("scores", {}).values()), {})) or 1
        for g in ("MV Gain", "G-WSG Gain", "Combined Gain"):
            if f"{g} > 0" in counts:
                out[f"{g} positive on most sets"] = "yes" if counts[f"{g} > 0"] > n / 2 else "no"
        wm = {k: v for k, v in rec.get("wordsim_mean", {}).items() if k != "GloVe 6B-50d"}
        if wm:
            out["strongest own system"] = max(wm, key=lambda k: wm[k] if wm[k] is not None else -1)
    else:
        raise ValueError(f"notebook must be '03', '04' or '05', got {notebook!r}")
    return out


def compare_sizes(
    notebook: str,
    here: Mapping[str, Any],
    other: Mapping[str, Any] | None,
    *,
    here_size: str,
    other_size: str,
) -> pd.DataFrame:
    """Findings of this run next to those of the run at ``other_size`` (``None``: no such run)
    as a DataFrame with a ``moved`` column; empty when ``other`` is None."""
    for name, size in (("here_size", here_size), ("other_size", other_size)):
        if not isinstance(size, str) or not size:
            raise TypeError(f"{name} must be a non-empty string (a data size), got {size!r}")
    if here_size == other_size:
        raise ValueError(f"here_size and other_size must differ, both are {here_size!r}")
    if other is not None and not isinstance(other, Mapping):
        raise TypeError(f"other must be a mapping of records or None, got {type(other).__name__}")
    mine = findings(notebook, here)
    if other is None:
        return pd.DataFrame(columns=[here_size, other_size, "moved"])
    theirs = findings(notebook, other)
    keys = list(dict.fromkeys([*mine, *theirs]))
    rows = {k: {here_size: mine.get(k, "–"), other_size: theirs.get(k, "–")} for k in keys}
    df = pd.DataFrame(rows).T
    df["moved"] = df[here_size] != df[other_size]
    return df
