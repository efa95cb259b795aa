// Conversion benchmark: office documents to PDF through Quire's LibreOffice listener, kept running,
// against a cold `soffice --convert-to pdf` per file, on the same files in the same run.
//
//   node --import tsx bench/convert.ts            (BENCH_REPS=3 by default)
//
// See bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { OfficePool } from '../apps/server/src/engines/office.js';

const REPS = Math.max(1, Number(process.env.BENCH_REPS) || 3);
const corpus = path.resolve(import.meta.dirname, '../test-corpus/office');
// Word, Excel, PowerPoint, OpenDocument, RTF and Publisher files, small and large.
const FILES = [
  'hdr-header-footer.docx',
  'having-images.docx',
  'stress011.docx',
  'Word95.doc',
  '50299.xlsx',
  'chinese-provinces.xls',
  'SmartArt.pptx',
  'with_japanese.pptx',
  'table_error_codes.rtf',
  'unicode.odt',
  'SampleBrochure.pub',
];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-convert-'));
const limits = { timeoutMs: 120_000, memoryMb: 2048 };
const pool = new OfficePool(path.join(tmp, 'office'), 1, limits.memoryMb);
const coldProfile = `file://${path.join(tmp, 'cold-profile')}`;

const pages = (pdf: string) => Number(execFileSync('qpdf', ['--show-npages', pdf]).toString().trim());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One document through the running listener, as the convert tool sends it; its time in ms. */
async function warm(file: string, out: string): Promise<number> {
  const input = path.join(tmp, `warm-${file}`);
  fs.copyFileSync(path.join(corpus, file), input);
  const start = performance.now();
  await pool.convert({ input, output: out }, limits);
  return performance.now() - start;
}

/** One document through a LibreOffice started for it and gone after, with a profile kept between runs. */
function cold(file: string, outDir: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      'soffice',
      [`-env:UserInstallation=${coldProfile}`, '--headless', '--convert-to', 'pdf', '--outdir', outDir, path.join(corpus, file)],
      { stdio: 'ignore' },
    );
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`soffice exited ${code} on ${file}`))));
  });
}

async function main() {
  const warmDir = path.join(tmp, 'warm');
  const coldDir = path.join(tmp, 'cold');
  fs.mkdirSync(warmDir);
  fs.mkdirSync(coldDir);
  const outOf = (dir: string, file: string) => path.join(dir, `${path.parse(file).name}.pdf`);

  // Warm-ups, not counted: the listener's start, and the cold profile's creation.
  const startup = await warm(FILES[0]!, path.join(tmp, 'startup.pdf'));
  await cold(FILES[0]!, tmp);

  const times: Record<string, { warm: number[]; cold: number[] }> = Object.fromEntries(FILES.map((f) => [f, { warm: [], cold: [] }]));
  for (let rep = 0; rep < REPS; rep++) {
    // Interleaved, file by file, so both see the same machine load.
    for (const file of FILES) {
      times[file]!.warm.push(await warm(file, outOf(warmDir, file)));
      times[file]!.cold.push(await cold(file, coldDir));
      const [w, c] = [pages(outOf(warmDir, file)), pages(outOf(coldDir, file))];
      if (w < 1 || c < 1) throw new Error(`${file}: ${w} pages warm, ${c} cold`);
      if (w !== c) console.warn(`note: ${file} has ${w} pages warm and ${c} cold`);
    }
  }

  const rows = FILES.map((f) => ({ file: f, warm: median(times[f]!.warm), cold: median(times[f]!.cold), pages: pages(outOf(warmDir, f)) }));
  const totalWarm = rows.reduce((s, r) => s + r.warm, 0);
  const totalCold = rows.reduce((s, r) => s + r.cold, 0);
  console.log(`\nOffice documents to PDF, median of ${REPS} runs each (ms)\n`);
  console.log(`${'file'.padEnd(26)}${'pages'.padStart(6)}${'warm'.padStart(9)}${'cold'.padStart(9)}${'cold/warm'.padStart(11)}`);
  for (const r of rows)
    console.log(
      `${r.file.padEnd(26)}${String(r.pages).padStart(6)}${r.warm.toFixed(0).padStart(9)}${r.cold.toFixed(0).padStart(9)}${(r.cold / r.warm).toFixed(1).padStart(10)}x`,
    );
  console.log(
    `${'all files'.padEnd(32)}${totalWarm.toFixed(0).padStart(9)}${totalCold.toFixed(0).padStart(9)}${(totalCold / totalWarm).toFixed(1).padStart(10)}x`,
  );
  console.log(`\nlistener start (first document, not counted above): ${startup.toFixed(0)} ms`);
  console.log(`${execFileSync('soffice', ['--version']).toString().trim()}; Node ${process.version}; ${os.availableParallelism()} cores`);
}

try {
  await main();
} finally {
  await pool.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
