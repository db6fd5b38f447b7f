"""`claimbench import`: a colleague's export merges; a bad file is rejected, store unchanged."""
import pytest

import toybench as tb
from claimbench.errors import UserError
from claimbench.importer import import_file
from claimbench.runner import execute_plan, plan, select_cells
from claimbench.store import Store


@pytest.fixture
def exported(tmp_path):
    with Store(tmp_path / "theirs.sqlite") as st:
        planned = plan(st, {"toy": tb}, select_cells(tb.BENCH, "quick"), False)
        execute_plan(st, {"toy": tb.BENCH}, planned)
        df = st.dataframe("toy")
    path = tmp_path / "theirs.csv"
    df.to_csv(path, index=False)
    return path, df


def _snapshot(store):
    return sorted((r["identity"], r["status"], str(r["metrics"])) for r in store.rows())


def test_import_round_trip_csv_and_parquet(exported, tmp_path):
    path, df = exported
    with Store(tmp_path / "mine.sqlite") as mine:
        assert import_file(mine, path, {"toy"}) == (8, 0)
        assert import_file(mine, path, {"toy"}) == (0, 8)  # merging twice adds nothing
        rows = mine.rows("toy")
        assert len(rows) == 8 and all(r["status"] == "ok" for r in rows)
        assert any(r["traces"] for r in rows)
    pq = tmp_path / "theirs.parquet"
    df.to_parquet(pq, index=False)
    with Store(tmp_path / "mine2.sqlite") as mine:
        assert import_file(mine, pq, {"toy"}) == (8, 0)


def _bad(df, how):
    df = df.astype(object)
    if how == "missing_column":
        return df.drop(columns=["status"]), "missing columns"
    if how == "extra_column":
        df["payload"] = "x"
        return df, "unexpected columns"
    if how == "wrong_type":
        df.loc[3, "rep"] = "three"
        return df, "rep 'three' is not a number"
    if how == "nan_metric":
        df.loc[2, "metric:abs_error"] = "inf"
        return df, "expected a finite number"
    if how == "html_name":
        df.loc[1, "method"] = "<script>alert(1)</script>"
        return df, "not a valid name"
    if how == "bad_status":
        df.loc[0, "status"] = "great"
        return df, "status 'great'"
    if how == "forged_identity":
        df.loc[0, "rep"] = 7
        return df, "identity does not match"
    if how == "unknown_benchmark":
        df["benchmark"] = "not_a_benchmark"
        return df, "unknown benchmark"
    if how == "bad_json":
        df.loc[0, "dataset_params"] = "{oops"
        return df, "not valid JSON"
    raise AssertionError(how)


@pytest.mark.parametrize("how", ["missing_column", "extra_column", "wrong_type", "nan_metric",
                                 "html_name", "bad_status", "forged_identity",
                                 "unknown_benchmark", "bad_json"])
def test_bad_files_are_rejected_and_the_store_is_unchanged(exported, tmp_path, how):
    path, df = exported
    bad, needle = _bad(df, how)
    bad_path = tmp_path / "bad.csv"
    bad.to_csv(bad_path, index=False)
    with Store(tmp_path / "mine.sqlite") as mine:
        import_file(mine, path, {"toy"})
        before = _snapshot(mine)
        with pytest.raises(UserError, match=needle):
            import_file(mine, bad_path, {"toy"})
        assert _snapshot(mine) == before


def test_huge_and_foreign_files_are_rejected(tmp_path, monkeypatch):
    import claimbench.importer as imp

    big = tmp_path / "big.csv"
    big.write_text("x" * 2048)
    monkeypatch.setattr(imp, "MAX_BYTES", 1024)
    with Store(tmp_path / "s.sqlite") as st:
        with pytest.raises(UserError, match="over the"):
            import_file(st, big)
        pickle_file = tmp_path / "rows.pkl"
        pickle_file.write_bytes(b"\x80\x04")
        with pytest.raises(UserError, match="expected a .csv or .parquet"):
            import_file(st, pickle_file)
        assert st.rows() == []
