"""claimbench: reproduce papers' claims with paired statistics over seeds."""
__version__ = "0.1.0"


def load(slug: str, store: str | None = None):
    """The store's rows for one benchmark as a pandas DataFrame (one row per cell); on a fresh
    clone with no local store, the committed cells (reports/cells.parquet)."""
    from .committed import readable_store
    from .store import Store

    with Store(readable_store(store), readonly=True) as st:
        return st.dataframe(slug)


__all__ = ["load", "__version__"]
