# One image for every Photo Finish process; the command picks the service:
#   docker build -t photofinish .
#   docker run photofinish python -m services.rules
# BASE_IMAGE is any Debian bookworm image with python3 and its venv module: the public
# python:3.11-slim-bookworm by default, or one built from Debian's packages where no registry
# is reachable (tools/deploy builds it with mmdebstrap; docs/deploy.md).
ARG BASE_IMAGE=python:3.11-slim-bookworm

# Stage 1 builds the browser client (clients/web/dist) exactly as `make web` does.
FROM ${BASE_IMAGE} AS web
# Only for this build, never kept in a layer: a CA bundle and pip index the builder's
# network needs (pass them as build args and mount the file at build time).
ARG PIP_CERT
ARG PIP_INDEX_URL
ARG NODE_EXTRA_CA_CERTS
# make web needs Node.js alone (the TypeScript generated from proto/ is committed), and
# python3 for the doctor's check that node and npm are there.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends make nodejs npm \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN make web PYTHON=python3

# Stage 2 builds the virtual environment the runtime copies: every package, direct and
# indirect, at the locked version with its hashes (`make lock`). PyPI has PyICU only as
# source, so it is compiled here, C++ against ICU's headers: g++, pkg-config, libicu-dev,
# and python3-dev for Debian's python3. None of them reaches the runtime image.
FROM ${BASE_IMAGE} AS deps
ARG PIP_CERT
ARG PIP_INDEX_URL
ENV PIP_NO_CACHE_DIR=1 \
    VIRTUAL_ENV=/opt/photofinish \
    PATH=/opt/photofinish/bin:$PATH
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        g++ pkg-config libicu-dev python3-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Its own layer, rebuilt only when the locks change: the locked build tools first, then
# the lock, its source-only packages built with those tools (no unhashed download).
COPY requirements/build.lock requirements/runtime.lock ./requirements/
RUN python3 -m venv /opt/photofinish \
    && pip install --require-hashes -r requirements/build.lock \
    && pip install --require-hashes --no-build-isolation -r requirements/runtime.lock

# Stage 3: the runtime, slim and unprivileged; the packages live in a virtual environment
# so the same steps work on either base (Debian's python3 refuses a system-wide pip).
FROM ${BASE_IMAGE}
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    VIRTUAL_ENV=/opt/photofinish \
    PATH=/opt/photofinish/bin:$PATH \
    PF_HOST=0.0.0.0 \
    PF_DATA_DIR=/data \
    PF_STATIC_DIR=/app/clients/web/dist
# ICU's shared libraries, which PyICU was built against (bookworm's ICU 72), without its
# headers; apt's caches go too (86 MB that a base without Docker's apt settings would keep).
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libicu72 \
    && apt-get clean && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 pf \
    && useradd --system --uid 10001 --gid pf --home-dir /app --shell /usr/sbin/nologin pf \
    && mkdir -p /data && chown pf:pf /data
WORKDIR /app
# The dependencies first, built by the deps stage (which reruns only when the lock changes).
COPY --from=deps /opt/photofinish /opt/photofinish
# Then the project alone, built by the locked setuptools: nothing unlocked comes in.
COPY pyproject.toml ./
COPY photofinish ./photofinish
COPY games ./games
COPY wire ./wire
COPY runtime ./runtime
COPY services ./services
COPY clients ./clients
COPY bench ./bench
COPY tools ./tools
RUN pip install --no-deps --no-build-isolation . && rm -rf build *.egg-info
COPY --from=web /src/clients/web/dist ./clients/web/dist
USER 10001:10001
EXPOSE 7100 7101 7102 7103 7104 7105 7200 7201 7202 7203 7204
# Compose and Kubernetes override this per service; alone, the image is the gateway.
CMD ["python", "-m", "services.gateway"]
