"""Loaders of workbench.datasets on the bundled data, users' files and bad input."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import workbench.datasets as ds
from workbench.datasets import _common

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"


# ----------------------------------------------------------------------------- paths / checksums


def test_data_dir_and_env(monkeypatch, tmp_path):
    assert (ds.data_dir() / "checksums.sha256").is_file()
    monkeypatch.setenv("WORKBENCH_DATA", str(tmp_path))
    assert ds.data_dir() == tmp_path.resolve()
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path / "c"))
    assert ds.cache_dir() == tmp_path / "c" and (tmp_path / "c").is_dir()
    monkeypatch.setenv("WORKBENCH_SHARED_DATA", str(tmp_path / "nope"))
    assert ds.shared_data_dir() is None


def test_checksums_listed_and_valid():
    sums = ds.dataset_checksums()
    assert "wordsim/EN-MC-30.txt" in sums and "corpus/gutenberg_en_5M.txt.gz" in sums
    assert all(len(h) == 64 for h in sums.values())
    ok = ds.verify_checksums()
    assert set(ok) == set(sums) and all(ok.values())


@pytest.fixture
def fake_data(monkeypatch, tmp_path):
    """A data dir with a copy of MC-30 and a checksum file; verification cache cleared."""
    root = tmp_path / "data"
    (root / "wordsim").mkdir(parents=True)
    shutil.copy(ds.data_dir() / "wordsim" / "EN-MC-30.txt", root / "wordsim" / "EN-MC-30.txt")
    monkeypatch.setenv("WORKBENCH_DATA", str(root))
    monkeypatch.setattr(_common, "_verified", {})
    return root


def test_bad_checksum_raises_naming_file_and_hashes(fake_data):
    actual = ds.file_sha256(fake_data / "wordsim" / "EN-MC-30.txt")
    wrong = "0" * 64
    (fake_data / "checksums.sha256").write_text(f"{wrong}  wordsim/EN-MC-30.txt\n")
    with pytest.raises(ds.ChecksumError) as exc:
        ds.load_wordsim("MC")
    msg = str(exc.value)
    assert "EN-MC-30.txt" in msg and wrong in msg and actual in msg
    assert ds.verify_checksums() == {"wordsim/EN-MC-30.txt": False}
    with pytest.raises(ds.ChecksumError):
        ds.verify_checksums(strict=True)


def test_checksum_verified_once_then_cached(fake_data, monkeypatch):
    _common.write_checksum_file(fake_data)
    calls = []
    real = _common.file_sha256
    monkeypatch.setattr(_common, "file_sha256", lambda p: calls.append(p) or real(p))
    ds.load_wordsim("MC")
    ds.load_wordsim("MC")
    assert len(calls) == 1


def test_user_files_are_not_checksum_verified(fake_data, tmp_path):
    (fake_data / "checksums.sha256").write_text(f"{'0' * 64}  wordsim/EN-MC-30.txt\n")
    user = tmp_path / "mine.txt"
    user.write_text("a\tb\t1\n")
    assert len(ds.load_wordsim(user)) == 1


# ----------------------------------------------------------------------------- word similarity


@pytest.mark.parametrize(
    ("name", "n"),
    [
        ("MC", 30),
        ("RG", 65),
        ("SIMLEX", 999),
        ("WS", 353),
        ("WS-SIM", 203),
        ("WS-REL", 252),
        ("MTURK-287", 287),
        ("MTURK-771", 771),
        ("MEN", 3000),
        ("RW", 2034),
        ("YP-130", 130),
        ("VERB-143", 144),
        ("SCWS", 2003),
    ],
)
def test_wordsim_bundled(name, n):
    df = ds.load_wordsim(name)
    assert len(df) == n
    assert list(df.columns) == ["word1", "word2", "score"]
    assert df["score"].dtype == np.float64 and df["score"].notna().all()
    assert df.attrs["name"] == name


def test_wordsim_names_case_insensitive_and_values():
    assert set(ds.WORDSIM_NAMES) == set(ds.WORDSIM_FILES)
    df = ds.load_wordsim("mc")
    assert tuple(df.iloc[0]) == ("car", "automobile", 3.92)


def test_wordsim_unknown_name_lists_valid():
    with pytest.raises(ValueError, match="SIMLEX"):
        ds.load_wordsim("NOPE")


def test_wordsim_user_file_and_errors(tmp_path):
    p = tmp_path / "pairs.txt"
    p.write_text("a\tb\t1.5\n\n# comment\nc\td\t2\n")
    df = ds.load_wordsim(str(p))
    assert df["score"].tolist() == [1.5, 2.0] and df.attrs["name"] == "pairs"
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        ds.load_wordsim(tmp_path / "missing.txt")
    bad = tmp_path / "EN-MC-30.txt"
    bad.write_text("".join(f"w{i}\tv{i}\t{i}\n" for i in range(6)) + "x\ty\n")
    with pytest.raises(
        ds.DataFormatError, match=r"EN-MC-30.txt line 7: expected 3 fields separated by tab \(columns word1, word2, score\), found 2"
    ):
        ds.load_wordsim(bad)
    bad.write_text("a\tb\t1\nc\td\thigh\n")
    with pytest.raises(
        ds.DataFormatError, match=r"EN-MC-30.txt line 2: score 'high' is not a number"
    ):
        ds.load_wordsim(bad)


def test_scws_items_and_context():
    items = ds.load_scws()
    assert len(items) == 2003
    it = items[0]
    assert isinstance(it, ds.SCWSItem) and it.id == 1 and it.word1 == "Brazil" and it.pos2 == "n"
    assert len(it.ratings) == 10 and it.score == pytest.approx(np.mean(it.ratings), abs=0.051)
    with pytest.raises(AttributeError):
        it.score = 0  # type: ignore[misc]
    left, target, right = ds.scws_context(it.context1, 3)
    assert (
        target == "brazil"
        and left == ["rights", "struggle", "in"]
        and right == ["the", "philosophy", "of"]
    )
    assert ds.scws_context("a b <b> x </b> c", 0) == ([], "x", [])


def test_scws_malformed(tmp_path):
    p = tmp_path / "s.txt"
    p.write_text("1\ta\tn\tb\tn\tx <b> a </b>\ty <b> b </b>\t5.0\t5\t5\n2\ta\tn\tb\n")
    with pytest.raises(ds.DataFormatError, match="s.txt line 2: expected at least 8"):
        ds.load_scws(p)
    p.write_text("1\ta\tn\tb\tn\tno marker\ty <b> b </b>\t5.0\n")
    with pytest.raises(ds.DataFormatError, match="line 1: context 1 has no <b>"):
        ds.load_scws(p)


# ----------------------------------------------------------------------------- analogies / TOEFL


def test_analogies_bundled():
    df = ds.load_analogies()
    assert len(df) == 19544
    assert list(df.columns) == ["section", "a", "b", "c", "d", "kind"]
    counts = df["kind"].value_counts()
    assert counts["semantic"] == 8869 and counts["syntactic"] == 10675
    assert (df["section"] == "capital-common-countries").sum() == 506
    assert list(df["section"].unique()[:5]) == list(ds.ANALOGY_SEMANTIC_SECTIONS)


def test_analogies_malformed(tmp_path):
    p = tmp_path / "q.txt"
    p.write_text(": family\nboy girl king queen\nbad line three\n")
    with pytest.raises(ds.DataFormatError, match="q.txt line 3: expected 4 words, got 3"):
        ds.load_analogies(p)
    p.write_text("boy girl king queen\n: family\nman woman uncle aunt\n")
    with pytest.raises(ds.DataFormatError, match="line 1: question before"):
        ds.load_analogies(p)


def test_toefl_fixture():
    df = ds.load_toefl(FIXTURES / "toy.qst", FIXTURES / "toy.ans")
    assert list(df.columns) == [
        "qid",
        "stem",
        "choice_a",
        "choice_b",
        "choice_c",
        "choice_d",
        "answer",
    ]
    assert df["qid"].tolist() == [1, 2, 3]
    assert df["answer"].tolist() == ["b", "a", "b"]
    assert df.loc[2, "stem"] == "happy" and df.loc[2, "choice_d"] == "empty"


def test_toefl_errors(tmp_path):
    qst = tmp_path / "t.qst"
    ans = tmp_path / "t.ans"
    qst.write_text("1. big\na. small\nb. large\nc. green\n2. fast\n")
    ans.write_text("1 (a)\n")
    with pytest.raises(ds.DataFormatError, match="t.qst line 5: question 1 has fewer than 4"):
        ds.load_toefl(qst, ans)
    qst.write_text("1. big\na. small\nb. large\nc. green\nd. slow\n")
    ans.write_text("1 (b) small\n")
    with pytest.raises(ds.DataFormatError, match="t.ans line 1: answer word 'small' differs"):
        ds.load_toefl(qst, ans)
    ans.write_text("\n")
    with pytest.raises(ds.DataFormatError, match=r"no answer for question\(s\) \[1\]"):
        ds.load_toefl(qst, ans)
    ans.write_text("")
    with pytest.raises(ds.DataFormatError, match=r"t.ans: the file is empty"):
        ds.load_toefl(qst, ans)
    with pytest.raises(FileNotFoundError, match="nope.ans"):
        ds.load_toefl(qst, tmp_path / "nope.ans")


# ----------------------------------------------------------------------------- tokenizer / corpus


def test_tokenize():
    text = "Don't stop -- ¿Qué pasó? 3.14, well-known o’clock_x 1,000 e-mail's end."
    assert ds.tokenize(text) == [
        "don't",
        "stop",
        "qué",
        "pasó",
        "3.14",
        "well-known",
        "o’clock",
        "x",
        "1,000",
        "e-mail's",
        "end",
    ]
    assert ds.tokenize("The Niño", lowercase=False) == ["The", "Niño"]
    assert ds.tokenize("") == [] and ds.tokenize("-- ' ...") == []


def test_corpus_1m_streams_documents():
    c = ds.load_corpus("1M")
    assert c.name == "1M" and c.sha256 == ds.dataset_checksums()["corpus/gutenberg_en_1M.txt.gz"]
    assert c.n_documents == 14
    assert 900_000 < c.n_tokens < 1_100_000
    docs = c.iter_documents()
    first = next(docs)
    assert isinstance(first, ds.Document) and first.title.endswith("The Adventures of Sally.txt")
    assert first.tokens[:3] == ["produced", "by", "tim"]
    small = ds.load_corpus("1m", max_tokens=1000, lowercase=False)
    toks = list(small.tokens())
    assert len(toks) == 1000 and toks[0] == "Produced"


def test_corpus_5m_is_lazy():
    c = ds.load_corpus("5M", max_tokens=50)
    assert sum(1 for _ in c.tokens()) == 50
    assert list(ds.load_corpus("5M", max_tokens=0).iter_documents()) == []


def test_corpus_user_file_and_errors(tmp_path):
    p = tmp_path / "my.txt.gz"
    with gzip.open(p, "wt", encoding="utf-8") as fh:
        fh.write("preamble\n@@DOC\t1\tA/One.txt\nHello, world!\n@@DOC\t2\tB/Two.txt\nBye now.\n")
    c = ds.load_corpus(p)
    docs = list(c.iter_documents())
    assert [d.title for d in docs] == ["my.txt.gz", "A/One.txt", "B/Two.txt"]
    assert docs[1].tokens == ["hello", "world"] and c.n_documents == 3
    plain = tmp_path / "plain.txt"
    plain.write_text("One document only.\n")
    assert [d.tokens for d in ds.load_corpus(plain)] == [["one", "document", "only"]]
    with pytest.raises(ValueError, match="1M"):
        ds.load_corpus("10M")
    with pytest.raises(FileNotFoundError, match="gone.txt"):
        ds.load_corpus(tmp_path / "gone.txt")
    # truncated gzip: error names the file and the line where reading failed
    data = gzip.compress(("word " * 50 + "\n").encode() * 4000)
    trunc = tmp_path / "trunc.txt.gz"
    trunc.write_bytes(data[: len(data) // 2])
    with pytest.raises(ds.DataFormatError, match=r"trunc.txt.gz line \d+: truncated"):
        list(ds.load_corpus(trunc).tokens())


def test_corpus_25m_from_shared(monkeypatch, tmp_path):
    monkeypatch.setenv("WORKBENCH_SHARED_DATA", str(tmp_path / "absent"))
    with pytest.raises(FileNotFoundError, match="not bundled"):
        ds.load_corpus("25M")
    (tmp_path / "corpus").mkdir()
    with gzip.open(tmp_path / "corpus" / "gutenberg_en_25M.txt.gz", "wt") as fh:
        fh.write("@@DOC\t0\tX/Y.txt\nsome words here\n")
    monkeypatch.setenv("WORKBENCH_SHARED_DATA", str(tmp_path))
    assert list(ds.load_corpus("25M").tokens()) == ["some", "words", "here"]


# ----------------------------------------------------------------------------- Bible


def test_bible_books_divisions():
    assert len(ds.BIBLE_BOOKS) == 66 and ds.BIBLE_BOOKS[0] == "Gen" and ds.BIBLE_BOOKS[-1] == "Rev"
    assert (
        ds.BIBLE_DIVISIONS["Ps"] == "Wisdom/Poetry" and ds.BIBLE_DIVISIONS["Acts"] == "Gospels/Acts"
    )
    assert len(set(ds.BIBLE_DIVISIONS.values())) == 6


def test_bible_single_translation():
    kjv = ds.load_bible("KJV")
    assert len(kjv) == 31102 and list(kjv.columns) == ["book", "chapter", "verse", "text"]
    assert kjv.iloc[0]["text"].startswith("In the beginning God created")
    assert kjv.attrs["language"] == "en"
    web = ds.load_bible("web")
    assert len(web) == 37791


def test_parallel_bible_chapter_and_verse():
    ch = ds.load_parallel_bible("chapter")
    assert len(ch) == 1189 and len(ch.ids) == len(ch.books) == 1189
    assert ch.ids[0] == ("Gen", 1) and ch.books[-1] == "Rev"
    assert set(ch.texts) == {"KJV", "RV1909"} and ch.languages == {"KJV": "en", "RV1909": "es"}
    assert ch.texts["RV1909"][0].startswith("EN el principio")
    assert all(len(v) == 1189 for v in ch.texts.values())
    vs = ds.load_parallel_bible("verse", ("KJV", "RV1909"))
    assert len(vs) == 31102 and vs.ids[0] == ("Gen", 1, 1)
    assert vs.tokens("RV1909")[0][:3] == ["en", "el", "principio"]


def test_parallel_bible_web_needs_intersect():
    with pytest.raises(ValueError, match="align='intersect'"):
        ds.load_parallel_bible("verse", ("KJV", "WEB"))
    p = ds.load_parallel_bible("verse", ("KJV", "WEB"), align="intersect")
    assert len(p) == 31102 - p.dropped["KJV"] and p.dropped["WEB"] > 0


def test_bible_user_file_errors(tmp_path):
    p = tmp_path / "mine.tsv"
    p.write_text("book\tchapter\tverse\ttext\nGen\t1\t1\tIn the beginning\nGen\t1\tx\toops\n")
    with pytest.raises(ds.DataFormatError, match="mine.tsv line 3: chapter/verse"):
        ds.load_bible(p)
    p.write_text("Gen\t1\t1\n")
    with pytest.raises(ds.DataFormatError, match="mine.tsv line 1: expected 4"):
        ds.load_bible(p)
    with pytest.raises(ValueError, match="KJV"):
        ds.load_bible("NIV")


# ----------------------------------------------------------------------------- CoNLL-U


def test_conllu_train():
    sents = ds.load_conllu("train")
    assert len(sents) == 12544
    assert len(ds.load_conllu("dev")) == 2001
    s = sents[0]
    assert isinstance(s, ds.Sentence) and isinstance(s.tokens[0], ds.Token)
    assert all(t.id == i + 1 for i, t in enumerate(s.tokens))
    roots = [t for t in s.tokens if t.head == 0]
    assert len(roots) == 1 and roots[0].deprel == "root"
    assert all(0 <= t.head <= len(s.tokens) for t in s.tokens)


def test_conllu_user_file_skips_multiword_and_errors(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text(
        "# sent_id = s1\n# text = I'm here\n1-2\tI'm\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "1\tI\tI\tPRON\tPRP\t_\t3\tnsubj\t_\t_\n2\t'm\tbe\tAUX\tVBP\t_\t3\tcop\t_\t_\n"
        "2.1\tx\tx\tX\tX\t_\t_\t_\t_\t_\n3\there\there\tADV\tRB\t_\t0\troot\t_\t_\n\n"
    )
    (s,) = ds.load_conllu(p)
    assert (
        s.id == "s1" and s.text == "I'm here" and [t.form for t in s.tokens] == ["I", "'m", "here"]
    )
    assert s.tokens[2] == ds.Token(3, "here", "here", "ADV", "RB", 0, "root")
    p.write_text("1\tI\tI\tPRON\tPRP\t_\t3\tnsubj\n")
    with pytest.raises(ds.DataFormatError, match="x.conllu line 1: expected 10"):
        ds.load_conllu(p)
    gz = tmp_path / "t.conllu.gz"
    data = gzip.compress(
        (ds.data_dir() / "treebank" / "en_ewt-ud-dev.conllu.gz").read_bytes()[:0]
        or b"1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n\n" * 5000
    )
    gz.write_bytes(data[:-30])
    with pytest.raises(ds.DataFormatError, match=r"t.conllu.gz line \d+: truncated"):
        ds.load_conllu(gz)


# ----------------------------------------------------------------------------- lexicons / WordNet


def test_lexicons():
    ppdb = ds.load_lexicon("ppdb")
    assert 100_000 < len(ppdb) <= 102_902
    assert "re-allocations" in ppdb["reallocations"]
    fn = ds.load_lexicon("framenet")
    assert "splatter" in fn["sprinkle"] and "sprinkle" not in fn["sprinkle"]
    frames = ds.load_framenet_frames()
    assert "detain" in frames["Inhibit_movement"] and len(frames) > 500


def test_lexicon_user_file_and_symmetrize(tmp_path):
    p = tmp_path / "lex.txt"
    p.write_text("a b c\nb\na d a\n")
    adj = ds.load_lexicon(p)
    assert adj == {"a": {"b", "c", "d"}, "b": set()}
    sym = ds.symmetrize(adj)
    assert sym["b"] == {"a"} and sym["d"] == {"a"} and adj["b"] == set()
    with pytest.raises(ValueError, match="ppdb"):
        ds.load_lexicon("wordnet-ish")


def test_wordnet_reader(monkeypatch, tmp_path):
    wn = ds.load_wordnet()
    dog = wn.synsets("dog")
    assert dog and dog[0].name() == "dog.n.01"
    assert wn.synset("dog.n.01").hypernyms()
    assert ds.load_wordnet() is wn  # cached per process
    assert any(p.name.startswith("wordnet-") for p in ds.cache_dir().iterdir())


def test_wordnet_corrupt_archive(monkeypatch, tmp_path):
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path / "cache"))
    bad = tmp_path / "wn.tar.gz"
    bad.write_bytes(gzip.compress(b"not a tar" * 100)[:50])
    with pytest.raises(ds.DataFormatError, match="wn.tar.gz"):
        ds.load_wordnet(bad)
    assert not [p for p in (tmp_path / "cache").iterdir() if p.name.startswith("wordnet-")]
    raw = (ds.data_dir() / "lexicons" / "wordnet-3.0.tar.gz").read_bytes()
    half = tmp_path / "half.tar.gz"
    half.write_bytes(raw[: len(raw) // 3])
    with pytest.raises(ds.DataFormatError, match="half.tar.gz.*truncated"):
        ds.load_wordnet(half)
    assert not [p for p in (tmp_path / "cache").iterdir() if p.name.startswith("wordnet-")]
    with pytest.raises(FileNotFoundError):
        ds.load_wordnet(tmp_path / "none.tar.gz")


def test_dataframes_are_plain_pandas():
    assert isinstance(ds.load_wordsim("RG"), pd.DataFrame)


def test_data_readme_lists_every_file_with_its_hash():
    readme = (ds.data_dir() / "README.md").read_text(encoding="utf-8")
    for rel, digest in ds.dataset_checksums().items():
        assert f"`{rel}`" in readme and digest in readme, rel
    assert "25M" in readme and "not bundled" in readme.lower()


def test_every_data_folder_has_a_licence_note():
    root = ds.data_dir()
    names = ("LICENSE", "NOTICE", "licence", "copyright", "README")
    for folder in [
        "analogy",
        "corpus",
        "lexicons",
        "lexicons/retrofitting",
        "lexicons/non-distributional",
        "parallel",
        "treebank",
        "wordsim",
        "wordsim/MEN",
        "wordsim/WS353-simrel",
    ]:
        files = [p.name for p in (root / folder).iterdir() if p.is_file()]
        assert any(any(n.lower() in f.lower() for n in names) for f in files), folder
