import { ErrorCode, type CloudFile, type CloudFolder } from '@quire/contracts';
import { ApiError } from '../api/client';
import type { OnConflict } from '../api/cloud';
import { describe, expect, it } from 'vitest';
import {
  GB,
  cloudPath,
  entriesOf,
  entryName,
  keptSelection,
  matchesSearch,
  nameProblem,
  pathTo,
  selectionOf,
  sortEntries,
  toggled,
  usedPercent,
  withConflictChoice,
} from './cloudModel';

const folder = (folder_id: string, name: string, parent_id: string | null = null, updated_at = 0): CloudFolder => ({
  folder_id,
  name,
  parent_id,
  updated_at,
});
const file = (file_id: string, name: string, size: number, updated_at: number): CloudFile => ({
  file_id,
  name,
  folder_id: null,
  size,
  total_page: 1,
  encrypted: false,
  starred: false,
  updated_at,
  opened_at: null,
});

describe('cloud names', () => {
  it('refuses an empty name, one over 240 characters and one with a path separator', () => {
    expect(nameProblem('   ')).toBe('empty');
    expect(nameProblem('a'.repeat(241))).toBe('tooLong');
    expect(nameProblem(` ${'a'.repeat(240)} `)).toBeNull();
    expect(nameProblem('a/b')).toBe('separator');
    expect(nameProblem('a\\b')).toBe('separator');
    expect(nameProblem('Invoices 2026')).toBeNull();
  });
});

describe('sorting and search', () => {
  const entries = entriesOf(
    [folder('f2', 'Zeta', null, 5), folder('f1', 'alpha', null, 9)],
    [file('a', 'report 10.pdf', 300, 1), file('b', 'report 9.pdf', 100, 3), file('c', 'Notes.pdf', 200, 2)],
  );
  const names = (sort: 'name' | 'updated' | 'size', order: 'asc' | 'desc') => sortEntries(entries, sort, order).map(entryName);

  it('puts folders first, then orders by name with numbers in number order, ignoring case', () => {
    expect(names('name', 'asc')).toEqual(['alpha', 'Zeta', 'Notes.pdf', 'report 9.pdf', 'report 10.pdf']);
    expect(names('name', 'desc')).toEqual(['Zeta', 'alpha', 'report 10.pdf', 'report 9.pdf', 'Notes.pdf']);
  });

  it('orders by date and by size, folders by name when sizes are asked for', () => {
    expect(names('updated', 'desc')).toEqual(['alpha', 'Zeta', 'report 9.pdf', 'Notes.pdf', 'report 10.pdf']);
    expect(names('size', 'asc')).toEqual(['alpha', 'Zeta', 'report 9.pdf', 'Notes.pdf', 'report 10.pdf']);
    expect(names('size', 'desc')).toEqual(['Zeta', 'alpha', 'report 10.pdf', 'Notes.pdf', 'report 9.pdf']);
  });

  it('searches by case-insensitive containment', () => {
    expect(matchesSearch('Annual Report.pdf', 'report')).toBe(true);
    expect(matchesSearch('Annual Report.pdf', ' REP ')).toBe(true);
    expect(matchesSearch('Annual Report.pdf', 'invoice')).toBe(false);
    expect(matchesSearch('anything', '')).toBe(true);
  });
});

describe('selection', () => {
  const entries = entriesOf([folder('f1', 'A')], [file('x', 'x.pdf', 1, 1), file('y', 'y.pdf', 1, 1)]);

  it('toggles keys and gives the ids of files and folders apart', () => {
    let selected = toggled(new Set(), 'file:x');
    selected = toggled(selected, 'folder:f1');
    selected = toggled(selected, 'file:y');
    selected = toggled(selected, 'file:y');
    expect(selectionOf(entries, selected)).toEqual({ file_ids: ['x'], folder_ids: ['f1'] });
  });

  it('drops keys no longer listed', () => {
    const kept = keptSelection(new Set(['file:x', 'file:gone']), entries);
    expect([...kept]).toEqual(['file:x']);
  });
});

describe('capacity', () => {
  it('gives the used share in whole percent, a sliver as 1 %', () => {
    expect(usedPercent(0, 10 * GB)).toBe(0);
    expect(usedPercent(1, 10 * GB)).toBe(1);
    expect(usedPercent(5 * GB, 10 * GB)).toBe(50);
    expect(usedPercent(11 * GB, 10 * GB)).toBe(100);
  });
});

describe('folder paths', () => {
  const tree = [folder('a', 'A'), folder('b', 'B', 'a'), folder('c', 'C', 'b'), folder('d', 'D')];

  it('walks from a folder up to the top', () => {
    expect(pathTo(tree, 'c').map((f) => f.name)).toEqual(['A', 'B', 'C']);
    expect(pathTo(tree, null)).toEqual([]);
  });

  it('puts the view and the folder in the page address', () => {
    expect(cloudPath(null)).toBe('/app/document-cloud');
    expect(cloudPath('f 1')).toBe('/app/document-cloud?folder=f+1');
    expect(cloudPath('f1', 'starred')).toBe('/app/document-cloud?view=starred');
  });
});

describe('a name the folder already holds', () => {
  /** A call that refuses `ask` with 4101, as the server does for a taken name, and records each attempt. */
  const taken = () => {
    const attempts: OnConflict[] = [];
    const call = async (onConflict: OnConflict) => {
      attempts.push(onConflict);
      if (onConflict === 'ask') throw new ApiError(ErrorCode.CloudNameExists);
      return `saved (${onConflict})`;
    };
    return { attempts, call };
  };

  it('asks, then calls again with the choice', async () => {
    const { attempts, call } = taken();
    const asked: string[] = [];
    const answer = await withConflictChoice('a.pdf', call, async (name) => {
      asked.push(name);
      return 'rename';
    });
    expect(answer).toBe('saved (rename)');
    expect(asked).toEqual(['a.pdf']);
    expect(attempts).toEqual(['ask', 'rename']);
  });

  it('calls no more when the user cancels, and asks nothing when the name is free', async () => {
    const { attempts, call } = taken();
    expect(await withConflictChoice('a.pdf', call, async () => null)).toBeUndefined();
    expect(attempts).toEqual(['ask']);
    let asked = false;
    const free = await withConflictChoice(
      'b.pdf',
      async () => 'saved',
      async () => {
        asked = true;
        return 'replace';
      },
    );
    expect([free, asked]).toEqual(['saved', false]);
  });

  it('passes other refusals on without asking', async () => {
    const full = () => Promise.reject(new ApiError(ErrorCode.CloudFull));
    await expect(withConflictChoice('a.pdf', full, async () => 'replace')).rejects.toMatchObject({ code: ErrorCode.CloudFull });
  });
});
