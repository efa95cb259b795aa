#!/usr/bin/env bash
# Installs everything Quire needs on Debian (12 or newer) with Node 20+: the engines from Debian's
# packages, the npm packages from the lock file, and the built web app. Safe to run again: each
# step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(qpdf poppler-utils ghostscript mupdf-tools util-linux unzip fonts-dejavu-core)
# Conversions to PDF: LibreOffice driven over UNO from Debian's Python. Not the -nogui variants: they
# leave out the .ui layouts that a running LibreOffice still builds (a Writer document with a comment
# makes it abort without annotation.ui). Fonts: metric-compatible stand-ins for the Microsoft fonts,
# and one with Chinese, Japanese and Korean glyphs.
DEBIAN_PACKAGES+=(libreoffice-writer libreoffice-calc libreoffice-impress libreoffice-draw python3-uno
  fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-droid-fallback)
# LibreOffice cannot open an encrypted legacy PowerPoint (.ppt) even with its password: msoffcrypto-tool
# decrypts it first, in LibreOffice's jail.
DEBIAN_PACKAGES+=(python3-msoffcrypto-tool)
# The PDF editor's 21 font families (packages/contracts/src/fonts.ts): the fonts above, DejaVu and
# URW's base 35, found by fontconfig's fc-match.
DEBIAN_PACKAGES+=(fontconfig fonts-urw-base35)
# LibreOffice runs shut in (bubblewrap): it sees its job's files only, never the data folder.
DEBIAN_PACKAGES+=(bubblewrap)
# OCR: Tesseract page by page (OCRmyPDF for forced OCR and deskew, ADR 0110), its page-orientation model (osd) and the languages offered.
DEBIAN_PACKAGES+=(ocrmypdf tesseract-ocr tesseract-ocr-osd tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra
  tesseract-ocr-spa tesseract-ocr-por tesseract-ocr-jpn tesseract-ocr-chi-sim)
# Sign PDF: handwriting-like fonts for typed signatures, and openssl to open a PKCS#12 certificate.
DEBIAN_PACKAGES+=(fonts-dancingscript fonts-kaushanscript openssl)
# The AI tools without a model (ADR 0420): Apertium and the pairs that join the app's languages
# (English, Spanish, French, Portuguese, Italian, Catalan, Galician; others through Spanish; Debian
# has no pair for German, Japanese or Chinese), about 45 MB; Hunspell dictionaries; WordNet; GNU
# diction and style.
DEBIAN_PACKAGES+=(apertium apertium-eng-spa apertium-fr-es apertium-es-pt apertium-spa-ita apertium-eng-cat apertium-en-gl
  hunspell hunspell-en-us hunspell-en-gb hunspell-de-de hunspell-fr hunspell-es hunspell-pt-br hunspell-pt-pt hunspell-it
  hunspell-nl wordnet diction)
# Only the tests need the browser (end-to-end), zip (they build EPUB fixtures), ImageMagick (an
# image decoder independent of sharp, to check the image tools' outputs), jbig2dec (a JBIG2
# decoder independent of the readers, to check Compress's JBIG2 encoder) and zbar-tools (zbarimg
# reads a share's QR code back, independently of the encoder), libnss3-tools (certutil makes the NSS
# database in which pdfsig trusts the tests' own certificate authority).
if [ "${1:-}" = "--test" ]; then DEBIAN_PACKAGES+=(chromium zip imagemagick jbig2dec zbar-tools libnss3-tools); fi

missing=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The unprivileged user LibreOffice runs as when Quire runs as root.
if [ "$(id -u)" -eq 0 ] && ! id -u quire-office >/dev/null 2>&1; then
  echo "setup: adding the system user quire-office"
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin quire-office
fi

node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Quire needs Node 20.19 or newer"); process.exit(1) }'

# npm ci only when the lock file changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund
fi

# The shipped templates' PDFs, from their sources (only those whose source changed).
node scripts/build-templates.mjs

# Build the web app when any of its sources is newer than the build.
if [ ! -f apps/web/dist/index.html ] || [ -n "$(find apps/web/src apps/web/index.html apps/web/vite.config.ts packages/contracts/src -newer apps/web/dist/index.html -print -quit)" ]; then
  echo "setup: building the web app"
  npm run build --silent
fi
echo "setup: done"
