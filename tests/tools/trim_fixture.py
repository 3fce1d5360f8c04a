#!/usr/bin/python3
"""Makes a recorded results document small enough to live in data/: drops what the tools'
tests never read (per-phase details except IMB Multi's per-group times, the config files'
texts, hints in effect that were not requested, the large b_eff_io/b_eff detail tables) and
keeps every measured number the plots and the report use.

  trim_fixture.py IN.json OUT.json [MAX_TESTS]

MAX_TESTS keeps only a block's first tests when its figure holds what the plots draw (b_eff,
COMMTEST: hundreds of tests whose numbers are all in the figure's tables)."""
import json
import sys

TEST_KEYS = {"index", "label", "buffer_size", "procs", "groups", "file_use", "comm", "params",
             "hints_requested", "hints_in_effect", "error", "reps", "summary", "rate_unit"}
REP_KEYS = {"rep", "units", "bytes", "aggregate_time_s", "bandwidth_MiBps", "op", "phases", "ops",
            "ops_per_s"}
DROP_TABLES = {"patterns", "protocol: b per pattern and length, max over reps"}


def trim(doc, max_tests=None):
    for k in ("config_files", "config_variables", "romio_hints_text"):
        doc.pop(k, None)
    if doc.get("mpi_library"):  # the tools show its first line (results.mpi_name)
        doc["mpi_library"] = doc["mpi_library"].splitlines()[0]
    for b in doc.get("modules") or []:
        fig = b.get("figure") or {}
        if max_tests and fig.get("tables"):
            b["tests"] = b["tests"][:max_tests]
        if fig.get("tables"):
            fig["tables"] = [t for t in fig["tables"] if t.get("name") not in DROP_TABLES]
        for t in b.get("tests") or []:
            req = t.get("hints_requested") or {}
            t["hints_in_effect"] = {k: v for k, v in (t.get("hints_in_effect") or {}).items()
                                    if k in req}
            summ = t.get("summary") or {}
            t["summary"] = {"op": summ.get("op")} if summ.get("op") else {}
            for r in t.get("reps") or []:
                groups = [g for ph in r.get("phases") or [] for g in ph.get("groups") or []]
                r.pop("phases", None)
                if (t.get("groups") or 1) > 1 and groups:
                    r["phases"] = [{"groups": groups}]
                for k in set(r) - REP_KEYS:
                    del r[k]
            for k in set(t) - TEST_KEYS:
                del t[k]
    return doc


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(trim(doc, int(sys.argv[3]) if len(sys.argv) > 3 else None), f, separators=(",", ":"))
