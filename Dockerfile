# One image for every Photo Finish process; the command picks the service:
#   docker build -t photofinish .
#   docker run photofinish python -m services.rules
# Stage 1 builds the browser client (clients/web/dist) exactly as `make web` does.
FROM python:3.11-slim AS web
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends make nodejs npm \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN make web PYTHON=python3

# Stage 2: the runtime, slim and unprivileged.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PF_HOST=0.0.0.0 \
    PF_DATA_DIR=/data \
    PF_STATIC_DIR=/app/clients/web/dist
RUN groupadd --system --gid 10001 pf \
    && useradd --system --uid 10001 --gid pf --home-dir /app --shell /usr/sbin/nologin pf \
    && mkdir -p /data && chown pf:pf /data
WORKDIR /app
COPY pyproject.toml constraints.txt ./
COPY photofinish ./photofinish
COPY games ./games
COPY wire ./wire
COPY services ./services
COPY clients ./clients
COPY bench ./bench
COPY tools ./tools
RUN pip install -c constraints.txt . && rm -rf build *.egg-info
COPY --from=web /src/clients/web/dist ./clients/web/dist
USER 10001:10001
EXPOSE 7100 7101 7102 7103 7104 7105 7200 7201 7202 7203 7204
# Compose and Kubernetes override this per service; alone, the image is the gateway.
CMD ["python", "-m", "services.gateway"]
