# syntax=docker/dockerfile:1
# Parley: one image for the server (default command) and the consolidation worker
# (`node dist/server/worker.js`). Build: docker build -t parley .

ARG NODE_IMAGE=node:20.19-bookworm-slim

# 0. Compilers for the native modules (better-sqlite3, koffi), shared by the next two stages.
FROM ${NODE_IMAGE} AS toolchain
ENV ONNXRUNTIME_NODE_INSTALL=skip
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc* ./

# 1. Compile TypeScript with the dev dependencies, and bundle the browser console (dist/console).
FROM toolchain AS build
RUN npm ci
COPY . .
RUN npx tsc -p . --outDir dist && npx tsc -p console && node dist/scripts/build-console.js

# 2. Production dependencies only (native modules built here, where the compilers are).
FROM toolchain AS deps
RUN npm ci --omit=dev && npm cache clean --force

# 3. Runtime: compiled JS, production node_modules, pocketsphinx, WordNet (plan matching); runs as an unprivileged user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    ONNXRUNTIME_NODE_INSTALL=skip \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    MODELS_DIR=/models
RUN apt-get update \
 && apt-get install -y --no-install-recommends pocketsphinx pocketsphinx-en-us wordnet-base tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system parley && useradd --system --gid parley --home-dir /app parley \
 && mkdir -p /data /models && chown parley:parley /data /models
WORKDIR /app
COPY --from=deps --chown=parley:parley /app/node_modules ./node_modules
COPY --from=build --chown=parley:parley /app/dist ./dist
COPY --chown=parley:parley package.json ./
# Learned parameters of the weight-free speaker embedder, read from the source tree at run time.
COPY --from=build --chown=parley:parley /app/pipelines/speaker/params ./pipelines/speaker/params
# The learned change model of each text embedder (PARLEY_CHANGE_CLASSIFIER), read the same way.
COPY --from=build --chown=parley:parley /app/pipelines/memory/params ./pipelines/memory/params
USER parley
EXPOSE 8080
VOLUME ["/data", "/models"]
# Models: mount them at /models, or fetch into it once, e.g.
#   docker run --rm -v parley-models:/models parley node dist/scripts/models.js fetch <name>
# (the bge-small-en-v1.5 models come from Maven Central, and this image has no mvn: add
#  -e PARLEY_MAVEN_REPOSITORY=https://repo1.maven.org/maven2)
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=4 \
  CMD node -e "const k=(process.env.PARLEY_API_KEYS||'').split(',')[0].split(':')[0];fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz',{headers:k?{authorization:'Bearer '+k}:{}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/main.js"]
