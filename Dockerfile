# Quire on embedded defaults (SQLite, local disk, in-process queue). Not exercised by CI.
# scripts/setup.sh is the one list of what Quire needs: Debian packages, npm packages, the web build.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
COPY apps ./apps
COPY scripts ./scripts
RUN bash scripts/setup.sh && rm -rf /var/lib/apt/lists/*
ENV QUIRE_DATA_DIR=/data PORT=8080
VOLUME /data
EXPOSE 8080
CMD ["npm", "start", "--silent"]
