"""pio-tune's search space as the harness checked and printed it (pio-harness --check
--tune-space FILE, docs/guides/tuning.md): the parameters, how Optuna suggests each, the config text
a choice becomes, and the TuneHook commands with a trial's values put in. The config is never
parsed here: the harness is the one reader of configs."""
import json
import re
import shlex

from . import romio


class SpaceError(Exception):
    """A space document that is not usable (or a value outside the space)."""


class Param:
    """One dimension: a choice list, a doubling ladder of sizes (searched by its index, so that
    the sampler sees an ordered, log-scale axis) or an integer range."""

    def __init__(self, d):
        self.name = d["name"]
        self.target = d["target"]  # hint, hook, harness, module
        self.kind = d["kind"]  # choice, ladder, integer
        self.type = d.get("type", "text")
        self.values = list(d.get("values") or [])
        self.low, self.high, self.log = d.get("low"), d.get("high"), d.get("log", True)
        self.global_ = bool(d.get("global"))
        self.uses = list(d.get("uses") or [])

    def suggest(self, trial):
        """The trial's value, as the harness takes it (--tune NAME=VALUE)."""
        if self.kind == "choice":
            return trial.suggest_categorical(self.name, self.values)
        if self.kind == "ladder":
            return self.values[trial.suggest_int(self.name, 0, len(self.values) - 1)]
        return str(trial.suggest_int(self.name, int(self.low), int(self.high), log=self.log))

    def from_optuna(self, raw):
        """The value a stored Optuna parameter stands for."""
        return self.values[int(raw)] if self.kind == "ladder" else str(raw)

    def to_optuna(self, value):
        """The Optuna parameter of a value (enqueued trials, grids)."""
        if self.kind == "ladder":
            return self.values.index(value)
        return value if self.kind == "choice" else int(value)

    def grid(self):
        """Every Optuna value of the dimension (GridSampler)."""
        if self.kind == "choice":
            return list(self.values)
        if self.kind == "ladder":
            return list(range(len(self.values)))
        return list(range(int(self.low), int(self.high) + 1))

    def domain_text(self):
        if self.kind == "integer":
            return f"{self.low}..{self.high}" + ("" if self.log else " linear")
        return " ".join(self.values)

    def defaults(self):
        """{block label: the value the config gives it ("" = not set)}."""
        return {u["block"]: u.get("default", "") for u in self.uses}

    def config_line(self, value):
        """The line that sets this value in a config: 'Hint cb_buffer_size 4M', 'Collective on';
        None for a Hook: value (a file-system setting its TuneHook applies)."""
        if self.target == "hook":
            return None
        if self.target == "hint":
            return f"Hint {self.name[5:]} {value}"
        return f"{self.name} {value}"


class Space:
    """The whole space: parameters, hooks, blocks."""

    def __init__(self, doc, path=""):
        try:
            self.params = [Param(p) for p in doc["params"]]
            self.hooks = list(doc.get("hooks") or [])
            self.blocks = list(doc.get("blocks") or [])
            self.config = doc.get("config", "")
        except (KeyError, TypeError) as e:
            raise SpaceError(f"{path}: not a pio-harness tune space ({e})") from e
        self.path = path

    def __getitem__(self, name):
        for p in self.params:
            if p.name.lower() == name.lower():
                return p
        raise SpaceError(f"no Tune {name} in the space (it has: {self.names_text()})")

    def names_text(self):
        return ", ".join(p.name for p in self.params) or "none"

    def size(self):
        """The number of points of the grid."""
        n = 1
        for p in self.params:
            n *= len(p.grid())
        return n

    def suggest(self, trial):
        """{name: value} for one Optuna trial."""
        return {p.name: p.suggest(trial) for p in self.params}

    def values_of(self, optuna_params):
        """{name: value} of a stored trial's Optuna parameters."""
        return {p.name: p.from_optuna(optuna_params[p.name]) for p in self.params
                if p.name in optuna_params}

    def optuna_params(self, values):
        """The Optuna parameters of {name: value}."""
        return {name: self[name].to_optuna(v) for name, v in values.items()}

    def grid(self):
        """GridSampler's search space."""
        return {p.name: p.grid() for p in self.params}

    def tune_args(self, values):
        """The harness's arguments for these values."""
        out = []
        for name, v in sorted(values.items()):
            out += ["--tune", f"{name}={v}"]
        return out

    def hook_commands(self, values, trial):
        """Each TuneHook's command with {name} replaced by the trial's values (shell-quoted) and
        {trial} by its number; a setting the values leave out (the defaults' runs) by the
        config's own value."""
        out = []
        for h in self.hooks:
            def put(m):
                name = m.group(1)
                if name.lower() == "trial":
                    return str(trial)
                for key in (name, "Hook:" + name):
                    for p in self.params:
                        if p.name.lower() != key.lower():
                            continue
                        value = values.get(p.name) or next(
                            (u["default"] for u in p.uses if u.get("default")), None)
                        if value is not None:
                            return shlex.quote(str(value))
                raise SpaceError(f"TuneHook {h['command']!r}: no value for {{{name}}} (the "
                                 "config sets none: give it with --defaults)")
            out.append(re.sub(r"\{([^{}]+)\}", put, h["command"]))
        return out

    def config_text(self, values, header=""):
        """The settings as config lines ready to paste: global ones first, then each block's
        own under a comment naming it; Hook: values, and settings that cannot act (romio.py:
        hints, Collective and FileView under Interface posix, collective buffering under
        Collective off), as comments."""
        lines = [header] if header else []
        iface = str(values.get("Interface", "")).lower()
        coll = str(values.get("Collective", "")).lower()
        glob = [p for p in self.params if p.global_ and p.name in values]
        for p in glob:
            line = p.config_line(values[p.name])
            why = romio.setting_no_effect(p.name, iface, coll)
            if why:  # said, not recommended: the value cannot have mattered
                line = f"# {line}: {why}"
            lines.append(line if line else f"# {p.name} {values[p.name]}: applied by TuneHook")
        by_block = {}
        for p in self.params:
            if p.global_ or p.name not in values:
                continue
            for u in p.uses:
                by_block.setdefault(u["block"], []).append(p.config_line(values[p.name]))
        for block, block_lines in by_block.items():
            lines.append(f"# inside the <ap_module> block {block}:")
            lines += [f"  {x}" for x in block_lines if x]
        return "\n".join(lines) + "\n"


def load(path):
    """Reads the space the harness wrote."""
    try:
        with open(path, encoding="utf-8") as f:
            return Space(json.load(f), path)
    except (OSError, ValueError) as e:
        raise SpaceError(f"{path}: {e}") from e
