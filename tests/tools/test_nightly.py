"""tools/pio-nightly, the regression job of docs/guides/regression.md, run as written from an empty
directory, night after night. A stand-in for mpiexec + pio-harness copies the night's results
document to the results path, refusing an existing file as the harness does; the nights are
synthetic runs of three tests with a known level and noise, or, where said, recorded runs
(data/nightly/: a1-a4 of docs/examples/nightly.conf at load 13-19; lab-ext4-*:
docs/examples/fslab-nightly.conf on the lab's ext4 with data=ordered and data=journal)."""
import json
import os
import signal
import subprocess
import time

import pytest

from conftest import DATA, TOOLS, make_doc, scaled

NIGHTLY = os.path.join(TOOLS, "pio-nightly")
REPO = os.path.dirname(TOOLS)

FAKE_HARNESS = """#!/bin/sh
# pio-harness -c CONFIG -r RESULTS: copies $NIGHT_RUN to RESULTS (exit $NIGHT_RC)
while [ "$#" -gt 0 ]; do [ "$1" = -r ] && out=$2; shift; done
[ -e "$out" ] && { echo "pio-harness: error: results file $out exists" >&2; exit 2; }
[ "${NIGHT_RC:-0}" -eq 0 ] || exit "$NIGHT_RC"
cp "$NIGHT_RUN" "$out"
"""

# A harness that writes "running", says it started, and runs until a signal; on SIGINT it marks
# its results "interrupted" as pio-harness does (results_mark) and exits 130.
SLOW_HARNESS = """#!/usr/bin/python3
import json, os, signal, sys, time
out = sys.argv[sys.argv.index("-r") + 1]
doc = json.load(open(os.environ["NIGHT_RUN"]))
doc["status"], doc["exit_code"] = "running", None
json.dump(doc, open(out, "w"))
def stop(sig, frame):
    doc.update(status="interrupted", exit_code=128 + sig, signal=signal.Signals(sig).name)
    json.dump(doc, open(out, "w"))
    sys.exit(128 + sig)
signal.signal(signal.SIGINT, stop)
with open(os.environ["NIGHT_STARTED"], "w") as f:
    f.write(str(os.getpid()))
time.sleep(120)
"""

TESTS = {("simple_strided", f"S{mode}", "1M", mode, 1 << 20): [v * f for f in
                                                                (1.0, 1.005, 0.995, 1.002, 0.998)]
         for mode, v in (("write", 500.0), ("read", 2000.0), ("re-read", 3000.0))}
# The reference nights: the level moves by +-2 % from night to night.
LEVELS = (1.0, 1.02, 0.98)


@pytest.fixture
def night(tmp_path):
    fakes = {}
    for name, text in (("fake", FAKE_HARNESS), ("slow", SLOW_HARNESS)):
        fakes[name] = tmp_path / f"{name}-harness"
        fakes[name].write_text(text)
        fakes[name].chmod(0o755)
    conf = tmp_path / "site.conf"
    conf.write_text("# the recorded runs stand in for this config\n")
    job = tmp_path / "job"  # does not exist yet: the job creates it with runs/ and baseline/
    made = tmp_path / "nights"
    made.mkdir()

    def doc_path(recorded):
        if isinstance(recorded, dict):
            p = made / f"n{len(os.listdir(made))}.json"
            p.write_text(json.dumps(recorded))
            return str(p)
        return os.path.join(DATA, "nightly", recorded)

    def env(recorded, rc=0, harness="fake", **extra):
        return dict(os.environ, MPIEXEC="env", PIO_HARNESS=str(fakes[harness]),
                    PIO_COMPARE=os.path.join(TOOLS, "pio-compare"),
                    NIGHT_RUN=doc_path(recorded), NIGHT_RC=str(rc), **extra)

    def run(recorded, rc=0, **extra):
        p = subprocess.run([NIGHTLY, str(conf), str(job)], capture_output=True, text=True,
                           env=env(recorded, rc, **extra), check=False, timeout=120)
        return p.returncode, p.stdout + p.stderr

    run.job, run.conf, run.env = job, conf, env
    return run


