"""The file-system lab behind tools/pio-fslab (docs/fslab.md)."""
