"""pio-report's page: one self-contained HTML file for a run (no scripts, no network; figures
inline as SVG) that a site admin can hand on. Its first screen says what the run shows and what
it cannot (report_summary's banners: a run that did not complete, an IO500 run that is not a
valid IO500 result, b_eff_io's rules, flagged figures), the verdicts against a baseline and the
headline figures, one unit per kind, plain numbers, a badge and its reason beside every flagged
figure; then IO500's summary, the warnings, the run, and each module's pictures with its raw
tables folded away."""
import html

from . import compare, flag_rules, io500, plot_metadata, plot_patterns, plotkit, plots, results
from . import report_summary, text, units

STYLE = """
body{font-family:sans-serif;margin:1.5em auto;max-width:1150px;color:#222;line-height:1.35}
h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0;font-size:.88em}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f2f2f2}
.warnings{background:#fff4e5;border:1px solid #f0b060;padding:.4em 1em}
.warnings li{margin:.2em 0}.ok{color:#2a7a2a}
#banners{padding:0;margin:.6em 0}
.banner{border:1px solid;padding:.4em 1em;margin:.5em 0;list-style:none}
.banner.bad{background:#fdecea;border-color:#d9534f}.banner.warn{background:#fff4e5;
border-color:#f0b060}.banner.ok{background:#eef7ee;border-color:#7bb77b}
.banner .title{font-weight:bold}.banner ul{margin:.2em 0 0 1.2em;padding:0}
.merit{font-size:1.05em}.merit td.value{font-weight:bold}
.badge{display:inline-block;background:#f0b060;color:#222;border-radius:.6em;padding:0 .5em;
margin-left:.4em;font-size:.8em;font-weight:bold}
.flag-reason{display:block;font-size:.8em;color:#7a4b00;text-align:left;font-weight:normal}
figure{margin:.8em 0}figure svg{max-width:100%;height:auto}
pre{background:#f7f7f7;padding:.5em;overflow-x:auto;font-size:.8em}
details{margin:.4em 0}summary{cursor:pointer;color:#225}
.regression{color:#b00;font-weight:bold}.improvement{color:#070;font-weight:bold}
.inconclusive,.flagged{color:#a05a00;font-weight:bold}.not-comparable{color:#6d4c41;
font-weight:bold}
"""


def esc(x):
    return html.escape("" if x is None else str(x))


def num(x):
    """A number as the page shows it: plain, 4 significant digits, never an exponent."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return esc(x)
    return str(x) if isinstance(x, int) else text.number(x)


def verdict_class(verdict):
    """The CSS class of a verdict ("not comparable" -> "not-comparable")."""
    return esc(str(verdict).replace(" ", "-"))


def badges(flags):
    """A badge per flag with its reason as visible text ([(flag, reason)]); '' when clean."""
    return "".join(f'<span class="badge" data-flag="{esc(f)}">{esc(f)}</span>'
                   f'<span class="flag-reason">{esc(r)}</span>' for f, r in flags)


def table(header, rows, cls=None, numeric=()):
    """An HTML table; cells of the columns in `numeric` are right-aligned (a number there is
    formatted, a string is taken as HTML)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f'<td class="num">{num(c) if not isinstance(c, str) else c}</td>'
                         if i in numeric else f"<td>{c}</td>"
                         for i, c in enumerate(r)) + "</tr>" for r in rows)
    c = f' class="{cls}"' if cls else ""
    return f"<table{c}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def folded(summary, body):
    """Raw detail a reader opens on purpose."""
    return f"<details><summary>{esc(summary)}</summary>{body}</details>"


def run_info(doc):
    """Rows of the run's facts: system, MPI, file system, hosts, date, command, exit status."""
    hosts = ", ".join(f"{h.get('host')} ({h.get('ranks')} ranks)" for h in doc.get("hosts") or [])
    job = doc.get("batch_job") or {}
    rows = [
        ("system", results.system_label(doc)),
        ("date", doc.get("date")),
        ("command", " ".join(doc.get("command_line") or [])),
        ("config", doc.get("config_path")),
        ("MPI library", results.mpi_name(doc)),
        ("processes", doc.get("processes")),
        ("hosts", hosts),
        ("test file", doc.get("test_file")),
        ("file system", doc.get("file_system")),
        ("status", f"{doc.get('status')} (exit code {doc.get('exit_code')})"),
        ("pio-bench", f"{doc.get('tool_version')} (results schema {doc.get('schema_version')})"),
    ]
    if job:
        rows.append(("batch job", f"{job.get('scheduler')} {job.get('id')}"))
    env = doc.get("environment") or {}
    if env:
        rows.append(("MPI-IO environment", " ".join(f"{k}={v}" for k, v in sorted(env.items()))))
    return [(esc(k), esc(v)) for k, v in rows]


