"""Where the deployment files are."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "deploy" / "images" / "app" / "Dockerfile"
DEPLOY = ROOT / "deploy"
SHARED_ENV = DEPLOY / "photofinish.env"
RULES = sorted((DEPLOY / "prometheus" / "rules").glob("*.yml"))
PROMETHEUS_CONFIGS = [
    DEPLOY / "prometheus" / "prometheus.yml",
    DEPLOY / "prometheus" / "prometheus-k8s.yml",
]
DASHBOARDS = sorted((DEPLOY / "grafana" / "dashboards").glob("*.json"))
K8S = ROOT / "k8s"
OVERLAYS = sorted(path.parent for path in (K8S / "overlays").glob("*/kustomization.yaml"))
