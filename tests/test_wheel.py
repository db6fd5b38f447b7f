"""The project works from a built wheel, not only from the editable install."""
import subprocess
import sys
import zipfile

import pytest


@pytest.mark.wheel
def test_built_wheel_contains_content_packages_and_runs(tmp_path):
    root = __import__("pathlib").Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path / "dist"), str(root)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("claimbench-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for pkg in ("methods", "baselines", "datasets", "benchmarks"):
        assert f"claimbench/{pkg}/__init__.py" in names
        assert not any(n.startswith(f"{pkg}/") for n in names)  # nothing shadowing at top level
    assert "claimbench/benchmarks/ssd_duality.py" in names
    assert "claimbench/static/site.js" in names and "claimbench/static/site.css" in names
    assert "claimbench/claims/family.py" in names and "claimbench/abstracts/protot.txt" in names
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target",
                    str(target), str(wheel)], check=True)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import claimbench, claimbench.registry as r;"
            "assert claimbench.__file__.startswith(sys.argv[1]), claimbench.__file__;"
            "from claimbench.cli import main; sys.exit(main(['run', 'ssd_duality', '--grid', 'smoke',"
            "'--store', sys.argv[2]]))")
    run = subprocess.run([sys.executable, "-c", code, str(target), str(tmp_path / "s.sqlite")],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "no failures" in run.stdout
