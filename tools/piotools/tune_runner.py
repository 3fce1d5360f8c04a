"""Running one trial of pio-tune: its TuneHook commands, then an ordinary pio-harness run of the
workload with the trial's values (--tune NAME=VALUE), whose results file is kept like any run.
While the harness runs, its results file (rewritten after each test) is read so that a trial
clearly worse than the best so far can be stopped after its first repetitions (pruning)."""
import os
import shlex
import signal
import subprocess
import time

from . import results, tune_space


class Run:
    """What one harness run left: its results (None if it wrote none), exit code, log, hooks."""

    def __init__(self, path, log):
        self.path, self.log = path, log
        self.doc = None
        self.exit_code = None
        self.error = ""  # why the run is no measurement ("" = it is one)
        self.hooks = []  # [{"command", "exit_code", "output"}]
        self.seconds = 0.0
        self.stopped = False  # pruned: stopped early on purpose
        self.timed_out = False  # stopped because it ran longer than its time limit

    @property
    def ok(self):
        return not self.error and not self.stopped and self.doc is not None

    def record(self):
        """What the study keeps of the run (Optuna user attributes, the summary)."""
        return {"results": self.path, "log": self.log, "exit_code": self.exit_code,
                "error": self.error, "hooks": self.hooks, "seconds": round(self.seconds, 3),
                "stopped": self.stopped, "timed_out": self.timed_out}


def last_lines(path, n=3):
    """The last n non-empty lines of a log (for messages)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [x.rstrip() for x in f if x.strip()]
    except OSError:
        return ""
    return " | ".join(lines[-n:])


class HarnessRunner:
    """Runs the workload `config` under `mpiexec` (a list of words, e.g. ["mpiexec", "-n", "2"])
    with `harness` (pio-harness), each run's results and log under `outdir`."""

    def __init__(self, config, outdir, mpiexec=("mpiexec", "-n", "2"), harness="pio-harness",
                 harness_args=(), env=None, poll_s=0.5, hook_timeout_s=600):
        self.config, self.outdir = config, outdir
        self.mpiexec, self.harness = list(mpiexec), harness
        self.harness_args = list(harness_args)
        self.env = env
        self.poll_s, self.hook_timeout_s = poll_s, hook_timeout_s
        self.space = None

    def command(self, extra):
        return self.mpiexec + [self.harness, "-c", self.config] + self.harness_args + extra

    def read_space(self):
        """Has the harness check the config and print its space (--check --tune-space)."""
        os.makedirs(self.outdir, exist_ok=True)
        path = os.path.join(self.outdir, "space.json")
        cmd = self.command(["--check", "--tune-space", path, "--quiet"])
        p = subprocess.run(cmd, capture_output=True, text=True, env=self.env)
        if p.returncode != 0:
            raise tune_space.SpaceError(
                f"pio-harness refused the config (exit {p.returncode}): "
                f"{p.stderr.strip() or p.stdout.strip()}\n  command: {shlex.join(cmd)}")
        self.space = tune_space.load(path)
        return self.space

    def run_hooks(self, values, trial, run):
        """The TuneHook commands in order; False (and run.error) at the first that fails."""
        for cmd in self.space.hook_commands(values, trial) if self.space else []:
            try:
                p = subprocess.run(cmd, shell=True, capture_output=True, text=True,
                                   timeout=self.hook_timeout_s, env=self.env)
                code, out = p.returncode, (p.stdout + p.stderr)[-4000:]
            except subprocess.TimeoutExpired as e:
                code, out = -1, f"timed out after {self.hook_timeout_s} s: {e}"
            run.hooks.append({"command": cmd, "exit_code": code, "output": out})
            if code != 0:
                run.error = f"TuneHook {cmd!r} exited with {code}: {out.strip()[-300:]}"
                return False
        return True

    def run(self, values, name, trial=0, watch=None, timeout_s=None):
        """One run with `values` ({name: value}; {} = the config as written), results in
        outdir/name.json. `watch(doc)` is called with the results as they grow; when it returns
        True, or the run has taken `timeout_s`, the run is stopped (the process group gets
        SIGTERM; the harness marks its results interrupted)."""
        os.makedirs(self.outdir, exist_ok=True)
        path = os.path.join(self.outdir, name + ".json")
        run = Run(path, os.path.join(self.outdir, name + ".log"))
        start = time.monotonic()
        try:
            if not self.run_hooks(values, trial, run):
                return run
            tune = self.space.tune_args(values) if self.space else []
            cmd = self.command(["-r", path, "--quiet"] + tune)
            with open(run.log, "w", encoding="utf-8") as log:
                log.write("$ " + shlex.join(cmd) + "\n")
                log.flush()
                proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True, env=self.env)
                try:
                    run.exit_code = self.wait(proc, path, watch, run, timeout_s)
                except BaseException:
                    self.stop(proc)
                    raise
            if os.path.exists(path):
                try:
                    run.doc = results.load(path)
                except results.ResultsError as e:
                    run.error = f"unreadable results: {e}"
            if run.stopped:
                return run
            if run.exit_code != 0 and not run.error:
                run.error = f"pio-harness exited with {run.exit_code}: {last_lines(run.log)}"
            elif run.doc is None and not run.error:
                run.error = "pio-harness wrote no results"
            return run
        finally:
            run.seconds = time.monotonic() - start

    def wait(self, proc, path, watch, run, timeout_s=None):
        seen = None
        start = time.monotonic()
        while True:
            try:
                return proc.wait(timeout=self.poll_s)
            except subprocess.TimeoutExpired:
                pass
            if timeout_s is not None and time.monotonic() - start > timeout_s:
                run.stopped = run.timed_out = True
                self.stop(proc)
                return proc.wait()
            if watch is None or not os.path.exists(path):
                continue
            stamp = os.stat(path).st_mtime_ns
            if stamp == seen:
                continue
            seen = stamp
            try:
                doc = results.load(path)
            except results.ResultsError:
                continue  # being replaced: read it next time
            if watch(doc):
                run.stopped = True
                self.stop(proc)
                return proc.wait()

    @staticmethod
    def stop(proc):
        """SIGTERM to the run's process group (mpiexec and its ranks), SIGKILL after 20 s."""
        if proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        except ProcessLookupError:
            pass
