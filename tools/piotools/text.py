"""Plain-text tables for the tools' console output."""
import math


def table(header, rows, align=None):
    """Formats rows (lists of strings) under a header as aligned columns; `align` is a string
    of 'l'/'r' per column (default: left)."""
    cols = len(header)
    align = align or "l" * cols
    width = [max(len(str(r[i])) for r in [header] + rows) for i in range(cols)]

    def line(r):
        cells = [str(c).rjust(width[i]) if align[i] == "r" else str(c).ljust(width[i])
                 for i, c in enumerate(r)]
        return "  ".join(cells).rstrip()

    return "\n".join([line(header), line(["-" * w for w in width])] + [line(r) for r in rows])


def percent(x, digits=1):
    """A fraction as a signed percentage, e.g. -0.123 -> '-12.3%'."""
    return "" if x is None else f"{x * 100:+.{digits}f}%"


def number(x, significant=4, trim=False):
    """A measurement with `significant` digits in plain notation, never an exponent: 17443.2 ->
    '17443', 1.2345 -> '1.234', 0.000123 -> '0.0001230'; `trim` drops trailing zeros (the CSV's
    values, as the harness's plain_number writes them)."""
    if x is None:
        return ""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    # The magnitude of x rounded to its digits: 99.9999 is 100.0, not 100.00.
    rounded = float(f"{x:.{significant}g}")
    digits = max(0, significant - 1 - math.floor(math.log10(abs(rounded))))
    text = f"{x:.{digits}f}"
    return text.rstrip("0").rstrip(".") if trim and "." in text else text


# A change beyond these ratios is shown as a factor: "+226405.0%" reads as a small error in a
# percentage, "x2265" as what it is.
FACTOR_ABOVE = 2.0


def change(x, digits=1):
    """A relative change (+0.10 = 10 % more) as text: a signed percentage while the ratio lies
    within 1/2 .. 2 ('-12.3%'), beyond it the factor ('x2265', 'x1/14.3'); '' for None."""
    if x is None:
        return ""
    r = 1 + x
    if not math.isfinite(r):
        return f"x{r:g}"
    if r >= FACTOR_ABOVE:
        return "x" + number(r, 3)
    if r <= 1 / FACTOR_ABOVE:
        return "x0" if r <= 0 else "x1/" + number(1 / r, 3)
    return percent(x, digits)
