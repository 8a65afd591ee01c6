#!/usr/bin/env bash
# Makes sure a Redis server answers on 127.0.0.1:6379 (Debian's redis-server on our machines),
# for the rate-limit tests shared by two replicas. Keeps nothing on disk.
set -u
if redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; then echo "Redis is up"; exit 0; fi
if ! command -v redis-server >/dev/null 2>&1; then
  echo "installing Debian's redis-server"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >/dev/null || exit 1
fi
redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null || exit 1
for _ in $(seq 1 30); do
  redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG && { echo "Redis started"; exit 0; }
  sleep 1
done
echo "Redis did not start"; exit 1
