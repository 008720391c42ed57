#!/bin/sh
# The container's entrypoint: `judge ARGS...`, after `judge init
# $JUDGE_INIT_ARGS` when the home (the volume) has no judge.toml yet and the
# command needs one (deploy/compose.mail.yaml passes its servers so).
set -eu
case "${1:-serve}" in
  serve|status|check-mail|game|league)
    # shellcheck disable=SC2086
    [ -f "$JUDGE_HOME/judge.toml" ] || judge init ${JUDGE_INIT_ARGS:-} >&2 ;;
esac
exec judge "$@"
