"""A results document as the harness's CSV file (docs/reference/results.md, "The CSV file"): one row per
repetition, one per failed test or block with the error column set, and one per value of a
block's figure of merit; the same columns, in the same order and with the same cells, as the
harness's own -o csv= file of the same run (harness/report/csv_reporter.cpp). A key an older
document lacks gives an empty cell."""
import csv

from . import results, text

ID_COLUMNS = ["module", "block", "config", "test", "label", "buffer_size", "header_offset",
              "procs", "groups", "file_use", "collective", "file_view", "interface",
              "timing_scope", "stone_wall_s", "verify", "sync_writes"]
MEASURE_COLUMNS = ["rep", "units", "bytes", "aggregate_time_s", "bandwidth_MiBps", "ops",
                   "ops_per_s", "rate_unit", "open_time_s", "close_time_s", "rank_time_min_s",
                   "rank_time_mean_s", "rank_time_max_s", "message_bytes", "ops_per_unit",
                   "t_min_us", "t_avg_us", "t_max_us", "mbytes_per_s", "error", "test_started",
                   "test_finished", "figure", "figure_value", "value", "unit", "cache_mode",
                   "cache_resident_fraction", "cache_dirty_fraction", "cv", "median_ci_low",
                   "median_ci_high", "test_flags", "rep_flags", "flag_reasons"]


def _number(v):
    """A measurement with 9 significant digits, never an exponent (the harness's plain_number);
    empty when absent."""
    return "" if v is None else text.number(v, significant=9, trim=True)


def _str(v):
    return "" if v is None else str(v)


def _flag(v):
    return "" if v is None else ("true" if v else "false")


def _add(columns, name):
    if name not in columns:
        columns.append(name)


def _param_column(key):
    return f"param:{key}" if key in ID_COLUMNS or key in MEASURE_COLUMNS else key


def _setting_column(name):
    """A block setting's column; a swept hint (Hint:<key>) has its hint:<key> column already."""
    return None if name.startswith("Hint:") else f"setting:{name}"


def _add_setting_columns(columns, block):
    for name in sorted(block.get("settings") or {}):  # the harness's std::map order
        if _setting_column(name):
            _add(columns, _setting_column(name))


def _flag_names(flags):
    return " ".join(f.get("flag", "") for f in flags or [])


def _block_cells(b):
    """The cells every row of a block has (its repetition, error and figure rows)."""
    row = {"module": b.get("module", ""), "block": b.get("label", ""),
           "config": b.get("config", ""), "collective": _flag(b.get("collective")),
           "file_view": _flag(b.get("file_view")), "interface": _str(b.get("interface")),
           "verify": _str(b.get("verify")), "sync_writes": _flag(b.get("sync_writes"))}
    for name, words in sorted((b.get("settings") or {}).items()):
        if _setting_column(name):
            row[_setting_column(name)] = " ".join(words)
    return row


def _test_cells(t):
    """The test's steadiness and flag cells (docs/reference/results.md, "Flags", "Steadiness")."""
    st = (t.get("summary") or {}).get("steadiness") or {}
    ci = st.get("median_ci") or {}
    flags = t.get("flags") or []
    return {"cv": _number(st.get("cv")) if (st.get("count") or 0) > 1 else "",
            "median_ci_low": _number(ci.get("low")), "median_ci_high": _number(ci.get("high")),
            "test_flags": _flag_names(flags),
            "flag_reasons": "; ".join(f"{f.get('flag', '')}: {f.get('reason', '')}" for f in flags)}


def _latency_cells(phase):
    """A phase's per-operation latency cells, clat:<phase>:<stat>, or clat:<stat> for a test's one
    unnamed phase (docs/reference/timing.md, "Queue depth"); percentiles in ascending order, as
    the harness's kLatencyPercentiles."""
    lat, label = phase["latency"], phase.get("label", "")
    prefix = f"clat:{label}:" if label else "clat:"
    cells = {f"{prefix}count": _str(lat.get("count"))}
    for stat in ("min_us", "mean_us", "max_us"):
        cells[f"{prefix}{stat}"] = _number(lat.get(stat))
    percentiles = lat.get("percentiles_us") or {}
    for name in sorted(percentiles, key=lambda n: float(n.lstrip("p"))):
        cells[f"{prefix}{name}_us"] = _number(percentiles[name])
    return cells


