#!/usr/bin/env bash
# Makes assets/web/vendor/discord-embedded-app-sdk.js: Discord's Embedded App SDK (npm
# @discord/embedded-app-sdk, MIT) and the packages it imports, bundled with esbuild into one minified
# ES module that exports `DiscordSDK`, and assets/web/vendor/LICENSES.md beside it (the licence of every
# package in the bundle, with its version).
#
# Run it by hand to renew the committed files (`cargo build` never needs Node): it needs `npm` and the
# npm registry. Every version is pinned below, so running it again makes the same bytes.
set -euo pipefail

SDK_VERSION=2.5.0
ESBUILD_VERSION=0.25.0
# Only for its licence text: the SDK carries a copy of tslib's helpers.
TSLIB_VERSION=2.8.1
# The SDK's dependencies, pinned (the SDK asks for ranges; these are what it was bundled with).
PINNED='{
  "@types/lodash.transform": "4.6.9",
  "@types/lodash": "4.17.27",
  "@types/uuid": "10.0.0",
  "big-integer": "1.6.52",
  "decimal.js-light": "2.5.1",
  "eventemitter3": "5.0.4",
  "lodash.transform": "4.6.0",
  "uuid": "11.1.1",
  "zod": "3.25.76"
}'

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/assets/web/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

cat > package.json <<JSON
{
  "name": "sequence-bot-vendor",
  "private": true,
  "dependencies": {
    "@discord/embedded-app-sdk": "$SDK_VERSION",
    "esbuild": "$ESBUILD_VERSION",
    "tslib": "$TSLIB_VERSION"
  },
  "overrides": $PINNED
}
JSON
# No install scripts: esbuild's binary comes in its platform package (an optional dependency).
npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null

# Every pinned version is the one installed.
node -e '
  const want = JSON.parse(process.argv[1]);
  for (const [name, version] of Object.entries(want)) {
    let have = null;
    try { have = require(`./node_modules/${name}/package.json`).version; } catch (_) {}
    if (have !== null && have !== version) { console.error(`${name}: ${have}, not ${version}`); process.exit(1); }
  }' "$PINNED"

echo "export { DiscordSDK } from '@discord/embedded-app-sdk';" > entry.js
mkdir -p "$out"
./node_modules/.bin/esbuild entry.js --bundle --format=esm --minify --target=es2020 \
  --legal-comments=none --metafile=meta.json \
  --banner:js="/* @discord/embedded-app-sdk $SDK_VERSION (MIT) and the packages it imports, bundled by scripts/vendor-discord-sdk.sh with esbuild $ESBUILD_VERSION. Licences: LICENSES.md beside this file. */" \
  --outfile="$out/discord-embedded-app-sdk.js" --log-level=warning

# The licences of the packages whose code is in the bundle. The SDK's `output/` carries its own copies
# of the packages it imports (`output/lib/NAME/`, which esbuild's list of inputs names): each is listed
# with the version its copy says where it says one, and the licence text of that package as published
# (installed above at the pinned version; tslib only for its licence).
node -e '
  const fs = require("fs");
  const path = require("path");
  const meta = JSON.parse(fs.readFileSync("meta.json", "utf8"));
  const sdk = "@discord/embedded-app-sdk";
  const sdkDir = path.join("node_modules", sdk);
  const sdkPkg = JSON.parse(fs.readFileSync(path.join(sdkDir, "package.json"), "utf8"));
  const copies = new Map();
  for (const input of Object.keys(meta.inputs)) {
    const m = input.match(/embedded-app-sdk\/output\/lib\/((?:@[^/]+\/)?[^/]+)\//);
    if (!m) continue;
    const text = fs.readFileSync(input, "utf8");
    const said = text.match(/\bv(\d+\.\d+\.\d+)\b/);
    if (!copies.has(m[1]) || said) copies.set(m[1], said ? said[1] : copies.get(m[1]) || null);
  }
  const licence = (dir) => {
    const file = fs.readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    if (!file) { console.error(dir + ": no licence file"); process.exit(1); }
    return fs.readFileSync(path.join(dir, file), "utf8").trim();
  };
  const entries = [{ name: sdk, version: sdkPkg.version, spdx: sdkPkg.license, text: licence(sdkDir), note: "the SDK itself" }];
  for (const name of [...copies.keys()].sort()) {
    const dir = path.join("node_modules", name);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    const range = (sdkPkg.dependencies || {})[name];
    const said = copies.get(name);
    const version = said ? said : (range ? "as the SDK asks, " + range : "the SDK’s copy");
    entries.push({ name, version, spdx: pkg.license, text: licence(dir),
      note: "the SDK’s copy in output/lib/" + name + "; licence text of " + name + " " + pkg.version });
  }
  let text = "# Licences of discord-embedded-app-sdk.js\n\n" +
    "`discord-embedded-app-sdk.js` is Discord’s Embedded App SDK (npm `" + sdk + "` " + sdkPkg.version + "),\n" +
    "bundled into one minified ES module by `scripts/vendor-discord-sdk.sh` with esbuild " + process.argv[1] + ".\n" +
    "The SDK’s published files carry copies of the packages it uses; the bundle holds code of these\n" +
    "packages, each under the licence below.\n\n";
  for (const e of entries) text += "- `" + e.name + "` " + e.version + " (" + e.spdx + "): " + e.note + "\n";
  for (const e of entries) text += "\n## " + e.name + " " + e.version + " (" + e.spdx + ")\n\n```text\n" + e.text + "\n```\n";
  fs.writeFileSync(process.argv[2], text);
' "$ESBUILD_VERSION" "$out/LICENSES.md"

size=$(wc -c < "$out/discord-embedded-app-sdk.js")
gz=$(gzip -9 -c "$out/discord-embedded-app-sdk.js" | wc -c)
echo "assets/web/vendor/discord-embedded-app-sdk.js: $size bytes ($gz gzipped); licences in LICENSES.md"
