#!/usr/bin/env bash
# Smoke test of the container image (Dockerfile, compose.yaml):
#   bash deploy/smoke.sh
# builds the image from this checkout, starts it on a fresh volume (the
# entrypoint's `judge init`: the Maildir defaults), mails into it a HELP and a
# CREATE of each of the six games (`judge mail`, as a delivery agent would),
# runs one `judge serve --once` cycle, reads the replies from the volume's
# outbox (mail/out/new) and checks each: the HELP answered, every game
# created. Any mail filed in Failed fails it, with the judge's reason; then
# `judge status` must be healthy, and both compose files must parse.
#
# Exits 0 when all of that worked, 1 when something failed, and 2 (testing
# nothing) when Docker is not usable on this machine. Where Docker cannot run,
# tests/install/artefacts.py (run by .ci/run) takes the same steps without it:
# the same wheel installed by root, the same entrypoint run by a user of its
# own on a home laid out as the volume, and every game played by mail.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! docker info >/dev/null 2>&1; then
  echo "smoke: Docker is not usable here (docker info failed): nothing was tested" >&2
  echo "smoke: tests/install/artefacts.py --only image takes the image's steps without it" >&2
  exit 2
fi

image=judge:smoke
volume="judge-smoke-$$"
out="$(mktemp -d)"
trap 'docker volume rm -f "$volume" >/dev/null 2>&1 || true; rm -rf "$out"' EXIT
in_volume() { docker run --rm -i -v "$volume:/var/lib/judge" "$image" "$@"; }
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }

echo "== build"
docker build -q -t "$image" . >/dev/null

echo "== judge --version and the demo"
docker run --rm "$image" --version
docker run --rm "$image" demo > "$out/demo.txt"
tail -n 3 "$out/demo.txt"

echo "== the first start on a fresh volume (the entrypoint's judge init)"
docker volume create "$volume" >/dev/null
in_volume serve --once

echo "== a HELP and a CREATE of each game, by mail"
printf 'HELP\n' | in_volume mail --from newcomer@players.example - >/dev/null
games="classic warring_states three_kingdoms conflict_of_alliances kingdom_wars conquest_tactics"
n=0
for game in $games; do
  n=$((n + 1))
  printf 'CREATE smoke%d %s\n' "$n" "$game" \
    | in_volume mail --from "gm-$n@players.example" - >/dev/null
done
in_volume serve --once 2> "$out/serve.log" || { cat "$out/serve.log" >&2; fail "serve --once"; }

echo "== the replies, from the volume's outbox"
if grep -q "set aside (Failed)" "$out/serve.log"; then
  grep "set aside (Failed)" "$out/serve.log" >&2
  fail "mail filed in Failed"
fi
failed="$(docker run --rm -v "$volume:/var/lib/judge" --entrypoint sh "$image" -c \
  'ls mail/in/.Failed/cur mail/in/.Failed/new 2>/dev/null | grep -c . || true')"
[ "${failed:-0}" = 0 ] || fail "$failed mail(s) filed in Failed (judge status names the reason)"
# The text of every reply, decoded (quoted-printable, base64) by the image's Python.
docker run --rm -v "$volume:/var/lib/judge" --entrypoint python "$image" -c '
import email, email.policy, pathlib
for path in sorted(pathlib.Path("mail/out/new").iterdir()):
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    body = msg.get_body(("plain",))
    print("To:", msg["To"], "Subject:", msg["Subject"])
    print(body.get_content() if body is not None else "")
' > "$out/replies.txt"
grep -q "CREATE" "$out/replies.txt" || fail "no reply to HELP listing the commands"
for i in $(seq 1 "$n"); do
  grep -q -- "-> created smoke$i" "$out/replies.txt" || fail "smoke$i was not created"
done
echo "the HELP answered; $n games created"

echo "== status"
in_volume status

if docker compose version >/dev/null 2>&1; then
  echo "== compose files"
  docker compose -f compose.yaml config -q
  MAIL_DOMAIN=judge.example MAIL_PASSWORD=x docker compose -f deploy/compose.mail.yaml config -q
fi
echo "smoke: ok"
