# Quire on embedded defaults (SQLite, local disk, in-process queue). Not exercised by CI.
# scripts/setup.sh is the one list of what Quire needs: Debian packages, npm packages, the web build.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
COPY apps ./apps
COPY scripts ./scripts
COPY templates ./templates
RUN bash scripts/setup.sh && rm -rf /var/lib/apt/lists/*
# The server runs as the image's unprivileged user (node); the data folder is the only place it writes.
RUN mkdir -p /data && chown node:node /data
ENV QUIRE_DATA_DIR=/data PORT=8080
VOLUME /data
USER node
EXPOSE 8080
# Conversions to PDF run LibreOffice in a bubblewrap jail, which makes user and mount namespaces:
# Docker's default seccomp and AppArmor profiles forbid them, so run with
# --security-opt seccomp=unconfined --security-opt apparmor=unconfined (compose.yaml does) or profiles
# that allow them; without them Quire refuses conversions to PDF rather than let a document read
# the server's files.
CMD ["npm", "start", "--silent"]
