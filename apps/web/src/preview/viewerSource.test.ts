import { describe, expect, it } from 'vitest';
import { dispositionName, looksLikePdf, sourceDownloadUrl, sourceFromQuery, taskPreviewPath } from './viewerSource';

describe('the viewer source from its query', () => {
  it('reads each kind of source', () => {
    expect(sourceFromQuery('?file_id=f1')).toEqual({ kind: 'file', fileId: 'f1' });
    expect(sourceFromQuery('?task_id=t1&index=2')).toEqual({ kind: 'task', taskId: 't1', index: 2 });
    expect(sourceFromQuery('?task_id=t1')).toEqual({ kind: 'task', taskId: 't1' });
    expect(sourceFromQuery('?cloud_file_id=c1')).toEqual({ kind: 'cloud', fileId: 'c1' });
    expect(sourceFromQuery('?share_id=Ab-_9')).toEqual({ kind: 'share', shareCode: 'Ab-_9' });
  });

  it('ignores an index that is not a whole number, and names no source for an empty query', () => {
    expect(sourceFromQuery('?task_id=t1&index=x')).toEqual({ kind: 'task', taskId: 't1' });
    expect(sourceFromQuery('?task_id=t1&index=-1')).toEqual({ kind: 'task', taskId: 't1' });
    expect(sourceFromQuery('')).toBeNull();
    expect(sourceFromQuery('?file_id=%20')).toBeNull();
  });

  it('prefers a share, then a cloud file, then a task, then a tool file', () => {
    expect(sourceFromQuery('?file_id=f&task_id=t&cloud_file_id=c&share_id=s')?.kind).toBe('share');
    expect(sourceFromQuery('?file_id=f&task_id=t&cloud_file_id=c')?.kind).toBe('cloud');
    expect(sourceFromQuery('?file_id=f&task_id=t')?.kind).toBe('task');
  });

  it('fetches each source from its own call, the ids escaped', () => {
    expect(sourceDownloadUrl({ kind: 'file', fileId: 'a&b' })).toBe('/api/tools/v1/file/download?file_id=a%26b');
    expect(sourceDownloadUrl({ kind: 'task', taskId: 't', index: 0 })).toBe('/api/tools/v1/document/download-doc?task_id=t&index=0');
    expect(sourceDownloadUrl({ kind: 'task', taskId: 't' })).toBe('/api/tools/v1/document/download-doc?task_id=t');
    expect(sourceDownloadUrl({ kind: 'cloud', fileId: 'c 1' })).toBe('/api/cloud/v1/file/download?file_id=c+1');
  });

  it('builds the viewer address of a result', () => {
    expect(taskPreviewPath('t1')).toBe('/preview?task_id=t1');
    expect(taskPreviewPath('t1', 3)).toBe('/preview?task_id=t1&index=3');
  });
});

describe('a download answer', () => {
  it('takes the UTF-8 name over the plain one, and the plain one alone', () => {
    expect(dispositionName(`attachment; filename="R_sum_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf`)).toBe('Résumé.pdf');
    expect(dispositionName('attachment; filename="report.pdf"')).toBe('report.pdf');
    expect(dispositionName('attachment; filename=plain.txt')).toBe('plain.txt');
    expect(dispositionName(`attachment; filename="ok.pdf"; filename*=UTF-8''%E0%A4`)).toBe('ok.pdf');
    expect(dispositionName(null)).toBe('');
  });

  it('recognises PDF bytes, also after leading junk', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(looksLikePdf(bytes('%PDF-1.7\n'))).toBe(true);
    expect(looksLikePdf(bytes('\n\n  %PDF-1.4'))).toBe(true);
    expect(looksLikePdf(bytes('PK\u0003\u0004'))).toBe(false);
  });
});
