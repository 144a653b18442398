"""Python client for the Vigil physical-security API (generated from openapi.json; stdlib only)."""

from ._client import Vigil
from ._conversations import StreamEvent
from ._errors import (
    APIConnectionError,
    APIError,
    AuthenticationError,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    SignatureVerificationError,
    VigilError,
)
from ._pagination import Page
from ._resource import NOT_GIVEN, NotGiven, RequestOptions
from ._version import __version__
from ._webhooks import DeliveryIdCache, household_webhook_secret, verify_webhook

__all__ = [
    "Vigil",
    "StreamEvent",
    "Page",
    "RequestOptions",
    "NOT_GIVEN",
    "NotGiven",
    "VigilError",
    "InvalidRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "RateLimitError",
    "APIError",
    "APIConnectionError",
    "SignatureVerificationError",
    "verify_webhook",
    "DeliveryIdCache",
    "household_webhook_secret",
    "__version__",
]
