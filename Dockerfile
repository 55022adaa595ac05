# tiny-claw-server, from this repository: docker build -t tiny-claw-server .
# See docs/deploy.md for the settings, volumes and running several replicas on PostgreSQL.

# Build: install the workspace, build it, and cut out the server with its production dependencies
# (the same pnpm deploy command the repository's deploy test runs).
FROM node:20-slim AS build
RUN npm install -g pnpm@10.34.8
WORKDIR /src
COPY . .
RUN pnpm install --frozen-lockfile \
 && pnpm build \
 && pnpm --filter @tiny-claw/server --config.inject-workspace-packages=true deploy --prod /app

# Run: Node 20 and the deployed folder only, as the unprivileged `node` user.
FROM node:20-slim
ENV NODE_ENV=production \
    TINY_CLAW_SERVER_HOST=0.0.0.0 \
    TINY_CLAW_SERVER_PORT=8000 \
    TINY_CLAW_STATE_DIR=/data/state \
    TINY_CLAW_WORKDIR=/data/work
COPY --from=build /app /app
RUN mkdir -p /data/state /data/work && chown -R node:node /data
USER node
WORKDIR /data/work
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8000/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/app/bin/tiny-claw-server.js"]
