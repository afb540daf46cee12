"""The NATS users the deployments' nats-servers know: services/stack/natsauth.py, written down.

docker-compose.yml gives each node ``deploy/nats/authorization.conf`` as its config file,
and k8s/base/nats/nats.conf includes it (the ConfigMap nats-config carries both). The
passwords are not in it: each is ``$PF_NATS_PASSWORD_<USER>``, read by nats-server from its
environment, which the deployment fills from its secrets (tools/deploy/credentials.py).

``python -m tools.deploy.natsconf`` writes it again after a change to natsauth's table;
tests/deploy/test_credentials.py fails while the committed file differs.
"""

from __future__ import annotations

from services.stack import natsauth
from tools.deploy.host import ROOT

PATH = ROOT / "deploy" / "nats" / "authorization.conf"
HEADER = (
    "# Who may say what on NATS, one user per service: written by `python -m\n"
    "# tools.deploy.natsconf` from services/stack/natsauth.py (edit that, never this).\n"
    "# nats-server reads each password from its environment ($PF_NATS_PASSWORD_<USER>).\n"
)


def render() -> str:
    """Return the file's text: the header, then natsauth's authorization block."""
    return HEADER + natsauth.authorization()


def main() -> None:
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(render())
    print(f"wrote {PATH.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
