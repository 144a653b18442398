"""Conversation streaming: the reply token by token and each action as it is taken (spec "Streaming rule")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, Iterator, Optional

from ._errors import VigilError, error_from_problem
from ._resource import RequestOptions, Resource
from ._sse import iter_raw_events

# Used until openapi.json describes the conversation endpoint (spec: POST /v1/conversations).
_FALLBACK_CREATE = {"operation_id": "createConversation", "method": "POST", "path": "/v1/conversations", "path_params": [], "query": [], "body": True}


@dataclass(frozen=True)
class StreamEvent:
    #: conversation.created, reply.delta, action, conversation.completed
    event: str
    #: the SSE id (sequence number as text)
    id: Optional[str]
    #: the frame's JSON data; every frame carries "type" and "sequence_number"
    data: Dict[str, Any]


class ConversationsBase(Resource):
    OPERATIONS: Dict[str, Dict[str, Any]] = {}

    def stream(self, *, message: str, request_options: Optional[RequestOptions] = None, **params: Any) -> Iterator[StreamEvent]:
        """POST /v1/conversations with Accept: text/event-stream, yielding events as the agent works.
        An ``error`` frame (a problem object) is raised as a VigilError."""
        operation = self.OPERATIONS.get("create", _FALLBACK_CREATE)
        request = self._build_request(operation, (), {"message": message, **params}, request_options)
        response = self._http.request(**request, stream=True, accept="text/event-stream")
        request_id = response.headers.get("X-Request-Id")
        with response:
            if "text/event-stream" not in (response.headers.get("Content-Type") or ""):
                body = json.loads(response.read().decode("utf-8"))
                yield StreamEvent("conversation.completed", None, {"type": "conversation.completed", "conversation": body})
                return
            for frame in iter_raw_events(response):
                try:
                    data = json.loads(frame.data)
                except ValueError:
                    raise VigilError(f"The {frame.event} event's data is not JSON", request_id=request_id, raw_body=frame.data) from None
                if frame.event == "error":
                    problem = data.get("error", data) if isinstance(data, dict) else {}
                    raise error_from_problem(problem if isinstance(problem, dict) else {}, request_id=request_id)
                yield StreamEvent(frame.event, frame.id, data)
