// Compress's structure-preserving rewrite: the document stays as it is (form fields, annotations,
// outlines, attachments, tagged structure, text) while its images are downsampled to the level's
// resolution and re-encoded as JPEG by mozjpeg (through sharp), photographs kept without loss
// stored as JPEG, its black-and-white images re-encoded as JBIG2 (without loss up to 1.5 times the
// level's mono resolution), its fonts subset to the glyphs the pages use, the padding taken out of
// its XMP metadata, and identical objects merged when it is saved.
import fs from 'node:fs';
import zlib from 'node:zlib';
import type * as mupdf from 'mupdf';
import type SharpModule from 'sharp';
import { packedPixels } from '../pixmapPixels.js';
import { encodeJbig2 } from './jbig2.js';
import type { ImagePlacement, JobResults, OptimizeJob } from './jobs.js';
import { openPdf, progress } from './program.js';

/** Re-encoding a JPEG without downsampling costs a generation of loss: it is kept only for this much gain. */
const REENCODE_GAIN = 0.9;
/**
 * A lossless image at its own resolution is tried as JPEG only when it is a photograph: deflate
 * keeps at least this share of its samples. Photos keep 56–80 % (blendmode.pdf), drawn art,
 * charts and screenshots under 10 %, where JPEG would blur edges for little gain.
 */
const PHOTO_MIN_DEFLATED_SHARE = 0.3;
/** …and holds this much: below it a JPEG's own headers eat the gain. */
const MIN_PHOTO_BYTES = 4 * 1024;
/** …and becomes one only when the JPEG is this much smaller. */
const LOSSLESS_TO_JPEG_GAIN = 0.25;

type Doc = mupdf.PDFDocument;
type Obj = mupdf.PDFObject;

/** What one run keeps between images: the encoder, and the soft and explicit masks already done (several images may share one). */
interface Run {
  sharp: typeof SharpModule;
  masksDone: Set<number>;
}

const filtersOf = (stream: Obj): string[] => {
  const f = stream.get('Filter');
  if (f.isArray()) return Array.from({ length: f.length }, (_, i) => f.get(i).asName());
  return f.isName() ? [f.asName()] : [];
};

const lastFilter = (stream: Obj): string => filtersOf(stream).at(-1) ?? '';

/** How many colour channels a PDF colour space holds that JPEG carries as they are (grey or RGB), or null. */
function plainChannels(space: Obj): 1 | 3 | null {
  if (space.isName()) return space.asName() === 'DeviceGray' ? 1 : space.asName() === 'DeviceRGB' ? 3 : null;
  // An ICC profile of one or three components: the samples stay in it, so the profile stays too.
  if (space.isArray() && space.get(0).asName() === 'ICCBased') {
    const n = space.get(1).get('N').asNumber();
    return n === 1 || n === 3 ? n : null;
  }
  return null;
}

/**
 * The colour space of the image's decoded pixels as a JPEG would hold them, or null when they
 * cannot go into one faithfully (CMYK, Lab, Separation, DeviceN): a palette image decodes to its
 * base colour space, a JPEG 2000 without a /ColorSpace to the one its codestream declares.
 */
function jpegSpace(doc: Doc, image: Obj, pixmap: mupdf.Pixmap): { space: Obj; channels: 1 | 3 } | null {
  let space = image.get('ColorSpace');
  if (space.isArray() && space.get(0).asName() === 'Indexed') space = space.get(1);
  let channels = plainChannels(space);
  if (space.isNull()) {
    const decoded = pixmap.getColorSpace();
    channels = decoded?.isGray() ? 1 : decoded?.isRGB() ? 3 : null;
    space = doc.newName(channels === 1 ? 'DeviceGray' : 'DeviceRGB');
  }
  if (channels === null || pixmap.getAlpha() || pixmap.getNumberOfComponents() !== channels) return null;
  return { space, channels };
}

/**
 * Whether the image holds one bit per pixel: a stencil mask, or one component of one bit (grey,
 * a two-colour palette, a separation). JBIG2 can code its samples as they are.
 */
function isBitonal(doc: Doc, image: Obj): boolean {
  if (image.get('ImageMask').asBoolean()) return true;
  if (image.get('BitsPerComponent').asNumber() !== 1) return false;
  return doc.loadImage(image).getNumberOfComponents() === 1;
}

