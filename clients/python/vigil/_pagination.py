"""Lists (newest first, cursors starting_after / ending_before): one page, or every item across pages."""

from __future__ import annotations

from typing import Any, Callable, Dict, Generic, Iterator, List, TypeVar

T = TypeVar("T")


class Page(Generic[T]):
    """One page of a list. ``page.data`` and ``page.has_more`` are this page; iterating the page
    (``for item in client.streams.list()``) walks every item, fetching further pages as needed."""

    object = "list"

    def __init__(self, body: Dict[str, Any], params: Dict[str, Any], fetch: Callable[[Dict[str, Any]], "Page[T]"]) -> None:
        self.data: List[T] = list(body.get("data") or [])
        self.has_more: bool = bool(body.get("has_more"))
        self._params = params
        self._fetch = fetch

    def next_page(self) -> "Page[T]":
        """The page after this one; paging backwards (ending_before) moves toward newer items."""
        if not self.has_more or not self.data:
            raise ValueError("this is the last page")
        params = dict(self._params)
        if "ending_before" in params:
            params["ending_before"] = self.data[0]["id"]  # type: ignore[index]
        else:
            params["starting_after"] = self.data[-1]["id"]  # type: ignore[index]
        return self._fetch(params)

    def auto_paging_iter(self) -> Iterator[T]:
        page: Page[T] = self
        while True:
            yield from page.data
            if not page.has_more or not page.data:
                return
            page = page.next_page()

    def __iter__(self) -> Iterator[T]:
        return self.auto_paging_iter()

    def __repr__(self) -> str:
        return f"Page(data=<{len(self.data)} items>, has_more={self.has_more})"
