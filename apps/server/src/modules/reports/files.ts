import { PassThrough, type Readable, Transform } from 'node:stream';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import type { FileStorage } from '../../platform/files/storage';

export type Column = { header: string; key: string; width: number };
/** One table of a report: what every writer (xlsx, csv, pdf) prints. */
export type Table = {
  title: string;
  sheet: string;
  /** Lines printed above the table (program, period, generated at). */
  heading: string[];
  columns: Column[];
  rows: Record<string, unknown>[];
};

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * A CSV cell, quoted when needed. A text starting with = + - @ (or a tab/CR) is prefixed with an apostrophe so a
 * spreadsheet never runs it as a formula (CSV injection); numbers are written as they are.
 */
export function csvCell(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = cellText(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvOf(table: Table): string {
  const lines = [table.columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of table.rows) lines.push(table.columns.map((c) => csvCell(row[c.key])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The tables as one streamed workbook, a sheet per table (the reports and the billing periods export use it). */
export function xlsxStream(tables: Table[]): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  workbook.creator = 'CareDeck';
  for (const table of tables) {
    const sheet = workbook.addWorksheet(table.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = table.columns.map((c) => ({ header: c.header, key: c.key, width: c.width }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for (const row of table.rows) sheet.addRow(table.columns.map((c) => row[c.key] ?? null)).commit();
    sheet.commit();
  }
  void workbook.commit();
  return out;
}

/** A landscape PDF of tables: title, heading lines, then the rows, with the header repeated on each page. */
export function pdfStream(tables: Table[], docTitle: string): Readable {
  const doc = new PDFDocument({
    size: 'LETTER',
    layout: 'landscape',
    margin: 40,
    info: { Title: docTitle, Creator: 'CareDeck' },
  });
  const left = 40;
  const usable = doc.page.width - 80;
  tables.forEach((table, index) => {
    if (index > 0) doc.addPage();
    doc.font('Helvetica-Bold').fontSize(15).text(table.title, left, 40);
    doc.font('Helvetica').fontSize(9).fillColor('#333333');
    for (const line of table.heading) doc.text(line);
    doc.fillColor('#000000').moveDown(0.6);
    const total = table.columns.reduce((n, c) => n + c.width, 0);
    const widths = table.columns.map((c) => (c.width / total) * usable);
    const header = () => {
      let x = left;
      const y = doc.y;
      doc.font('Helvetica-Bold').fontSize(8);
      table.columns.forEach((c, i) => {
        doc.text(c.header, x, y, { width: widths[i]! - 4, lineBreak: false, ellipsis: true });
        x += widths[i]!;
      });
      doc
        .moveTo(left, y + 11)
        .lineTo(left + usable, y + 11)
        .strokeColor('#999999')
        .stroke();
      doc.y = y + 14;
      doc.font('Helvetica').fontSize(8);
    };
    header();
    if (table.rows.length === 0) doc.text('Nothing in this period.', left, doc.y);
    for (const row of table.rows) {
      if (doc.y > doc.page.height - 60) {
        doc.addPage();
        doc.y = 40;
        header();
      }
      let x = left;
      const y = doc.y;
      table.columns.forEach((c, i) => {
        doc.text(cellText(row[c.key]), x, y, { width: widths[i]! - 4, lineBreak: false, ellipsis: true });
        x += widths[i]!;
      });
      doc.y = y + 12;
    }
  });
  doc.end();
  return doc as unknown as Readable;
}

/** Counts the bytes that pass (the stored file's size). */
function counter() {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, bytes: () => bytes };
}

/** Writes the tables as the format asks into storage under `key`; the file appears whole or not at all. */
export async function storeTables(
  storage: FileStorage,
  key: string,
  format: 'xlsx' | 'csv' | 'pdf',
  tables: Table[],
  title: string,
): Promise<number> {
  const source =
    format === 'xlsx'
      ? xlsxStream(tables)
      : format === 'pdf'
        ? pdfStream(tables, title)
        : PassThrough.from([Buffer.from(tables.map(csvOf).join('\r\n'), 'utf8')]);
  const count = counter();
  await storage.put(key, source.pipe(count.stream));
  return count.bytes();
}

export const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
} as const;

export function contentTypeOf(fileName: string): string {
  const ext = fileName.split('.').pop() as keyof typeof CONTENT_TYPES;
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
