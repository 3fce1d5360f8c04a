#!/usr/bin/python3
"""Makes a recorded results document small enough to live in data/: drops what the tools'
tests never read (per-phase details except IMB Multi's per-group times, the config files'
texts, hints in effect that were not requested, the large b_eff_io/b_eff detail tables) and
keeps every measured number the plots and the report use.

  trim_fixture.py IN.json OUT.json"""
import json
import sys

DROP_TABLES = {"patterns", "protocol: b per pattern and length, max over reps"}


def trim(doc):
    for k in ("config_files", "config_variables", "romio_hints_text"):
        doc.pop(k, None)
    for b in doc.get("modules") or []:
        fig = b.get("figure") or {}
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
    return doc


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(trim(doc), f, separators=(",", ":"))
