"""Shared code of the pio-bench tools (pio-compare, pio-plot, pio-score, pio-results): loading
results documents (docs/reference/results.md, schema 2), matching tests across runs, statistics."""
