from tests.engine.filibuster.table import Table

__all__ = ["Table"]
