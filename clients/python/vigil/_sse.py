"""Server-sent events parser (WHATWG HTML "Parsing an event stream") over a urllib response."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, List, Optional


@dataclass(frozen=True)
class RawEvent:
    event: str
    id: Optional[str]
    data: str


def iter_raw_events(response: Any) -> Iterator[RawEvent]:
    """``field: value`` lines, a blank line dispatches, ``:`` lines are comments (keep-alive pings),
    several ``data:`` lines join with a newline. An event without its closing blank line is dropped."""
    data_lines: List[str] = []
    event_name: Optional[str] = None
    last_id: Optional[str] = None
    while True:
        raw = response.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\n").rstrip("\r")
        if line == "":
            if data_lines:
                yield RawEvent(event_name or "message", last_id, "\n".join(data_lines))
            data_lines = []
            event_name = None
            continue
        if line.startswith(":"):
            continue
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "data":
            data_lines.append(value)
        elif field == "event":
            event_name = value
        elif field == "id" and "\0" not in value:
            last_id = value
