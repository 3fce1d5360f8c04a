"""A results document as the harness's CSV file (docs/reference/results.md, "The CSV file"): one row
per repetition, and one per failed test or block with the error column set."""
import csv

from . import results, text

ID_COLUMNS = ["module", "block", "config", "test", "label", "buffer_size", "header_offset",
              "procs", "groups", "file_use", "collective", "file_view"]
MEASURE_COLUMNS = ["rep", "units", "bytes", "aggregate_time_s", "bandwidth_MiBps", "open_time_s",
                   "close_time_s", "rank_time_min_s", "rank_time_mean_s", "rank_time_max_s",
                   "message_bytes", "ops_per_unit", "t_min_us", "t_avg_us", "t_max_us",
                   "mbytes_per_s", "error", "figure", "figure_value", "value", "unit",
                   "cache_mode", "cache_resident_fraction", "cv", "median_ci_low",
                   "median_ci_high", "test_flags", "rep_flags", "flag_reasons"]


def _number(v):
    return "" if v is None else _plain(v)


def _plain(v):
    """A figure value with 9 significant digits, never an exponent (the harness's plain_number)."""
    return text.number(v, significant=9, trim=True)


def _flag(v):
    return "true" if v else "false"


def _param_column(key):
    return f"param:{key}" if key in ID_COLUMNS or key in MEASURE_COLUMNS else key


def _flag_names(flags):
    return " ".join(f.get("flag", "") for f in flags or [])


def _test_cells(t):
    """The test's steadiness and flag cells (docs/reference/results.md, "Flags", "Steadiness")."""
    st = (t.get("summary") or {}).get("steadiness") or {}
    ci = st.get("median_ci") or {}
    flags = t.get("flags") or []
    return {"cv": _number(st.get("cv")) if (st.get("count") or 0) > 1 else "",
            "median_ci_low": _number(ci.get("low")), "median_ci_high": _number(ci.get("high")),
            "test_flags": _flag_names(flags),
            "flag_reasons": "; ".join(f"{f.get('flag', '')}: {f.get('reason', '')}" for f in flags)}


def _message(e):
    return e.get("message", "") if isinstance(e, dict) else str(e)


def rows(doc):
    """(header, rows as dicts) for a results document, columns in the harness's order."""
    params, hints, out = [], [], []
    for b in doc.get("modules") or []:
        base_block = {"module": b.get("module", ""), "block": b.get("label", ""),
                      "config": b.get("config", ""), "collective": _flag(b.get("collective")),
                      "file_view": _flag(b.get("file_view"))}
        for t in b.get("tests") or []:
            base = dict(base_block)
            base.update({"test": str(t.get("index", "")), "label": t.get("label", ""),
                         "buffer_size": str(t.get("buffer_size", "")),
                         "header_offset": str(t.get("header_offset", "")),
                         "procs": str(t.get("procs", "")), "groups": str(t.get("groups", "")),
                         "file_use": results.CSV_FILE_USE.get(results.file_use(t), "")})
            for k, v in sorted((t.get("params") or {}).items()):  # the harness's std::map order
                col = _param_column(k)
                if col not in params:
                    params.append(col)
                base[col] = str(v)
            for k, v in sorted((t.get("hints_requested") or {}).items()):
                if f"hint:{k}" not in hints:
                    hints.append(f"hint:{k}")
                base[f"hint:{k}"] = str(v)
            comm = t.get("comm")
            if comm:
                base["message_bytes"] = str(comm.get("message_bytes", ""))
                base["ops_per_unit"] = str(comm.get("ops_per_unit", ""))
            if b.get("cache_mode"):
                base["cache_mode"] = b["cache_mode"]
            base.update(_test_cells(t))
            for r in t.get("reps") or []:
                row = dict(base)
                rt = r.get("rank_time_s") or {}
                row.update({"rep": str(r.get("rep")), "units": str(r.get("units")),
                            "bytes": str(r.get("bytes")),
                            "aggregate_time_s": _number(r.get("aggregate_time_s")),
                            "bandwidth_MiBps": _number(r.get("bandwidth_MiBps")),
                            "open_time_s": _number(r.get("open_time_s")),
                            "close_time_s": _number(r.get("close_time_s")),
                            "rank_time_min_s": _number(rt.get("min")),
                            "rank_time_mean_s": _number(rt.get("mean")),
                            "rank_time_max_s": _number(rt.get("max"))})
                row["rep_flags"] = _flag_names(r.get("flags"))
                for p in r.get("phases") or []:  # the first read phase's residency
                    c = p.get("cache")
                    if c and c.get("range_bytes"):
                        row["cache_resident_fraction"] = _number(c.get("resident_fraction"))
                        break
                op = r.get("op")
                if op:
                    for k in ("t_min_us", "t_avg_us", "t_max_us", "mbytes_per_s"):
                        row[k] = _number(op.get(k))
                out.append(row)
            if t.get("error"):
                base["error"] = _message(t["error"])
                out.append(base)
        fig = b.get("figure")
        for v in (fig or {}).get("values") or []:  # a row per value of the figure of merit
            row = dict(base_block)
            measured = v.get("value") is not None
            row.update({"figure": fig.get("name", ""), "figure_value": v.get("name", ""),
                        "value": _plain(v["value"]) if measured else "",
                        "unit": v.get("unit", "") if measured else "not measured"})
            out.append(row)
        if b.get("error"):
            row = dict(base_block)
            row["error"] = _message(b["error"])
            out.append(row)
    return ID_COLUMNS + params + hints + MEASURE_COLUMNS, out


def write(doc, stream):
    """Writes the CSV of a results document to a text stream."""
    header, body = rows(doc)
    w = csv.writer(stream, lineterminator="\n")
    w.writerow(header)
    for r in body:
        w.writerow([r.get(c, "") for c in header])
