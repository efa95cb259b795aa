import { describe, expect, it } from 'vitest';
import { filterByName } from './toolSearch';

const tools = [{ name: 'Merge PDF' }, { name: 'Split PDF' }, { name: 'Rotate PDF' }, { name: 'PDF seiten löschen' }];
const names = (q: string) => filterByName(tools, q, (t) => t.name).map((t) => t.name);

describe('filterByName', () => {
  it('matches case-insensitively anywhere in the name', () => {
    expect(names('merge')).toEqual(['Merge PDF']);
    expect(names('PDF')).toHaveLength(4);
    expect(names('otat')).toEqual(['Rotate PDF']);
    expect(names('LÖSCHEN')).toEqual(['PDF seiten löschen']);
  });

  it('returns everything for a blank query and nothing for no match', () => {
    expect(names('  ')).toHaveLength(4);
    expect(names('compress')).toEqual([]);
  });
});
