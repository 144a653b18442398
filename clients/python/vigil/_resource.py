"""Base of every generated resource class."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, TypedDict, Union
from urllib.parse import quote

from ._http import HttpClient
from ._pagination import Page


class NotGiven:
    """Marks an optional argument that was not passed (so None can still be sent as JSON null)."""

    _instance: Optional["NotGiven"] = None

    def __new__(cls) -> "NotGiven":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()


class RequestOptions(TypedDict, total=False):
    #: sent as Idempotency-Key; POSTs get a random one when omitted, reused across retries
    idempotency_key: str
    headers: Dict[str, str]
    #: seconds to wait for the response
    timeout: float


Operation = Dict[str, Any]


class Resource:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def _build_request(
        self,
        operation: Operation,
        path_args: Sequence[str],
        params: Dict[str, Any],
        request_options: Optional[RequestOptions],
        content: Optional[Union[bytes, bytearray, memoryview]] = None,
    ) -> Dict[str, Any]:
        path = operation["path"]
        for name, value in zip(operation["path_params"], path_args):
            if not isinstance(value, str) or value == "":
                raise TypeError(f"{operation['operation_id']}: {name} must be a non-empty string")
            path = path.replace("{" + name + "}", quote(value, safe=""))
        given = {k: v for k, v in params.items() if v is not NOT_GIVEN}
        query = {k: v for k, v in given.items() if k in operation["query"] or not operation["body"]}
        body = {k: v for k, v in given.items() if k not in query}
        options = request_options or {}
        request = dict(
            method=operation["method"],
            path=path,
            query=query,
            body=body if operation["body"] else None,
            has_body=operation["body"],
            idempotency_key=options.get("idempotency_key"),
            headers=options.get("headers"),
            timeout=options.get("timeout"),
        )
        # operations whose body is a media type such as image/jpeg send the bytes untouched
        if operation.get("content_type"):
            if not isinstance(content, (bytes, bytearray, memoryview)):
                raise TypeError(f"{operation['operation_id']}: the body must be the {operation['content_type']} bytes, got {type(content).__name__}")
            request.update(content=bytes(content), content_type=operation["content_type"])
        # ... and those answering with bytes return them (a failure is still problem+json)
        if operation.get("binary_response"):
            request.update(accept=f"{operation['binary_response']}, application/problem+json", binary_response=True)
        return request

    def _request(
        self,
        operation: Operation,
        path_args: Sequence[str],
        params: Dict[str, Any],
        request_options: Optional[RequestOptions] = None,
        content: Optional[Union[bytes, bytearray, memoryview]] = None,
    ) -> Any:
        return self._http.request(**self._build_request(operation, path_args, params, request_options, content))

    def _list(
        self, operation: Operation, path_args: Sequence[str], params: Dict[str, Any], request_options: Optional[RequestOptions] = None
    ) -> Page[Any]:
        def fetch(page_params: Dict[str, Any]) -> Page[Any]:
            body = self._request(operation, path_args, page_params, request_options)
            return Page(body, page_params, fetch)

        return fetch({k: v for k, v in params.items() if v is not NOT_GIVEN})
