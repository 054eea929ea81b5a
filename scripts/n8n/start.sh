#!/usr/bin/env bash
# Runs a real n8n with this package installed, for trying the nodes in the editor.
# Packs the built package (run `npm run build` first), installs the tarball into a private
# n8n user folder the way n8n installs community packages, and starts n8n on Node 24.
#
# Environment:
#   LIBREBOR_N8N_DEV_FOLDER  n8n user folder (default: <repo>/.n8n-dev); keeps workflows and credentials
#   N8N_PORT                 editor port (default 5678)
#   any other n8n setting is passed through
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
dev_folder="${LIBREBOR_N8N_DEV_FOLDER:-$repo_root/.n8n-dev}"

source "$script_dir/node24.sh"
node_bin="$(find_node24 "$repo_root")"
n8n_home="$("$script_dir/install.sh")"

missing_build="$(cd "$repo_root" && "$node_bin" -e '
	const { n8n } = require("./package.json");
	const files = [...(n8n.credentials ?? []), ...(n8n.nodes ?? [])];
	console.log(files.filter((file) => !require("fs").existsSync(file)).join(" "));
')"
if [[ -n "$missing_build" ]]; then
	echo "Build output missing ($missing_build): run npm run build first" >&2
	exit 1
fi

pack_dir="$(mktemp -d)"
tarball="$(cd "$repo_root" && PATH="$(dirname "$node_bin"):$PATH" npm pack --silent --pack-destination "$pack_dir" | tail -n 1)"
"$script_dir/install-package.sh" "$pack_dir/$tarball" "$dev_folder" >/dev/null
rm -rf "$pack_dir"

set -a
source "$script_dir/offline.env"
set +a
export N8N_USER_FOLDER="$dev_folder"

echo "n8n user folder: $dev_folder" >&2
exec "$node_bin" "$n8n_home/node_modules/n8n/bin/n8n" start
