"""Loading results documents (docs/reference/results.md) and naming their tests so that two runs can
be matched: a test is identified by its block label, its test label and its parameters, never by
its position or the config line it came from."""
import copy
import json
import os

SUPPORTED_SCHEMAS = (2, 3, 4)  # 3: a block's "verify" is a text (2: a boolean); 4: "flags"

# A test's FileUse as the harness writes it (include/pio/spec.hpp to_string): the results'
# `file_use` and the layout trace's `file`.
FILE_PER_PROCESS = "file-per-process"


class ResultsError(Exception):
    """A file that is not a usable pio-bench results document."""


def load(path):
    """Reads one results document; raises ResultsError with the reason if it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise ResultsError(f"{path}: {e}") from e
    if not isinstance(doc, dict) or doc.get("tool") != "pio-bench":
        raise ResultsError(f"{path}: not a pio-bench results document")
    if doc.get("schema_version") not in SUPPORTED_SCHEMAS:
        raise ResultsError(f"{path}: schema_version {doc.get('schema_version')} is not supported "
                           f"(this tool reads {', '.join(map(str, SUPPORTED_SCHEMAS))})")
    doc["_path"] = path
    return merge_rounds(doc)


def merge_rounds(doc):
    """A run with Rounds N (docs/reference/configuration.md, "Rounds") records each block once per
    round; the tools read one block per label whose tests hold every round's repetitions (each with
    its `round`), in the config's order (`block_index`). The records as written stay in
    doc["_rounds_raw"]."""
    blocks = doc.get("modules") or []
    if not any("round" in b for b in blocks):
        return doc
    merged, at = [], {}
    for b in blocks:
        label = b.get("label") or b.get("module", "")
        if label not in at:
            first = copy.deepcopy(b)
            first["rounds"] = []
            for t in first.get("tests") or []:
                t["reps"] = []
                t.pop("summary", None)  # over one round only: the tools use the reps
            at[label] = first
            merged.append(first)
        m = at[label]
        m["rounds"].append(b.get("round"))
        m["error"] = m.get("error") or b.get("error")
        tests = {(t.get("label"), params_text(t.get("params"))): t for t in m.get("tests") or []}
        for t in b.get("tests") or []:
            key = (t.get("label"), params_text(t.get("params")))
            if key not in tests:  # a test only a later round reached
                tests[key] = dict(t, reps=[])
                tests[key].pop("summary", None)
                m.setdefault("tests", []).append(tests[key])
            into = tests[key]
            into["error"] = into.get("error") or t.get("error")
            into["reps"] += [dict(r, round=b.get("round")) for r in t.get("reps") or []]
    merged.sort(key=lambda m: next(b.get("block_index", 0) for b in blocks
                                   if (b.get("label") or b.get("module", "")) ==
                                   (m.get("label") or m.get("module", ""))))
    doc["_rounds_raw"] = blocks
    doc["modules"] = merged
    return doc


def load_many(paths):
    """Reads files and directories (every *.json inside, sorted by name) in order."""
    docs = []
    for p in paths:
        if os.path.isdir(p):
            names = sorted(n for n in os.listdir(p) if n.endswith(".json"))
            if not names:
                raise ResultsError(f"{p}: directory holds no *.json results")
            docs += [load(os.path.join(p, n)) for n in names]
        else:
            docs.append(load(p))
    return docs


def params_text(params):
    """A test's parameters as one stable string (sorted key=value pairs)."""
    return " ".join(f"{k}={params[k]}" for k in sorted(params or {}))


def system_label(doc, fallback=None):
    """The run's system label: the document's own, else `fallback`, else its file system."""
    return doc.get("system_label") or fallback or doc.get("file_system") or "unknown"


def mpi_name(doc):
    """The MPI library's first line (its name and version), e.g. 'MPICH Version: 4.0.2'."""
    text = doc.get("mpi_library") or ""
    return " ".join(text.splitlines()[0].split()) if text else ""


class Test:
    """One test of one block, with what identifies it across runs."""

    def __init__(self, doc, block, test, occurrence):
        self.doc, self.block, self.test = doc, block, test
        self.block_label = block.get("label") or block.get("module", "")
        self.label = str(test.get("label", ""))
        self.params = dict(test.get("params") or {})
        # A key seen twice in one run (e.g. two blocks under the same label) is matched by order.
        self.occurrence = occurrence
        self.key = (self.block_label, self.label, params_text(self.params), occurrence)

    @property
    def name(self):
        """How the test is shown: 'block label / test label' (and #n when repeated)."""
        suffix = f" #{self.occurrence + 1}" if self.occurrence else ""
        return f"{self.block_label} / {self.label}{suffix}"

    @property
    def error(self):
        """The test's or its block's error message, or None."""
        e = self.test.get("error") or self.block.get("error")
        return e.get("message", str(e)) if isinstance(e, dict) else e

    @property
    def reps(self):
        """The repetitions that completed."""
        return list(self.test.get("reps") or [])

    @property
    def is_comm(self):
        """True for communication tests (IMB-style per-operation times)."""
        return bool(self.test.get("comm")) or any(r.get("op") for r in self.reps)

    def metric(self):
        """(name, values, higher_is_better): what the tools compare and score (merit)."""
        m = merit(self)
        return m.field, m.values, m.higher_is_better

    @property
    def unit(self):
        """The unit of the test's figure of merit: ops/s, MiB/s or µs."""
        return merit(self).unit

    def setup(self):
        """What must agree for two runs of this test to be comparable (beyond its key)."""
        b, t = self.block, self.test
        settings = {k: v for k, v in (b.get("settings") or {}).items() if k != "ModuleReps"}
        return {
            "procs": t.get("procs"), "groups": t.get("groups"), "file_use": file_use(t),
            "buffer_size": t.get("buffer_size"), "collective": b.get("collective"),
            "file_view": b.get("file_view"), "sync_writes": b.get("sync_writes"),
            "verify": b.get("verify"), "settings": settings,
            "hints_requested": t.get("hints_requested") or {},
            "interface": interface(b), "interface_settings": b.get("interface_settings") or {},
        }


