#!/usr/bin/env bash
# Generates the test certificate authority and the localhost server certificate used by the
# LibreBOR simulator (tools/simulator/tls). The files are committed as test fixtures; run this
# again only to replace them. Clients trust the simulator through NODE_EXTRA_CA_CERTS=.../ca.pem.
# The CA key is thrown away so that nothing else can ever be signed with this CA.
set -euo pipefail

out_dir="$(cd "$(dirname "$0")/.." && pwd)/tools/simulator/tls"
days=36500
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$out_dir"

# A self-signed certificate and its key: self_signed <subject> <key file> <certificate file> [-addext <extension>]...
self_signed() {
	local subject="$1" key="$2" certificate="$3"
	shift 3
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$days" -subj "$subject" "$@" \
		-keyout "$key" -out "$certificate" 2>/dev/null
}

self_signed "/CN=LibreBOR Simulator Test CA" "$work/ca-key.pem" "$work/ca.pem" \
	-addext "basicConstraints=critical,CA:TRUE" \
	-addext "keyUsage=critical,keyCertSign,cRLSign"

openssl req -newkey rsa:2048 -nodes -sha256 \
	-subj "/CN=localhost" \
	-keyout "$work/server-key.pem" -out "$work/server.csr" 2>/dev/null

cat >"$work/server.ext" <<'EOF'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1
EOF

openssl x509 -req -sha256 -days "$days" \
	-in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca-key.pem" -CAcreateserial \
	-extfile "$work/server.ext" -out "$work/server.pem" 2>/dev/null

cp "$work/ca.pem" "$work/server.pem" "$work/server-key.pem" "$out_dir/"
chmod 644 "$out_dir/ca.pem" "$out_dir/server.pem" "$out_dir/server-key.pem"

# A self-signed localhost certificate that no client trusts: a simulator started with
# tlsDir: tools/simulator/tls/untrusted stands for a server whose certificate n8n refuses.
mkdir -p "$out_dir/untrusted"
self_signed "/CN=localhost" "$out_dir/untrusted/server-key.pem" "$out_dir/untrusted/server.pem" \
	-addext "basicConstraints=critical,CA:FALSE" \
	-addext "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1"
chmod 644 "$out_dir/untrusted/server.pem" "$out_dir/untrusted/server-key.pem"

echo "Wrote $out_dir/{ca.pem,server.pem,server-key.pem,untrusted/}"
