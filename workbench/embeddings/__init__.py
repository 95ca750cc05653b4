"""Word vectors: the containers (:class:`WordVectors`, :class:`MultiSenseVectors`), readers and
writers of word2vec and GloVe files (formats: :mod:`workbench.embeddings._formats`) and pretrained
GloVe vectors."""

from workbench.embeddings._formats import VectorFormat, load_word_vectors, save_word_vectors
from workbench.embeddings._pretrained import load_pretrained_glove
from workbench.embeddings._vectors import MultiSenseVectors, WordVectors

__all__ = [
    "WordVectors",
    "MultiSenseVectors",
    "load_word_vectors",
    "save_word_vectors",
    "load_pretrained_glove",
    "VectorFormat",
]
