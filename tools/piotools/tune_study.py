"""pio-tune's search (docs/guides/tuning.md): an Optuna study over the harness's space (TPE by
default, random or grid), stored in SQLite beside the trials' results so that an interrupted search
resumes where it stopped; each trial an ordinary pio-harness run; a trial clearly worse than
the best after its first tests stopped (pruned); a trial whose hook or run fails is a failed
trial, not a failed study. Then the best candidates are re-run interleaved with the defaults
(tune_confirm) and judged with pio-compare's statistics (tune_verdict)."""
import math
import os
import time
import warnings

import optuna
from optuna.trial import TrialState

from . import tune_objective

STUDY = "pio-tune"
# Optuna's trial states as the trials table writes them.
STATE_TEXT = {TrialState.COMPLETE: "complete", TrialState.PRUNED: "pruned",
              TrialState.FAIL: "failed", TrialState.RUNNING: "running",
              TrialState.WAITING: "waiting"}


class StudyError(Exception):
    """A study that cannot be started or resumed as asked."""


class TrialFailed(Exception):
    """A trial that measured nothing usable (its hook or its run failed)."""


def make_sampler(name, space, seed=None, startup=5, multivariate=True):
    """tpe (default), random or grid, seeded. TPE models the settings jointly (Optuna's
    multivariate TPE): a hint matters only under some interface and call style, and on a
    recorded grid the joint model found the best point in half the trials of the independent
    one, which missed it in a quarter of the seeds (docs/measurements/tuning.md, "Search
    efficiency")."""
    if name == "tpe":
        with warnings.catch_warnings():  # Optuna 3.1 calls multivariate experimental
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            return optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup,
                                              multivariate=multivariate)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    if name == "grid":
        return optuna.samplers.GridSampler(space.grid(), seed=seed)
    raise StudyError(f"sampler {name!r}: choose tpe, random or grid")


def space_signature(space):
    """What must not change between a study and its resumption: every dimension's domain."""
    return [[p.name, p.kind, p.domain_text()] for p in space.params]


def open_study(path, space, sampler, resume, prune_ratio, storage_url=None):
    """Creates the study in `path` (an SQLite file), or with `resume` loads it; refuses to
    resume a study of another space, or to start over an existing one."""
    url = storage_url or f"sqlite:///{os.path.abspath(path)}"
    exists = storage_url is not None or os.path.exists(path)
    pruner = optuna.pruners.ThresholdPruner(lower=prune_ratio)
    if resume:
        if not exists:
            raise StudyError(f"{path}: no study to resume (run without --resume to start one)")
        try:
            study = optuna.load_study(study_name=STUDY, storage=url, sampler=sampler,
                                      pruner=pruner)
        except KeyError as e:
            raise StudyError(f"{path}: holds no pio-tune study") from e
        if study.user_attrs.get("space") != space_signature(space):
            raise StudyError(f"{path}: the study searched another space "
                             f"({study.user_attrs.get('space')}); the config now declares "
                             f"{space_signature(space)}: start a new study in another "
                             "directory (-o)")
        return study
    if exists:
        raise StudyError(f"{path} exists: resume it with --resume, or give another -o directory")
    study = optuna.create_study(study_name=STUDY, storage=url, sampler=sampler, pruner=pruner,
                                direction="maximize")
    study.set_user_attr("space", space_signature(space))
    study.set_user_attr("used_s", 0.0)
    return study


def recover_interrupted(study, space):
    """Trials an interruption left running or failed are marked failed ("interrupted") and
    their values queued again, once (the study's "requeued" list): completed trials are never
    repeated. Returns how many were queued."""
    requeued = list(study.user_attrs.get("requeued", []))
    queued = 0
    for t in study.get_trials(deepcopy=False):
        if t.number in requeued:
            continue
        if t.state == TrialState.RUNNING:  # the process died with it: marked while updatable
            study._storage.set_trial_user_attr(t._trial_id, "interrupted", True)
            study._storage.set_trial_state_values(t._trial_id, TrialState.FAIL)
        elif not (t.state == TrialState.FAIL and t.user_attrs.get("interrupted")):
            continue
        requeued.append(t.number)
        if t.params:
            study.enqueue_trial(t.params, skip_if_exists=False)
            queued += 1
    study.set_user_attr("requeued", requeued)
    return queued


def probe_defaults(study, runner, objective, defaults_values):
    """One run of the defaults (the config as written) before the first trial, once per study:
    how long the confirmation's defaults runs take (the budget keeps that time for them) and
    what the search has to beat. Kept in the study's "defaults" attribute."""
    probe = study.user_attrs.get("defaults")
    if probe:
        return probe
    started = time.monotonic()
    run = runner.run(dict(defaults_values or {}), "defaults-probe", -1)
    probe = {"seconds": run.seconds, "results": run.path, "error": run.error}
    if run.ok:
        try:
            probe["value"] = objective.value(run.doc)
        except tune_objective.ObjectiveError as e:
            probe["error"] = str(e)
    study.set_user_attr("defaults", probe)
    study.set_user_attr("used_s", study.user_attrs.get("used_s", 0.0) + time.monotonic() - started)
    return probe


