"""pio-report's page: one self-contained HTML file for a run (no scripts, no network; figures
inline as SVG) that a site admin can mail: the run, warnings first, each family's figure of
merit, each module's figure and its blocks' tables, and with a baseline pio-compare's
verdicts."""
import html

from . import compare, plot_metadata, plotkit, plots, results

STYLE = """
body{font-family:sans-serif;margin:1.5em auto;max-width:1150px;color:#222;line-height:1.35}
h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0;font-size:.88em}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f2f2f2}
.warnings{background:#fff4e5;border:1px solid #f0b060;padding:.4em 1em}
.warnings li{margin:.2em 0}.ok{color:#2a7a2a}
.merit{font-size:1.05em}.merit td.value{font-weight:bold}
figure{margin:.8em 0}figure svg{max-width:100%;height:auto}
pre{background:#f7f7f7;padding:.5em;overflow-x:auto;font-size:.8em}
.regression{color:#b00;font-weight:bold}.improvement{color:#070;font-weight:bold}
"""


def esc(x):
    return html.escape("" if x is None else str(x))


def num(x):
    return f"{x:.4g}" if isinstance(x, float) else esc(x)


def table(header, rows, cls=None, numeric=()):
    """An HTML table; cells of the columns in `numeric` are right-aligned."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f'<td class="num">{num(c)}</td>' if i in numeric else f"<td>{c}</td>"
                         for i, c in enumerate(r)) + "</tr>" for r in rows)
    c = f' class="{cls}"' if cls else ""
    return f"<table{c}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


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
    blocks and tests, hints not in effect, figures that do not meet their rules."""
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
    return out


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
                     plotkit.median([r["bandwidth_MiBps"] for r in t["reps"]]), "MiB/s"))
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
                best[p] = (size, plotkit.median([o["t_avg_us"] for o in ops]))
        for p, (size, t_avg) in best.items():
            rows.append((b.get("label"), f"t_avg at {plotkit.size_label(size)} bytes, {p} "
                                         "processes", t_avg, "µs"))
    return rows


def figure_merit(blocks):
    """A module with a figure: its first value (b_eff_io, b_eff, best swap bandwidth...)."""
    rows = []
    for b in blocks:
        values = (b.get("figure") or {}).get("values") or []
        if values:
            v = values[0]
            rows.append((b.get("label"), v.get("name"), v.get("value"), v.get("unit")))
    return rows


def merits(doc):
    """[(family, block, what, value, unit)] for every module of the run."""
    out = []
    for module, blocks in results.blocks_by_label(doc).items():
        fam = plots.family(module, blocks)
        get = {"patterns": pattern_merit, "imb": imb_merit,
               "metadata": plot_metadata.merit_rows}.get(fam, figure_merit)
        out += [(fam,) + r for r in get(blocks)]
    return out


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
                     "" if med is None else f"{med:.4g} {unit}",
                     f"{min(values):.4g} - {max(values):.4g}" if values else "",
                     esc(err) if err else '<span class="ok">ok</span>'))
    return table(["test", "processes", "file", "reps", "median", "min - max", "status"], rows,
                 numeric=(1, 3))


def figure_tables(block):
    """A block's figure tables (b_eff's Table 1, b_eff_io's per-type table ...) and notes."""
    fig = block.get("figure") or {}
    parts = []
    for t in fig.get("tables") or []:
        rows = t.get("rows") or []
        if not rows or len(rows) > 60:
            continue
        numeric = [i for i in range(len(t.get("columns") or []))
                   if all(isinstance(r[i], (int, float)) for r in rows if i < len(r))]
        parts.append(f"<h4>{esc(t.get('name'))}</h4>" +
                     table(t.get("columns") or [], [[num(c) if i not in numeric else c
                                                     for i, c in enumerate(r)] for r in rows],
                           numeric=numeric))
    for n in fig.get("notes") or []:
        parts.append(f"<p class=\"note\">{esc(n)}</p>")
    return "".join(parts)


def compare_section(baselines, doc):
    """pio-compare's verdicts against the baseline runs, and the change picture."""
    res = compare.compare_runs(baselines, doc)
    rows = []
    for r in res["rows"]:
        ci = r.get("ci")
        rows.append((esc(r["name"]), f'<span class="{esc(r["verdict"])}">{esc(r["verdict"])}'
                                     "</span>",
                     "" if r.get("change") is None else f"{r['change'] * 100:+.3g} %",
                     "" if not ci else f"{ci[0] * 100:+.3g} % .. {ci[1] * 100:+.3g} %",
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


def render(doc, baselines=(), sections=()):
    """The page as one string; `sections` (HTML, e.g. tune_report.section) come before the
    run's facts."""
    title = f"pio-bench run {doc.get('date', '')} on {results.system_label(doc)}"
    out = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
           f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
           f"<h1>{esc(title)}</h1>"]
    warn = warnings(doc)
    out.append('<section id="warnings"><h2>Warnings</h2>')
    if warn:
        out.append('<ul class="warnings">' + "".join(f"<li>{esc(w)}</li>" for w in warn) +
                   "</ul>")
    else:
        out.append('<p class="ok">none: every test completed and every hint is in effect</p>')
    out.append("</section>")
    out.append('<section id="merit"><h2>Figures of merit</h2>' + table(
        ["family", "block", "figure", "value", "unit"],
        [(esc(f), esc(b), esc(w), num(v), esc(u)) for f, b, w, v, u in merits(doc)],
        cls="merit", numeric=(3,)).replace('<td class="num">', '<td class="num value">') +
        "</section>")
    if baselines:
        text, _ = compare_section(baselines, doc)
        out.append(f'<section id="compare"><h2>Compared with the baseline</h2>{text}</section>')
    out.extend(sections)
    out.append('<section id="run"><h2>The run</h2>' + table(["", "value"], run_info(doc)) +
               f"<details><summary>config as read ({esc(doc.get('config_path'))})</summary>"
               f"<pre>{esc(doc.get('config_text'))}</pre></details></section>")
    out.append('<section id="modules"><h2>Modules</h2>')
    for module, blocks in results.blocks_by_label(doc).items():
        fam = plots.family(module, blocks)
        out.append(f'<section class="module" id="m-{esc(plotkit.safe(module))}">'
                   f"<h3>{esc(module)} ({esc(fam)})</h3>")
        for name, fig in plots.FAMILIES[fam].figures(module, [("", blocks)]):
            out.append(f'<figure data-name="{esc(name)}">{plotkit.svg_text(fig)}</figure>')
        for b in blocks:
            out.append(f"<h4>{esc(b.get('label'))} <small>({esc(b.get('config'))})</small></h4>")
            out.append(block_table(b))
            out.append(figure_tables(b))
        out.append("</section>")
    out.append("</section>")
    out.append("<footer><p>written by pio-report from "
               f"{esc(doc.get('_path'))}</p></footer></body></html>")
    return "\n".join(out)

