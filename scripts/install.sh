#!/usr/bin/env bash
# Installs everything pagepath needs on Debian 12, as root, and builds it. Safe to run again:
# packages already present are not touched, and npm runs only when the lockfile changed.
# It never downloads a browser: Chromium comes from Debian, driven through puppeteer-core.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  chromium          # the browser pagepath profiles with
  fonts-liberation  # common web fonts, so pages lay out as they would elsewhere
  graphviz          # dot: graph layout and SVG/PDF output
  openssl           # per-run certificates for local HTTPS origins
  ca-certificates
  iproute2          # network namespaces for emulated links
  procps            # ps/pkill, used to clean up after crashed browsers
  ethtool           # bench net: a veth reference without segmentation offloads
  cmake             # builds BoringSSL for the QUIC stack (tquic) of the replay servers
  g++
  make
  patch             # applies pagepath's patches to tquic and smoltcp (scripts/patch-crates.sh)
  mptcpize          # Chromium over MPTCP (LD_PRELOAD), for MPTCP replays
  nginx-light       # bench replay: the reference web server
  nghttp2-client    # bench replay: h2load, the HTTP/1.1 and HTTP/2 load generator
  redis-server      # the job queue (BullMQ) that spreads experiment runs over machines
)

missing=()
for p in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then missing+=(nodejs npm); fi
# The link emulator is Rust; a machine without a toolchain gets Debian's.
if ! command -v cargo >/dev/null; then missing+=(cargo rustc); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install: Debian packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then echo "install: must run as root to install ${missing[*]}" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # Debian starts nginx on every address at port 80; the bench runs its own on loopback only.
  if [[ " ${missing[*]} " == *" nginx-light "* ]]; then
    { systemctl disable --now nginx || service nginx stop || nginx -s stop; } >/dev/null 2>&1 || true
  fi
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then echo "install: Node.js 20 or newer is needed, found $(node --version)" >&2; exit 1; fi

stamp=node_modules/.pagepath-lockfile
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "install: npm packages"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

echo "install: building"
npx --no-install tsc -b
bash scripts/patch-crates.sh
cargo build --release --locked --quiet --manifest-path replay/Cargo.toml
# The commands on PATH, as the docs and the CLI's hints write them: links to this checkout's, so a
# rebuild is picked up without installing again.
if [ "$(id -u)" -eq 0 ]; then
  ln -sfn "$PWD/pagepath" /usr/local/bin/pagepath
  for b in pagepath-netprobe pagepath-fetch; do ln -sfn "$PWD/replay/target/release/$b" "/usr/local/bin/$b"; done
else
  echo "install: not root, so pagepath is not put on PATH: run it as $PWD/pagepath"
fi
echo "install: done ($(/usr/bin/chromium --version 2>/dev/null || echo 'chromium: not found'), node $(node --version))"
