"""Writing a file whole or not at all: the one atomic write of the tools (saves, table files)."""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, content: str | bytes, *, private: bool = False) -> None:
    """Write ``content`` to ``path`` so that a reader sees the old file or the new one, never half
    of it: a temporary file beside it, flushed to the disk, then renamed over it. ``private``: the
    file is readable by its owner only (it holds secrets). Raises OSError; the temporary file is
    then removed, never left beside ``path``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent or Path(".")))
    try:
        if private:
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(content.encode("utf-8") if isinstance(content, str) else content)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
