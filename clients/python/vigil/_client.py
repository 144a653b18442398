"""The Vigil API client."""

from __future__ import annotations

import os
from typing import Optional

from ._generated.resources import VigilResources
from ._http import HttpClient
from ._webhooks import household_webhook_secret


class Vigil(VigilResources):
    """``Vigil(api_key=..., base_url=...)``, then ``client.<resource>.<method>(...)``: one method per
    operation of openapi.json (generated into ``vigil/_generated``)."""

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        max_retries: int = 2,
        timeout: float = 60.0,
        max_retry_after: float = 60.0,
    ) -> None:
        """api_key defaults to VIGIL_API_KEY; base_url to VIGIL_BASE_URL, then http://localhost:8080.
        max_retries counts retries after a 429, a network error or 502/503/504 (the last two for
        idempotent requests only); a Retry-After longer than max_retry_after seconds is not waited for."""
        key = api_key or os.environ.get("VIGIL_API_KEY")
        if not key:
            from ._errors import VigilError

            raise VigilError("An API key is required: Vigil(api_key=...) or the VIGIL_API_KEY environment variable.")
        url = base_url or os.environ.get("VIGIL_BASE_URL") or "http://localhost:8080"
        self._http = HttpClient(key, url, max_retries=max_retries, timeout=timeout, max_retry_after=max_retry_after)
        super().__init__(self._http)

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @staticmethod
    def household_webhook_secret(api_key: str) -> str:
        """The secret household webhook deliveries are signed with: hex HMAC-SHA256(api_key, "vigil-webhook-v1")."""
        return household_webhook_secret(api_key)