/** The codings a bitonal image may be stored in that JBIG2 replaces: lossless ones, which it beats on scans. */
const JBIG2_REPLACES = new Set(['FlateDecode', 'LZWDecode', 'RunLengthDecode', 'CCITTFaxDecode', 'ASCIIHexDecode', 'ASCII85Decode']);

/** One-channel pixels resized by libvips to `w` × `h`, still one channel: libvips hands three back unless told the image is grey. */
function resizedGrey({ sharp }: Run, grey: Buffer, width: number, height: number, w: number, h: number, kernel: 'linear' | 'lanczos3') {
  return sharp(grey, { raw: { width, height, channels: 1 } })
    .resize(w, h, { fit: 'fill', kernel })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
}

/** A bitonal image is downsampled only when drawn at more than this many times the level's mono resolution: smaller steps would move edges for little gain. */
const MONO_DOWNSAMPLE_FROM = 1.5;

/**
 * 1-bit samples downsampled from `width` × `height` to `w` × `h`: each new pixel takes the value
 * that most of the area it covers has (grey averaged, then thresholded at half), so strokes keep
 * their weight.
 */
async function downsampledBitonal(samples: Uint8Array, width: number, height: number, w: number, h: number, run: Run) {
  const stride = Math.ceil(width / 8);
  const grey = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) grey[y * width + x] = ((samples[y * stride + (x >> 3)]! >> (7 - (x & 7))) & 1) * 255;
  const small = await resizedGrey(run, grey, width, height, w, h, 'linear');
  const out = new Uint8Array(Math.ceil(w / 8) * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) if (small[y * w + x]! >= 128) out[y * Math.ceil(w / 8) + (x >> 3)]! |= 0x80 >> (x & 7);
  return out;
}

/**
 * Re-encodes a bitonal image as JBIG2 when that is smaller: 'lossless' or 'downsampled' when it
 * did, null when not. Drawn at no more than 1.5 times the level's mono resolution it keeps its
 * samples exactly (engines/mupdf/jbig2.ts: a lossless generic region, no symbol matching), so
 * /Decode, the colour space, a colour-key /Mask and an /ImageMask draw as before; above that, it
 * comes down to the mono resolution first, in the same sample values.
 */
async function toJbig2(
  doc: Doc,
  image: Obj,
  placement: ImagePlacement,
  job: OptimizeJob,
  run: Run,
): Promise<'lossless' | 'downsampled' | null> {
  if (!filtersOf(image).every((f) => JBIG2_REPLACES.has(f))) return null;
  const [width, height] = [image.get('Width').asNumber(), image.get('Height').asNumber()];
  const bytes = Math.ceil(width / 8) * height;
  // A copy: the view into MuPDF's memory moves when the next call grows it.
  const samples = image.readStream().asUint8Array().slice(0, bytes);
  // Readers fill a short stream differently: a complete one would draw what none of them drew.
  if (!(bytes > 0) || samples.length < bytes) return null;
  // The repack after this deflates (again, at level 9) every stream that is not CCITT: that is what
  // JBIG2 must beat, besides what is stored. Flate wins on some drawn art: rows repeated exactly.
  const lossless = Math.min(image.readRawStream().length, zlib.deflateSync(samples, { level: 9 }).length);
  const [xScale, yScale] = [job.monoDpi / placement.xPpi, job.monoDpi / placement.yPpi];
  const [w, h] = Math.min(xScale, yScale) * MONO_DOWNSAMPLE_FROM < 1 ? targetSize(width, height, xScale, yScale) : [width, height];
  const downsampled = w < width || h < height;
  const jbig2 = encodeJbig2(downsampled ? await downsampledBitonal(samples, width, height, w, h, run) : samples, w, h);
  if (jbig2.length >= lossless) return null;
  image.delete('DecodeParms');
  image.put('Filter', doc.newName('JBIG2Decode'));
  image.put('Width', doc.newInteger(w));
  image.put('Height', doc.newInteger(h));
  image.writeRawStream(jbig2);
  return downsampled ? 'downsampled' : 'lossless';
}

/**
 * The image's explicit mask (a /Mask stencil, not yet seen in this run) and where it is drawn:
 * over the image, so at the image's resolution scaled by their widths and heights. pdfimages
 * lists it under its image only; it is a bitonal image like any other.
 */
