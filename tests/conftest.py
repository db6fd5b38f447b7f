import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def store(tmp_path):
    from claimbench.store import Store

    with Store(tmp_path / "store.sqlite") as st:
        yield st