class Search:
    """The search loop: one trial at a time while the budget lasts."""

    def __init__(self, study, space, objective, runner, prune_after=3, log=print,
                 trial_timeout=None):
        self.study, self.space, self.objective, self.runner = study, space, objective, runner
        self.prune_after, self.log = prune_after, log
        self.trial_timeout = trial_timeout  # seconds a trial may run before it is stopped

    def completed(self):
        return self.study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))

    def reference(self):
        """The best completed trial's value per test (what a running trial is held against)
        and its steps (objective.steps), once enough trials have completed; None before."""
        done = self.completed()
        if len(done) < self.prune_after:
            return None
        best = max(done, key=lambda t: t.value)
        return best.user_attrs.get("tests"), best.user_attrs.get("steps", 0)

    def run_seconds(self, quantile=0.5):
        """A quantile of the completed runs' durations so far (0 before any)."""
        secs = sorted(t.user_attrs.get("run", {}).get("seconds", 0) for t in self.completed())
        return secs[min(len(secs) - 1, int(quantile * len(secs)))] if secs else 0.0

    def objective_fn(self, trial):
        values = self.space.suggest(trial)
        trial.set_user_attr("values", values)
        reference = self.reference()
        last = [0]

        def watch(doc):
            if not reference:
                return False
            step, rel = self.objective.relative(doc, reference[0])
            # The last step is the whole run: nothing is saved by stopping it.
            if rel is None or step <= last[0] or step >= reference[1]:
                return False
            last[0] = step
            trial.report(rel, step)
            return trial.should_prune()

        try:
            run = self.runner.run(values, f"trial-{trial.number:04d}", trial.number, watch,
                                  self.trial_timeout)
        except KeyboardInterrupt:
            trial.set_user_attr("interrupted", True)
            raise
        trial.set_user_attr("run", run.record())
        if run.stopped:
            why = (f"ran longer than {self.trial_timeout:.0f} s" if run.timed_out
                   else f"after {last[0]} test(s)")
            self.log(f"trial {trial.number}: pruned ({why}): {self.describe(values)}")
            raise optuna.TrialPruned()
        if run.error:
            self.log(f"trial {trial.number}: failed: {run.error}")
            raise TrialFailed(run.error)
        try:
            tests = self.objective.test_values(run.doc)
            value = self.objective.combine(tests)
        except tune_objective.ObjectiveError as e:
            self.log(f"trial {trial.number}: failed: {e}")
            raise TrialFailed(str(e)) from e
        trial.set_user_attr("tests", tests)
        trial.set_user_attr("steps", self.objective.steps(run.doc))
        self.log(f"trial {trial.number}: {value:.4g} ({run.seconds:.1f} s): "
                 f"{self.describe(values)}")
        return value

    def describe(self, values):
        return " ".join(f"{k}={v}" for k, v in values.items())

    def exhausted(self):
        """A grid whose every point has been tried (not counting interrupted trials)."""
        if not isinstance(self.study.sampler, optuna.samplers.GridSampler):
            return False
        tried = [t for t in self.study.get_trials(deepcopy=False)
                 if t.state in (TrialState.COMPLETE, TrialState.PRUNED) or
                 (t.state == TrialState.FAIL and not t.user_attrs.get("interrupted"))]
        return len(tried) >= self.space.size()

    def run(self, deadline, max_trials=None, reserve=lambda run_s: 0.0):
        """Trials until `max_trials` (counting those of earlier sessions) or until the next
        one would not end before `deadline` (time.monotonic()) less `reserve(run_s)`, the time
        kept for the confirmation, given the slowest tenth of the trials' durations (the
        candidates are the trials that ran). Time spent is added to the study's used_s."""
        started = time.monotonic()
        try:
            while True:
                n = len([t for t in self.study.get_trials(deepcopy=False, states=(
                    TrialState.COMPLETE, TrialState.PRUNED, TrialState.FAIL))
                    if not t.user_attrs.get("interrupted")])
                if max_trials is not None and n >= max_trials:
                    return "trials"
                if self.exhausted():
                    return "grid"
                run_s = self.run_seconds()
                if time.monotonic() + run_s + reserve(self.run_seconds(0.9)) > deadline:
                    return "budget"
                self.study.optimize(self.objective_fn, n_trials=1, catch=(TrialFailed,),
                                    gc_after_trial=False)
        finally:
            used = self.study.user_attrs.get("used_s", 0.0) + time.monotonic() - started
            self.study.set_user_attr("used_s", used)


def importances(study, seed=0):
    """Optuna's parameter importances (fANOVA, seeded) over the completed trials; {} when they
    cannot be computed (fewer than two completed trials, or one value only)."""
    try:
        return dict(optuna.importance.get_param_importances(
            study, evaluator=optuna.importance.FanovaImportanceEvaluator(seed=seed)))
    except (RuntimeError, ValueError, ZeroDivisionError):
        return {}


def trial_rows(study, space, start=None):
    """One row per trial: number, state, value, seconds since the study's first trial, the
    values, the results file and the failure if any."""
    rows = []
    trials = study.get_trials(deepcopy=False)
    t0 = min((t.datetime_start for t in trials if t.datetime_start), default=None)
    for t in trials:
        run = t.user_attrs.get("run") or {}
        values = t.user_attrs.get("values") or space.values_of(t.params)
        rows.append({
            "trial": t.number, "state": STATE_TEXT.get(t.state, str(t.state)),
            "interrupted": bool(t.user_attrs.get("interrupted")),
            "value": t.value if t.value is not None and math.isfinite(t.value) else None,
            "started_s": (t.datetime_start - t0).total_seconds() if t0 and t.datetime_start
            else None,
            "seconds": run.get("seconds"), "values": values, "results": run.get("results"),
            "error": run.get("error") or "", "hooks": run.get("hooks") or [],
            "intermediate": {str(k): v for k, v in t.intermediate_values.items()}})
    return rows


def candidates(study, space, k):
    """The k best completed trials with distinct values, best first: [(trial, values)]."""
    out, seen = [], set()
    for t in sorted(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)),
                    key=lambda t: -t.value):
        values = t.user_attrs.get("values") or space.values_of(t.params)
        key = tuple(sorted(values.items()))
        if key in seen:
            continue
        seen.add(key)
        out.append((t, values))
        if len(out) == k:
            break
    return out
