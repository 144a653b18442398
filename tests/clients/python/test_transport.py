"""Retries, proxies' non-JSON errors, and webhook verification edge cases — no service needed."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import time
import unittest
from datetime import datetime, timezone

import vigil
from vigil import APIConnectionError, APIError, DeliveryIdCache, RateLimitError, SignatureVerificationError, Vigil, verify_webhook

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


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def delivery(sent_at: str, delivery_id: str = "dlv_1") -> bytes:
    """A delivery body as the service sends it: delivery_id and sent_at inside the signed JSON."""
    return json.dumps(
        {
            "id": "evt_1",
            "event": "detection.anomaly",
            "created_at": "2026-11-21T20:40:00.000Z",
            "stream_id": "stream_1",
            "incident_id": "incident_1",
            "detection": {"type": "person", "subtype": "unrecognized", "confidence": 0.91, "location": "north_lobby", "timestamp": "2026-11-21T20:39:59.000Z"},
            "delivery_id": delivery_id,
            "sent_at": sent_at,
        }
    ).encode()


SENT = time.time()
BODY = delivery(iso(SENT))


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
        at = SENT
        self.assertEqual(verify_webhook(BODY, good, SECRET, timestamp=iso(at - 60), now=at)["type"], "detection.anomaly")
        self.assertEqual(self.code_of(BODY, good, SECRET, timestamp=iso(at - 3600), now=at), "timestamp_outside_tolerance")
        self.assertEqual(self.code_of(BODY, good, SECRET, timestamp="yesterday"), "timestamp_malformed")

    def test_replay_old_sent_at_is_refused(self) -> None:
        at = 1_795_291_200.0  # 2026-11-21T20:00:00Z
        body = delivery("2026-11-21T20:00:00.000Z")
        good = sign(SECRET, body)
        event = verify_webhook(body, good, SECRET, now=at + 299)
        self.assertEqual((event["delivery_id"], event["sent_at"]), ("dlv_1", "2026-11-21T20:00:00.000Z"))
        self.assertEqual(self.code_of(body, good, SECRET, now=at + 301), "timestamp_outside_tolerance", "default tolerance 5 minutes")
        self.assertEqual(self.code_of(body, good, SECRET, now=at - 301), "timestamp_outside_tolerance")
        # a fresh X-Service-Timestamp on old bytes gains nothing: sent_at is inside the signature
        self.assertEqual(self.code_of(body, good, SECRET, now=at + 3600, timestamp=iso(at + 3600)), "timestamp_outside_tolerance")
        self.assertEqual(verify_webhook(body, good, SECRET, now=at + 3600, tolerance_s=7200)["type"], "detection.anomaly")
        self.assertEqual(verify_webhook(body, good, SECRET, now=at + 86400, tolerance_s=None)["type"], "detection.anomaly")
        bare = json.dumps({"id": "evt_x", "event": "alert.fired"}).encode()
        self.assertEqual(self.code_of(bare, sign(SECRET, bare), SECRET), "sent_at_missing")
        bad = delivery("not a time")
        self.assertEqual(self.code_of(bad, sign(SECRET, bad), SECRET), "timestamp_malformed")

    def test_replay_repeated_delivery_id_is_refused(self) -> None:
        clock = [1_795_291_200.0]
        cache = DeliveryIdCache(ttl_s=600, now=lambda: clock[0])
        first = delivery(iso(clock[0]), "dlv_a")
        self.assertEqual(verify_webhook(first, sign(SECRET, first), SECRET, now=clock[0], seen=cache)["delivery_id"], "dlv_a")
        self.assertEqual(self.code_of(first, sign(SECRET, first), SECRET, now=clock[0] + 1, seen=cache), "delivery_replayed")
        again = delivery(iso(clock[0] + 60), "dlv_a")  # a redelivery by hand: same id, new sent_at
        self.assertEqual(self.code_of(again, sign(SECRET, again), SECRET, now=clock[0] + 60, seen=cache), "delivery_replayed")
        other = delivery(iso(clock[0]), "dlv_b")
        self.assertEqual(self.code_of(other, sign("whsec_wrong", other), SECRET, now=clock[0], seen=cache), "signature_mismatch")
        self.assertNotIn("dlv_b", cache, "a forged body is not remembered")
        verify_webhook(other, sign(SECRET, other), SECRET, now=clock[0], seen=cache)
        clock[0] += 601
        self.assertNotIn("dlv_a", cache, "forgotten after ttl_s")
        self.assertEqual(self.code_of(first, sign(SECRET, first), SECRET, now=clock[0], seen=cache), "timestamp_outside_tolerance")
        seen_set: set = set()
        fresh = delivery(iso(clock[0]), "dlv_c")
        Vigil(api_key="k").webhooks.verify(fresh, sign(SECRET, fresh), SECRET, now=clock[0], seen=seen_set)
        self.assertIn("dlv_c", seen_set)
        self.assertEqual(self.code_of(fresh, sign(SECRET, fresh), SECRET, now=clock[0], seen=seen_set), "delivery_replayed")
        calls: list = []
        seen_fn = lambda i: True if i in calls else bool(calls.append(i))  # noqa: E731
        verify_webhook(fresh, sign(SECRET, fresh), SECRET, now=clock[0], seen=seen_fn)
        self.assertEqual(self.code_of(fresh, sign(SECRET, fresh), SECRET, now=clock[0], seen=seen_fn), "delivery_replayed")
        no_id = json.dumps({"id": "evt_x", "event": "alert.fired", "sent_at": iso(clock[0])}).encode()
        self.assertEqual(self.code_of(no_id, sign(SECRET, no_id), SECRET, now=clock[0], seen=seen_set), "delivery_id_missing")

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
