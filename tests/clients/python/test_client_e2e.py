"""The Python client driving the real service (started by tests/clients/python-client.test.ts)."""

from __future__ import annotations

import unittest

from vigil import AuthenticationError, InvalidRequestError, NotFoundError, RateLimitError, SignatureVerificationError, Vigil

from support import PERSON_JPG, WebhookInbox, service_env, skip_unless_operations

LOBBY = dict(name="North lobby camera", source_type="sandbox", source_url="sandbox://lobby?scenario=lobby&seed=7", location="north_lobby")


class ClientAgainstService(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.env = service_env()
        cls.client = Vigil(api_key=cls.env["VIGIL_ORG_KEY"], base_url=cls.env["VIGIL_BASE_URL"])

    def test_create_stream_and_query_scene(self) -> None:
        stream = self.client.streams.create(**LOBBY)
        self.assertRegex(stream["id"], r"^stream_")
        result = self.client.scenes.query(stream["scene_id"], stream_id=stream["id"], query="How many people are in the lobby right now?", window="15m")
        self.assertEqual(result["stream_id"], stream["id"])
        self.assertEqual(result["query"], "How many people are in the lobby right now?")
        self.assertRegex(result["answered_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        self.assertIsInstance(result["detections"], list)
        self.assertIsInstance(result["crowd_density"], (int, float))
        self.assertIsInstance(result["anomaly_flag"], bool)
        self.assertEqual(self.client.streams.update(stream["id"], name="Renamed")["name"], "Renamed")

    def test_list_pages_automatically(self) -> None:
        created = [self.client.streams.create(**{**LOBBY, "name": f"Dock {i}", "location": "py_dock"})["id"] for i in range(5)]
        page = self.client.streams.list(limit=2, location="py_dock")
        self.assertEqual(len(page.data), 2)
        self.assertTrue(page.has_more)
        self.assertEqual([s["id"] for s in self.client.streams.list(limit=2, location="py_dock")], list(reversed(created)))

    def test_problem_errors_are_typed(self) -> None:
        with self.assertRaises(NotFoundError) as missing:
            self.client.streams.get("stream_00000000000000000000000000")
        self.assertEqual(missing.exception.code, "not_found")
        self.assertEqual(missing.exception.status, 404)
        self.assertRegex(missing.exception.request_id or "", r"^req_")

        with self.assertRaises(InvalidRequestError) as invalid:
            self.client.streams.create(**{**LOBBY, "location": "North Lobby!"})
        self.assertEqual(invalid.exception.code, "validation_failed")
        self.assertEqual(invalid.exception.param, "location")

        with self.assertRaises(AuthenticationError) as denied:
            Vigil(api_key="vk_live_000000000000000000000000000000000000", base_url=self.env["VIGIL_BASE_URL"]).streams.list()
        self.assertEqual(denied.exception.status, 401)

    def test_rate_limit_is_a_typed_error(self) -> None:
        limited = Vigil(api_key=self.env["VIGIL_RATE_LIMITED_KEY"], base_url=self.env["VIGIL_BASE_URL"], max_retries=0)
        with self.assertRaises(RateLimitError) as caught:
            for _ in range(3):  # the key allows one request a minute; a window may turn over once in between
                limited.streams.list()
        self.assertEqual(caught.exception.code, "rate_limit_exceeded")
        self.assertEqual(caught.exception.status, 429)
        self.assertGreaterEqual(caught.exception.retry_after or 0, 1)

    @skip_unless_operations("pushStreamFrame", "getDetectionSnapshot")
    def test_push_frame_bytes_and_read_snapshot_bytes(self) -> None:
        stream = self.client.streams.create(name="Front desk phone", source_type="mobile", source_url="mobile://py-desk", location="py_desk")
        with open(PERSON_JPG, "rb") as f:
            jpeg = f.read()
        result = self.client.streams.push_frame(stream["id"], jpeg)
        self.assertEqual(result["object"], "frame_result")
        self.assertEqual(result["stream_id"], stream["id"])
        self.assertEqual(result["status"], "live")
        self.assertTrue(result["detected"])
        person = next((d for d in result["detections"] if d["type"] == "person"), None)
        self.assertIsNotNone(person, result["detections"])
        self.assertEqual(person["location"], "py_desk")

        snapshot = self.client.detections.get_snapshot(person["id"])
        self.assertIsInstance(snapshot, bytes)
        self.assertEqual(snapshot[:3], b"\xff\xd8\xff", "JPEG start-of-image marker")
        self.assertEqual(snapshot[-2:], b"\xff\xd9", "JPEG end-of-image marker")

        # a detection without a snapshot (a count) is a typed problem, read as JSON despite the image Accept
        count = next(d for d in result["detections"] if d["type"] == "person_count")
        with self.assertRaises(NotFoundError) as missing:
            self.client.detections.get_snapshot(count["id"])
        self.assertEqual(missing.exception.code, "not_found")

    @skip_unless_operations("pushStreamFrame")
    def test_bytes_that_are_not_a_jpeg_are_a_typed_error(self) -> None:
        stream = self.client.streams.create(name="Dock phone", source_type="mobile", source_url="mobile://py-dock", location="py_dock_phone")
        with self.assertRaises(InvalidRequestError) as invalid:
            self.client.streams.push_frame(stream["id"], b"hello, not an image")
        self.assertEqual(invalid.exception.code, "invalid_image")
        self.assertEqual(invalid.exception.status, 400)
        with self.assertRaises(TypeError):
            self.client.streams.push_frame(stream["id"], "person.jpg")  # type: ignore[arg-type]
        self.assertEqual(self.client.streams.get(stream["id"])["status"], "connecting")

    @skip_unless_operations("createIncident", "triggerProtocol", "createResponder")
    def test_incident_and_protocol_with_signed_responder_notification(self) -> None:
        inbox = WebhookInbox()
        try:
            responder = self.client.responders.create(name="Night desk", kind="person", escalation_level=1, contact={"webhook_url": inbox.url})
            stream = self.client.streams.create(**{**LOBBY, "location": "py_gate"})
            incident = self.client.incidents.create(stream_id=stream["id"])
            self.assertRegex(incident["id"], r"^incident_")
            result = self.client.incidents.trigger_protocol(incident["id"], protocol_type="unauthorized_access", notify_responders=True, escalation_level=2)
            self.assertEqual(result["status"], "active")
            self.assertEqual(result["responders_notified"], 1)
            headers, raw = inbox.wait_for_event("protocol.triggered")
            event = self.client.webhooks.verify(raw, headers["x-service-signature"], responder["signing_secret"], timestamp=headers["x-service-timestamp"])
            self.assertEqual(event["type"], "protocol.triggered")
            self.assertIn(incident["id"], raw.decode())
        finally:
            inbox.close()

    @skip_unless_operations("createWebhook", "createIncident")
    def test_real_signed_delivery_verifies_and_tampering_fails(self) -> None:
        inbox = WebhookInbox()
        try:
            endpoint = self.client.webhooks.create(url=inbox.url, events=["incident.created"])
            stream = self.client.streams.create(**{**LOBBY, "location": "py_west_gate"})
            incident = self.client.incidents.create(stream_id=stream["id"])
            headers, raw = inbox.wait_for_event("incident.created")
            event = self.client.webhooks.verify(raw, headers["x-service-signature"], endpoint["secret"], timestamp=headers["x-service-timestamp"])
            self.assertEqual(event["type"], "incident.created")
            self.assertIn(incident["id"], raw.decode())
            with self.assertRaises(SignatureVerificationError) as tampered:
                self.client.webhooks.verify(raw.replace(incident["id"].encode(), b"incident_forged"), headers["x-service-signature"], endpoint["secret"])
            self.assertEqual(tampered.exception.code, "signature_mismatch")
        finally:
            inbox.close()

    @skip_unless_operations("converse", "listWatches", "listEvents", "createWebhook")
    def test_household_conversation_stream_watches_and_key_signed_webhook(self) -> None:
        key = self.env["VIGIL_HOUSEHOLD_KEY"]
        home = Vigil(api_key=key, base_url=self.env["VIGIL_BASE_URL"])
        inbox = WebhookInbox()
        try:
            home.webhooks.create(url=inbox.url, events=["watch.created"])
            events = list(home.conversations.stream(message="Keep an eye on the driveway from sunset to sunrise"))
            self.assertEqual(events[0].event, "conversation.created")
            self.assertEqual(events[-1].event, "conversation.completed")
            reply = events[-1].data["conversation"]
            deltas = "".join(e.data["delta"] for e in events if e.event == "reply.delta")
            self.assertEqual(deltas, reply["reply"])
            self.assertEqual(len([e for e in events if e.event == "action"]), len(reply["actions"]))
            watch = next(a for a in reply["actions"] if a["type"] == "watch.created")
            self.assertIn(watch["id"], [w["id"] for w in home.watches.list()])
            follow_up = home.conversations.create(message="What are you watching?", conversation_id=reply["id"])
            self.assertEqual(follow_up["id"], reply["id"])
            self.assertIsInstance(home.events.list().data, list)
            headers, raw = inbox.wait_for_event("watch.created")
            verified = home.webhooks.verify(raw, headers["x-service-signature"], Vigil.household_webhook_secret(key))
            self.assertEqual(verified["type"], "watch.created")
        finally:
            inbox.close()


if __name__ == "__main__":
    unittest.main()
