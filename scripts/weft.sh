#!/bin/sh
# `pnpm weft`, `pnpm migrate`, `pnpm keys`: the `weft` command on the TypeScript sources. The root
# scripts exec this shell, and this shell execs node, so the process pnpm started is the command
# itself and receives the SIGTERM or SIGINT pnpm forwards (`weft serve` drains, then exits 0).
set -e
# Relative paths in the configuration mean the directory the command was run from.
export WEFT_CWD="${WEFT_CWD:-$PWD}"
cd "$(dirname "$0")/../apps/server"
NODE_OPTIONS=--conditions=@weft/source exec node --import tsx src/main.ts "$@"