def warnings(doc):
    """Everything a reader must see before the numbers: a run that did not finish, failed
    blocks and tests, hints not in effect, figures that do not meet their rules (b_eff_io's,
    IO500's), flagged figures."""
    out = []
    if doc.get("status") != "complete" or doc.get("exit_code"):
        out.append(f"the run is {doc.get('status')} (exit code {doc.get('exit_code')})")
    for b in doc.get("modules") or []:
        label = b.get("label") or b.get("module")
        err = b.get("error")
        if err:
            out.append(f"block {label} failed: {err.get('message', err)}")
        hints = set()
        for t in b.get("tests") or []:
            e = t.get("error")
            if e:
                out.append(f"test {label} / {t.get('label')} failed: {e.get('message', e)}")
            have = t.get("hints_in_effect") or {}
            for k, v in (t.get("hints_requested") or {}).items():
                if have.get(k) != v:
                    hints.add(f"{k}={v} requested, in effect: {have.get(k, 'not set')}")
        for h in sorted(hints):
            out.append(f"block {label}: hint {h} (ignored by the MPI library)")
        meets, _ = results.figure_value(b, "meets_rule")
        if meets is not None and not meets:
            notes = [n for n in (b.get("figure") or {}).get("notes") or []
                     if "not" in n or "below" in n or "rule" in n]
            why = "; ".join(notes) if notes else "see the block's notes"
            out.append(f"{(b.get('figure') or {}).get('name', label)} ({label}) does not meet "
                       f"its rule: {why}")
    for banner in report_summary.beff_io_banners(doc):
        out += [f"b_eff_io: {x}" for x in banner.lines if x.startswith("the partition")]
    io = report_summary.io500_banner(doc)
    if io and io.kind == "bad":
        out += [f"IO500: {n}" for n in io.lines]
    for name, fl in flag_rules.of_run(doc).items():
        out.append(f"{name} is flagged: " + "; ".join(f"{f}: {r}" for f, r in fl))
    return out


def _block_flags(blocks):
    """[(flag, reason)] of every test of the blocks, each flag once, its reason counted."""
    seen = {}
    tests = [t for b in blocks for t in b.get("tests") or []]
    for t in tests:
        for f, r in flag_rules.of_test(t):
            seen.setdefault(f, [r, 0])[1] += 1
    return [(f, r if n == 1 else f"{n} of {len(tests)} tests, e.g. {r}")
            for f, (r, n) in seen.items()]


def pattern_merit(blocks):
    """A pattern module's headline: the median bandwidth of each block's largest buffer."""
    rows = []
    for b in blocks:
        tests = [t for t in b.get("tests") or [] if t.get("reps") and not t.get("error")]
        if not tests:
            continue
        t = max(tests, key=lambda t: results.buffer_bytes(t) or 0)
        mode = (t.get("params") or {}).get("mode", "")
        rows.append((b.get("label"), f"median bandwidth, {t.get('label')} {mode}".strip(),
                     plotkit.median([r["bandwidth_MiBps"] for r in t["reps"]]), "MiB/s",
                     flag_rules.of_test(t)))
    return rows


def imb_merit(blocks):
    """An IMB module's headline: t_avg at the shortest message per process count."""
    rows = []
    for b in blocks:
        best = {}
        for t in b.get("tests") or []:
            ops = results.op_times(t)
            if not ops or t.get("error"):
                continue
            size = int(t["comm"].get("message_bytes", 0))
            p = (t.get("params") or {}).get("np") or t.get("procs")
            if p not in best or size < best[p][0]:
                best[p] = (size, plotkit.median([o["t_avg_us"] for o in ops]),
                           flag_rules.of_test(t))
        for p, (size, t_avg, flags) in best.items():
            rows.append((b.get("label"), f"t_avg at {plotkit.size_label(size)} bytes, {p} "
                                         "processes", t_avg, "µs", flags))
    return rows


def figure_merit(blocks):
    """A module with a figure: its first value (b_eff_io, b_eff, best swap bandwidth...)."""
    rows = []
    for b in blocks:
        values = (b.get("figure") or {}).get("values") or []
        if values:
            v = values[0]
            rows.append((b.get("label"), v.get("name"), v.get("value"), v.get("unit"),
                         _block_flags([b])))
    return rows


def metadata_merit(blocks):
    """The metadata family's rows (plot_metadata.merit_rows) with their blocks' flags."""
    flags = {b.get("label"): _block_flags([b]) for b in blocks}
    return [r + (flags.get(r[0], []),) for r in plot_metadata.merit_rows(blocks)]


