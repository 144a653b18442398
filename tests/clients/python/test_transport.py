"""Retries, proxies' non-JSON errors, and webhook verification edge cases — no service needed."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import unittest

import vigil
from vigil import APIConnectionError, APIError, RateLimitError, SignatureVerificationError, Vigil, verify_webhook

from support import ScriptedServer

PROBLEM_429 = json.dumps({"type": "x", "title": "Too many", "status": 429, "detail": "slow down", "code": "rate_limit_exceeded", "request_id": "req_1"}).encode()
EMPTY_LIST = json.dumps({"object": "list", "data": [], "has_more": False}).encode()
JSON_HEADERS = {"Content-Type": "application/json"}


class Transport(unittest.TestCase):
    def serve(self, script):  # type: ignore[no-untyped-def]
        server = ScriptedServer(script)
        self.addCleanup(server.close)
        return server

    def test_429_is_retried_after_retry_after(self) -> None:
        server = self.serve(lambda n, *_: (429, {"Retry-After": "0", "Content-Type": "application/problem+json"}, PROBLEM_429) if n == 1 else (200, JSON_HEADERS, EMPTY_LIST))
        page = Vigil(api_key="k", base_url=server.url).streams.list()
        self.assertEqual(page.data, [])
        self.assertEqual(len(server.requests), 2)

    def test_429_without_retries_and_a_long_retry_after_are_errors(self) -> None:
        server = self.serve(lambda n, *_: (429, {"Retry-After": "120", "Content-Type": "application/problem+json"}, PROBLEM_429))
        with self.assertRaises(RateLimitError) as caught:
            Vigil(api_key="k", base_url=server.url).streams.list()
        self.assertEqual(len(server.requests), 1, "a 120 s Retry-After is not waited for")
        self.assertEqual(caught.exception.code, "rate_limit_exceeded")
        self.assertEqual(caught.exception.retry_after, 120)
        self.assertEqual(caught.exception.request_id, "req_1")

    def test_post_retried_after_a_dropped_connection_reuses_its_idempotency_key(self) -> None:
        created = json.dumps({"id": "stream_1"}).encode()
        server = self.serve(lambda n, *_: None if n == 1 else (201, JSON_HEADERS, created))
        client = Vigil(api_key="k", base_url=server.url)
        client._http._sleep = lambda s: None  # the backoff itself is not under test
        stream = client.streams.create(name="n", source_type="sandbox", source_url="sandbox://x", location="x")
        self.assertEqual(stream["id"], "stream_1")
        keys = [headers.get("idempotency-key") for _, headers, _ in server.requests]
        self.assertEqual(len(keys), 2)
        self.assertTrue(keys[0] and keys[0] == keys[1])
        body = json.loads(server.requests[0][2])
        self.assertEqual(body["source_type"], "sandbox")

    def test_dropped_connection_without_retries_is_api_connection_error(self) -> None:
        server = self.serve(lambda *_: None)
        with self.assertRaises(APIConnectionError) as caught:
            Vigil(api_key="k", base_url=server.url, max_retries=0).streams.list()
        self.assertIsNone(caught.exception.status)

    def test_non_json_error_page_keeps_status_and_raw_text(self) -> None:
        html = b"<html><h1>502 Bad Gateway</h1></html>"
        server = self.serve(lambda *_: (502, {"Content-Type": "text/html"}, html))
        with self.assertRaises(APIError) as caught:
            Vigil(api_key="k", base_url=server.url, max_retries=0).streams.list()
        self.assertEqual(caught.exception.status, 502)
        self.assertIsNone(caught.exception.code)
        self.assertEqual(caught.exception.raw_body, html.decode())


SECRET = "whsec_test_secret_for_clients"
BODY = json.dumps(
    {
        "id": "evt_1",
        "event": "detection.anomaly",
        "created_at": "2026-11-21T20:40:00.000Z",
        "stream_id": "stream_1",
        "incident_id": "incident_1",
        "detection": {"type": "person", "subtype": "unrecognized", "confidence": 0.91, "location": "north_lobby", "timestamp": "2026-11-21T20:39:59.000Z"},
    }
).encode()


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class WebhookVerification(unittest.TestCase):
    def code_of(self, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
        with self.assertRaises(SignatureVerificationError) as caught:
            verify_webhook(*args, **kwargs)
        return caught.exception.code or ""

    def test_returns_type_and_detection_data(self) -> None:
        event = Vigil(api_key="k").webhooks.verify(BODY, sign(SECRET, BODY), SECRET)
        self.assertEqual(event["type"], "detection.anomaly")
        self.assertEqual(event["data"]["subtype"], "unrecognized")
        self.assertEqual(event["payload"]["incident_id"], "incident_1")

    def test_bad_deliveries_are_typed_errors(self) -> None:
        good = sign(SECRET, BODY)
        self.assertEqual(self.code_of(BODY.replace(b"0.91", b"0.99"), good, SECRET), "signature_mismatch")
        self.assertEqual(self.code_of(BODY, good, "whsec_wrong"), "signature_mismatch")
        self.assertEqual(self.code_of(BODY, None, SECRET), "signature_header_missing")
        self.assertEqual(self.code_of(BODY, good[len("sha256="):], SECRET), "signature_header_malformed")
        self.assertEqual(self.code_of(BODY, "sha256=" + "z" * 64, SECRET), "signature_header_malformed")
        self.assertEqual(self.code_of(json.loads(BODY), good, SECRET), "raw_body_required")
        at = 1_795_291_200.0  # 2026-11-21T20:00:00Z
        self.assertEqual(verify_webhook(BODY, good, SECRET, timestamp="2026-11-21T20:00:00.000Z", now=at + 60)["type"], "detection.anomaly")
        self.assertEqual(self.code_of(BODY, good, SECRET, timestamp="2026-11-21T20:00:00.000Z", now=at + 3600), "timestamp_outside_tolerance")
        self.assertEqual(self.code_of(BODY, good, SECRET, timestamp="yesterday"), "timestamp_malformed")

    def test_household_secret_matches_design(self) -> None:
        key = "vk_live_abcdefghijklmnopqrstuvwxyz0123456789"
        self.assertEqual(Vigil.household_webhook_secret(key), hmac.new(key.encode(), b"vigil-webhook-v1", hashlib.sha256).hexdigest())


class Packaging(unittest.TestCase):
    def test_package_is_typed_and_stdlib_only(self) -> None:
        package_dir = os.path.dirname(vigil.__file__)
        self.assertTrue(os.path.exists(os.path.join(package_dir, "py.typed")))
        stdlib_or_own = re.compile(r"^\s*(?:from|import)\s+(\.|__future__|typing|json|hmac|hashlib|re|time|os|sys|datetime|email|http|urllib|uuid|random|socket|dataclasses)\b")
        for root, _, files in os.walk(package_dir):
            for name in files:
                if name.endswith(".py"):
                    with open(os.path.join(root, name), encoding="utf-8") as f:
                        for line in f:
                            if re.match(r"^\s*(from|import)\s", line) and not line.strip().startswith(("from .", "import .")):
                                self.assertRegex(line, stdlib_or_own, f"{name}: {line.strip()}")



if __name__ == "__main__":
    unittest.main()
