"""claimbench content package; see src/claimbench/api.py for the contract."""