function explicitMask(image: Obj, placement: ImagePlacement, run: Run): { stencil: Obj; placement: ImagePlacement } | null {
  const stencil = image.get('Mask');
  if (!stencil.isStream() || !stencil.get('ImageMask').asBoolean() || run.masksDone.has(stencil.asIndirect())) return null;
  run.masksDone.add(stencil.asIndirect());
  const scale = (key: string) => stencil.get(key).asNumber() / image.get(key).asNumber();
  return {
    stencil,
    placement: { object: stencil.asIndirect(), xPpi: placement.xPpi * scale('Width'), yPpi: placement.yPpi * scale('Height') },
  };
}

/** Whether recompressing the image could change how it looks beyond its resolution and JPEG's loss. */
function mustStayAsIs(image: Obj): boolean {
  const smask = image.get('SMask');
  return (
    image.get('BitsPerComponent').asNumber() === 1 || // one-bit colour: flat art that JPEG would blur (bitonal images go to toJbig2)
    image.get('Mask').isArray() || // colour-key masking matches exact sample values, which JPEG moves
    image.get('SMaskInData').asNumber() > 0 ||
    (smask.isStream() && !smask.get('Matte').isNull()) // pre-multiplied colours
  );
}

const decodedPixels = (doc: Doc, image: Obj) => doc.loadImage(image).toPixmap();

/** The size an image of `width` × `height` pixels, placed at `placement`'s resolution, takes at `dpi`. */
function targetSize(width: number, height: number, xScale: number, yScale: number) {
  return [Math.max(1, Math.round(width * Math.min(1, xScale))), Math.max(1, Math.round(height * Math.min(1, yScale)))] as const;
}

/** Downsamples a soft mask by the scale its image got; it stays lossless (Flate when saved), as edges of transparency must. */
async function shrinkMask(doc: Doc, smask: Obj, xScale: number, yScale: number, run: Run) {
  const [width, height] = [smask.get('Width').asNumber(), smask.get('Height').asNumber()];
  const [w, h] = targetSize(width, height, xScale, yScale);
  if (w === width && h === height) return;
  const pixmap = decodedPixels(doc, smask);
  if (pixmap.getNumberOfComponents() !== 1 || pixmap.getAlpha()) return;
  const grey = await resizedGrey(run, packedPixels(pixmap), width, height, w, h, 'lanczos3');
  for (const key of ['Filter', 'DecodeParms', 'Decode']) smask.delete(key);
  smask.put('Width', doc.newInteger(w));
  smask.put('Height', doc.newInteger(h));
  smask.put('BitsPerComponent', doc.newInteger(8));
  smask.writeStream(grey);
}

/** What recompress did to an image: brought it down to the level's resolution, re-encoded a JPEG or JPEG 2000 as a smaller JPEG, or stored a lossless photograph as JPEG. */
type Recompressed = 'downsampled' | 'reencoded' | 'photo';

/** Whether a lossless image is a photograph worth a JPEG (PHOTO_MIN_DEFLATED_SHARE). */
const isPhoto = (image: Obj, stored: number) => stored >= MIN_PHOTO_BYTES && stored >= PHOTO_MIN_DEFLATED_SHARE * image.readStream().length;

