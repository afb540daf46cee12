"""Every secret a deployment runs with, made fresh in one go and written for Compose or Kubernetes.

The players' token key, PostgreSQL's and Grafana's passwords, one NATS password per user
(services/stack/natsauth.py) and one caller token per calling process, with the
``PF_CALLERS`` each service accepts them by (services/common/callers.py, ``ACCEPTED``):
the fingerprints must match the tokens, so they are made together, never by hand.

    python -m tools.deploy.credentials --compose secrets.env        # docker compose --env-file
    python -m tools.deploy.credentials --kubernetes secrets.yaml    # kubectl apply -f

Each file is written 0600. Making a new one and restarting everything is the rotation
(docs/deploy.md, "Secrets").
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from services.common import callers
from services.stack import natsauth
from services.stack.private import write_private

SECRET_NAME = "photofinish-secrets"
DATABASE_URL = "postgresql://photofinish:{password}@postgres:5432/photofinish"


def caller_token_variable(name: str) -> str:
    """Return the Compose variable holding caller ``name``'s token."""
    return f"PF_CALLER_TOKEN_{name.upper()}"


def callers_variable(service: str) -> str:
    """Return the Compose variable holding ``service``'s ``PF_CALLERS``."""
    return f"PF_CALLERS_{service.upper()}"


def nats_password_key(user: str) -> str:
    """Return the Secret's key for NATS user ``user``'s password."""
    return f"nats-password-{user}"


def caller_token_key(name: str) -> str:
    """Return the Secret's key for caller ``name``'s token."""
    return f"caller-token-{name}"


def callers_key(service: str) -> str:
    """Return the Secret's key for ``service``'s ``PF_CALLERS``."""
    return f"callers-{service}"


@dataclass(frozen=True, slots=True)
class Credentials:
    """One deployment's secrets."""

    token_key: str
    postgres_password: str
    grafana_admin_password: str
    ops_password: str  # the gateway's /ops, user operator (services/gateway/ops/credential.py)
    nats_passwords: Mapping[str, str]  # by NATS user, every one of natsauth.USERS
    caller_tokens: Mapping[str, str]  # by caller, every one of callers.CALLERS

    @classmethod
    def new(cls) -> Credentials:
        """Return fresh random values for everything."""
        return cls(
            token_key=secrets.token_hex(32),
            postgres_password=secrets.token_hex(16),
            grafana_admin_password=secrets.token_hex(12),
            ops_password=secrets.token_hex(24),
            nats_passwords=natsauth.new_passwords(),
            caller_tokens={name: callers.new_token() for name in callers.CALLERS},
        )

    def compose_env(self) -> dict[str, str]:
        """Return the variables docker-compose.yml takes its secrets from."""
        return {
            "PF_TOKEN_KEY": self.token_key,
            "PF_TOKEN_KEYS": "",  # the key ring, set only while keys rotate (docs/deploy.md)
            "POSTGRES_PASSWORD": self.postgres_password,
            "GRAFANA_ADMIN_PASSWORD": self.grafana_admin_password,
            "PF_OPS_PASSWORD": self.ops_password,
            **{natsauth.password_variable(u): p for u, p in self.nats_passwords.items()},
            **{caller_token_variable(n): t for n, t in self.caller_tokens.items()},
            **{callers_variable(s): v for s, v in callers.accepted(self.caller_tokens).items()},
        }

    def secret_data(self) -> dict[str, str]:
        """Return the keys of the Secret photofinish-secrets the k8s manifests read."""
        return {
            "token-key": self.token_key,
            "token-keys": "",  # PF_TOKEN_KEYS: set only while keys rotate (docs/deploy.md)
            "postgres-password": self.postgres_password,
            "database-url": DATABASE_URL.format(password=self.postgres_password),
            "grafana-admin-password": self.grafana_admin_password,
            "ops-password": self.ops_password,
            **{nats_password_key(u): p for u, p in self.nats_passwords.items()},
            **{caller_token_key(n): t for n, t in self.caller_tokens.items()},
            **{callers_key(s): v for s, v in callers.accepted(self.caller_tokens).items()},
        }


def env_file(values: Mapping[str, str]) -> str:
    """Return ``values`` as an env file Compose reads (``--env-file``)."""
    head = "# docker-compose.yml's secrets (python -m tools.deploy.credentials). Keep it 0600.\n"
    return head + "".join(f"{key}={value}\n" for key, value in values.items())


def secret_manifest(data: Mapping[str, str], namespace: str) -> str:
    """Return the Secret photofinish-secrets holding ``data``, as YAML for kubectl apply."""
    secret = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": SECRET_NAME,
            "namespace": namespace,
            "labels": {"app.kubernetes.io/part-of": "photofinish"},
        },
        "type": "Opaque",
        "stringData": dict(data),
    }
    return yaml.safe_dump(secret, sort_keys=False)


def write(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, readable by its owner alone, whatever it was before."""
    write_private(path, text.encode())
    path.chmod(0o600)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compose", type=Path, help="write an env file for docker compose")
    parser.add_argument("--kubernetes", type=Path, help="write the Secret's manifest")
    parser.add_argument("--namespace", default="photofinish", help="the Secret's namespace")
    args = parser.parse_args()
    if args.compose is None and args.kubernetes is None:
        parser.error("give --compose FILE, --kubernetes FILE or both")
    made = Credentials.new()
    if args.compose is not None:
        write(args.compose, env_file(made.compose_env()))
        print(f"wrote {args.compose}")
    if args.kubernetes is not None:
        write(args.kubernetes, secret_manifest(made.secret_data(), args.namespace))
        print(f"wrote {args.kubernetes}")


if __name__ == "__main__":
    main()
