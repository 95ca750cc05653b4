"""Benchmark: eigenword counts and CCA-with-prior-knowledge pair counts.

Target: the 5M-token corpus with the local Laplacian reach N = 12 and the WordNet graph runs in
minutes, not hours, on 2 cores. Reports tokens per second of :func:`count_contexts` (M = W^T C),
:func:`count_prior_pairs` (the alpha-free prior counts P of Figure 3) and the SVD time.

Full run (heavy; one at a time on the shared machine)::

    flock /tmp/heavy.lock .venv/bin/python bench/bench_eigenwords.py

Quick validation (200k tokens of the 1M corpus, 5K vocabulary)::

    .venv/bin/python bench/bench_eigenwords.py --quick
"""

from __future__ import annotations

from _common import Timer, add_json_argument, add_quick_argument, make_parser, peak_rss_gb, report


def main(argv: list[str] | None = None) -> dict:
    ap = make_parser(__doc__)
    ap.add_argument("--corpus", default=None, help='"1M", "5M" (default) or a path')
    ap.add_argument("--max-tokens", type=int, default=None)
    ap.add_argument("--vocab", type=int, default=None, help="vocabulary size (default 30000)")
    ap.add_argument("--lexicon", default="wordnet", choices=["wordnet", "ppdb", "framenet"])
    ap.add_argument("--n-neighbors", type=int, default=12, help="N (default 12)")
    ap.add_argument("--window", type=int, default=2, help="k (default 2)")
    ap.add_argument("--dim", type=int, default=100, help="SVD rank (default 100; 0 skips the SVD)")
    add_quick_argument(ap, "200k tokens of 1M, 5K vocabulary")
    add_json_argument(ap)
    args = ap.parse_args(argv)

    from workbench.datasets import load_corpus
    from workbench.eigenwords import count_contexts, count_prior_pairs, eigenwords_svd
    from workbench.lexicons import lexicon_graph
    from workbench.views import Vocabulary, encode_corpus

    corpus_name = args.corpus or ("1M" if args.quick else "5M")
    max_tokens = args.max_tokens or (200_000 if args.quick else None)
    vocab_size = args.vocab or (5_000 if args.quick else 30_000)
    dim = min(args.dim, 25) if args.quick else args.dim

    corpus = load_corpus(corpus_name, max_tokens=max_tokens)
    vocab = Vocabulary.from_corpus(corpus, max_size=vocab_size)
    enc = encode_corpus(corpus, vocab)
    n = int(enc.ids.size)

    with Timer() as t:
        graph = lexicon_graph(args.lexicon, list(vocab.words))
    t_graph = t.seconds

    with Timer() as t:
        counts = count_contexts(enc, len(vocab), window=args.window)
    t_counts = t.seconds

    with Timer() as t:
        prior = count_prior_pairs(enc, graph, window=args.window, n_neighbors=args.n_neighbors)
    t_prior = t.seconds

    t_svd = float("nan")
    if dim > 0:
        with Timer() as t:
            eigenwords_svd(counts, dim, prior=prior, alpha=0.5, random_state=0)
        t_svd = t.seconds

    out = {
        "corpus": corpus_name,
        "tokens": n,
        "vocab": len(vocab),
        "lexicon": args.lexicon,
        "graph_edges": graph.n_edges,
        "N": args.n_neighbors,
        "k": args.window,
        "graph_seconds": round(t_graph, 2),
        "count_contexts_seconds": round(t_counts, 2),
        "count_contexts_tokens_per_s": round(n / t_counts),
        "prior_pairs_seconds": round(t_prior, 2),
        "prior_pairs_tokens_per_s": round(n / t_prior),
        "prior_nnz": int(prior.nnz),
        "prior_mass_over_context_mass": float(prior.sum() / counts.counts.sum()),
        "svd_dim": dim,
        "svd_seconds": round(t_svd, 2),
        "peak_rss_gb": round(peak_rss_gb(), 2),
    }
    report(out, args.json)
    return out


if __name__ == "__main__":
    main()
