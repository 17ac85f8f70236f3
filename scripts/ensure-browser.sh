#!/usr/bin/env bash
# The admin-panel tests drive Debian's Chromium (playwright cannot download browsers here).
# Installs it when missing and this user may; otherwise says what to do. Run before the tests.
set -u
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser tests..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || {
    echo "could not install chromium with apt-get; the admin panel tests will fail" >&2
    exit 1
  }
else
  echo "chromium is missing: run 'sudo apt-get install -y chromium' (the admin panel tests need /usr/bin/chromium)" >&2
  exit 1
fi
