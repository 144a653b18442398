"""Webhook signature verification (DESIGN.md "Webhooks")."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from datetime import datetime
from typing import Any, Callable, Dict, Optional, Protocol, Sequence, Union

from ._errors import SignatureVerificationError
from ._resource import Resource

_SIGNATURE_HEX = re.compile(r"^[0-9a-fA-F]{64}$")


def household_webhook_secret(api_key: str) -> str:
    """Household webhooks are "signed with the key": secret = hex HMAC-SHA256(api_key, "vigil-webhook-v1")."""
    if not isinstance(api_key, str) or api_key == "":
        raise TypeError("household_webhook_secret needs the household API key")
    return hmac.new(api_key.encode("utf-8"), b"vigil-webhook-v1", hashlib.sha256).hexdigest()


def _fail(code: str, message: str) -> SignatureVerificationError:
    return SignatureVerificationError(message, code=code)


def _timestamp_seconds(value: Union[str, int, float, datetime]) -> Optional[float]:
    if isinstance(value, datetime):
        return value.timestamp()
    text = str(value).strip()
    try:
        number = float(text)
        return number / 1000 if number > 1e12 else number
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class SeenStore(Protocol):
    def __contains__(self, delivery_id: object) -> bool: ...

    def add(self, delivery_id: str) -> Any: ...


SeenDeliveries = Union[SeenStore, Callable[[str], bool]]


class DeliveryIdCache:
    """Remembers delivery ids for ``ttl_s`` seconds (default 600, twice the default tolerance).

    Pass it as ``seen`` so a delivery replayed within the tolerance window is refused; older ids can
    be forgotten because their ``sent_at`` is refused anyway. In memory, one process: a receiver
    running several processes passes a shared store (any object with ``in`` and ``add``, or a function).
    """

    def __init__(self, ttl_s: float = 600, now: Optional[Callable[[], float]] = None) -> None:
        self._ttl_s = ttl_s
        self._now = now or time.time
        self._seen_at: Dict[str, float] = {}  # insertion-ordered: the oldest first

    def _prune(self) -> None:
        oldest = self._now() - self._ttl_s
        while self._seen_at:
            delivery_id, at = next(iter(self._seen_at.items()))
            if at >= oldest:
                break
            del self._seen_at[delivery_id]

    def __contains__(self, delivery_id: object) -> bool:
        self._prune()
        return delivery_id in self._seen_at

    def add(self, delivery_id: str) -> None:
        self._seen_at.pop(delivery_id, None)
        self._seen_at[delivery_id] = self._now()


def _check_replay(payload: Dict[str, Any], tolerance_s: Optional[float], now: Optional[float], seen: Optional[SeenDeliveries]) -> None:
    """Refuses a body sent too long ago, or a delivery already seen (DESIGN.md "Webhooks": replay protection)."""
    current = now if now is not None else time.time()
    if tolerance_s is not None:
        sent_at = payload.get("sent_at")
        if not isinstance(sent_at, str):
            raise _fail(
                "sent_at_missing",
                "The signed body has no sent_at, so its age cannot be checked (not sent by this service, or by a version without replay protection).",
            )
        try:
            sent = datetime.fromisoformat(sent_at.replace("Z", "+00:00")).timestamp()
        except ValueError:
            raise _fail("timestamp_malformed", "The body's sent_at is not an ISO 8601 time.") from None
        if abs(current - sent) > tolerance_s:
            raise _fail("timestamp_outside_tolerance", f"The delivery was sent more than {tolerance_s} s from now (a replay?).")
    if seen is None:
        return
    delivery_id = payload.get("delivery_id")
    if not isinstance(delivery_id, str) or delivery_id == "":
        raise _fail("delivery_id_missing", "The signed body has no delivery_id, so a repeat cannot be recognised.")
    replayed = _fail("delivery_replayed", f"Delivery {delivery_id} was already received (a replay or a redelivery of a processed delivery).")
    if callable(seen) and not hasattr(seen, "add"):
        if seen(delivery_id):
            raise replayed
        return
    if delivery_id in seen:  # type: ignore[operator]
        raise replayed
    seen.add(delivery_id)  # type: ignore[union-attr]


def verify_webhook(
    raw_body: Union[bytes, bytearray, str],
    signature_header: Union[str, Sequence[str], None],
    secret: str,
    *,
    timestamp: Union[str, int, float, datetime, None] = None,
    tolerance_s: Optional[float] = 300,
    now: Optional[float] = None,
    seen: Optional[SeenDeliveries] = None,
) -> Dict[str, Any]:
    """Verifies ``X-Service-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`` in constant time.

    Returns ``{"type", "data", "id", "created_at", "delivery_id", "sent_at", "payload"}``: type is the
    event kind, data the detection for detection.anomaly and the whole payload otherwise. Several
    comma-separated ``sha256=`` values are accepted (secret rotation). Replays: the signed body's
    ``sent_at`` must be within ``tolerance_s`` (default 300; None turns the check off) of now, and with
    ``seen`` (a DeliveryIdCache, a set, any object with ``in`` and ``add``, or a function returning True
    for an id it has seen and recording it) a ``delivery_id`` already received is refused. With
    ``timestamp`` (the X-Service-Timestamp header) that header is checked against the same tolerance.
    Every failure raises SignatureVerificationError with a ``code``.
    """
    if not isinstance(secret, str) or secret == "":
        raise _fail("secret_missing", "A webhook secret is required to verify a delivery.")
    if isinstance(raw_body, str):
        body = raw_body.encode("utf-8")
    elif isinstance(raw_body, (bytes, bytearray, memoryview)):
        body = bytes(raw_body)
    else:
        raise _fail("raw_body_required", "Pass the raw request body (bytes or str) exactly as received; a parsed object cannot be verified.")
    header = ",".join(signature_header) if isinstance(signature_header, (list, tuple)) else signature_header
    if not isinstance(header, str) or header.strip() == "":
        raise _fail("signature_header_missing", "The X-Service-Signature header is missing.")
    values = [v.strip() for v in header.split(",") if v.strip().startswith("sha256=")]
    if not values:
        raise _fail("signature_header_malformed", 'X-Service-Signature has no "sha256=<hex>" value.')
    candidates = [v[len("sha256=") :] for v in values]
    if not all(_SIGNATURE_HEX.match(c) for c in candidates):
        raise _fail("signature_header_malformed", 'X-Service-Signature is not "sha256=" followed by 64 hex digits.')
    expected = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()
    matched = False
    for candidate in candidates:
        matched = hmac.compare_digest(candidate.lower(), expected) or matched
    if not matched:
        raise _fail(
            "signature_mismatch",
            "The signature does not match the body: wrong secret, or the body was changed (verify the raw bytes, before any JSON parsing).",
        )
    if timestamp is not None:
        at = _timestamp_seconds(timestamp)
        if at is None:
            raise _fail("timestamp_malformed", "The delivery timestamp is not unix seconds or ISO 8601.")
        current = now if now is not None else time.time()
        if tolerance_s is not None and abs(current - at) > tolerance_s:
            raise _fail("timestamp_outside_tolerance", f"The delivery timestamp is more than {tolerance_s} s from now (a replay?).")
    try:
        payload = json.loads(body.decode("utf-8"))
    except ValueError:
        raise _fail("payload_not_json", "The signed body is not JSON.") from None
    if not isinstance(payload, dict):
        raise _fail("payload_not_json", "The signed body is not a JSON object.")
    _check_replay(payload, tolerance_s, now, seen)
    kind = payload.get("event", payload.get("type"))
    data = payload["detection"] if kind == "detection.anomaly" and isinstance(payload.get("detection"), dict) else payload
    return {
        "type": kind,
        "data": data,
        "id": payload.get("id"),
        "created_at": payload.get("created_at"),
        "delivery_id": payload.get("delivery_id"),
        "sent_at": payload.get("sent_at"),
        "payload": payload,
    }


class WebhooksBase(Resource):
    """Hand-written half of ``client.webhooks``; the generated class adds the webhook endpoints."""

    def verify(
        self,
        raw_body: Union[bytes, bytearray, str],
        signature_header: Union[str, Sequence[str], None],
        secret: str,
        *,
        timestamp: Union[str, int, float, datetime, None] = None,
        tolerance_s: Optional[float] = 300,
        now: Optional[float] = None,
        seen: Optional[SeenDeliveries] = None,
    ) -> Dict[str, Any]:
        return verify_webhook(raw_body, signature_header, secret, timestamp=timestamp, tolerance_s=tolerance_s, now=now, seen=seen)
