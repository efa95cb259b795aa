// The instance's self-check (/app/automated-test): each check is a real task on a small sample made
// at the time, through the same upload checks, queue, worker and engine as a user's, and its output
// is read back. An operator sees at once which engine is missing or broken, and how long each takes.
import { z } from 'zod';

/** The checks in the order they run: each names the engine it proves. */
export const selfChecks = [
  { id: 'merge', engine: 'qpdf' },
  { id: 'pdf-to-jpg', engine: 'Poppler' },
  { id: 'compress', engine: 'Ghostscript, MuPDF' },
  { id: 'pdf-to-word', engine: 'MuPDF' },
  { id: 'office-to-pdf', engine: 'LibreOffice' },
  { id: 'ocr', engine: 'Tesseract' },
  { id: 'image-compress', engine: 'sharp (libvips)' },
] as const;
export type SelfCheckId = (typeof selfChecks)[number]['id'];

export const selfCheckIds = selfChecks.map((c) => c.id) as [SelfCheckId, ...SelfCheckId[]];

export const selfCheckRequest = z.object({ check: z.enum(selfCheckIds) });

export const selfCheckResult = z.object({
  check: z.enum(selfCheckIds),
  ok: z.boolean(),
  /** Time the task waited in the queue, then ran, in milliseconds. */
  queued_ms: z.number().int().min(0),
  run_ms: z.number().int().min(0),
  /** What was verified, or why it failed (a catalogue message, or what the output lacked). */
  detail: z.string(),
});
export type SelfCheckResult = z.infer<typeof selfCheckResult>;