def merits(doc):
    """[(family, block, what, value, unit, flags)] for every module of the run, bandwidths in
    MiB/s whatever unit the module's figure used."""
    out = []
    for module, blocks in results.blocks_by_label(doc).items():
        fam = plots.family(module, blocks)
        get = {"patterns": pattern_merit, "imb": imb_merit,
               "metadata": metadata_merit}.get(fam, figure_merit)
        for block, what, value, unit, flags in get(blocks):
            value, unit = units.normalise(value, unit)
            out.append((fam, block, what, value, unit, flags))
    return out


def merit_table(doc):
    rows = [(esc(f), esc(b), esc(w), num(v) + badges(fl), esc(u))
            for f, b, w, v, u, fl in merits(doc)]
    return table(["family", "block", "figure", "value", "unit"], rows, cls="merit",
                 numeric=(3,)).replace('<td class="num">', '<td class="num value">')


def block_table(block):
    """One row per test: its label, processes, repetitions, median and range, or its error."""
    rows = []
    for t in block.get("tests") or []:
        test = results.Test({}, block, t, 0)
        m = results.merit(test)
        values, unit = m.values, m.unit
        err = test.error
        med = plotkit.median(values) if values else None
        rows.append((esc(t.get("label")), esc(t.get("procs")), esc(results.file_use(t)),
                     esc(len(values)),
                     "" if med is None else f"{num(med)} {esc(unit)}" +
                     badges(flag_rules.of_test(t)),
                     f"{num(min(values))} - {num(max(values))}" if values else "",
                     esc(err) if err else '<span class="ok">ok</span>'))
    return table(["test", "processes", "file", "reps", "median", "min - max", "status"], rows,
                 numeric=(1, 3, 4))


def figure_tables(block):
    """A block's figure tables (b_eff's Table 1, b_eff_io's per-type table ...), bandwidths in
    MiB/s, and its notes."""
    fig = block.get("figure") or {}
    parts = []
    for t in fig.get("tables") or []:
        rows = t.get("rows") or []
        if not rows or len(rows) > 60:
            continue
        cols = list(t.get("columns") or [])
        factor = {}
        for i, c in enumerate(cols):
            unit, cols[i], f = units.column(str(c))
            if unit:
                factor[i] = f
        numeric = [i for i in range(len(cols))
                   if all(isinstance(r[i], (int, float)) for r in rows if i < len(r))]
        body = [[(c * factor[i] if i in factor and isinstance(c, (int, float)) else c)
                 if i in numeric else esc(c) for i, c in enumerate(r)] for r in rows]
        parts.append(f"<h5>{esc(t.get('name'))}</h5>" + table(cols, body, numeric=numeric))
    for n in fig.get("notes") or []:
        parts.append(f"<p class=\"note\">{esc(n)}</p>")
    return "".join(parts)


def single_size(fam, blocks):
    """True when a pattern module's picture would be a point per line: one size per block."""
    if fam != "patterns":
        return False
    lines, _ = plot_patterns.lines_of(blocks)
    return bool(lines) and all(len(pts) <= 1 for pts in lines.values())


def io500_section(doc):
    """IO500's result summary as pio-io500 prints it: phases in IO500's order, the score, and
    whether it is a valid IO500 result."""
    rows, (bw, md, score), notes = io500.summary(doc)
    body = [(esc(p), num(v), esc(u), num(s), "scored" if scored else "not scored (IO500 lists "
             "it only)") for p, v, u, s, scored in rows]
    parts = [table(["phase", "value", "unit", "time [s]", ""], body, cls="io500",
                   numeric=(1, 3)),
             f'<p class="score">score <b>{num(score)}</b> = sqrt(bandwidth {num(bw)} GiB/s x '
             f"metadata {num(md)} kIOPS) (IO500's units: GiB/s and kIOPS)</p>"]
    parts += [f'<p class="note">{esc(n)}</p>' for n in notes]
    return "".join(parts)


def compare_section(baselines, doc):
    """pio-compare's verdicts against the baseline runs, and the change picture."""
    res = compare.compare_runs(baselines, doc)
    rows = []
    for r in res["rows"]:
        ci = r.get("ci")
        rows.append((esc(r["name"]), f'<span class="{verdict_class(r["verdict"])}">'
                                     f'{esc(r["verdict"])}</span>',
                     text.change(r.get("change")),
                     "" if not ci else f"{text.change(ci[0])} .. {text.change(ci[1])}",
                     esc(r.get("reason", ""))))
    summary = ", ".join(f"{v} {k}" for k, v in sorted(res["summary"].items()))
    parts = [f"<p>{esc(len(baselines))} baseline run(s): {esc(summary)}</p>"]
    parts += [f"<p>not comparable: {esc(r)}</p>" for r in res["run_reasons"]]
    parts.append(table(["test", "verdict", "change", "confidence interval", "reason"], rows,
                       cls="verdicts"))
    if len(baselines) == 1:
        fig, _ = plots.change_figure(baselines[0], doc, ("baseline", "this run"))
        if fig is not None:
            parts.append(f"<figure>{plotkit.svg_text(fig)}</figure>")
    return "".join(parts), res


