"""tools/pio-nightly, the regression job of docs/regression.md, run as written from an empty
directory, night after night, against recorded runs of docs/examples/nightly.conf on this
machine (data/nightly/: a1-a4 the same config, slow1 the same under two CPU hogs, ext4 the test
file on ext4 instead of tmpfs; lab-ext4-*: docs/examples/fslab-nightly.conf on the lab's ext4
with data=ordered and data=journal). A stand-in for mpiexec + pio-harness copies the night's
recorded run to the results path, refusing an existing file as the harness does."""
import os
import re
import subprocess

import pytest

from conftest import DATA, TOOLS

NIGHTLY = os.path.join(TOOLS, "pio-nightly")
REPO = os.path.dirname(TOOLS)

FAKE_HARNESS = """#!/bin/sh
# pio-harness -c CONFIG -r RESULTS: copies $NIGHT_RUN to RESULTS (exit $NIGHT_RC)
while [ "$#" -gt 0 ]; do [ "$1" = -r ] && out=$2; shift; done
[ -e "$out" ] && { echo "pio-harness: error: results file $out exists" >&2; exit 2; }
[ "${NIGHT_RC:-0}" -eq 0 ] || exit "$NIGHT_RC"
cp "$NIGHT_RUN" "$out"
"""


@pytest.fixture
def night(tmp_path):
    fake = tmp_path / "fake-harness"
    fake.write_text(FAKE_HARNESS)
    fake.chmod(0o755)
    conf = tmp_path / "site.conf"
    conf.write_text("# the recorded runs stand in for this config\n")
    job = tmp_path / "job"  # does not exist yet: the job creates it with runs/ and baseline/

    def run(recorded, rc=0, **env):
        e = dict(os.environ, MPIEXEC="env", PIO_HARNESS=str(fake),
                 PIO_COMPARE=os.path.join(TOOLS, "pio-compare"),
                 NIGHT_RUN=os.path.join(DATA, "nightly", recorded), NIGHT_RC=str(rc), **env)
        p = subprocess.run([NIGHTLY, str(conf), str(job)], capture_output=True, text=True,
                           env=e, check=False, timeout=120)
        return p.returncode, p.stdout + p.stderr

    run.job = job
    return run


def listing(d):
    return sorted(os.listdir(d))


def test_the_job_seeds_accepts_and_rejects_and_never_poisons_its_baseline(night):
    code, out = night("a1.json")
    assert code == 0, out
    assert "first night: baseline/ seeded with runs/" in out
    assert len(listing(night.job / "baseline")) == 1 and len(listing(night.job / "runs")) == 2
    for n in ("a2.json", "a3.json"):
        code, out = night(n)
        assert code == 0, out  # the same config on the same machine: A/A accepted
        assert "accepted: runs/" in out
    good = listing(night.job / "baseline")
    assert len(good) == 3

    code, out = night("slow1.json")  # two CPU hogs on the two cores: I/O about 2x slower
    assert code == 1, out
    assert re.search(r"^regression .*bandwidth_MiBps", out, re.M)
    assert "REGRESSION: runs/" in out and "is not added to baseline/" in out
    assert listing(night.job / "baseline") == good

    code, out = night("ext4.json")  # the test file moved from tmpfs to ext4
    assert code == 3, out
    assert "not comparable: file_system differs: baseline tmpfs, candidate ext4" in out
    assert "NOT COMPARABLE: runs/" in out
    assert listing(night.job / "baseline") == good

    code, out = night("a4.json", rc=1)  # the run itself failed
    assert code == 2, out
    assert "the run failed (exit 1)" in out
    assert listing(night.job / "baseline") == good

    code, out = night("a4.json", KEEP="3")
    assert code == 0, out
    kept = listing(night.job / "baseline")
    assert len(kept) == 3 and kept[:2] == good[1:]  # the oldest good run makes room

    # Seven nights, six results files (the failed night left none), none overwritten; each
    # night's comparison is kept beside its run, and the history has the runs that completed.
    runs = [n for n in listing(night.job / "runs") if n.endswith(".json")]
    assert len(runs) == 6
    assert len([n for n in listing(night.job / "runs") if n.endswith(".compare.txt")]) == 6
    assert (night.job / "history.sqlite").exists()


def test_two_runs_in_the_same_second_do_not_collide(night, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "date").write_text("#!/bin/sh\necho 2026-11-24T010203Z\n")
    (bin_dir / "date").chmod(0o755)
    path = f"{bin_dir}:{os.environ['PATH']}"
    assert night("a1.json", PATH=path)[0] == 0
    code, out = night("a2.json", PATH=path)
    assert code == 0, out
    assert listing(night.job / "runs") == [
        "2026-11-24T010203Z.compare.txt", "2026-11-24T010203Z.json",
        "2026-11-24T010203Z_2.compare.txt", "2026-11-24T010203Z_2.json"]
    # The later run sorts after the earlier one, so KEEP removes the older first.
    assert listing(night.job / "baseline") == ["2026-11-24T010203Z.json",
                                               "2026-11-24T010203Z_2.json"]


def test_a_failed_test_never_seeds_the_baseline(night, tmp_path):
    import json
    doc = json.load(open(os.path.join(DATA, "nightly", "a1.json")))
    doc["modules"][0]["tests"][0]["error"] = {"rank": 1, "message": "No space left on device"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, out = night(str(bad))
    assert code == 1, out
    assert "failed in candidate: " in out and "No space left on device" in out
    assert listing(night.job / "baseline") == []


def test_a_changed_mount_option_is_a_night_not_compared(night):
    # Two nights of docs/examples/fslab-nightly.conf from the file-system lab (tools/pio-fslab):
    # ext4 with data=ordered, then the same config after the file system came back with
    # data=journal. The file-system configuration is more than the type (docs/regression.md).
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
    assert code in (0, 1), out  # compared: a verdict per test
    assert "not comparable" not in out


def test_bad_usage_exits_2(tmp_path):
    p = subprocess.run([NIGHTLY, str(tmp_path / "missing.conf")], capture_output=True,
                       text=True, check=False)
    assert p.returncode == 2 and "usage: pio-nightly CONFIG" in p.stderr


def test_the_documented_job_is_this_script():
    doc = open(os.path.join(REPO, "docs", "regression.md"), encoding="utf-8").read()
    script = open(NIGHTLY, encoding="utf-8").read()
    assert "```sh\n" + script + "```" in doc
