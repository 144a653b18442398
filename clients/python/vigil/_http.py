"""The transport under every generated method: auth, JSON, typed errors and retries (stdlib only)."""

from __future__ import annotations

import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, Optional

from ._errors import APIConnectionError, VigilError, error_from_response, parse_retry_after
from ._version import __version__

_IDEMPOTENT_METHODS = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}
_NETWORK_ERRORS = (urllib.error.URLError, ConnectionError, socket.timeout, TimeoutError, http.client.HTTPException, OSError)


def _backoff_seconds(attempt: int) -> float:
    """0.5 s, 1 s, 2 s ... capped at 8 s, with jitter, when the service did not say how long to wait."""
    return min(8.0, 0.5 * 2**attempt) * (0.75 + random.random() * 0.25)


def _query_string(query: Dict[str, Any]) -> str:
    pairs = []
    for key, value in query.items():
        if value is None:
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            pairs.append((key, "true" if v is True else "false" if v is False else str(v)))
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""


class HttpClient:
    """429 is retried for every method (nothing was done), honouring Retry-After; network errors and
    502/503/504 only for idempotent requests: GET/DELETE, and POSTs, which always carry an
    Idempotency-Key so a repeat is replayed rather than redone."""

    def __init__(
        self,
        api_key: str,
        base_url: str,
        *,
        max_retries: int = 2,
        timeout: float = 60.0,
        max_retry_after: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.timeout = timeout
        self.max_retry_after = max_retry_after
        self._sleep = sleep
        self._opener = urllib.request.build_opener()

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Dict[str, Any]] = None,
        body: Optional[Dict[str, Any]] = None,
        has_body: bool = False,
        content: Optional[bytes] = None,
        content_type: Optional[str] = None,
        binary_response: bool = False,
        stream: bool = False,
        idempotency_key: Optional[str] = None,
        headers: Optional[Dict[str, str]] = None,
        timeout: Optional[float] = None,
        accept: str = "application/json",
    ) -> Any:
        """Sends one logical request with its retries; returns the parsed JSON body, the bytes with
        binary_response=True, or with stream=True the open response (the caller reads and closes it).
        `content` is a raw body (image/jpeg bytes) sent untouched with `content_type`."""
        url = self.base_url + path + _query_string(query or {})
        request_headers = {
            "Authorization": f"Bearer {self.api_key}",
            "Accept": accept,
            "User-Agent": f"vigil-python/{__version__}",
        }
        data = None
        if content is not None:
            request_headers["Content-Type"] = content_type or "application/octet-stream"
            data = content
        elif has_body:
            request_headers["Content-Type"] = "application/json"
            data = json.dumps(body or {}).encode("utf-8")
        # Streams are not replayable, so the service ignores Idempotency-Key on them; send none.
        key = idempotency_key or (str(uuid.uuid4()) if method == "POST" and not stream else None)
        if key:
            request_headers["Idempotency-Key"] = key
        request_headers.update(headers or {})
        idempotent = method in _IDEMPOTENT_METHODS or key is not None

        attempt = 0
        while True:
            can_retry = attempt < self.max_retries
            req = urllib.request.Request(url, data=data, method=method, headers=request_headers)
            try:
                response = self._opener.open(req, timeout=timeout or self.timeout)
                if stream:
                    return response
                with response:
                    payload = response.read()
                if binary_response:
                    return payload
                raw = payload.decode("utf-8")
            except urllib.error.HTTPError as http_error:
                try:
                    raw = http_error.read().decode("utf-8", errors="replace")
                except _NETWORK_ERRORS:
                    raw = ""
                finally:
                    http_error.close()
                error_headers = {k.lower(): v for k, v in http_error.headers.items()} if http_error.headers else {}
                error = error_from_response(http_error.code, error_headers, raw)
                delay = self._retry_delay(error, idempotent, attempt) if can_retry else None
                if delay is None:
                    raise error from None
                self._sleep(delay)
                attempt += 1
                continue
            except _NETWORK_ERRORS as network_error:
                # no response, or the connection broke while reading it
                if idempotent and can_retry:
                    self._sleep(_backoff_seconds(attempt))
                    attempt += 1
                    continue
                reason = getattr(network_error, "reason", network_error)
                raise APIConnectionError(f"No response from {self.base_url}: {reason}") from network_error

            if raw == "":
                return None
            # JSON bodies are parsed; other media types (an NDJSON export) are returned as text
            if "json" not in (response.headers.get("Content-Type") or "application/json").lower():
                return raw
            try:
                return json.loads(raw)
            except ValueError:
                raise VigilError(
                    f"HTTP {response.status} with a body that is not JSON",
                    status=response.status,
                    request_id=response.headers.get("X-Request-Id"),
                    body=raw,
                    raw_body=raw,
                ) from None

    def _retry_delay(self, error: VigilError, idempotent: bool, attempt: int) -> Optional[float]:
        """Seconds to wait before retrying this error, or None when it must not be retried."""
        retry_after = parse_retry_after(error.headers.get("retry-after"))
        if retry_after is not None and retry_after > self.max_retry_after:
            return None
        in_progress = error.status == 409 and error.code == "idempotency_request_in_progress"
        retryable = error.status == 429 or in_progress or (idempotent and error.status in (502, 503, 504))
        if not retryable:
            return None
        return retry_after if retry_after is not None else _backoff_seconds(attempt)
