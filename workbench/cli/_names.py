"""Choices of the ``embed`` and ``evaluate`` options."""

#: ``workbench embed --method``.
METHODS = ("mvlsa", "ppmi-svd", "sgns", "glove")
#: ``workbench evaluate --test``: dependent-correlation tests of :mod:`workbench.significance`.
TESTS = ("williams1959", "steiger1980")
