#!/usr/bin/env bash
# The topology test (test/topology/nginx.test.ts) puts Debian's nginx in front of two service instances.
# Installs it when missing and this user may; otherwise says what to do. The test skips, with this reason,
# where nginx is missing, so a machine without it still runs the rest of the suite.
set -u
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's nginx for the topology test..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null) || {
    echo "could not install nginx with apt-get; the topology test will skip" >&2
    exit 0
  }
  # The package's own service is not wanted: the test starts nginx itself with a generated config.
  if command -v service >/dev/null 2>&1; then service nginx stop >/dev/null 2>&1 || true; fi
else
  echo "nginx is missing: run 'sudo apt-get install -y nginx' (test/topology/nginx.test.ts skips without it)" >&2
fi
