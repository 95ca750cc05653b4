"""Loaders for the bundled data (and users' own files in the same formats).

Every loader finds ``data/`` itself (:func:`data_dir`, env ``WORKBENCH_DATA``), verifies a bundled
file's sha256 against ``data/checksums.sha256`` on first use in a process, and also accepts the
path of a user file in the same format (not checksum-verified). Missing files raise
``FileNotFoundError`` and folders ``IsADirectoryError``, naming the file (except
:func:`load_corpus`, which reads a folder of ``*.txt`` / ``*.txt.gz`` files as one corpus, and
raises ``IsADirectoryError`` for a folder without such files); empty, truncated or
malformed files (undecodable bytes, NaN / infinite numbers, wrong column counts) raise
:class:`DataFormatError` naming the file and the line. Text files are UTF-8 (a leading
byte-order mark is dropped; ``\\r\\n`` line ends are accepted), plain or gzip-compressed; a NUL
byte (a binary or UTF-16 file) is refused naming the line. A documented repair (repeated rating
pairs averaged, an analogy file without section headers) gives one :class:`DataFormatWarning`.

Name or path: a ``pathlib.Path``, or a string with a path separator or a dot, is always a path;
a bare string that is a bundled name (case-insensitive) is the bundled data, unless a file of
that name exists in the current folder: the ambiguity is a ``ValueError`` (write ``./ws``).

=====================  ==========================================================
resource               loader
=====================  ==========================================================
word similarity        :func:`load_wordsim` (names in :data:`WORDSIM_NAMES`; user files,
                       also SemEval-2017 Task 2 ``.data.txt`` + ``.gold.txt`` and CSV)
SCWS with contexts     :func:`load_scws`, :func:`scws_context`
Google / MSR analogies :func:`load_analogies` (MSR: user file without section headers)
TOEFL-style questions  :func:`load_toefl` (user files only: ``.qst`` + ``.ans``)
Gutenberg corpora      :func:`load_corpus` ("1M", "5M"; "25M" from the shared folder;
                       a user file or a folder of files: marked, a document or a
                       sentence a line)
Bible                  :func:`load_bible`, :func:`load_parallel_bible`
aligned line files     :func:`load_parallel` (``bible.en`` / ``bible.es``, or a folder of pairs)
UD English-EWT         :func:`load_conllu`
lexicons               :func:`load_lexicon`, :func:`load_lexicons` (``{name: path}``),
                       :func:`symmetrize`, :func:`load_framenet_frames`
WordNet 3.0            :func:`load_wordnet`
=====================  ==========================================================
"""

from ._common import (
    ChecksumError,
    DataFormatError,
    DataFormatWarning,
    cache_dir,
    data_dir,
    dataset_checksums,
    file_sha256,
    first_undecodable_line,
    is_gzip,
    resolve_dir_files,
    resolve_file,
    shared_data_dir,
    verify_checksums,
)
from .bible import (
    BIBLE_BOOKS,
    BIBLE_DIVISIONS,
    BIBLE_TRANSLATIONS,
    ParallelCorpus,
    load_bible,
    load_parallel_bible,
)
from .conllu import CONLLU_SPLITS, Sentence, Token, load_conllu
from .lexicons import (
    LEXICON_NAMES,
    load_framenet_frames,
    load_lexicon,
    load_lexicons,
    load_wordnet,
    symmetrize,
)
from .parallel import load_parallel
from .questions import ANALOGY_SEMANTIC_SECTIONS, load_analogies, load_toefl
from .text import (
    CORPUS_FORMATS,
    CORPUS_NAMES,
    NORMALIZATIONS,
    TOKEN_PATTERN,
    Corpus,
    Document,
    load_corpus,
    tokenize,
)
from .wordsim import (
    WORDSIM_FILES,
    WORDSIM_NAMES,
    SCWSItem,
    load_scws,
    load_wordsim,
    scws_context,
    wordsim_split,
)

__all__ = [
    "first_undecodable_line",
    "is_gzip",
    "resolve_dir_files",
    "resolve_file",
    "ANALOGY_SEMANTIC_SECTIONS",
    "BIBLE_BOOKS",
    "BIBLE_DIVISIONS",
    "BIBLE_TRANSLATIONS",
    "CONLLU_SPLITS",
    "CORPUS_FORMATS",
    "CORPUS_NAMES",
    "NORMALIZATIONS",
    "ChecksumError",
    "Corpus",
    "DataFormatError",
    "DataFormatWarning",
    "Document",
    "LEXICON_NAMES",
    "ParallelCorpus",
    "SCWSItem",
    "Sentence",
    "TOKEN_PATTERN",
    "Token",
    "WORDSIM_FILES",
    "WORDSIM_NAMES",
    "cache_dir",
    "data_dir",
    "dataset_checksums",
    "file_sha256",
    "load_analogies",
    "load_bible",
    "load_conllu",
    "load_corpus",
    "load_framenet_frames",
    "load_lexicon",
    "load_parallel",
    "load_parallel_bible",
    "load_lexicons",
    "load_scws",
    "load_toefl",
    "load_wordnet",
    "load_wordsim",
    "wordsim_split",
    "scws_context",
    "shared_data_dir",
    "symmetrize",
    "tokenize",
    "verify_checksums",
]
