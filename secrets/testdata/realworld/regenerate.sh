#!/usr/bin/env bash
# Regenerates the real-world fixtures of secrets' and mcpservers' tests:
#   tools/<package>.json   each server's tools/list, listed offline
#   configs.json           the launch configs of the servers' READMEs
# from servers.json (package, pinned version, args and env for a start
# without network: fake credentials are generated per run, hosts are
# 127.0.0.1 on a closed port). Needs Node.js 20+, npm and Go; go test
# never runs it and needs no network.
#
#   bash secrets/testdata/realworld/regenerate.sh [MODULES_DIR]
#
# Each package is installed on its own, at its pinned version, without
# install scripts (no browser downloads: listing tools starts none), in
# MODULES_DIR/<package with @ dropped and / as __>. A server that does not
# start or list offline is reported and keeps its old fixture, if any.
set -euo pipefail
cd "$(dirname "$0")/../../.."
modules=${1:-${TMPDIR:-/tmp}/guardian-realworld}
mkdir -p "$modules"
node -e '
for (const s of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")))
  console.log(s.package + "@" + s.version + " " + s.package.replace("@", "").replace("/", "__"))
' secrets/testdata/realworld/servers.json | while read -r spec slug; do
	if [ -f "$modules/$slug/.installed-$spec" ]; then
		continue
	fi
	echo "== npm install $spec"
	rm -rf "$modules/$slug"
	if PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix "$modules/$slug" --ignore-scripts --no-audit --no-fund --loglevel=error "$spec"; then
		touch "$modules/$slug/.installed-$spec"
	else
		echo "== $spec: install failed" >&2
	fi
done
go run ./secrets/internal/realworld/capture -modules "$modules" -timeout 180s
go run ./secrets/internal/realworld/capture -modules "$modules" -configs secrets/testdata/realworld/configs.json
