#!/usr/bin/env bash
# Install the Village table companion as a systemd service on Raspberry Pi OS (Debian 12).
#
#   sudo ./deploy/install.sh            # from a checkout of the repository
#
# What it does (run it again to upgrade; your games are kept):
#   - a virtual environment under /opt/village-companion/venv with the package installed;
#   - a system user "village" owning /var/lib/village-companion (the games database);
#   - /etc/default/village-companion (settings, kept if it exists);
#   - the systemd unit, enabled at boot and (re)started now.
# Environment: PREFIX (default /opt/village-companion), PYTHON (default python3),
#              NO_START=1 to install without starting the service.
set -euo pipefail

PREFIX="${PREFIX:-/opt/village-companion}"
PYTHON="${PYTHON:-python3}"
SERVICE_USER=village
DATA_DIR=/var/lib/village-companion
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 1
fi

if ! "$PYTHON" -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "install.sh: installing python3-venv (Python 3.11 or newer is needed)"
    apt-get update -qq
    apt-get install -y -qq python3 python3-venv python3-pip
fi

if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir "$DATA_DIR" --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$DATA_DIR"

install -d "$PREFIX"
if [[ ! -x "$PREFIX/venv/bin/python" ]]; then
    "$PYTHON" -m venv "$PREFIX/venv"
fi
"$PREFIX/venv/bin/python" -m pip install -q --upgrade pip
"$PREFIX/venv/bin/python" -m pip install -q --upgrade "$SRC"
install -d "$PREFIX/docs"
install -m 0644 "$SRC"/docs/*.md "$PREFIX/docs/" 2>/dev/null || true

if [[ ! -e /etc/default/village-companion ]]; then
    install -m 0644 "$SRC/deploy/village-companion.default" /etc/default/village-companion
fi
install -m 0644 "$SRC/deploy/village-companion.service" /etc/systemd/system/village-companion.service

systemctl daemon-reload
systemctl enable village-companion.service
if [[ "${NO_START:-0}" != "1" ]]; then
    systemctl restart village-companion.service
    sleep 2
    systemctl --no-pager status village-companion.service || true
    echo
    echo "The table URL and token are in the log: journalctl -u village-companion -n 40"
fi
