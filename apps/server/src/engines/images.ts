// Images to one PDF, one page per image (per frame of a TIFF) in the order given, laid out by
// placeImage. A JPEG goes in as it is (no re-encoding), turned as its EXIF orientation says; other
// formats are decoded by MuPDF into a PDF page of their own first, which is drawn scaled.
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { ErrorCode, placeImage, QuireError, type ImageLayout } from '@quire/contracts';
import { readImageHeader, type ImageHeader } from './imageHeader.js';
import { checkDecodes, imageToPdf } from './mutool.js';
import type { EngineLimits } from './qpdf.js';

type Matrix = [number, number, number, number, number, number];

/**
 * EXIF orientation as a map of the unit square onto itself (PDF's y-up coordinates): where the
 * stored image must go to be seen upright. 5–8 also swap width and height.
 */
const orientationMatrix: Record<number, Matrix> = {
  1: [1, 0, 0, 1, 0, 0],
  2: [-1, 0, 0, 1, 1, 0], // mirrored
  3: [-1, 0, 0, -1, 1, 1], // upside down
  4: [1, 0, 0, -1, 0, 1], // mirrored upside down
  5: [0, -1, -1, 0, 1, 1], // transposed
  6: [0, -1, 1, 0, 0, 1], // turned 90° clockwise to be upright
  7: [0, 1, 1, 0, 0, 0], // transversed
  8: [0, 1, -1, 0, 1, 0], // turned 90° anticlockwise to be upright
};

// Baseline, extended and progressive JPEG are what PDF readers decode; lossless or hierarchical ones
// are left to MuPDF (which refuses those it cannot decode either).
const pdfJpegMarkers = new Set([0xc0, 0xc1, 0xc2]);

function drawWith(page: PDFPage, ref: PDFRef, ...matrices: Matrix[]) {
  const name = page.node.newXObject('Image', ref);
  page.pushOperators(pushGraphicsState(), ...matrices.map((m) => concatTransformationMatrix(...m)), drawObject(name), popGraphicsState());
}

async function addJpeg(doc: PDFDocument, file: string, header: ImageHeader, layout: ImageLayout) {
  const image = await doc.embedJpg(await fs.readFile(file));
  // Its size in points at the resolution it states (72 dpi when it states none), as seen upright.
  const dpi = header.dpi ?? { x: 72, y: 72 };
  const [w, h] = [(image.width * 72) / dpi.x, (image.height * 72) / dpi.y];
  const turned = header.orientation >= 5;
  const { page: size, box } = placeImage(turned ? h : w, turned ? w : h, layout);
  const page = doc.addPage(size);
  drawWith(page, image.ref, [box.width, 0, 0, box.height, box.x, box.y], orientationMatrix[header.orientation] ?? orientationMatrix[1]!);
}

async function addDecoded(doc: PDFDocument, file: string, workDir: string, layout: ImageLayout, limits: EngineLimits) {
  const pdf = path.join(workDir, `${path.basename(file)}.pdf`);
  await imageToPdf(file, pdf, limits);
  const source = await PDFDocument.load(await fs.readFile(pdf));
  await fs.rm(pdf, { force: true });
  for (const frame of await doc.embedPages(source.getPages())) {
    const { page: size, box } = placeImage(frame.width, frame.height, layout);
    const page = doc.addPage(size);
    drawWith(page, frame.ref, [box.width / frame.width, 0, 0, box.height / frame.height, box.x, box.y]);
  }
}

/**
 * Writes `out`: the images in order. Throws 3105 for an image that cannot be decoded; nothing is
 * written then. Each image is checked against the limits before (services/inputTypes.ts).
 */
export async function imagesToPdf(
  files: string[],
  layout: ImageLayout,
  out: string,
  workDir: string,
  limits: EngineLimits,
  progress: (percent: number) => void,
) {
  const doc = await PDFDocument.create();
  for (const [index, file] of files.entries()) {
    const header = await readImageHeader(file);
    if (!header) throw new QuireError(ErrorCode.Unreadable);
    if (header.format === 'jpeg' && pdfJpegMarkers.has(header.jpegFrameMarker ?? 0)) {
      await checkDecodes(file, limits);
      await addJpeg(doc, file, header, layout);
    } else {
      await addDecoded(doc, file, workDir, layout, limits);
    }
    progress(((index + 1) / files.length) * 90);
  }
  await fs.writeFile(out, await doc.save());
}
