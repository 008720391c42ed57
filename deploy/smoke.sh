#!/usr/bin/env bash
# Smoke test of the container image (Dockerfile, compose.yaml):
#   bash deploy/smoke.sh
# builds the image, plays `judge demo` in it, runs one `judge serve --once`
# cycle on a fresh volume (the entrypoint's `judge init`, the Maildir
# defaults), checks that `judge status` is then healthy, and checks that both
# compose files parse. Exits 0 when all of that worked, 1 when something
# failed, and 2 (testing nothing) when Docker is not usable on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! docker info >/dev/null 2>&1; then
  echo "smoke: Docker is not usable here (docker info failed): nothing was tested" >&2
  exit 2
fi

image=judge:smoke
volume="judge-smoke-$$"
trap 'docker volume rm -f "$volume" >/dev/null 2>&1 || true' EXIT

echo "== build"
docker build -q -t "$image" . >/dev/null

echo "== judge --version and the demo"
docker run --rm "$image" --version
docker run --rm "$image" demo > /tmp/judge-smoke-demo.txt
tail -n 5 /tmp/judge-smoke-demo.txt

echo "== serve --once on a fresh home, then status"
docker volume create "$volume" >/dev/null
docker run --rm -v "$volume:/var/lib/judge" "$image" serve --once
docker run --rm -v "$volume:/var/lib/judge" "$image" status

if docker compose version >/dev/null 2>&1; then
  echo "== compose files"
  docker compose -f compose.yaml config -q
  MAIL_DOMAIN=judge.example MAIL_PASSWORD=x docker compose -f deploy/compose.mail.yaml config -q
fi
echo "smoke: ok"