def listing(d):
    return sorted(os.listdir(d))


NIGHTS = iter(range(100000))


def level(f, file_system="tmpfs", **extra):
    """A night at level f, with a date of its own (the history keys runs by date)."""
    n = next(NIGHTS)
    date = f"2026-11-{1 + n // 1440:02d}T{n // 60 % 24:02d}:{n % 60:02d}:00Z"
    return scaled(make_doc(TESTS, file_system=file_system, date=date, **extra), f)


def comparison(job):
    """The newest night's saved comparison."""
    last = sorted(n for n in os.listdir(job / "runs") if n.endswith(".compare.json"))[-1]
    return json.loads((job / "runs" / last).read_text())


def seed(night, **env):
    for i, f in enumerate(LEVELS):
        code, out = night(level(f), KEEP="3", **env)
        assert code == 0, out
        assert (f"{'first night: baseline/ seeded' if i == 0 else 'seeding: runs/'}" in out)
        assert f"({i + 1} of 3)" in out
    return listing(night.job / "baseline")


def test_the_job_seeds_then_holds_its_baseline_and_never_poisons_it(night):
    env = {"COMPARE_ARGS": "--threshold 20%"}
    good = seed(night, **env)
    assert len(good) == 3

    code, out = night(level(1.01), KEEP="3", **env)  # the same system: no regression
    assert code == 0, out
    assert "accepted: no regression in runs/" in out and "baseline/ keeps its 3 nights" in out
    assert "3 tests: 3 no significant change" in out

    code, out = night(level(0.5), KEEP="3", **env)  # twice as slow
    assert code == 1, out
    assert "3 tests: 3 regression" in out
    assert "REGRESSION: runs/" in out and "is not added to baseline/" in out

    code, out = night(level(1.0, file_system="ext4"), KEEP="3", **env)
    assert code == 3, out
    assert "not comparable: file_system differs: baseline tmpfs, candidate ext4" in out
    assert "NOT COMPARABLE: runs/" in out

    code, out = night(level(1.0), rc=1, KEEP="3", **env)  # the run itself failed
    assert code == 2, out
    assert "the run failed (exit 1)" in out

    flagged = level(1.0)
    flagged["modules"][1]["tests"][0]["flags"] = [
        {"flag": "page_cache", "reason": "97% of the bytes read were resident in the page cache"}]
    code, out = night(flagged, KEEP="3", **env)
    assert code == 6, out
    assert "flagged: Sread / 1M: no verdict on a flagged test: page_cache (candidate)" in out
    assert "FLAGGED: runs/" in out

    code, out = night(level(1.0), KEEP="3")  # the default 5 %: these 3 nights cannot show it
    assert code == 5, out
    assert "cannot show a change of 5% at alpha 0.05 over 3 tests" in out
    assert "INCONCLUSIVE: the 3 nights of baseline/ vary too much" in out

    assert listing(night.job / "baseline") == good
    # Nine nights, eight results files (the failed night left none), none overwritten; each
    # compared night's comparison kept beside it, the history with each night's verdict.
    runs = listing(night.job / "runs")
    assert len([n for n in runs if n.endswith(".compare.txt")]) == 8
    assert len([n for n in runs if n.endswith(".compare.json")]) == 8
    from piotools import history
    nights = history.nights(history.open_db(str(night.job / "history.sqlite")))
    assert [n["verdict"] for n in nights] == [
        "first night", "no regression", "inconclusive", "no regression", "regression",
        "not comparable", "flagged", "inconclusive"]
    assert nights[4]["tests"] == {"regression": 3}


