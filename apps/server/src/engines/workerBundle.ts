// A worker script (run by runEngine in a child process) as one plain JavaScript file, built once
// per process: starting Node with a TypeScript loader would cost about half a second per job, more
// than most jobs take. The packages named `external` stay outside the bundle, loaded from where
// they are installed (native binaries, WebAssembly beside its own file).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** A function giving the bundled script's path, built on first use and again if something (a tmp cleaner) removed it. */
export function bundledWorker(source: string, external: string[]): () => Promise<string> {
  let script: Promise<string> | undefined;
  const bundle = () => {
    script ??= (async () => {
      const urls = new Map(external.map((name) => [name, pathToFileURL(createRequire(import.meta.url).resolve(name)).href]));
      const result = await build({
        entryPoints: [source],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        write: false,
        logLevel: 'silent',
        // CommonJS packages in the bundle (yazl, docx) require Node's own modules, which an ES module must provide.
        banner: {
          js: "import { createRequire as quireCreateRequire } from 'node:module'; const require = quireCreateRequire(import.meta.url);",
        },
        plugins: [
          {
            name: 'outside',
            setup: (b) =>
              b.onResolve({ filter: /.*/ }, (args) => (urls.has(args.path) ? { path: urls.get(args.path)!, external: true } : undefined)),
          },
        ],
      });
      const code = result.outputFiles[0]!.contents;
      const hash = crypto.createHash('sha256').update(code).digest('hex').slice(0, 16);
      const file = path.join(os.tmpdir(), `quire-${path.basename(source, path.extname(source))}-${hash}.mjs`);
      // Written under a temporary name first: another process may be starting the same file.
      const partial = `${file}.${process.pid}.tmp`;
      await fs.writeFile(partial, code);
      await fs.rename(partial, file);
      return file;
    })().catch((e: unknown) => {
      script = undefined;
      throw e;
    });
    return script;
  };
  return async () => {
    const file = await bundle();
    try {
      await fs.access(file);
      return file;
    } catch {
      script = undefined;
      return bundle();
    }
  };
}
