"""Tests for workbench.crosslingual: projections, PLSA models, documents, baselines."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as la
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from workbench.alignment import train_ibm1
from workbench.crosslingual import (
    CLLSI,
    CPLSA,
    JPLSA,
    OPCA,
    CrossLingualCCA,
    WordByWordTranslation,
    build_term_space,
    count_matrix,
    frequency_sorted_topics,
    joint_log_tf_idf,
    kl_project,
    log_tf_idf,
    split_books,
)
from workbench.crosslingual.plsa import _normalize_rows
from workbench.evaluation import crosslingual_retrieval, retrieval


def fix_signs(v):
    idx = np.argmax(np.abs(v), axis=0)
    return v * np.sign(v[idx, np.arange(v.shape[1])])


def random_views(rng, n=15, v=40, m=2, density=0.3):
    return [sp.random(n, v, density=density, random_state=rng, format="csr") * 3 for _ in range(m)]


def opca_matrices(views, gamma):
    dense = [x.toarray() for x in views]
    n = dense[0].shape[0]
    mus = [d.mean(axis=0) for d in dense]
    dbar = sum(dense) / len(dense)
    s = sum(d.T @ d / n - np.outer(mu, mu) for d, mu in zip(dense, mus))
    noise = sum((d - dbar).T @ (d - dbar) / n for d in dense) + gamma * np.eye(dense[0].shape[1])
    return s, noise


# ------------------------------------------------------------------ projections


@pytest.mark.parametrize("solver", ["dense", "reduced"])
@pytest.mark.parametrize("n_views", [2, 3])
def test_opca_matches_scipy_generalized_eigh(solver, n_views):
    rng = np.random.default_rng(0)
    views = random_views(rng, m=n_views)
    k = 5
    s, noise = opca_matrices(views, 0.3)
    vals, vecs = la.eigh(s, noise)
    ref_vals, ref_vecs = vals[::-1][:k], fix_signs(vecs[:, ::-1][:, :k])
    op = OPCA(k, 0.3, solver=solver).fit(views)
    np.testing.assert_allclose(op.eigenvalues_, ref_vals, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(op.components_, ref_vecs, rtol=1e-6, atol=1e-8)
    # N-orthonormal, and transform is the projection
    np.testing.assert_allclose(op.components_.T @ noise @ op.components_, np.eye(k), atol=1e-8)
    np.testing.assert_allclose(op.transform(views[0]), views[0] @ op.components_)


def test_opca_auto_solver_on_wide_problem_is_reduced_and_exact():
    rng = np.random.default_rng(1)
    views = random_views(rng, n=10, v=60)
    auto = OPCA(4, 0.1).fit(views)
    dense = OPCA(4, 0.1, solver="dense").fit(views)
    np.testing.assert_allclose(auto.components_, dense.components_, atol=1e-8)


def test_opca_suppresses_translation_noise_planted():
    """A high-variance direction that differs between languages is noise for OPCA, not for LSI."""
    rng = np.random.default_rng(2)
    n, v = 200, 12
    topics = rng.normal(size=(n, 2))
    base = np.zeros((n, v))
    base[:, 0] = topics[:, 0]
    base[:, 1] = topics[:, 1]
    en = base.copy()
    es = base.copy()
    en[:, 2] = 5 * rng.normal(size=n)  # language-specific, uncorrelated across the pair
    es[:, 2] = 5 * rng.normal(size=n)
    en += 0.01 * rng.normal(size=(n, v))
    es += 0.01 * rng.normal(size=(n, v))
    op = OPCA(2, 0.01).fit([en, es])
    lsi = CLLSI(1).fit([en, es])
    assert np.all(np.abs(op.components_[2]) < 0.05 * np.abs(op.components_).max())
    assert np.argmax(np.abs(lsi.components_[:, 0])) == 2


def test_cllsi_matches_dense_svd():
    rng = np.random.default_rng(3)
    views = random_views(rng, n=20, v=30)
    k = 6
    lsi = CLLSI(k).fit(views)
    d = (views[0] + views[1]).toarray()
    _, sv, vt = np.linalg.svd(d, full_matrices=False)
    np.testing.assert_allclose(lsi.singular_values_, sv[:k], rtol=1e-8)
    np.testing.assert_allclose(lsi.components_, fix_signs(vt[:k].T), atol=1e-7)
    single = CLLSI(k).fit([d])
    np.testing.assert_allclose(single.components_, lsi.components_, atol=1e-10)


@pytest.mark.parametrize("n_views", [2, 3])
def test_cca_reduced_matches_dense_block_eigenproblem(n_views):
    rng = np.random.default_rng(4)
    views = random_views(rng, n=12, v=20, m=n_views)
    k = 4
    gamma = 0.5
    dense = [x.toarray() - x.toarray().mean(axis=0) for x in views]
    v = 20
    s = np.zeros((n_views * v, n_views * v))
    noise = np.zeros_like(s)
    for i in range(n_views):
        for j in range(n_views):
            c = dense[i].T @ dense[j] / 12
            blk = (slice(i * v, (i + 1) * v), slice(j * v, (j + 1) * v))
            if i == j:
                noise[blk] = c + gamma * np.eye(v)
            else:
                s[blk] = c
    vals, vecs = la.eigh(s, noise)
    ref = fix_signs(vecs[:, ::-1][:, :k])
    for solver in ("dense", "reduced"):
        cca = CrossLingualCCA(k, gamma, solver=solver).fit(views)
        np.testing.assert_allclose(cca.eigenvalues_, vals[::-1][:k], rtol=1e-7, atol=1e-10)
        np.testing.assert_allclose(np.vstack(cca.view_components_), ref, atol=1e-7)
        np.testing.assert_allclose(
            cca.transform(views[1], view=1), views[1] @ cca.view_components_[1]
        )


def test_cca_disjoint_vocabularies_get_zero_weights():
    rng = np.random.default_rng(5)
    a = sp.random(30, 10, density=0.4, random_state=rng, format="csr")
    b = sp.random(30, 10, density=0.4, random_state=rng, format="csr")
    en = sp.hstack([a, sp.csr_matrix((30, 10))]).tocsr()
    es = sp.hstack([sp.csr_matrix((30, 10)), b]).tocsr()
    cca = CrossLingualCCA(3, 1.0).fit([en, es])
    assert np.abs(cca.view_components_[0][10:]).max() < 1e-10
    assert np.abs(cca.view_components_[1][:10]).max() < 1e-10
    np.testing.assert_allclose(cca.transform(en), cca.transform(en, view=0), atol=1e-10)


def test_projection_bad_input():
    rng = np.random.default_rng(6)
    views = random_views(rng)
    for est in (OPCA(3, 0.1), CLLSI(3), CrossLingualCCA(3, 1.0)):
        with pytest.raises(ValueError, match="misaligned"):
            est.fit([views[0], views[1][:-1]])
        with pytest.raises(ValueError, match="joint term space|different numbers of terms"):
            est.fit([views[0], views[1][:, :-1]])
        with pytest.raises(NotFittedError, match="not fitted"):
            est.transform(views[0])
        with pytest.raises(ValueError, match="empty"):
            est.fit([views[0], sp.csr_matrix(views[0].shape)])
    with pytest.raises(ValueError, match="at least 2"):
        OPCA(3).fit([views[0]])
    with pytest.raises(ValueError, match="n_components"):
        OPCA(0).fit(views)
    with pytest.raises(ValueError, match="gamma"):
        OPCA(3, gamma=-1.0).fit(views)
    with pytest.raises(ValueError, match="exceeds"):
        OPCA(100, 0.1, solver="reduced").fit(views)
    with pytest.raises(ValueError, match="NaN"):
        OPCA(3).fit([np.full((5, 4), np.nan), np.ones((5, 4))])
    op = OPCA(3).fit(views)
    with pytest.raises(ValueError, match="expected"):
        op.transform(np.ones((2, 7)))
    cca = CrossLingualCCA(3).fit(views)
    with pytest.raises(ValueError, match="view must be an integer >= 0 and <= 1"):
        cca.transform(views[0], view=5)


# ------------------------------------------------------------------ PLSA


def planted_corpus(rng, n_docs=40, n_topics=3, v_per_lang=30, length=60):
    """Two languages with disjoint vocabularies generated from shared topic proportions."""
    phi = rng.dirichlet(np.full(v_per_lang, 0.1), size=n_topics)
    theta = rng.dirichlet(np.full(n_topics, 0.3), size=n_docs)
    views = []
    for m in range(2):
        counts = np.zeros((n_docs, 2 * v_per_lang))
        for d in range(n_docs):
            counts[d, m * v_per_lang : (m + 1) * v_per_lang] = rng.multinomial(
                length + 10 * m * (d % 3), theta[d] @ phi
            )
        views.append(sp.csr_matrix(counts))
    return views


def test_jplsa_map_objective_monotone_and_retrieves():
    rng = np.random.default_rng(7)
    views = planted_corpus(rng, length=200)
    jp = JPLSA(3, n_iter=200).fit(views)
    obj = np.array(jp.objective_)
    assert len(obj) == 201
    assert np.all(np.diff(obj) >= -1e-7 * np.abs(obj[:-1]))
    assert obj[-1] > obj[0]
    np.testing.assert_allclose(jp.topic_word_.sum(axis=1), 1.0)
    theta = [jp.transform(v) for v in views]
    np.testing.assert_allclose(theta[0].sum(axis=1), 1.0)
    res = crosslingual_retrieval(theta[0], theta[1], metric="l1")
    assert res.mrr > 0.5  # chance is ~0.1 for 40 documents


def test_cplsa_without_active_constraints_is_monotone_map_em():
    rng = np.random.default_rng(8)
    views = planted_corpus(rng)
    cp = CPLSA(3, n_iter=25, epsilon=1.0).fit(views)
    obj = np.array(cp.objective_)
    assert np.all(np.diff(obj) >= -1e-7 * np.abs(obj[:-1]))


def test_cplsa_couples_topic_proportions():
    rng = np.random.default_rng(9)
    views = planted_corpus(rng)
    cp = CPLSA(3, n_iter=25, epsilon=0.0, n_projection_steps=10).fit(views)
    assert cp.constraint_violation_[-1] < 0.02
    assert cp.objective_[-1] > cp.objective_[0]
    free = CPLSA(3, n_iter=25, epsilon=1.0).fit(views)
    gap = np.abs(cp.doc_topic_[0] - cp.doc_topic_[1]).sum(axis=1).mean()
    gap_free = np.abs(free.doc_topic_[0] - free.doc_topic_[1]).sum(axis=1).mean()
    assert gap < gap_free


@pytest.mark.parametrize("epsilon", [0.0, 0.05])
def test_kl_projection_satisfies_constraints(epsilon):
    rng = np.random.default_rng(10)
    n_docs, n_terms, n_topics = 20, 50, 5
    views = [sp.csr_matrix(rng.poisson(0.6, (n_docs, n_terms)).astype(float)) for _ in range(3)]
    thetas = [_normalize_rows(rng.random((n_docs, n_topics))) for _ in range(3)]
    phi_t = rng.random((n_terms, n_topics))
    phi_t /= phi_t.sum(axis=0)
    tilted, lam, fracs, _ = kl_project(thetas, phi_t, views, epsilon=epsilon, n_steps=300)
    for a in range(3):
        np.testing.assert_allclose(fracs[a].sum(axis=1), 1.0)
        for b in range(a + 1, 3):
            assert np.abs(fracs[a] - fracs[b]).max() <= epsilon + 1e-3
    assert np.all(lam >= 0)
    # unconstrained posteriors violate them (the projection did something)
    _, _, fr0, _ = kl_project(thetas, phi_t, views, epsilon=epsilon, n_steps=0)
    assert np.abs(fr0[0] - fr0[1]).max() > epsilon + 1e-2


def test_frequency_sorted_initialisation():
    counts = np.array([100, 1, 50, 50, 0, 30, 20, 0], dtype=float)
    topics = frequency_sorted_topics(counts, 2)
    assert topics[0] == 0  # the most frequent word opens the first block
    assert topics[1] == 1  # the rarest seen word is in the last block
    mass = np.bincount(topics, weights=counts, minlength=2)
    assert mass.min() > 0
    np.testing.assert_array_equal(topics, frequency_sorted_topics(counts, 2))


def test_plsa_bad_input():
    rng = np.random.default_rng(11)
    views = planted_corpus(rng, n_docs=10)
    empty = views[1].tolil()
    empty[3, :] = 0
    with pytest.raises(ValueError, match="document 3 of view 1 is empty"):
        CPLSA(2, n_iter=1).fit([views[0], empty.tocsr()])
    with pytest.raises(ValueError, match="misaligned"):
        JPLSA(2).fit([views[0], views[1][:5]])
    with pytest.raises(ValueError, match="non-negative"):
        JPLSA(2).fit([views[0], -views[1]])
    with pytest.raises(ValueError, match="alpha"):
        JPLSA(2, alpha=0.5).fit(views)
    jp = JPLSA(2, n_iter=2).fit(views)
    with pytest.raises(ValueError, match="empty"):
        jp.transform(sp.csr_matrix((1, views[0].shape[1])))
    with pytest.raises(ValueError, match="terms"):
        jp.transform(np.ones((1, 3)))


def test_plsa_callback_stops_early():
    rng = np.random.default_rng(12)
    views = planted_corpus(rng, n_docs=10)
    seen = []
    jp = JPLSA(2, n_iter=50).fit(views, callback=lambda it, m: seen.append(it) or it >= 3)
    assert seen == [1, 2, 3]
    assert len(jp.objective_) == 4


def test_fold_in_without_prior_is_the_maximum_likelihood_on_planted_topics():
    # planted topics with disjoint supports: every token's topic is known, so the MLE of a
    # document's proportions is its token share per topic, reached by one EM step from uniform
    rng = np.random.default_rng(13)
    views = planted_corpus(rng, n_docs=12)
    jp = JPLSA(3, n_iter=1, fold_in_prior=0.0).fit(views)
    phi = np.zeros((3, 9))
    for t in range(3):
        phi[t, 3 * t : 3 * t + 3] = rng.dirichlet(np.ones(3))
    jp.topic_word_, jp.n_features_in_ = phi, 9
    x = np.array([[3, 1, 0, 0, 2, 0, 1, 1, 4], [0, 0, 5, 1, 0, 0, 0, 0, 0]], dtype=float)
    share = np.stack([x[:, 3 * t : 3 * t + 3].sum(axis=1) for t in range(3)], axis=1)
    share /= share.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(jp.transform(x), share, atol=1e-12)
    # more fold-in iterations stay at that fixed point; the training prior pulls towards uniform
    jp.fold_in_iter = 5
    np.testing.assert_allclose(jp.transform(x), share, atol=1e-12)
    jp.fold_in_iter, jp.fold_in_prior = 1, None
    with_prior = (share * x.sum(axis=1, keepdims=True) + 0.1) / (x.sum(axis=1, keepdims=True) + 0.3)
    np.testing.assert_allclose(jp.transform(x), with_prior, atol=1e-12)
    assert jp.transform(x)[1, 2] > 0 == share[1, 2]
    jp.fold_in_prior = -1.0
    with pytest.raises(ValueError, match="fold_in_prior"):
        jp.transform(x)


def test_cplsa_penalty_limits():
    rng = np.random.default_rng(14)
    views = planted_corpus(rng, n_docs=15)
    kw = {"n_iter": 6, "n_projection_steps": 4}
    hard = CPLSA(3, **kw).fit(views)
    # a weight far above every dual variable reached: the hard constraint
    big = CPLSA(3, epsilon_penalty=1e9, **kw).fit(views)
    np.testing.assert_allclose(big.topic_word_, hard.topic_word_, rtol=1e-10)
    np.testing.assert_allclose(big.doc_topic_[0], hard.doc_topic_[0], rtol=1e-10)
    # weight 0: no coupling -- independent PLSA per language with shared topics, i.e. JPLSA on
    # the two languages' documents stacked as separate documents
    free = CPLSA(3, epsilon_penalty=0.0, **kw).fit(views)
    stacked = JPLSA(3, n_iter=6).fit([sp.vstack(views).tocsr()])
    np.testing.assert_allclose(free.topic_word_, stacked.topic_word_, rtol=1e-9)
    np.testing.assert_allclose(free.doc_topic_[1], stacked.doc_topic_[15:], rtol=1e-9)
    # a moderate weight lies between: less coupled than the hard constraint
    mid = CPLSA(3, epsilon_penalty=2.0, **kw).fit(views)
    gaps = [np.abs(m.doc_topic_[0] - m.doc_topic_[1]).sum() for m in (hard, mid, free)]
    assert gaps[0] < gaps[1] < gaps[2]
    with pytest.raises(ValueError, match="epsilon_penalty"):
        CPLSA(3, epsilon_penalty=-1.0).fit(views)


@pytest.mark.parametrize("model", [JPLSA(3, n_iter=400), CPLSA(3, n_iter=400)])
def test_plsa_tolerance_stops_early_and_says_so(model):
    rng = np.random.default_rng(15)
    views = planted_corpus(rng, n_docs=15)
    capped = clone(model).set_params(n_iter=5).fit(views)
    assert capped.stop_reason_ == "cap" and not capped.converged_ and capped.n_iter_ == 5
    conv = clone(model).set_params(tol=1e-3).fit(views)
    assert conv.stop_reason_ == "converged" and conv.converged_
    assert 1 < conv.n_iter_ < 400
    assert len(conv.objective_) == len(conv.log_likelihood_) == conv.n_iter_ + 1
    # the rule: the last step is below tol times the total change, the one before was not
    obj = conv.objective_
    assert abs(obj[-1] - obj[-2]) < 1e-3 * abs(obj[-1] - obj[0])
    assert abs(obj[-2] - obj[-3]) >= 1e-3 * abs(obj[-2] - obj[0])
    with pytest.raises(ValueError, match="tol"):
        clone(model).set_params(tol=-1.0).fit(views)


# ------------------------------------------------------------------ documents, baselines


DOCS = {
    "en": [["the", "king", "abraham", "went"], ["the", "water", "king"], ["abraham", "the"]],
    "es": [["el", "rey", "abraham", "fue"], ["el", "agua", "rey"], ["abraham", "el"]],
}


def test_term_space_selection_and_weighting():
    space = build_term_space(DOCS, n_drop=1, n_terms=3)
    # "the"/"el" dropped (most frequent); abraham is shared and has ONE column
    assert "the" not in space.index and "el" not in space.index
    assert space.terms.count("abraham") == 1
    assert space.index["abraham"] in space.language_columns["es"]
    assert len(space.language_columns["en"]) == 3
    c = count_matrix(space, DOCS["es"], "es")
    assert c.shape == (3, len(space))
    w = log_tf_idf(space, c)
    j = space.index["rey"]
    assert w[0, j] == pytest.approx(np.log2(2) * np.log2(3 / 2))
    joint = joint_log_tf_idf(space, [count_matrix(space, DOCS[lang], lang) for lang in DOCS])
    a = space.index["abraham"]
    assert joint[0, a] == pytest.approx(np.log2(3) * np.log2(3 / 2))


def test_documents_bad_input():
    space = build_term_space(DOCS, n_drop=0, n_terms=10)
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        count_matrix(space, DOCS["en"], "fr")
    with pytest.raises(ValueError, match="document 1 of 'en' is empty"):
        count_matrix(space, [["king"], []], "en")
    with pytest.raises(ValueError, match="misaligned"):
        build_term_space({"en": DOCS["en"], "es": DOCS["es"][:2]})
    with pytest.raises(ValueError, match="at least two languages"):
        build_term_space({"en": DOCS["en"]})
    with pytest.raises(TypeError, match="list of tokens"):
        count_matrix(space, ["the king"], "en")


def test_split_books_every_division_everywhere():
    from workbench.datasets import BIBLE_BOOKS, BIBLE_DIVISIONS

    split = split_books(BIBLE_BOOKS, BIBLE_DIVISIONS)
    parts = [set(split.train), set(split.dev), set(split.test)]
    assert sum(len(p) for p in parts) == 66
    assert not (parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2])
    for p in parts:
        assert {BIBLE_DIVISIONS[b] for b in p} == set(BIBLE_DIVISIONS.values())
    assert split.part_of("Gen") == "train" and split.part_of("Exod") == "dev"
    masks = split.masks(["Gen", "Num", "Exod"])
    assert masks["test"].tolist() == [False, True, False]


def test_word_by_word_translation():
    src = [["el", "rey"], ["el", "agua"], ["rey", "agua"]] * 5
    tgt = [["the", "king"], ["the", "water"], ["king", "water"]] * 5
    model = train_ibm1(src, tgt, n_iter=20)
    space = build_term_space({"en": tgt, "es": src}, n_drop=0, n_terms=10)
    wbw = WordByWordTranslation(model, space, "es", "en")
    x = log_tf_idf(space, count_matrix(space, [["rey"]], "es"))
    y = wbw.transform(x).toarray()[0]
    assert np.argmax(y) == space.index["king"]
    with pytest.raises(ValueError, match="unknown language"):
        WordByWordTranslation(model, space, "es", "de")


def test_retrieval_ties_count_as_errors():
    q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    t = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 1.0]])  # query 1's mate ties? no: it is worse
    r = retrieval(q, t, metric="cosine")
    # query 0: mate and target 1 tie at cosine 1 -> rank 2 (a tie is an error)
    assert r.ranks.tolist()[0] == 2
    assert r.ranks.tolist()[2] == 1
    r1 = retrieval(
        np.array([[0.5, 0.5], [0.0, 1.0]]), np.array([[0.5, 0.5], [0.5, 0.5]]), metric="l1"
    )
    assert r1.ranks.tolist() == [2, 2] and r1.top1 == 0.0


def test_explorer_top_matches_and_compare_pairs():
    from types import SimpleNamespace

    from workbench.crosslingual import compare_pairs
    from workbench.studies.translingual import top_matches

    data = SimpleNamespace(
        ids=[("Gen", 1), ("Gen", 2), ("Exod", 1)],
        parts={"test": np.array([0, 2])},
        split=SimpleNamespace(test=("Gen", "Exod")),
    )
    en = np.array([[1.0, 0.0], [0.0, 1.0]])
    es = np.array([[0.9, 0.1], [0.1, 0.9]])
    result = SimpleNamespace(data=data, embeddings={"A": (en, es, "cosine"), "B": (en, es, "l1")})
    table = top_matches(result, ("Exod", 1), topn=2)
    assert list(table.columns) == ["A", "B"]
    assert table.loc[1, "A"].startswith("*Exod 1")
    assert table.loc[1, "B"].startswith("*Exod 1")
    with pytest.raises(KeyError, match="not a test chapter"):
        top_matches(result, ("Gen", 2))
    from workbench.explore.crosslingual import chapter_explorer

    box = chapter_explorer(result, topn=2)
    (dropdown, matches), out = box.children[0].children, box.children[1]
    assert dropdown.description and dropdown.tooltip and matches.description and matches.tooltip
    assert out.outputs and out.outputs[0]["output_type"] == "display_data"
    dropdown.value = ("Exod", 1)
    assert "Exod 1" in out.outputs[0]["data"]["text/html"]
    matches.value = 5  # two test chapters: limited, with a note
    texts = [o["text"] for o in out.outputs if o["output_type"] == "stream"]
    assert texts[0] == (
        "matches = 5 is more than allowed (there are 2 test chapters); showing matches = 2.\n"
    )
    assert texts[1].startswith("* marks the true translation")
    hits = {"A": np.array([1, 1, 0, 1], bool), "B": np.array([1, 0, 0, 0], bool)}
    df = compare_pairs(hits, [("B", "A"), ("B", "missing")])
    assert len(df) == 1
    assert df.loc[0, "accuracy method"] == 0.75 and df.loc[0, "n method only"] == 2