def first_screen(doc, res, baselines):
    """The banners, the verdicts (with a baseline) and the headline figures."""
    out = ['<section id="summary">']
    banners = report_summary.banners(doc)
    if banners:
        out.append('<ul id="banners">')
        for b in banners:
            lines = "".join(f"<li>{esc(x)}</li>" for x in b.lines)
            out.append(f'<li class="banner {b.kind}"><span class="title">{esc(b.title)}</span>'
                       + (f"<ul>{lines}</ul>" if lines else "") + "</li>")
        out.append("</ul>")
    if res is not None:
        counts = ", ".join(f"{n} {v}" for v, n in sorted(res["summary"].items()))
        status = compare.exit_status(res)
        worst = {compare.EXIT_OK: "no regression", compare.EXIT_REGRESSION: "REGRESSION",
                 compare.EXIT_NOT_COMPARABLE: "NOT COMPARABLE", compare.EXIT_FLAGGED: "FLAGGED",
                 compare.EXIT_INCONCLUSIVE: "INCONCLUSIVE"}.get(status, str(status))
        out.append(f'<div id="verdicts"><p><b>Against {len(baselines)} baseline run(s): '
                   f"{esc(worst)}</b> ({esc(counts)})</p>")
        lines = report_summary.verdict_lines(res)
        if lines:
            out.append("<ul>" + "".join(
                f'<li><span class="{verdict_class(v)}">{esc(v)}</span> {esc(name)} '
                f"{esc(text.change(c))}"
                + (f": {esc(why)}" if why else "") + "</li>" for v, name, c, why in lines) +
                "</ul>")
        out.append("</div>")
    if io500.is_io500(doc):
        out.append(f'<section id="io500"><h2>IO500</h2>{io500_section(doc)}</section>')
    out.append('<section id="merit"><h2>Figures of merit</h2>' + merit_table(doc) + "</section>")
    out.append("</section>")
    return "".join(out)


def render(doc, baselines=(), sections=()):
    """The page as one string; `sections` (HTML, e.g. tune_report.section) come before the
    run's facts."""
    title = f"pio-bench run {doc.get('date', '')} on {results.system_label(doc)}"
    out = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
           f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
           f"<h1>{esc(title)}</h1>"]
    compared, res = (compare_section(baselines, doc) if baselines else (None, None))
    out.append(first_screen(doc, res, baselines))
    warn = warnings(doc)
    out.append('<section id="warnings"><h2>Warnings</h2>')
    if warn:
        out.append('<ul class="warnings">' + "".join(f"<li>{esc(w)}</li>" for w in warn) +
                   "</ul>")
    else:
        out.append('<p class="ok">none: every test completed, every hint is in effect, no '
                   "figure is flagged and every rule is kept</p>")
    out.append("</section>")
    if baselines:
        out.append(f'<section id="compare"><h2>Compared with the baseline</h2>{compared}'
                   "</section>")
    out.extend(sections)
    out.append('<section id="run"><h2>The run</h2>' + table(["", "value"], run_info(doc)) +
               f"<details><summary>config as read ({esc(doc.get('config_path'))})</summary>"
               f"<pre>{esc(doc.get('config_text'))}</pre></details></section>")
    out.append('<section id="modules"><h2>Modules</h2>')
    for module, blocks in results.blocks_by_label(doc).items():
        fam = plots.family(module, blocks)
        out.append(f'<section class="module" id="m-{esc(plotkit.safe(module))}">'
                   f"<h3>{esc(module)} ({esc(fam)})</h3>")
        if single_size(fam, blocks):
            out.append('<p class="note">one size per block: no curve to draw (the figures are '
                       "in the table)</p>")
        else:
            for name, fig in plots.FAMILIES[fam].figures(module, [("", blocks)]):
                out.append(f'<figure data-name="{esc(name)}">{plotkit.svg_text(fig)}</figure>')
        for b in blocks:
            tests = len(b.get("tests") or [])
            out.append(f"<h4>{esc(b.get('label'))} <small>({esc(b.get('config'))})</small></h4>")
            out.append(folded(f"{tests} test{'s' if tests != 1 else ''}: median and range per "
                              "test", block_table(b)))
            extra = figure_tables(b)
            if extra:
                out.append(folded("the module's figure tables and notes", extra))
        out.append("</section>")
    out.append("</section>")
    out.append("<footer><p>written by pio-report from "
               f"{esc(doc.get('_path'))}</p></footer></body></html>")
    return "\n".join(out)