/** Replaces the image by a smaller JPEG at the target resolution; says how, or null when it did not. */
async function recompress(doc: Doc, image: Obj, placement: ImagePlacement, job: OptimizeJob, run: Run): Promise<Recompressed | null> {
  if (mustStayAsIs(image)) return null;
  const [width, height] = [image.get('Width').asNumber(), image.get('Height').asNumber()];
  const [xScale, yScale] = [job.targetDpi / placement.xPpi, job.targetDpi / placement.yPpi];
  const [w, h] = targetSize(width, height, xScale, yScale);
  const downsampled = w < width || h < height;
  const stored = image.readRawStream().length;
  const lossy = ['DCTDecode', 'JPXDecode'].includes(lastFilter(image));
  if (!downsampled && !lossy && !isPhoto(image, stored)) return null;
  const pixmap = decodedPixels(doc, image);
  const out = jpegSpace(doc, image, pixmap);
  if (!out) return null;
  const jpeg = await run
    .sharp(packedPixels(pixmap), { raw: { width: pixmap.getWidth(), height: pixmap.getHeight(), channels: out.channels } })
    .resize(w, h, { fit: 'fill' })
    // libvips writes one channel as three unless told the image is grey.
    .toColourspace(out.channels === 1 ? 'b-w' : 'srgb')
    .jpeg({ quality: job.jpegQuality, mozjpeg: true, chromaSubsampling: job.chromaSubsampling ? '4:2:0' : '4:4:4' })
    .toBuffer();
  const worth = downsampled ? stored : stored * (lossy ? REENCODE_GAIN : LOSSLESS_TO_JPEG_GAIN);
  if (jpeg.length >= worth) return null;
  for (const key of ['DecodeParms', 'Decode', 'SMaskInData']) image.delete(key);
  image.put('Filter', doc.newName('DCTDecode'));
  image.put('ColorSpace', out.space);
  image.put('Width', doc.newInteger(w));
  image.put('Height', doc.newInteger(h));
  image.put('BitsPerComponent', doc.newInteger(8));
  image.writeRawStream(jpeg);
  const smask = image.get('SMask');
  if (smask.isStream() && !run.masksDone.has(smask.asIndirect())) {
    run.masksDone.add(smask.asIndirect());
    await shrinkMask(doc, smask, w / width, h / height, run);
  }
  return downsampled ? 'downsampled' : lossy ? 'reencoded' : 'photo';
}

const SUBSET_NAME = /^[A-Z]{6}\+/;

/** Object numbers of the font dictionaries whose name says they hold a whole font. */
function wholeFonts(doc: Doc): Set<number> {
  const fonts = new Set<number>();
  for (let num = 1; num < doc.countObjects(); num++) {
    const obj = doc.newIndirect(num);
    // A composite font's descendant carries the same name: each font counts once.
    if (!obj.isDictionary() || obj.get('Type').asName() !== 'Font' || obj.get('Subtype').asName().startsWith('CIDFont')) continue;
    if (!SUBSET_NAME.test(obj.get('BaseFont').asName())) fonts.add(num);
  }
  return fonts;
}

/** Whether a font dictionary carries its font program (a composite font's is in its descendant). */
function embedsProgram(font: Obj): boolean {
  const program = font.get('Subtype').asName() === 'Type0' ? font.get('DescendantFonts').get(0) : font;
  if (!program.isDictionary()) return false;
  const descriptor = program.get('FontDescriptor');
  return descriptor.isDictionary() && ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.get(key).isStream());
}

const TYPED_FIELDS = new Set(['Tx', 'Ch']);

/**
 * The names (in AcroForm /DR) of the fonts someone filling the form in types with: those of the
 * default appearances (/DA) of its text and choice fields. A button's caption is drawn once.
 */
function typedFontNames(doc: Doc): Set<string> {
  const names = new Set<string>();
  const seen = new Set<number>();
  const form = doc.getTrailer().get('Root', 'AcroForm');
  const walk = (fields: Obj, type: string, da: string) => {
    for (let i = 0; i < fields.length; i++) {
      const field = fields.get(i);
      // A damaged form may loop through /Kids.
      if (!field.isDictionary() || seen.has(field.asIndirect())) continue;
      if (field.asIndirect()) seen.add(field.asIndirect());
      const ownType = field.get('FT').isName() ? field.get('FT').asName() : type;
      const ownDa = field.get('DA').isString() ? field.get('DA').asString() : da;
      const font = /\/([^\s/]+)\s+[-+\d.]+\s+Tf/.exec(ownDa)?.[1];
      if (TYPED_FIELDS.has(ownType) && font) names.add(font);
      if (field.get('Kids').isArray()) walk(field.get('Kids'), ownType, ownDa);
    }
  };
  if (form.isDictionary()) walk(form.get('Fields'), '', form.get('DA').isString() ? form.get('DA').asString() : '');
  return names;
}

/**
 * The fonts the form's fields are typed in keep every glyph (those embedded whole): the form's
 * resources (AcroForm /DR) get their own copy of them, which no page draws with.
 */