def _rep_row(base, t, r, latency):
    row = dict(base)
    rt = r.get("rank_time_s") or {}
    row.update({"rep": _str(r.get("rep")), "units": _str(r.get("units")),
                "bytes": _str(r.get("bytes")),
                "aggregate_time_s": _number(r.get("aggregate_time_s")),
                "bandwidth_MiBps": _number(r.get("bandwidth_MiBps")), "ops": _str(r.get("ops")),
                "ops_per_s": _number(r.get("ops_per_s")), "rate_unit": _str(t.get("rate_unit")),
                "open_time_s": _number(r.get("open_time_s")),
                "close_time_s": _number(r.get("close_time_s")),
                "rank_time_min_s": _number(rt.get("min")),
                "rank_time_mean_s": _number(rt.get("mean")),
                "rank_time_max_s": _number(rt.get("max"))})
    row["rep_flags"] = _flag_names(r.get("flags"))
    phases = r.get("phases") or []
    for p in phases:  # the first read phase's residency
        c = p.get("cache")
        if c and c.get("access") != "write" and (c.get("range_bytes") or 0) > 0:
            row["cache_resident_fraction"] = _number(c.get("resident_fraction"))
            break
    for p in phases:  # the first write phase's bytes not yet on storage
        c = p.get("cache")
        if c and c.get("access") == "write" and (c.get("range_bytes") or 0) > 0 and \
                c.get("dirty_bytes") is not None:
            row["cache_dirty_fraction"] = _number(c["dirty_bytes"] / c["range_bytes"])
            break
    for p in phases:
        if p.get("latency"):
            for col, value in _latency_cells(p).items():
                _add(latency, col)
                row[col] = value
    op = r.get("op")
    if op:
        for k in ("t_min_us", "t_avg_us", "t_max_us", "mbytes_per_s"):
            row[k] = _number(op.get(k))
    return row


def _message(e):
    return e.get("message", "") if isinstance(e, dict) else str(e)


def rows(doc):
    """(header, rows as dicts) for a results document, columns in the harness's order."""
    params, hints, latency, out = [], [], [], []
    for b in doc.get("modules") or []:
        block = _block_cells(b)
        for t in b.get("tests") or []:
            _add_setting_columns(params, b)
            base = dict(block)
            base.update({"test": _str(t.get("index")), "label": t.get("label", ""),
                         "buffer_size": _str(t.get("buffer_size")),
                         "header_offset": _str(t.get("header_offset")),
                         "procs": _str(t.get("procs")), "groups": _str(t.get("groups")),
                         "file_use": results.CSV_FILE_USE.get(results.file_use(t), ""),
                         "timing_scope": _str(t.get("timing_scope")),
                         "stone_wall_s": _number(t.get("stone_wall_s")),
                         "test_started": _str(t.get("started")),
                         "test_finished": _str(t.get("finished"))})
            for k, v in sorted((t.get("params") or {}).items()):  # the harness's std::map order
                _add(params, _param_column(k))
                base[_param_column(k)] = str(v)
            for k, v in sorted((t.get("hints_requested") or {}).items()):
                _add(hints, f"hint:{k}")
                base[f"hint:{k}"] = str(v)
            comm = t.get("comm")
            if comm:
                base["message_bytes"] = _str(comm.get("message_bytes"))
                base["ops_per_unit"] = _str(comm.get("ops_per_unit"))
            base["cache_mode"] = _str(b.get("cache_mode"))
            base.update(_test_cells(t))
            out.extend(_rep_row(base, t, r, latency) for r in t.get("reps") or [])
            if t.get("error"):  # the failure's own row, after the repetitions that completed
                base["error"] = _message(t["error"])
                out.append(base)
        if b.get("figure") or b.get("error"):
            _add_setting_columns(params, b)
        fig = b.get("figure")
        for v in (fig or {}).get("values") or []:  # a row per value of the figure of merit
            row = dict(block)
            measured = v.get("value") is not None
            row.update({"figure": fig.get("name", ""), "figure_value": v.get("name", ""),
                        "value": _number(v["value"]) if measured else "",
                        "unit": v.get("unit", "") if measured else "not measured"})
            out.append(row)
        if b.get("error"):
            row = dict(block)
            row["error"] = _message(b["error"])
            out.append(row)
    return ID_COLUMNS + params + hints + MEASURE_COLUMNS + latency, out


def write(doc, stream):
    """Writes the CSV of a results document to a text stream."""
    header, body = rows(doc)
    w = csv.writer(stream, lineterminator="\n")
    w.writerow(header)
    for r in body:
        w.writerow([r.get(c, "") for c in header])
