"""claimbench: reproduce papers' claims with paired statistics over seeds."""
__version__ = "0.1.0"


def load(slug: str, store: str | None = None):
    """The store's rows for one benchmark as a pandas DataFrame (one row per cell)."""
    from .store import Store, default_store_path

    with Store(store or default_store_path(), readonly=True) as st:
        return st.dataframe(slug)


__all__ = ["load", "__version__"]
