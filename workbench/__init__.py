"""workbench: spectral multiview representation learning, notebook-centred.

Implements four papers' methods (MVLSA / generalized CCA, eigenword CCA with prior
knowledge, translingual OPCA / CL-LSI / CCA / PLSA, Ex-RPCA of multi-sense embeddings)
with their evaluation benchmarks and significance tests.
"""

import logging

__version__ = "0.1.0"

logging.getLogger(__name__).addHandler(logging.NullHandler())

# inside a Jupyter kernel: log records and warnings go to workbench.log in the results folder,
# not into output cells (workbench.notebook_log); nothing changes in scripts or tests
from workbench.notebook_log import auto_setup  # noqa: E402

auto_setup()
