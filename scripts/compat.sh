#!/usr/bin/env bash
# Proves on which n8n releases the package works (`npm run test:compat`; not part of CI): installs
# each release into the end-to-end harness (scripts/n8n/install.sh <version>: a few minutes and about
# 3 GB each, the first time) and runs there the end-to-end tests that install the packed package,
# load it, run every operation of the LibreBOR node and the LibreBOR Trigger in a published workflow.
#
# Usage: scripts/compat.sh [n8n version...]
#   default: the last 1.x release, an early 2.x release and the one the package is developed against
#   (n8n 2.0 and 2.1 keep no version history for workflows imported with `n8n import:workflow`, so the
#   trigger's workflows cannot be published there: 2.3 is the earliest 2.x these tests run on in full)
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

versions=("$@")
if [[ ${#versions[@]} -eq 0 ]]; then versions=(1.123.81 2.3.6 2.41.1); fi
# The operations test runs every operation of the LibreBOR node in one `n8n execute`. Two of its checks
# read the `bytes` field that recent n8n releases add to binary data (n8n 1.123 and 2.0 give only a
# rounded `fileSize`): left out here.
operations_checks='^(?!.*(document Download waits|document Order with Download))'

e2e() {
	LIBREBOR_N8N_VERSION="$1" NODE_EXTRA_CA_CERTS=tools/simulator/tls/ca.pem npx vitest run "${@:2}"
}

results=()
for version in "${versions[@]}"; do
	echo "== n8n $version" >&2
	if ! bash scripts/n8n/install.sh "$version" >/dev/null; then
		results+=("n8n $version: could not be installed")
		continue
	fi
	if e2e "$version" test/e2e/packageLoads.e2e.test.mts test/e2e/trigger.e2e.test.mts &&
		e2e "$version" test/e2e/operations.e2e.test.mts -t "$operations_checks"; then
		results+=("n8n $version: works")
	else
		results+=("n8n $version: FAILS (see above)")
	fi
done

printf '\n'
printf '%s\n' "${results[@]}"
! printf '%s\n' "${results[@]}" | grep -qv ': works$'
