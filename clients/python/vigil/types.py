"""Typed shapes of the API's requests and responses (TypedDicts generated from openapi.json)."""

from ._generated.models import *  # noqa: F401,F403
