# Build stage: compile TypeScript with the dev dependencies.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# Runtime stage: production dependencies and the compiled code only, run as the image's non-root user.
FROM node:24-slim
# Inside a container Prometheus reaches /metrics over the container network, not loopback.
ENV NODE_ENV=production BRIDGE_METRICS_HOST=any
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Only the shipped flows and the settings template: never a local .env or config/settings.* (secrets).
COPY config/flows.yaml config/example.env ./config/
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# A standby answers /healthz too, so the check holds for both roles (/readyz is the active one only).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.BRIDGE_HTTP_PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/cli.js", "start"]
