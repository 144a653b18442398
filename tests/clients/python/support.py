"""Shared fixtures of the Python client suite: the service the Node runner started, and loopback servers."""

from __future__ import annotations

import json
import os
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
#: a camera frame showing one person (the shared video fixtures, beside the repository)
PERSON_JPG = os.path.join(REPO_ROOT, "..", "shared", "fixtures", "person.jpg")


def spec_operation_ids() -> set:
    with open(os.path.join(REPO_ROOT, "openapi.json"), encoding="utf-8") as f:
        doc = json.load(f)
    return {op["operationId"] for item in doc["paths"].values() for op in item.values() if isinstance(op, dict) and "operationId" in op}


def skip_unless_operations(*needed: str) -> Callable[[Any], Any]:
    """Runs the test once its operations are in openapi.json; until then it is reported as skipped, with the reason."""
    missing = [n for n in needed if n not in spec_operation_ids()]
    return unittest.skipIf(bool(missing), f"waiting for {', '.join(missing)} in openapi.json (run npm run generate once it lands)")


def service_env() -> Dict[str, str]:
    """The running service and keys, handed over by tests/clients/python-client.test.ts."""
    names = ["VIGIL_BASE_URL", "VIGIL_ORG_KEY", "VIGIL_HOUSEHOLD_KEY", "VIGIL_RATE_LIMITED_KEY"]
    missing = [n for n in names if not os.environ.get(n)]
    if missing:
        raise unittest.SkipTest(f"run through `node --import tsx --test tests/clients/python-client.test.ts` (missing {', '.join(missing)})")
    return {n: os.environ[n] for n in names}


class WebhookInbox:
    """A customer's webhook endpoint on 127.0.0.1: keeps the raw body and headers of every POST."""

    def __init__(self) -> None:
        self.received: List[Tuple[Dict[str, str], bytes]] = []
        inbox = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                inbox.received.append(({k.lower(): v for k, v in self.headers.items()}, raw))
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hooks"

    def wait_for_event(self, kind: str, timeout: float = 15.0) -> Tuple[Dict[str, str], bytes]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            for headers, raw in list(self.received):
                if json.loads(raw).get("event") == kind:
                    return headers, raw
            time.sleep(0.05)
        raise AssertionError(f"no {kind} delivery within {timeout} s (got {len(self.received)})")

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


Reply = Optional[Tuple[int, Dict[str, str], bytes]]


class ScriptedServer:
    """An HTTP server answering by script: reply(n, method, headers, body) returns (status, headers, body),
    or None to cut the connection without answering — a proxy or load balancer misbehaving."""

    def __init__(self, reply: Callable[[int, str, Dict[str, str], bytes], Reply]) -> None:
        self.requests: List[Tuple[str, Dict[str, str], bytes]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                server.requests.append((self.command, headers, body))
                answer = reply(len(server.requests), self.command, headers, body)
                if answer is None:
                    self.close_connection = True
                    self.connection.close()
                    return
                status, out_headers, out_body = answer
                self.send_response(status)
                for k, v in out_headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(out_body)))
                self.end_headers()
                self.wfile.write(out_body)

            do_GET = do_POST = do_DELETE = do_PATCH = _answer  # noqa: N815

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
