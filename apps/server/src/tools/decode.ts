// Unlock: removes the encryption of a file given its password, or of one that has only an owner
// password (restrictions), which opens without one.
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import { decryptedCopy, inspectPdf } from '../engines/qpdf.js';
import { defineTool, outputName, singleInput } from './tool.js';

export const decode = defineTool({
  id: 'decode',
  inputsOf: singleInput,
  async run(ctx) {
    const input = ctx.inputs[0]!;
    const { encrypted } = await inspectPdf(input.path, input.password, ctx.limits);
    if (!encrypted) throw new QuireError(ErrorCode.NotProtected);
    const out = path.join(ctx.workDir, 'unlocked.pdf');
    await decryptedCopy({ file: input.path, password: input.password }, input.pages, out, ctx.limits);
    return [{ path: out, name: outputName(input.name, 'unlocked') }];
  },
});
