"""pio-report's first screen: what a reader must know before any number. A banner per thing that
limits what the run shows (a run that did not complete, failed tests, an IO500 run that is not
a valid IO500 result, a b_eff_io run that does not keep b_eff_io's rules, flagged figures),
each in words, not raw fields; and with a baseline, the verdicts."""
from . import flag_rules, io500, results, text, units


class Banner:
    """One banner: `kind` "bad" (the run's figures are not what they claim), "warn" (some of
    them) or "ok"; a `title` line and the `lines` that explain it."""

    def __init__(self, kind, title, lines=()):
        self.kind, self.title, self.lines = kind, title, list(lines)


def run_banner(doc):
    """The run that did not complete or whose tests failed; None for a clean one."""
    status, code = doc.get("status", "complete"), doc.get("exit_code")
    failed = [t for t in results.tests(doc) if t.error]
    lines = [f"{t.name}: {t.error}" for t in failed]
    if status != "complete" and status != "failed":
        sig = f", {doc['signal']}" if doc.get("signal") else ""
        return Banner("bad", f"The run did not complete (status {status}, exit code {code}{sig}):"
                             " only the tests it finished are shown", lines)
    if failed or status == "failed" or code:
        return Banner("bad", f"{len(failed)} test(s) failed (exit code {code})", lines)
    return None


def io500_banner(doc):
    """An IO500 run's score and whether it is a valid IO500 result (as pio-io500 says it)."""
    if not io500.is_io500(doc):
        return None
    _, (bw, md, score), notes = io500.summary(doc)
    title = (f"IO500 score {text.number(score)} (bandwidth {text.number(bw)} GiB/s, metadata "
             f"{text.number(md)} kIOPS)")
    invalid = [n for n in notes if io500.INVALID in n]
    if invalid:
        return Banner("bad", f"{title}: {io500.INVALID}", notes)
    return Banner("ok", f"{title}: every phase ran and every write phase lasted IO500's "
                        f"{io500.MIN_WRITE_S:g} s", notes)


def _partition_values(block):
    """{processes: {name: value}} of a b_eff_io figure's per-partition values ('P4 deviation')."""
    out = {}
    for v in (block.get("figure") or {}).get("values") or []:
        name = str(v.get("name", ""))
        head, _, rest = name.partition(" ")
        if head.startswith("P") and head[1:].isdigit() and rest:
            out.setdefault(int(head[1:]), {})[rest] = v.get("value")
    return out


def beff_io_banners(doc):
    """Per b_eff_io block: its figure and b_eff_io's rules in words (T of at least 30 minutes,
    every pattern, M_PART from the memory, each partition within 10 % of its scheduled time)."""
    out = []
    for b in doc.get("modules") or []:
        fig = b.get("figure") or {}
        if fig.get("name") != "b_eff_io":
            continue
        value, unit = results.figure_value(b, "b_eff_io")
        meets, _ = results.figure_value(b, "meets_rule")
        value, unit = units.normalise(value, unit)
        lines = [n.split(": ", 1)[1] if n.startswith("does not meet") and ": " in n else n
                 for n in fig.get("notes") or [] if n.startswith("does not meet")]
        for procs, v in sorted(_partition_values(b).items()):
            if v.get("within_10_percent") == 0 and v.get("scheduled_time"):
                lines.append(
                    f"the partition of {procs} processes ran {text.number(v.get('actual_time'))}"
                    f" s against its scheduled {text.number(v['scheduled_time'])} s "
                    f"({text.percent(v.get('deviation'), 0)}); b_eff_io keeps each partition "
                    "within 10 % of its scheduled time")
            if v.get("complete") == 0:
                lines.append(f"the partition of {procs} processes is incomplete: a pattern type "
                             "did not run or failed")
        label = b.get("label") or b.get("module")
        what = f"b_eff_io {text.number(value)} {unit} ({label})" if value is not None else \
            f"b_eff_io ({label}): no figure"
        if lines or meets == 0:
            out.append(Banner("bad", f"{what}: does not keep b_eff_io's rules, not a b_eff_io "
                                     "result to compare with others", lines))
        else:
            out.append(Banner("ok", f"{what}: keeps b_eff_io's rules"))
    return out


def flag_banner(doc):
    """How many figures the run cannot vouch for, by flag; None when none is flagged."""
    flagged = flag_rules.of_run(doc)
    if not flagged:
        return None
    count = {}
    for fl in flagged.values():
        for f, _ in fl:
            count[f] = count.get(f, 0) + 1
    what = ", ".join(f"{f} ({n})" for f, n in sorted(count.items()))
    return Banner("warn", f"{len(flagged)} of {len(results.tests(doc))} tests are flagged: "
                          f"{what}; each flagged figure carries its flag and the reason",
                  [f"{name}: " + "; ".join(f"{f}: {r}" for f, r in fl)
                   for name, fl in flagged.items()])


def banners(doc):
    """Every banner of the first screen, the worst first."""
    out = [run_banner(doc), io500_banner(doc), *beff_io_banners(doc), flag_banner(doc)]
    order = {"bad": 0, "warn": 1, "ok": 2}
    return sorted((b for b in out if b), key=lambda b: order[b.kind])


def verdict_lines(res):
    """The comparison as a reader acts on it: each regression and improvement (verdict, test,
    change, why), then one line per other verdict that is not "no significant change" with its
    count and an example."""
    out = [(r["verdict"], r["name"], r.get("change"), r.get("reason", ""))
           for r in res["rows"] if r["verdict"] in ("regression", "improvement")]
    groups = {}
    for r in res["rows"]:
        if r["verdict"] not in ("regression", "improvement", "no significant change"):
            groups.setdefault(r["verdict"], []).append(r)
    for verdict, rows in groups.items():
        example = rows[0]
        others = f" and {len(rows) - 1} more" if len(rows) > 1 else ""
        out.append((verdict, f"{example['name']}{others}", None,
                    f"{len(rows)} test(s); e.g. {example.get('reason', '')}"))
    return out
