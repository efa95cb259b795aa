import { describe, expect, it } from 'vitest';
import { attachmentDisposition, safeFileName } from './fileNames.js';

describe('safeFileName', () => {
  it.each([
    ['..\\..\\Windows\\evil.pdf', 'evil.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['nul\0byte.pdf', 'nulbyte.pdf'],
    ['bell\x07\ttab.pdf', 'belltab.pdf'],
    ['...', 'document'],
    ['', 'document'],
    ['.hidden.pdf', 'hidden.pdf'],
    ['trailing. ', 'trailing'],
    ['a<b>c:d|e?f*g".pdf', 'a_b_c_d_e_f_g_.pdf'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['lone\ud800surrogate.pdf', 'lonesurrogate.pdf'],
    ['160F-2019.rev.2.pdf', '160F-2019.rev.2.pdf'],
    ['Überweisung (März) 日本.pdf', 'Überweisung (März) 日本.pdf'],
  ])('%j -> %j', (from, to) => {
    expect(safeFileName(from)).toBe(to);
  });

  it('keeps at most 200 characters and the extension', () => {
    const name = safeFileName(`${'x'.repeat(500)}.pdf`);
    expect(name).toHaveLength(200);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII filename and an RFC 5987 filename* made of attr-chars only', () => {
    const header = attachmentDisposition("O'Brien (1) 100%*ü.pdf");
    expect(header).toBe(`attachment; filename="O'Brien (1) 100_*_.pdf"; filename*=UTF-8''O%27Brien%20%281%29%20100%25%2A%C3%BC.pdf`);
  });
});
