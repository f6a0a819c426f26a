#!/usr/bin/env bash
# Sets up everything Giftbatch needs on this machine, and does nothing when it is already done.
#   bash .ci/setup.sh app    what `npm start` needs: build tools and libsecret for the native modules
#   bash .ci/setup.sh test   also Chromium, gnome-keyring and D-Bus for the test suites
# Called by `npm start` (prestart), `npm run web` (preweb), `npm run giftbatch` (pregiftbatch) and
# `npm test` (pretest), so the README's commands work on a fresh Debian/Ubuntu machine, in any order.
# System packages are installed with apt-get when running as root; otherwise the exact command to
# run is printed and setup stops.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-app}"
say() { printf 'setup: %s\n' "$*" >&2; }

# --- Node -------------------------------------------------------------------------------------
node_ok=$(node -e 'const [a,b]=process.versions.node.split(".").map(Number); console.log((a===20&&b>=19)||(a===22&&b>=12)||a>22?1:0)' 2>/dev/null || echo 0)
if [ "$node_ok" != 1 ]; then
  say "Giftbatch needs Node.js 20.19+ or 22.12+ (found: $(node --version 2>/dev/null || echo none)). Install it from https://nodejs.org and run this again."
  exit 1
fi

# --- System packages ----------------------------------------------------------------------------
# command or file that proves the package is there | Debian package
checks=(
  "python3|python3"
  "make|make"
  "g++|g++"
  "pkg-config|pkg-config"
  "/usr/include/libsecret-1/libsecret/secret.h|libsecret-1-dev"
)
if [ "$mode" = test ]; then
  checks+=(
    "/usr/bin/chromium|chromium"
    "gnome-keyring-daemon|gnome-keyring"
    "dbus-run-session|dbus"
  )
fi
missing=()
for check in "${checks[@]}"; do
  probe="${check%%|*}"; pkg="${check##*|}"
  if [[ "$probe" == /* ]]; then [ -e "$probe" ] || missing+=("$pkg")
  else command -v "$probe" >/dev/null 2>&1 || missing+=("$pkg"); fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "missing system packages: ${missing[*]} (Debian names). Install their equivalents with your package manager, then run this again."
    exit 1
  fi
  if [ "$(id -u)" != 0 ]; then
    say "missing system packages. Run this, then run the same command again:"
    printf '  sudo apt-get update && sudo apt-get install -y %s\n' "${missing[*]}" >&2
    exit 1
  fi
  say "installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- npm packages -------------------------------------------------------------------------------
# Electron's own binary comes from GitHub, which may be unreachable: never let it break the install
# (package.json's allowScripts also says electron: false). `npm start` fetches it on demand.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
stamp=node_modules/.giftbatch-setup
want="$(sha256sum package-lock.json | cut -d' ' -f1) node-$(node -p process.versions.modules)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing npm packages (native modules build from source: a few minutes the first time)"
  npm ci --no-audit --no-fund --loglevel=error >&2
  echo "$want" > "$stamp"
fi

# --- Native modules for Node's ABI ----------------------------------------------------------------
# `npm start` may have rebuilt better-sqlite3 and keytar for Electron's ABI; the CLI, the browser
# shell and the tests run under Node and need them built for Node again.
if ! node -e 'new (require("better-sqlite3"))(":memory:").close(); require("keytar")' >/dev/null 2>&1; then
  say "rebuilding native modules for Node $(node --version)"
  npm rebuild better-sqlite3 keytar --loglevel=error >&2
fi
