"""Rules sheets (``tonk explain``) and differences in words (``tonk diff``)."""
from tonkdsl.tools.explain.sheet import explain

__all__ = ["explain"]
