// Protect: AES-256 encryption with the user's password, which then opens the file and owns it.
import path from 'node:path';
import { decryptedCopy, encryptPdf } from '../engines/qpdf.js';
import { defineTool, outputName, singleInput } from './tool.js';

export const encrypt = defineTool({
  id: 'encrypt',
  inputsOf: singleInput,
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    // Encrypting rewrites in place, which would keep a damaged page tree (a /Count that disagrees
    // with the pages): the source is first a copy whose tree holds exactly the pages.
    const source = path.join(ctx.workDir, 'source.pdf');
    await decryptedCopy({ file: input.path, password: input.password }, input.pages, source, ctx.limits);
    const out = path.join(ctx.workDir, 'protected.pdf');
    await encryptPdf({ file: source }, input.pages, p.password, out, ctx.limits, ctx.progress);
    return [{ path: out, name: outputName(input.name, 'protected') }];
  },
});
