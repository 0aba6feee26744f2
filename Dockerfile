# Production image. Needs MONGODB_URI (real MongoDB), SESSION_SECRET and SMTP_URL at run time;
# docs/deployment.md ("Docker") shows how to run it.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# Debian's Chromium prints the invoice and packing-slip PDFs (CHROME_PATH). Unpinned: the
# distribution's security updates for the browser must come in with every rebuild.
# hadolint ignore=DL3008
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-liberation \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data/avatars \
  && chown -R 1000:1000 /data
ENV NODE_ENV=production PORT=3000 CHROME_PATH=/usr/bin/chromium DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/public ./public
COPY --from=build --chown=node:node /app/scripts/migrations ./scripts/migrations
# Uploaded profile pictures live here (AVATAR_DIR defaults to $DATA_DIR/avatars): mount a volume,
# shared by every instance.
VOLUME ["/data"]
# The image's unprivileged "node" user (uid 1000), by number so the host can resolve it.
USER 1000:1000
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["sh", "-c", "if [ -z \"$MONGODB_URI\" ]; then echo 'MONGODB_URI is required: point it at your MongoDB' >&2; exit 1; fi; exec node build/server.js"]