def test_accepted_nights_never_widen_the_noise_nor_move_the_level(night):
    """The ratchet: a baseline that took every accepted night grew its spread with each outlier
    until nothing was a regression. Here the reference nights stay; accepted nights far from
    them change neither the noise the gate uses nor its level, and a slowdown is still caught."""
    env = {"COMPARE_ARGS": "--threshold 20%"}
    good = seed(night, **env)
    first = None
    for f in (0.88, 1.12, 0.9):
        code, out = night(level(f), KEEP="3", **env)
        assert code == 0, out
        rows = comparison(night.job)["rows"]
        noise = [(r["detectable"], r["median_baseline"]) for r in rows]
        first = first or noise
        assert noise == first
    assert listing(night.job / "baseline") == good
    code, out = night(level(0.75), KEEP="3", **env)
    assert code == 1, out


def test_a_seeding_night_with_a_flag_allowed_in_the_comparison_still_stays_out(night):
    env = {"COMPARE_ARGS": "--threshold 20% --allow warm_up"}
    assert night(level(1.0), KEEP="3", **env)[0] == 0
    warm = level(1.01)
    warm["modules"][0]["tests"][0]["reps"][0]["flags"] = [
        {"flag": "warm_up", "reason": "1.8x slower than the other repetitions"}]
    code, out = night(warm, KEEP="3", **env)
    assert code == 6, out
    assert "flagged: Swrite / 1M: warm_up: repetition 1: 1.8x slower" in out
    assert "is not added to baseline/ (a baseline never takes a flagged run" in out
    assert len(listing(night.job / "baseline")) == 1


def test_a_job_that_allows_page_cache_seeds_with_it(night):
    # On tmpfs every read is from memory (page_cache): the job allows it, or it never seeds.
    def cached(f):
        d = level(f)
        d["modules"][1]["tests"][0]["flags"] = [
            {"flag": "page_cache", "reason": "100 % of the 16 MiB read was in the page cache"}]
        return d
    code, out = night(cached(1.0), KEEP="2")
    assert code == 6, out
    assert listing(night.job / "baseline") == []
    env = {"COMPARE_ARGS": "--threshold 20% --allow page_cache"}
    for f in (1.0, 1.02):
        code, out = night(cached(f), KEEP="2", **env)
        assert code == 0, out
    assert len(listing(night.job / "baseline")) == 2
    code, out = night(cached(0.5), KEEP="2", **env)
    assert code == 1, out  # and its verdicts still catch a slowdown


def test_an_interrupted_or_unfinished_run_never_seeds_a_baseline(night):
    cut = level(1.0, status="interrupted", exit_code=130, signal="SIGINT")
    code, out = night(cut)  # a harness that marked its results but exited 0
    assert code == 2, out
    assert "the run did not complete (status interrupted" in out
    assert listing(night.job / "baseline") == []


def test_ctrl_c_in_the_terminal_stops_the_job_and_its_run(night, tmp_path):
    """A terminal's Ctrl-C signals the job's whole foreground process group: the job stops, its
    run stops and marks its results interrupted, nothing is compared, baseline/ is untouched."""
    assert night(level(1.0))[0] == 0
    before = listing(night.job / "baseline")
    started = tmp_path / "started"
    p = subprocess.Popen([NIGHTLY, str(night.conf), str(night.job)], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True,
                         env=night.env(level(1.0), harness="slow", NIGHT_STARTED=str(started)))
    harness_pid = None
    try:
        end = time.time() + 60
        while not (started.exists() and started.read_text()) and time.time() < end:
            time.sleep(0.05)
        harness_pid = int(started.read_text())
        os.killpg(p.pid, signal.SIGINT)  # what the terminal does
        out, _ = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        if harness_pid and os.path.exists(f"/proc/{harness_pid}"):
            os.kill(harness_pid, signal.SIGKILL)
    assert p.returncode == 130, out
    assert not os.path.exists(f"/proc/{harness_pid}"), "the run survived the job's Ctrl-C"
    assert "pio-nightly: interrupted (SIGINT): runs/" in out
    assert "status interrupted (exit code 130, signal SIGINT): the run did not complete" in out
    runs = [n for n in listing(night.job / "runs") if n.endswith(".json")
            and not n.endswith(".compare.json")]
    assert len(runs) == 2
    cut = json.loads((night.job / "runs" / runs[-1]).read_text())
    assert (cut["status"], cut["signal"]) == ("interrupted", "SIGINT")
    assert not (night.job / "runs" / (runs[-1][:-5] + ".compare.txt")).exists()
    assert listing(night.job / "baseline") == before


