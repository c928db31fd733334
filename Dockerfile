# syntax=docker/dockerfile:1
# The service in a container (docs/decisions/0112). `docker compose up` runs it next to
# EventStoreDB, MongoDB and OpenSearch; alone it runs on the embedded SQLite stores in /data:
#   docker build -t eventsourced-cms . && docker run -p 3000:3000 -p 3001:3001 -v cms-data:/data eventsourced-cms

# 1. build: compile the native module (from source, nothing downloaded but npm packages) and
#    the TypeScript sources, then drop the development dependencies.
FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# 2. runtime: the built output and production dependencies only, as the unprivileged node user.
#    NODE_OPTIONS: the heap limit `npm start` passes too (docs/decisions/0220); -e NODE_OPTIONS=... replaces it.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DELIVERY_PORT=3001 \
    DATA_DIR=/data \
    NODE_OPTIONS="--max-old-space-size=1024 --max-semi-space-size=16"
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000 3001
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# node runs as PID 1 and handles SIGTERM itself: in-flight requests finish, projections checkpoint.
# The bundle `npm start` runs: one module to load instead of about a thousand (docs/decisions/0382).
CMD ["node", "dist/infra/service-bundle/main.js"]
