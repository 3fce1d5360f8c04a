"""A results history in SQLite: one row per run (date, system label) and one per test (block
label, test label, parameters) with its repetitions, so a test's trend can be shown."""
import json
import sqlite3

import numpy as np

from . import fsconfig, results

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY, date TEXT NOT NULL, system_label TEXT NOT NULL, path TEXT,
  processes INTEGER, file_system TEXT, mpi_library TEXT, config_path TEXT,
  UNIQUE (date, system_label, config_path));
CREATE TABLE IF NOT EXISTS tests (
  run_id INTEGER NOT NULL REFERENCES runs(id), block TEXT NOT NULL, test TEXT NOT NULL,
  params TEXT NOT NULL, occurrence INTEGER NOT NULL, metric TEXT, higher_is_better INTEGER,
  n INTEGER, median REAL, min REAL, max REAL, reps TEXT, error TEXT,
  PRIMARY KEY (run_id, block, test, params, occurrence));
CREATE INDEX IF NOT EXISTS tests_by_label ON tests(block, test);
"""


def open_db(path):
    """Opens (creating if needed) a history database."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    return db


def append(db, doc, label=None):
    """Adds one run; returns (run id, number of tests), or (None, 0) if that run (same date,
    system label and config) is already in the database."""
    system = results.system_label(doc, label)
    cur = db.execute(
        "INSERT OR IGNORE INTO runs (date, system_label, path, processes, file_system, "
        "mpi_library, config_path) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (doc.get("date", ""), system, doc.get("_path"), doc.get("processes"),
         fsconfig.file_system_config(doc), results.mpi_name(doc), doc.get("config_path", "")))
    if cur.rowcount == 0:
        return None, 0
    run_id = cur.lastrowid
    n = 0
    for t in results.tests(doc):
        metric, values, higher = t.metric()
        med = float(np.median(values)) if values else None
        db.execute("INSERT INTO tests VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (run_id, t.block_label, t.label, results.params_text(t.params),
                    t.occurrence, metric, int(higher), len(values), med,
                    min(values) if values else None, max(values) if values else None,
                    json.dumps(values), t.error))
        n += 1
    db.commit()
    return run_id, n


def trend(db, label, last=10, system=None):
    """A test's history, oldest first: {test name: [row dict, ...]} for the last `last` runs.
    `label` is 'BLOCK' (all its tests) or 'BLOCK/TEST'."""
    block, _, test = (s.strip() for s in label.partition("/"))
    sql = ("SELECT r.date, r.system_label, r.file_system, t.block, t.test, t.params, t.occurrence, t.metric, "
           "t.higher_is_better, t.n, t.median, t.min, t.max, t.error FROM tests t "
           "JOIN runs r ON r.id = t.run_id WHERE t.block = ?")
    args = [block]
    if test:
        sql += " AND t.test = ?"
        args.append(test)
    if system:
        sql += " AND r.system_label = ?"
        args.append(system)
    sql += " ORDER BY r.date DESC, r.id DESC"
    cols = ["date", "system_label", "file_system", "block", "test", "params", "occurrence", "metric",
            "higher_is_better", "n", "median", "min", "max", "error"]
    out = {}
    for row in db.execute(sql, args):
        r = dict(zip(cols, row))
        name = f"{r['block']} / {r['test']}" + (f" [{r['params']}]" if r["params"] else "")
        if r["occurrence"]:
            name += f" #{r['occurrence'] + 1}"
        rows = out.setdefault(name, {}).setdefault(r["file_system"], [])
        if len(rows) < last:
            rows.append(r)
    return by_file_system(out)


def by_file_system(series):
    """{test name: {file-system configuration: rows newest first}} as {name: rows oldest first},
    one series per configuration: runs on different configurations are not one trend. The name
    carries the configuration ("... on ext4 (rw,data=journal)") where a test has several."""
    out = {}
    for name, groups in series.items():
        for fs, rows in groups.items():
            out[name if len(groups) == 1 else f"{name} on {fs}"] = rows[::-1]
    return out


def labels(db, system=None):
    """Every 'BLOCK/TEST' label in the history (of one system label if given), sorted, as
    --trend takes them."""
    sql = "SELECT DISTINCT t.block, t.test FROM tests t JOIN runs r ON r.id = t.run_id"
    args = []
    if system:
        sql += " WHERE r.system_label = ?"
        args.append(system)
    return sorted(f"{b}/{t}" for b, t in db.execute(sql + " ORDER BY t.block, t.test", args))
