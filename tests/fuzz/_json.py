"""Fuzz bytes as a JSON document, for the harnesses that load documents."""

from __future__ import annotations

import json
from typing import Any

#: Parsed, not loaded: a value that is not JSON (or nests past Python's recursion
#: limit) is the fuzzer's miss, not boardcore's.
NOT_JSON = object()


def document(data: bytes) -> Any:
    """``data`` parsed as JSON, or ``NOT_JSON``."""
    try:
        return json.loads(data.decode("utf-8", "surrogateescape"))
    except (ValueError, RecursionError):
        return NOT_JSON
