#!/bin/sh
# `pnpm start`: builds what changed (quietly: turbo's cache makes a rebuild of nothing instant),
# then runs the built server with node as the foreground process, so Ctrl-C and SIGTERM reach
# it directly and a clean stop exits 0.
set -e
cd "$(dirname "$0")/.."
log=$(mktemp)
if ! TURBO_TELEMETRY_DISABLED=1 pnpm exec turbo run build --filter=@weft/server... --filter=@weft/web --output-logs=errors-only >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "weft: the build failed (above); nothing was started" >&2
  exit 1
fi
rm -f "$log"
# Relative paths in the configuration mean the directory the command was run from.
export WEFT_CWD="${WEFT_CWD:-$PWD}"
export NODE_ENV="${NODE_ENV:-production}"
exec node apps/server/dist/main.js "$@"
