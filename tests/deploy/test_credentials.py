"""The deployments' secrets, made together: the NATS users written down, the tool's files."""

from __future__ import annotations

from pathlib import Path

import yaml
from kubernetes_validate import utils as kubernetes

from services.common import callers
from services.gateway.ops import password_from
from services.stack import natsauth
from tests.deploy.render import read_env_file
from tools.deploy import credentials, natsconf
from tools.deploy.credentials import Credentials


def test_the_committed_nats_users_are_natsauths_table() -> None:
    committed = natsconf.PATH.read_text()
    assert committed == natsconf.render(), "run python -m tools.deploy.natsconf and commit it"
    assert natsauth.authorization() in committed


def test_each_services_callers_know_the_tokens_made_with_them() -> None:
    made = Credentials.new()
    env = made.compose_env()
    for service, names in callers.ACCEPTED.items():
        known = callers.parse_callers(env[credentials.callers_variable(service)])
        assert known == {callers.fingerprint(made.caller_tokens[n]): n for n in names}
    for name in callers.CALLERS:
        assert env[credentials.caller_token_variable(name)] == made.caller_tokens[name]


def test_every_nats_user_gets_a_fresh_password_of_its_own() -> None:
    first, second = Credentials.new(), Credentials.new()
    assert set(first.nats_passwords) == set(natsauth.USERS)
    assert len(set(first.nats_passwords.values())) == len(natsauth.USERS)
    assert not set(first.nats_passwords.values()) & set(second.nats_passwords.values())
    data = first.secret_data()
    for user, password in first.nats_passwords.items():
        assert data[credentials.nats_password_key(user)] == password
        assert first.compose_env()[natsauth.password_variable(user)] == password


def test_the_files_are_their_owners_alone_and_read_back(tmp_path: Path) -> None:
    made = Credentials.new()
    env_path, secret_path = tmp_path / "secrets.env", tmp_path / "secrets.yaml"
    env_path.write_text("old\n")
    env_path.chmod(0o644)
    credentials.write(env_path, credentials.env_file(made.compose_env()))
    credentials.write(secret_path, credentials.secret_manifest(made.secret_data(), "pf"))
    for path in (env_path, secret_path):
        assert path.stat().st_mode & 0o777 == 0o600, path
    assert read_env_file(env_path) == made.compose_env()
    secret = yaml.safe_load(secret_path.read_text())
    kubernetes.validate(secret, "1.30", strict=True)
    assert secret["metadata"]["name"] == "photofinish-secrets"
    assert secret["metadata"]["namespace"] == "pf"
    assert secret["stringData"] == made.secret_data()
    password = made.postgres_password
    assert secret["stringData"]["database-url"] == (
        f"postgresql://photofinish:{password}@postgres:5432/photofinish"
    )


def test_the_operator_password_is_fresh_and_long_enough_for_the_gateway() -> None:
    made = Credentials.new()
    assert made.ops_password != Credentials.new().ops_password
    assert password_from({"PF_OPS_PASSWORD": made.compose_env()["PF_OPS_PASSWORD"]})
    assert made.secret_data()["ops-password"] == made.ops_password
