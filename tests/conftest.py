import os
import sys
from pathlib import Path

import pytest

# Tests run torch in the pytest process and then fork runner workers; an OpenMP thread pool
# made in the parent deadlocks a forked child that uses torch. One thread: no pool to inherit.
# (The runner's own workers limit their threads themselves; this is the test process only.)
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def store(tmp_path):
    from claimbench.store import Store

    with Store(tmp_path / "store.sqlite") as st:
        yield st


@pytest.fixture(autouse=True, scope="session")
def _fresh_checkpoints(tmp_path_factory):
    """Trained-model checkpoints go to a folder of this test session, never results/: a test
    trains what it needs instead of loading a model from an earlier run."""
    import os

    from claimbench.checkpoints import ENV_VAR

    old = os.environ.get(ENV_VAR)
    os.environ[ENV_VAR] = str(tmp_path_factory.mktemp("checkpoints"))
    yield
    if old is None:
        os.environ.pop(ENV_VAR, None)
    else:
        os.environ[ENV_VAR] = old