function keepFormFonts(doc: Doc, file: string) {
  const fonts = doc.getTrailer().get('Root', 'AcroForm', 'DR', 'Font');
  if (!fonts.isDictionary()) return;
  const names = [...typedFontNames(doc)].filter((name) => {
    const font = fonts.get(name);
    return font.isDictionary() && !SUBSET_NAME.test(font.get('BaseFont').asName()) && embedsProgram(font);
  });
  if (!names.length) return;
  const original = openPdf(file).getTrailer().get('Root', 'AcroForm', 'DR', 'Font');
  const copies = doc.newGraftMap();
  for (const name of names) fonts.put(name, copies.graftObject(original.get(name)));
}

/** Subsets the fonts to the glyphs the pages draw; returns how many were. */
function subsetFonts(doc: Doc, file: string): number {
  keepFormFonts(doc, file);
  const before = wholeFonts(doc);
  doc.subsetFonts();
  const after = wholeFonts(doc);
  return [...before].filter((num) => !after.has(num)).length;
}

/** The blank padding of an XMP packet, kept for editing it in place: whitespace before its end marker. */
const XMP_PADDING = /\s{2,}(<\?xpacket end=)/;

/**
 * Takes the padding out of the document's XMP metadata streams (often 2 KB of spaces each); the
 * packets stay whole and readable. They stay unfiltered: PDF/A wants them so, and qpdf's repack
 * writes them so anyway. Returns how many were trimmed.
 */
function trimMetadata(doc: Doc): number {
  let trimmed = 0;
  for (let num = 1; num < doc.countObjects(); num++) {
    const obj = doc.newIndirect(num);
    if (!obj.isStream() || obj.get('Type').asName() !== 'Metadata' || filtersOf(obj).length) continue;
    const xml = Buffer.from(obj.readStream().asUint8Array()).toString('latin1');
    if (!XMP_PADDING.test(xml)) continue;
    obj.writeStream(Buffer.from(xml.replace(XMP_PADDING, '\n$1'), 'latin1'));
    trimmed++;
  }
  return trimmed;
}

export async function optimize(job: OptimizeJob): Promise<JobResults['optimize']> {
  let doc = openPdf(job.input);
  let fontsSubset = 0;
  try {
    fontsSubset = subsetFonts(doc, job.input);
  } catch (e) {
    // A font MuPDF cannot subset leaves the document as it was read: the images still shrink.
    process.stderr.write(`font subsetting failed: ${(e as Error).message}\n`);
    doc = openPdf(job.input);
  }
  const images: Record<Recompressed, number> = { downsampled: 0, reencoded: 0, photo: 0 };
  let [imagesToJbig2, bitonalDownsampled] = [0, 0];
  // Loaded here, not with the module: the other MuPDF jobs share this program and need no libvips.
  const run: Run = { sharp: (await import('sharp')).default, masksDone: new Set() };
  // Each image is encoded once: libvips' cache would only hold memory under the job's bound.
  run.sharp.cache(false);
  const storeAsJbig2 = async (image: Obj, placement: ImagePlacement) => {
    const how = await toJbig2(doc, image, placement, job, run);
    if (how) imagesToJbig2++;
    if (how === 'downsampled') bitonalDownsampled++;
  };
  for (const [done, placement] of job.images.entries()) {
    const image = doc.newIndirect(placement.object);
    try {
      const isImage = image.isStream() && image.get('Subtype').asName() === 'Image';
      const mask = isImage ? explicitMask(image, placement, run) : null;
      if (mask) await storeAsJbig2(mask.stencil, mask.placement);
      if (isImage && isBitonal(doc, image)) await storeAsJbig2(image, placement);
      else if (isImage) {
        const how = await recompress(doc, image, placement, job, run);
        if (how) images[how]++;
      }
    } catch (e) {
      // An image that cannot be decoded stays as it is; the others still shrink.
      process.stderr.write(`image ${placement.object} left as it is: ${(e as Error).message}\n`);
    }
    progress(done + 1, job.images.length);
  }
  const metadataTrimmed = trimMetadata(doc);
  fs.writeFileSync(job.output, doc.saveToBuffer('garbage=deduplicate,compress,encrypt=none').asUint8Array());
  return {
    imagesDownsampled: images.downsampled,
    imagesReencoded: images.reencoded,
    photosToJpeg: images.photo,
    imagesToJbig2,
    bitonalDownsampled,
    fontsSubset,
    metadataTrimmed,
  };
}
