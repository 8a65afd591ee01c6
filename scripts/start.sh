#!/bin/sh
# `pnpm start`: builds what changed (turbo's cache makes a rebuild of nothing instant), saying so on
# stderr with the build's log shown only if it fails, then runs the built server. The root script execs this shell, and this shell execs node, so the
# process pnpm started is the server itself: pnpm forwards SIGTERM and SIGINT to exactly that
# process (never to its descendants), the server drains and exits 0, and pnpm exits 0 with it.
set -e
cd "$(dirname "$0")/.."
log=$(mktemp)
# A signal during the build stops the build (turbo stops its tasks on SIGTERM) and starts nothing.
# The build runs in the background because a shell runs a trap only once its foreground command
# has finished, and `wait` returns as soon as a trapped signal arrives. turbo's own bin, not
# `pnpm exec turbo`: pnpm exec exits on SIGTERM before turbo has stopped its tasks.
stopped=
build=
trap 'stopped=1; [ -z "$build" ] || kill -TERM "$build" 2>/dev/null || :' TERM INT HUP
started=$(date +%s)
if [ -f apps/server/dist/main.js ] && [ -f apps/web/dist/index.html ]; then
  echo "weft: checking the build of Weft Studio and the server…" >&2
else
  echo "weft: building Weft Studio and the server (first start only, ~40 s)…" >&2
fi
TURBO_TELEMETRY_DISABLED=1 node_modules/.bin/turbo run build --filter=@weft/server... --filter=@weft/web --output-logs=errors-only >"$log" 2>&1 &
build=$!
[ -z "$stopped" ] || kill -TERM "$build" 2>/dev/null || :
status=0
wait "$build" || status=$?
# After a signal `wait` has returned early: wait on until turbo has stopped its tasks and exited.
while kill -0 "$build" 2>/dev/null; do wait "$build" || status=$?; done
trap - TERM INT HUP
if [ -n "$stopped" ]; then
  rm -f "$log"
  echo "weft: stopped during the build; nothing was started" >&2
  exit 0
fi
if [ "$status" -ne 0 ]; then
  cat "$log" >&2
  rm -f "$log"
  echo "weft: the build failed (above); nothing was started" >&2
  exit 1
fi
rm -f "$log"
echo "weft: built in $(($(date +%s) - started)) s; starting the server" >&2
# Relative paths in the configuration mean the directory the command was run from.
export WEFT_CWD="${WEFT_CWD:-$PWD}"
export NODE_ENV="${NODE_ENV:-production}"
exec node apps/server/dist/main.js "$@"
