"""Small helpers shared by the tools' command lines."""
import argparse
import sys


def fraction(text):
    """Parses '5%' or '0.05' as 0.05 (for argparse)."""
    t = text.strip()
    try:
        v = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a fraction or percentage: {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text!r}")
    return v


def fail(tool, message, code=2):
    """Prints 'tool: error: message' on stderr and exits with `code`."""
    print(f"{tool}: error: {message}", file=sys.stderr)
    sys.exit(code)
