"""ipywidgets explorers, one module per method family (imported lazily: ipywidgets is only needed here)."""