def test_two_runs_in_the_same_second_do_not_collide(night, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "date").write_text("#!/bin/sh\necho 2026-11-24T010203Z\n")
    (bin_dir / "date").chmod(0o755)
    path = f"{bin_dir}:{os.environ['PATH']}"
    assert night(level(1.0), PATH=path)[0] == 0
    code, out = night(level(1.0), PATH=path, COMPARE_ARGS="--threshold 20%")
    assert code == 0, out
    assert listing(night.job / "runs") == [
        "2026-11-24T010203Z.compare.json", "2026-11-24T010203Z.compare.txt",
        "2026-11-24T010203Z.json", "2026-11-24T010203Z_2.compare.json",
        "2026-11-24T010203Z_2.compare.txt", "2026-11-24T010203Z_2.json"]
    assert listing(night.job / "baseline") == ["2026-11-24T010203Z.json",
                                               "2026-11-24T010203Z_2.json"]


def test_the_recorded_nights_of_a_loaded_machine_support_no_verdict(night):
    """The recorded runs (load 13-19) vary 2-10x within and between runs: once a1 seeded the
    baseline, a2 is a seeding night on which no test can support a verdict, and the job says so
    rather than "no significant change"."""
    code, out = night("a1.json", KEEP="3")
    assert code == 0, out
    code, out = night("a2.json", KEEP="3")
    assert code == 0, out
    assert "9 tests: 9 inconclusive" in out and "no significant change" not in out
    assert "seeding: runs/" in out and "(2 of 3)" in out


def test_a_changed_mount_option_is_a_night_not_compared(night):
    # Two nights of docs/examples/fslab-nightly.conf from the file-system lab (tools/pio-fslab):
    # ext4 with data=ordered, then the same config after the file system came back with
    # data=journal. The file-system configuration is more than the type (docs/guides/regression.md).
    code, out = night("lab-ext4-ordered.json")
    assert code == 0 and "first night: baseline/ seeded" in out, out
    good = listing(night.job / "baseline")
    code, out = night("lab-ext4-journal.json")
    assert code == 3, out
    assert ("not comparable: file_system differs: baseline ext4 (rw,relatime,data=ordered) on a "
            "loop device with direct I/O, candidate ext4 (rw,relatime,nodioread_nolock,"
            "nodelalloc,data=journal) on a loop device with direct I/O") in out
    assert "NOT COMPARABLE: runs/" in out
    assert listing(night.job / "baseline") == good
    code, out = night("lab-ext4-journal.json", COMPARE_ARGS="--allow file_system")
    # Compared: a verdict per test, or inconclusive against one baseline run's repetitions.
    assert code in (0, 1, 5), out
    assert "not comparable" not in out


def test_bad_usage_exits_2(tmp_path):
    p = subprocess.run([NIGHTLY, str(tmp_path / "missing.conf")], capture_output=True,
                       text=True, check=False)
    assert p.returncode == 2 and "usage: pio-nightly CONFIG" in p.stderr


def test_the_documented_job_is_this_script():
    doc = open(os.path.join(REPO, "docs", "guides", "regression.md"), encoding="utf-8").read()
    script = open(NIGHTLY, encoding="utf-8").read()
    assert "```sh\n" + script + "```" in doc
