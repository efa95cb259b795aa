// A table of a Pages document as iWork's table objects (TST): the table info a text attachment
// places, its model with the data store (row and column headers, a tile of cell records, the
// string table), each cell's text a string of the table. Cells are plain text: the runs' looks of
// a cell are not kept. ADR 0150.
import { type IwaObject, ProtoMessage } from './iwa.js';

const TYPE = {
  tableInfo: 6000, // TST.TableInfoArchive
  tableModel: 6001, // TST.TableModelArchive
  tile: 6002, // TST.Tile
  dataList: 6005, // TST.TableDataList
  headerBucket: 6006, // TST.HeaderStorageBucket
};

/**
 * The rows and columns of a tile, the block of cells iWork stores together. A table has one: a
 * larger one would need several, which libetonyek reads only from 0.1.11 on (Debian 12 has
 * 0.1.10), so the writer keeps larger tables as text.
 */
export const MAX_TABLE_ROWS = 256;
export const MAX_TABLE_COLUMNS = 256;
const ROW_HEIGHT_PT = 20;
/** TST.TableDataList list types. */
const LIST = { string: 1, format: 2, formula: 3, style: 4 };
/** A cell record: storage version 4, cell type 3 (text), flags with 0x10 (a string follows). */
const TEXT_CELL = { version: 4, type: 3, flags: 0x10 };

/**
 * The objects of a table of `rows` (each cell's text), `width` points wide, whose cells' text takes
 * `textStyle` (a paragraph style id); `newId` hands out object ids. Returns them with the id of the
 * table info, the drawable a text attachment points to.
 */
export function tableObjects(
  rows: string[][],
  width: number,
  textStyle: number,
  newId: () => number,
): { objects: IwaObject[]; infoId: number } {
  const columns = Math.max(...rows.map((r) => r.length));
  const objects: IwaObject[] = [];
  const add = (type: number, payload: ProtoMessage) => {
    const id = newId();
    objects.push({ id, type, payload });
    return id;
  };
  const dataList = (listType: number, entries: ProtoMessage[] = []) => {
    const m = new ProtoMessage().uint(1, listType).uint(2, entries.length + 1);
    for (const e of entries) m.message(3, e);
    return add(TYPE.dataList, m);
  };

  // The string table: each distinct text once (TableDataList entries: key, reference count, string).
  const keys = new Map<string, { key: number; count: number }>();
  for (const row of rows)
    for (const text of row)
      if (text) {
        const k = keys.get(text) ?? { key: keys.size + 1, count: 0 };
        k.count++;
        keys.set(text, k);
      }
  const strings = dataList(
    LIST.string,
    [...keys].map(([text, k]) => new ProtoMessage().uint(1, k.key).uint(2, k.count).string(3, text)),
  );

  // One tile: each row's cell records side by side, and the offset of each column's record in
  // them (0xffff where the cell is empty: the offsets start filled with 0xff).
  const rowInfos: ProtoMessage[] = [];
  let cells = 0;
  rows.forEach((row, r) => {
    const records: Buffer[] = [];
    const offsets = Buffer.alloc(2 * MAX_TABLE_COLUMNS, 0xff);
    row.forEach((text, c) => {
      if (!text) return;
      offsets.writeUInt16LE(16 * records.length, 2 * c);
      const record = Buffer.alloc(16);
      record.writeUInt8(TEXT_CELL.version, 0);
      record.writeUInt8(TEXT_CELL.type, 1);
      record.writeUInt16LE(TEXT_CELL.flags, 4);
      record.writeUInt32LE(keys.get(text)!.key, 12);
      records.push(record);
    });
    cells += records.length;
    // TST.TileRowInfo: row in the tile, cells, cell storage, cell offsets.
    rowInfos.push(new ProtoMessage().uint(1, r).uint(2, records.length).bytes(3, Buffer.concat(records)).bytes(4, offsets));
  });
  // TST.Tile: last column and row, cells, rows, the rows' infos.
  const tile = new ProtoMessage()
    .uint(1, columns - 1)
    .uint(2, rows.length - 1)
    .uint(3, cells)
    .uint(4, rows.length);
  for (const info of rowInfos) tile.message(5, info);
  const tileId = add(TYPE.tile, tile);

  // TST.HeaderStorageBucket: each row's or column's index, size, hiding state, cells. Rows have
  // size 0: the table's default row height as a minimum, growing with their text (libetonyek
  // writes a row of a size of its own at exactly that height).
  const headers = (sizes: number[], cellsAt: (i: number) => number) => {
    const m = new ProtoMessage().uint(1, 0);
    for (const [i, size] of sizes.entries()) m.message(2, new ProtoMessage().uint(1, i).float(2, size).uint(3, 0).uint(4, cellsAt(i)));
    return add(TYPE.headerBucket, m);
  };
  const filled = (cells: string[]) => cells.filter((t) => t).length;
  const rowHeaders = headers(
    rows.map(() => 0),
    (r) => filled(rows[r]!),
  );
  const columnWidth = width / columns;
  const columnHeaders = headers(
    Array.from({ length: columns }, () => columnWidth),
    (c) => filled(rows.map((r) => r[c] ?? '')),
  );

  // TST.DataStore: row headers (a HeaderStorage), column headers, tiles (id 0), the string, style,
  // formula and format tables, the next strip ids, and the tiles of the rows and of the columns
  // (trees of first row or column to tile: all in tile 0).
  const firstInTile = () => new ProtoMessage().message(1, new ProtoMessage().uint(1, 0).uint(2, 0));
  const dataStore = new ProtoMessage()
    .message(1, new ProtoMessage().uint(1, 0).ref(2, rowHeaders))
    .ref(2, columnHeaders)
    .message(3, new ProtoMessage().message(1, new ProtoMessage().uint(1, 0).ref(2, tileId)))
    .ref(4, strings)
    .ref(5, dataList(LIST.style))
    .ref(6, dataList(LIST.formula))
    .ref(11, dataList(LIST.format))
    .uint(7, 1)
    .uint(8, 1)
    .message(9, firstInTile())
    .message(10, firstInTile());

  // TST.TableModelArchive: id, the text styles of body, header row, header column and footer
  // cells, the data store, rows, columns, name, default row height and column width.
  const id = newId();
  const model = new ProtoMessage().string(1, `table-${id}`);
  for (const field of [24, 25, 26, 27]) model.ref(field, textStyle);
  model
    .message(4, dataStore)
    .uint(6, rows.length)
    .uint(7, columns)
    .string(8, `Table ${id}`)
    .double(16, ROW_HEIGHT_PT)
    .double(17, columnWidth)
    .uint(28, 0);
  objects.push({ id, type: TYPE.tableModel, payload: model });

  // TST.TableInfoArchive: the drawable (its geometry: position, size) and the model.
  const size = new ProtoMessage().float(1, width).float(2, rows.length * ROW_HEIGHT_PT);
  const geometry = new ProtoMessage().message(1, new ProtoMessage().float(1, 0).float(2, 0)).message(2, size);
  const infoId = add(TYPE.tableInfo, new ProtoMessage().message(1, new ProtoMessage().message(1, geometry)).ref(2, id));
  return { objects, infoId };
}
