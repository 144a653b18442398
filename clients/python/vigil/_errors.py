"""Typed exceptions: every failure carries the problem+json fields (code, status, request_id, param)."""

from __future__ import annotations

import email.utils
import json
import time
from typing import Any, Dict, List, Mapping, Optional, Type


class VigilError(Exception):
    """Base of every error the client raises."""

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        status: Optional[int] = None,
        request_id: Optional[str] = None,
        param: Optional[str] = None,
        detail: Optional[str] = None,
        type: Optional[str] = None,
        errors: Optional[List[Dict[str, Any]]] = None,
        body: Any = None,
        raw_body: Optional[str] = None,
        headers: Optional[Dict[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        #: stable snake_case code from the service's catalogue; None when the body was not a problem document
        self.code = code
        #: HTTP status; None when no response arrived
        self.status = status
        self.request_id = request_id
        #: the request field the error is about
        self.param = param
        self.detail = detail
        self.type = type
        self.errors = errors
        #: the parsed problem document, or the raw text of a non-JSON body
        self.body = body
        self.raw_body = raw_body
        self.headers = headers or {}

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(code={self.code!r}, status={self.status!r}, request_id={self.request_id!r}, message={self.message!r})"


class InvalidRequestError(VigilError):
    """400, 413, 415, 422"""


class AuthenticationError(VigilError):
    """401"""


class PermissionDeniedError(VigilError):
    """403"""


class NotFoundError(VigilError):
    """404"""


class ConflictError(VigilError):
    """409"""


class RateLimitError(VigilError):
    """429, after the client's own retries"""

    def __init__(self, message: str, *, retry_after: Optional[float] = None, **fields: Any) -> None:
        super().__init__(message, **fields)
        #: seconds the service asked to wait (Retry-After)
        self.retry_after = retry_after


class APIError(VigilError):
    """5xx and other statuses"""


class APIConnectionError(VigilError):
    """No response arrived: connection refused or reset, DNS failure, timeout."""


class SignatureVerificationError(VigilError):
    """A webhook signature that does not verify, or a missing or malformed signature header."""


def _error_class_for(status: Optional[int]) -> Type[VigilError]:
    if status in (400, 413, 415, 422):
        return InvalidRequestError
    if status == 401:
        return AuthenticationError
    if status == 403:
        return PermissionDeniedError
    if status == 404:
        return NotFoundError
    if status == 409:
        return ConflictError
    if status == 429:
        return RateLimitError
    return APIError


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds from a Retry-After header: delta-seconds or an HTTP-date (RFC 9110 section 10.2.3)."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        at = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, at.timestamp() - (now if now is not None else time.time()))


def error_from_problem(
    problem: Mapping[str, Any],
    *,
    status: Optional[int] = None,
    request_id: Optional[str] = None,
    raw_body: Optional[str] = None,
    headers: Optional[Dict[str, str]] = None,
    retry_after: Optional[float] = None,
) -> VigilError:
    """The typed error for a problem document (a problem+json response, or an SSE error event)."""
    if status is None and isinstance(problem.get("status"), int):
        status = problem["status"]
    cls = _error_class_for(status)
    code = problem.get("code") if isinstance(problem.get("code"), str) else None
    message = f"{code or status}: {problem.get('detail') or problem.get('title') or ''}".strip()
    fields: Dict[str, Any] = dict(
        code=code,
        status=status,
        request_id=problem.get("request_id") or request_id,
        param=problem.get("param"),
        detail=problem.get("detail"),
        type=problem.get("type"),
        errors=problem.get("errors"),
        body=dict(problem),
        raw_body=raw_body,
        headers=headers,
    )
    if cls is RateLimitError:
        return RateLimitError(message, retry_after=retry_after, **fields)
    return cls(message, **fields)


def error_from_response(status: int, headers: Dict[str, str], raw_text: str) -> VigilError:
    """The typed error for a non-2xx response; a non-JSON body (a proxy's HTML page) keeps status and raw text."""
    request_id = headers.get("x-request-id")
    retry_after = parse_retry_after(headers.get("retry-after"))
    try:
        parsed = json.loads(raw_text) if raw_text else None
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and (parsed.get("code") or parsed.get("detail") or parsed.get("title")):
        return error_from_problem(
            parsed, status=status, request_id=request_id, raw_body=raw_text, headers=headers, retry_after=retry_after
        )
    snippet = raw_text if len(raw_text) <= 200 else raw_text[:200] + "..."
    message = f"HTTP {status}: {snippet}" if snippet else f"HTTP {status}"
    fields: Dict[str, Any] = dict(status=status, request_id=request_id, body=raw_text, raw_body=raw_text, headers=headers)
    cls = _error_class_for(status)
    if cls is RateLimitError:
        return RateLimitError(message, retry_after=retry_after, **fields)
    return cls(message, **fields)
