"""A software passkey authenticator, for the tests that run without a browser.

It makes what a platform authenticator makes (WebAuthn Level 3): a P-256 key pair per
passkey, "none" attestation, and assertions signed over authenticatorData and the hash
of clientDataJSON, in the JSON forms a page sends (RegistrationResponseJSON and
AuthenticationResponseJSON). The browser tests use Chromium's own virtual authenticator.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

USER_PRESENT, USER_VERIFIED, ATTESTED = 0x01, 0x04, 0x40


@dataclass
class Held:
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    counter: int = 0


@dataclass
class SoftAuthenticator:
    """Passkeys kept in memory; ``counting`` makes it keep a signature counter."""

    counting: bool = False
    held: dict[bytes, Held] = field(default_factory=dict)

    def create(self, options_json: str, origin: str) -> str:
        """Answer navigator.credentials.create with these options, as the page at ``origin``."""
        options = json.loads(options_json)
        credential_id = secrets.token_bytes(16)
        key = ec.generate_private_key(ec.SECP256R1())
        rp_id = options["rp"]["id"]
        self.held[credential_id] = Held(key, rp_id, base64url_to_bytes(options["user"]["id"]))
        numbers = key.public_key().public_numbers()
        cose_key = cbor2.dumps(
            {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32), -3: numbers.y.to_bytes(32)}
        )
        attested = bytes(16) + struct.pack(">H", len(credential_id)) + credential_id + cose_key
        data = self._data(rp_id, USER_PRESENT | USER_VERIFIED | ATTESTED, 0) + attested
        client = _client_data("webauthn.create", options["challenge"], origin)
        return _credential(
            credential_id,
            {
                "clientDataJSON": bytes_to_base64url(client),
                "attestationObject": bytes_to_base64url(
                    cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data})
                ),
                "transports": ["internal"],
            },
        )

    def get(self, options_json: str, origin: str, credential_id: bytes | None = None) -> str:
        """Answer navigator.credentials.get, with the passkey ``credential_id`` (default: the
        last one made)."""
        options = json.loads(options_json)
        chosen = credential_id or list(self.held)[-1]
        held = self.held[chosen]
        if self.counting:
            held.counter += 1
        data = self._data(held.rp_id, USER_PRESENT | USER_VERIFIED, held.counter)
        client = _client_data("webauthn.get", options["challenge"], origin)
        signature = held.key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return _credential(
            chosen,
            {
                "clientDataJSON": bytes_to_base64url(client),
                "authenticatorData": bytes_to_base64url(data),
                "signature": bytes_to_base64url(signature),
                "userHandle": bytes_to_base64url(held.user_handle),
            },
        )

    @staticmethod
    def _data(rp_id: str, flags: int, counter: int) -> bytes:
        return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", counter)


def _client_data(kind: str, challenge: str, origin: str) -> bytes:
    return json.dumps(
        {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
    ).encode()


def _credential(credential_id: bytes, response: dict[str, Any]) -> str:
    encoded = bytes_to_base64url(credential_id)
    return json.dumps(
        {
            "id": encoded,
            "rawId": encoded,
            "type": "public-key",
            "response": response,
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
    )
