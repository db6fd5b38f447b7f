"""The command line: each user error is one line and exit code 2; run/explain/cache end to end."""
import subprocess
import sys

import pytest

from claimbench.cli import main

SLUG = "ssd_duality"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "claimbench.cli", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("args,needle", [
    (["run", "ssd_dualty", "--grid", "smoke"], "unknown benchmark 'ssd_dualty': did you mean ssd_duality"),
    (["show", "nope"], "unknown benchmark 'nope'"),
    (["run", SLUG, "--grid", "quik"], "invalid choice: 'quik'"),
    (["run", SLUG, "--method", "ssm_recurence", "--grid", "smoke"], "unknown method 'ssm_recurence'"),
    (["run", SLUG, "--dataset", "ssm_seq", "--grid", "smoke"], "unknown dataset 'ssm_seq'"),
    (["run", SLUG, "--jobs", "0"], "argument --jobs/-j: '0' must be positive"),
    (["run", SLUG, "--seeds", "two"], "argument --seeds: 'two' is not a int"),
    (["run", SLUG, "--timeout", "-1"], "must be positive"),
    (["run"], "give benchmark slugs or --all"),
    (["run", SLUG, "--method", "missing.py:Foo"], "file 'missing.py' does not exist"),
    (["list", "--area", "atention"], "unknown area 'atention': did you mean attention"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["claims", SLUG, "--store", "/nonexistent/x.sqlite"], "no results store at"),
    (["claims", "--as", "ssd_dense"], "give exactly one benchmark slug"),
])
def test_user_errors_are_one_line_exit_2(args, needle, capsys):
    code = main(args)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert needle in err, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_user_error_through_the_real_entry_point():
    out = cli("run", "nope")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("error: unknown benchmark 'nope'")


def test_list_and_show(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert SLUG in out and "faithful" in out
    assert main(["show", SLUG]) == 0
    out = capsys.readouterr().out
    assert "claims:" in out and "grid smoke" in out


def test_list_does_not_import_heavy_packages():
    code = ("import sys; from claimbench.cli import main; main(['list']);"
            "heavy = [m for m in ('torch', 'scipy', 'pandas', 'matplotlib', 'sklearn', 'ot')"
            " if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout + out.stderr


def test_run_twice_second_is_cached_and_explain(tmp_path):
    store = str(tmp_path / "s.sqlite")
    first = cli("run", SLUG, "--grid", "smoke", "--store", store, "--jobs", "2")
    assert first.returncode == 0, first.stderr
    assert " 0 cached" in first.stdout
    second = cli("run", SLUG, "--grid", "smoke", "--store", store, "--explain")
    assert second.returncode == 0
    assert " 0 run," in second.stdout
    lines = [l for l in second.stdout.splitlines() if l.startswith(("run ", "skip"))]
    assert lines and all(l.startswith("skip") and "cached" in l for l in lines)
    claims = cli("claims", SLUG, "--store", store, "--format", "json")
    assert claims.returncode == 0 and '"verdict"' in claims.stdout
    import json

    rows = json.loads(claims.stdout)
    assert all(r["source"] in ("paper", "derived") for r in rows)
    with_foils = [r for r in rows if r["foils"]]
    assert with_foils and all({"foil", "verdict", "ours", "p_value", "note"} <= set(r["foils"][0])
                              for r in with_foils)
    # Another method in the paper method's place: every claim is re-judged with it.
    swapped = cli("claims", SLUG, "--store", store, "--format", "json", "--as", "ssd_dense")
    assert swapped.returncode == 0, swapped.stderr
    assert {r["subject"] for r in json.loads(swapped.stdout)} == {"ssd_dense"}
    bad = cli("claims", SLUG, "--store", store, "--as", "ssd_dens")
    assert bad.returncode == 2 and "did you mean ssd_dense" in bad.stderr


def test_every_option_has_a_line_of_help():
    from claimbench.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, p in sub.choices.items():
        for action in p._actions:
            if action.dest == "help":
                continue
            assert action.help, f"claimbench {name}: {action.option_strings or action.dest}"


def test_progress_without_a_terminal_names_counts_not_every_slug(capsys):
    from types import SimpleNamespace

    from claimbench.progress import Progress

    slugs = [f"bench{i}" for i in range(25)]
    with Progress(50, "25 benchmarks [quick]", [s for s in slugs for _ in range(2)]) as bar:
        for s in slugs:
            for _ in range(2):
                bar.update(SimpleNamespace(cell=SimpleNamespace(slug=s)), {"status": "ok"})
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "50/50 cells, 25/25 benchmarks done" in last
    assert "bench3," not in err and "bench1, bench2" not in err


def test_empty_checkpoint_variable_counts_as_unset(tmp_path, monkeypatch):
    # an empty $CLAIMBENCH_CHECKPOINTS must not send a private store's models to
    # results/checkpoints: the run puts them beside its store, as when the variable is unset
    from claimbench import checkpoints

    monkeypatch.setenv(checkpoints.ENV_VAR, "")
    store = tmp_path / "s.sqlite"
    assert main(["run", SLUG, "--grid", "smoke", "--store", str(store), "--executor", "inline",
                 "--seeds", "1"]) == 0
    assert checkpoints.checkpoint_dir() == tmp_path / "checkpoints"
