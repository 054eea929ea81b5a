#!/usr/bin/env bash
# Installs a real n8n, outside this package, for end-to-end tests and `npm start`.
# Prints the folder that holds node_modules/n8n. Quick when already installed.
#
# Usage: install.sh [n8n version]   (default: the version the package is developed against)
#
# Environment:
#   LIBREBOR_N8N_VERSION  n8n version, when not given as an argument
#   LIBREBOR_N8N_HOME     install folder (default: ~/.cache/n8n-nodes-librebor/n8n-<version>)
#   LIBREBOR_N8N_QUIET    set to 1 to print only the folder
set -euo pipefail

N8N_VERSION="${1:-${LIBREBOR_N8N_VERSION:-2.41.1}}"

# Pinned versions of n8n's dependencies, where the version n8n asks for cannot be installed here.
overrides_for() {
	case "$1" in
	# Their n8n-nodes-base (seen in 1.123, 2.0 and 2.3) takes xlsx 0.20.2 from cdn.sheetjs.com, outside
	# the registry; 0.18.5 is the registry's latest.
	1.* | 2.[0-9].*) echo '"xlsx": "0.18.5"' ;;
	# linkedom 0.18.15, which n8n 2.41 asks for, depends on a package the registry lacks.
	2.41.*) echo '"linkedom": "0.18.12"' ;;
	esac
}

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
n8n_home="${LIBREBOR_N8N_HOME:-$HOME/.cache/n8n-nodes-librebor/n8n-$N8N_VERSION}"
marker="$n8n_home/.installed-n8n-version"

log() {
	if [[ "${LIBREBOR_N8N_QUIET:-0}" != 1 ]]; then echo "$*" >&2; fi
}

source "$script_dir/node24.sh"
node_bin="$(find_node24 "$repo_root")"

is_installed() {
	[[ -f "$marker" && "$(cat "$marker")" == "$N8N_VERSION" && -x "$n8n_home/node_modules/.bin/n8n" ]]
}

if is_installed; then
	echo "$n8n_home"
	exit 0
fi

mkdir -p "$n8n_home"
# Test workers may call this at the same time: one installs, the others wait and reuse it.
exec 9>"$n8n_home/.install.lock"
flock 9
if is_installed; then
	echo "$n8n_home"
	exit 0
fi

started=$SECONDS
log "Installing n8n $N8N_VERSION into $n8n_home (takes a few minutes the first time)"

cat >"$n8n_home/package.json" <<EOF
{
  "name": "n8n-nodes-librebor-n8n-runtime",
  "private": true,
  "description": "A real n8n for the end-to-end tests of n8n-nodes-librebor.",
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { $(overrides_for "$N8N_VERSION") }
}
EOF

# npm and node-gyp must see Node 24 (n8n requires it) and its headers, not the system's.
export PATH="$(dirname "$node_bin"):$PATH"
# Headers are needed only to build native modules, so only when installing.
node_dir="$(find_node24_headers "$repo_root")"
export npm_config_nodedir="$node_dir"
export npm_config_update_notifier=false
# Node 24 trusts only its own CA list, and the tests point NODE_EXTRA_CA_CERTS at the simulator's CA
# (a relative path, lost once the script changes folder): a registry reached through a proxy with a
# CA of the machine's own is then refused. The machine's CAs are the ones npm needs.
export NODE_OPTIONS="--use-system-ca${NODE_OPTIONS:+ $NODE_OPTIONS}"

cd "$n8n_home"
rm -f "$marker"
# Install scripts are off: one of them (a Kafka client's) downloads sources from the internet.
# The native modules n8n needs are then built explicitly against Node 24.
log "Downloading n8n and its dependencies with npm (about 2.9 GB on disk)"
npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
log "Building the native modules n8n needs (sqlite3, isolated-vm) for Node.js 24"
# Older n8n releases do not use isolated-vm.
native_modules=(sqlite3)
if [[ -d node_modules/isolated-vm ]]; then native_modules+=(isolated-vm); fi
npm rebuild "${native_modules[@]}" --no-audit --no-fund --loglevel=error >&2

log "Checking the installation"
# `n8n --version` answers without loading anything; loading the native modules proves the build.
for module in "${native_modules[@]}"; do "$node_bin" -e "require('$module')"; done
"$node_bin" node_modules/n8n/bin/n8n --version >/dev/null
echo "$N8N_VERSION" >"$marker"
log "Installed n8n $N8N_VERSION in $((SECONDS - started)) s"
echo "$n8n_home"
