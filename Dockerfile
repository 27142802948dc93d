# askdocs in a container: the server, the bundled model and askdocs's own docs inside,
# data in a volume. Build: podman build --format docker -t askdocs .  (or docker build)
# Run:   see compose.yaml and docs/deployment.md ("Containers").
#
# BASE is any Debian-like image with python3 (3.11+) and python3-venv.
ARG BASE=docker.io/library/python:3.11-slim-bookworm

FROM ${BASE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
COPY docs ./docs
COPY packages ./packages
COPY scripts/install-product scripts/build-model-package ./scripts/
# The same install scripts/setup runs (tests/test_container.py checks they do not drift).
RUN python3 -m venv /opt/askdocs \
 && scripts/install-product /opt/askdocs/bin/python .

FROM ${BASE}
ENV PATH=/opt/askdocs/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ASKDOCS_DATA_DIR=/var/lib/askdocs \
    ASKDOCS_SERVER__HOST=0.0.0.0 \
    ASKDOCS_SERVER__PORT=8000
RUN groupadd --gid 10001 askdocs \
 && useradd --uid 10001 --gid askdocs --home-dir /var/lib/askdocs --no-create-home askdocs \
 && mkdir -p /var/lib/askdocs \
 && chown askdocs:askdocs /var/lib/askdocs
COPY --from=build /opt/askdocs /opt/askdocs
USER askdocs
WORKDIR /var/lib/askdocs
VOLUME ["/var/lib/askdocs"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('ASKDOCS_SERVER__PORT', '8000'), timeout=4)"]
CMD ["askdocs", "serve"]