# The harness's default Interface (harness/config/harness_directives.cpp): what a block
# without the `interface` field (a document from before the field existed) ran through.
DEFAULT_INTERFACE = "mpiio"


def interface(block):
    """The I/O interface a block's files went through: "mpiio", "posix" or "hdf5"."""
    return block.get("interface") or DEFAULT_INTERFACE


# A test's `rate_unit` when its figure of merit is operations per second (the harness's
# merit_unit, harness/report/json_reporter.cpp; docs/reference/metadata.md).
OPS_UNIT = "ops/s"
# Each figure of merit: the repetition's field, its unit, and whether higher is better.
MERITS = {"ops_per_s": (OPS_UNIT, True), "bandwidth_MiBps": ("MiB/s", True),
          "t_avg_us": ("\u00b5s", False)}


class Merit:
    """A test's figure of merit: the repetitions' field, its unit, the values per repetition."""

    def __init__(self, field, values):
        self.field, self.values = field, values
        self.unit, self.higher_is_better = MERITS[field]


def merit(test):
    """A test's figure of merit, the one place the tools read a result's unit: operations per
    second (`ops_per_s`) when the test's `rate_unit` is ops/s (metadata); the per-operation
    t_avg_us (IMB's headline time, which also covers 0-byte messages) for communication tests;
    else each repetition's bandwidth (MiB/s)."""
    t = test.test if isinstance(test, Test) else test
    reps = list(t.get("reps") or [])
    if t.get("rate_unit") == OPS_UNIT:
        return Merit("ops_per_s", [r["ops_per_s"] for r in reps])
    if t.get("comm") or any(r.get("op") for r in reps):
        return Merit("t_avg_us", [r["op"]["t_avg_us"] for r in reps if r.get("op")])
    return Merit("bandwidth_MiBps", [r["bandwidth_MiBps"] for r in reps])


def tests(doc):
    """Every test of a run, in document order, each with its matching key."""
    seen = {}
    out = []
    for block in doc.get("modules") or []:
        for t in block.get("tests") or []:
            label = block.get("label") or block.get("module", "")
            base = (label, str(t.get("label", "")), params_text(t.get("params")))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.append(Test(doc, block, t, n))
    return out


def blocks_by_label(doc):
    """The run's blocks grouped by module: {module: [block, ...]} in document order."""
    out = {}
    for block in doc.get("modules") or []:
        out.setdefault(block.get("module", ""), []).append(block)
    return out


def buffer_bytes(test):
    """The x value of a test in bandwidth-vs-size plots: its buffer size in bytes."""
    t = test.test if isinstance(test, Test) else test
    for key in ("buffer_size",):
        v = t.get(key)
        if v:
            return int(v)
    for key in ("buffer_size", "strip_size", "message_bytes"):
        v = (t.get("params") or {}).get(key)
        if v not in (None, ""):
            try:
                return int(v)
            except ValueError:
                pass
    comm = t.get("comm")
    if comm:
        return int(comm.get("message_bytes", 0))
    return None


# The harness's FileUse text (include/pio/test_spec.hpp) as the tools name it; the one place to
# change when the harness's spelling changes.
FILE_USE = {"none": "none", "shared": "shared", "file-per-process": "per_process",
            "file_per_process": "per_process", "per_process": "per_process"}


# ... and as the harness's CSV writes it (docs/reference/results.md, "The CSV file").
CSV_FILE_USE = {"none": "none", "shared": "shared", "per_process": "file-per-process"}


def file_use(test):
    """A test's file use: "none", "shared" or "per_process" (None when not recorded)."""
    t = test.test if isinstance(test, Test) else test
    v = t.get("file_use")
    return FILE_USE.get(v, v) if v is not None else None


def op_times(test):
    """A communication test's per-operation times: each repetition's `op` (the worst group's
    t_min/avg/max in µs and MB/s), or the summary's alone when the document kept no reps."""
    t = test.test if isinstance(test, Test) else test
    ops = [r["op"] for r in t.get("reps") or [] if r.get("op")]
    if not ops and (t.get("summary") or {}).get("op"):
        ops = [t["summary"]["op"]]
    return ops


def group_times(test):
    """Per group of a communication test (IMB's Multi): {group: [op, ...]} over repetitions,
    from the phases' `groups`; {} when the document holds none."""
    t = test.test if isinstance(test, Test) else test
    out = {}
    for r in t.get("reps") or []:
        for ph in r.get("phases") or []:
            for g in ph.get("groups") or []:
                out.setdefault(g.get("group", 0), []).append(g)
    return out


def figure_value(block, name):
    """(value, unit) of a block's figure value `name`, or (None, None)."""
    for v in (block.get("figure") or {}).get("values") or []:
        if v.get("name") == name:
            return v.get("value"), v.get("unit")
    return None, None


def figure_table(block, name):
    """A block's figure table whose name is or starts with `name`, as a list of dicts keyed by
    column, and its columns; ([], []) when absent."""
    for t in (block.get("figure") or {}).get("tables") or []:
        if t.get("name") == name or str(t.get("name", "")).startswith(name):
            cols = t.get("columns") or []
            return [dict(zip(cols, r)) for r in t.get("rows") or []], cols
    return [], []
