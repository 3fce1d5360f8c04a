"""The file-system lab behind tools/pio-fslab (docs/guides/fslab.md)."""
