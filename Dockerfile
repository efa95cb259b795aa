# Quire on embedded defaults (SQLite, local disk, in-process queue). Not exercised by CI.
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends qpdf poppler-utils ghostscript mupdf-tools util-linux fonts-dejavu-core \
    libreoffice-writer libreoffice-calc libreoffice-impress libreoffice-draw python3-uno \
    fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-droid-fallback \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
COPY apps ./apps
RUN npm ci --no-audit --no-fund && npm run build
ENV QUIRE_DATA_DIR=/data PORT=8080
VOLUME /data
EXPOSE 8080
CMD ["npm", "start", "--silent"]
