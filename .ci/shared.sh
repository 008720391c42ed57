# Sourced by .ci/run: find the rulebooks, reference texts and data the tests
# quote. They live beside the repository (../shared, or $JUDGE_SHARED), not in
# it. Found: JUDGE_SHARED is exported as its full path. Missing on a plain
# clone: one line says which tests are skipped and why, and the run goes on
# (tests/support/rulebooks.py skips them). Missing under CI (CI=true): the run
# stops here, since CI must run them.
shared="${JUDGE_SHARED:-../shared}"
shared_missing=()
for sub in rules reference data; do
  [ -d "$shared/$sub" ] || shared_missing+=("$shared/$sub")
done
if [ ${#shared_missing[@]} -eq 0 ]; then
  JUDGE_SHARED="$(cd "$shared" && pwd)"
  export JUDGE_SHARED
elif [ "${CI:-}" = true ]; then
  for missing in "${shared_missing[@]}"; do
    echo "!! $missing is missing: the tests that quote the rulebooks would be skipped." >&2
  done
  echo "!! CI must run them: put the shared folder beside the repository or set JUDGE_SHARED to it." >&2
  exit 1
else
  list="$(printf '%s, ' "${shared_missing[@]}")"
  echo "!! SKIPPED: the tests that quote the rulebooks, the DATC text and the rulebooks' data files," \
       "since these are missing: ${list%, } (a plain clone has no ../shared; set JUDGE_SHARED" \
       "to run them). Everything else runs."
  unset JUDGE_SHARED
fi
