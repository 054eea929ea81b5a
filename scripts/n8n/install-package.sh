#!/usr/bin/env bash
# Installs a community package tarball (`npm pack` output) into an n8n user folder,
# the way n8n 2.41's own installer does it (CommunityPackagesService.downloadPackage):
# unpack into .n8n/nodes/node_modules/<name>, drop dev, peer and optional dependencies
# from its package.json, `npm install` its runtime dependencies there without scripts,
# and record it in the .n8n/nodes/package.json ledger.
# n8n also keeps a row in its database for packages installed from the editor; without it
# the package still loads (as after a manual install) but is not listed in Settings.
#
# Usage: install-package.sh <package.tgz> <n8n user folder (N8N_USER_FOLDER)>
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "Usage: $0 <package.tgz> <n8n user folder>" >&2
	exit 2
fi
tarball="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
user_folder="$2"

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
source "$script_dir/node24.sh"
node_bin="$(find_node24 "$repo_root")"
export PATH="$(dirname "$node_bin"):$PATH"

nodes_folder="$user_folder/.n8n/nodes"
ledger="$nodes_folder/package.json"
mkdir -p "$nodes_folder/node_modules"

read_manifest() {
	tar -xzOf "$tarball" package/package.json |
		node -e 'const p = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(p.name); console.log(p.version)'
}
manifest="$(read_manifest)"
package_name="$(sed -n 1p <<<"$manifest")"
package_version="$(sed -n 2p <<<"$manifest")"

# n8n only loads folders named n8n-nodes-* or @scope/n8n-nodes-*.
if [[ ! "$package_name" =~ ^(@[a-z0-9][a-z0-9._-]*/)?n8n-nodes-[a-z0-9._-]+$ ]]; then
	echo "Not a loadable community package name: $package_name" >&2
	exit 1
fi

package_dir="$nodes_folder/node_modules/$package_name"
rm -rf "$package_dir"
mkdir -p "$package_dir"
tar -xzf "$tarball" -C "$package_dir" --strip-components=1

node - "$package_dir/package.json" <<'EOF'
const fs = require('fs');
const file = process.argv[2];
const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
	fs.readFileSync(file, 'utf8'),
);
fs.writeFileSync(file, JSON.stringify(manifest, null, 2), 'utf8');
EOF

(cd "$package_dir" && npm install --audit=false --fund=false --bin-links=false \
	--install-strategy=shallow --ignore-scripts=true --package-lock=false \
	--loglevel=error --update-notifier=false >&2)

node - "$ledger" "$package_name" "$package_version" <<'EOF'
const fs = require('fs');
const [file, name, version] = process.argv.slice(2);
let ledger = null;
try {
	ledger = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch {}
if (!ledger || typeof ledger.dependencies !== 'object') {
	ledger = { name: 'installed-nodes', private: true, dependencies: {} };
}
ledger.dependencies[name] = version;
fs.writeFileSync(file, JSON.stringify(ledger, null, 2), 'utf8');
EOF

echo "$package_dir"
