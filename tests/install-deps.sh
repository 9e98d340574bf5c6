#!/bin/sh
# Install what the tests need (Check and pkg-config, from Debian's packages)
# unless it is already there.  Uses sudo when not root.
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists check; then
    exit 0
fi
echo "installing check and pkg-config (Debian packages)"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq check pkg-config >/dev/null
pkg-config --exists check || { echo "install-deps: Check is still missing" >&2; exit 1; }
