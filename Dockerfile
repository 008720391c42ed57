# The judge in a container: the wheel installed into a slim Python image,
# running `judge serve` on its home /var/lib/judge (a volume). With no
# judge.toml there, the entrypoint runs `judge init` first: the Maildir
# defaults (players' mail delivered into mail/in, replies in mail/out).
#
#   docker build -t judge .
#   docker run --rm judge demo                       # the demo, in the container
#   docker run -d -v judge:/var/lib/judge judge      # the daemon
#   docker exec <container> judge status             # its health (exit 1 when stale)
#
# compose.yaml runs it so; deploy/compose.mail.yaml adds a Postfix and
# Dovecot service the judge reads and sends through. deploy/smoke.sh tries it.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY judge judge
COPY judge_games judge_games
COPY templates templates
COPY schemas schemas
RUN python -m pip wheel --no-cache-dir --no-deps -w /wheels .

FROM python:3.11-slim
RUN useradd --system --home-dir /var/lib/judge --create-home --shell /usr/sbin/nologin judge
COPY --from=build /wheels /wheels
RUN python -m pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
COPY deploy/docker-entrypoint.sh /usr/local/bin/judge-entrypoint
USER judge
WORKDIR /var/lib/judge
ENV JUDGE_HOME=/var/lib/judge PYTHONUNBUFFERED=1
VOLUME /var/lib/judge
HEALTHCHECK --interval=60s --timeout=20s --start-period=60s CMD ["judge", "status"]
ENTRYPOINT ["judge-entrypoint"]
CMD ["serve"]
