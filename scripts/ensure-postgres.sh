#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:5432 (Debian's postgresql on our machines).
set -u
if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then echo "PostgreSQL is up"; exit 0; fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "installing Debian's postgresql"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >/dev/null || exit 1
fi
version=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)
[ -n "$version" ] || { echo "no PostgreSQL cluster found"; exit 1; }
pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
for _ in $(seq 1 30); do
  pg_isready -h 127.0.0.1 -p 5432 -q && { echo "PostgreSQL $version started"; exit 0; }
  sleep 1
done
echo "PostgreSQL did not start"; exit 1
