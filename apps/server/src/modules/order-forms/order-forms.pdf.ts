import { formatLanguageDate } from '@caredeck/domain';
import PDFDocument from 'pdfkit';
import type { SnapshotField } from './order-forms.queries';

export type PrintableForm = {
  id: number;
  templateName: string;
  recipientKind: string;
  programName: string;
  createdAt: string;
  createdBy: string;
  fields: SnapshotField[];
};

const INCH = 72;
const PAGE = { width: 8.5 * INCH, height: 11 * INCH, margin: 0.75 * INCH };
const LABEL_WIDTH = 2.1 * INCH;

/**
 * The standard PDF fonts speak WinAnsi only: characters beyond Latin-1 would print as garbage, so they are
 * replaced by '?' (names and entries are checked for control characters before they get here).
 */
function printable(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022]/g, '?');
}

/** A calendar day (a birth date, a start date) in the English form's one format, MM/DD/YYYY (ADR 054). */
function shown(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatLanguageDate(value, 'en') : value;
}

/**
 * The form as a Letter PDF (like the medications module's label sheets, pdfkit with the standard fonts): the
 * program and form name, the patient section from the record, the order section staff filled in, who made
 * it and when, and a confidentiality footer. Resolves to the whole document.
 */
export function renderOrderFormPdf(form: PrintableForm): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    bufferPages: true,
    info: { Title: `${form.templateName} #${form.id}`, Creator: 'CareDeck' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = PAGE.width - 2 * PAGE.margin;
  const left = PAGE.margin;

  doc.font('Helvetica').fontSize(9).fillColor('#555555').text(printable(form.programName), left, PAGE.margin);
  doc.moveDown(0.3);
  doc.font('Helvetica-Bold').fontSize(18).fillColor('#000000').text(printable(form.templateName), { width });
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#333333')
    .text(
      `Form no. ${form.id} · To the ${form.recipientKind} · Prepared ${shown(form.createdAt.slice(0, 10))} by ${printable(form.createdBy)}`,
      { width },
    );
  doc.moveDown(0.8);

  const section = (title: string, fields: SnapshotField[]) => {
    if (fields.length === 0) return;
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#000000').text(title, left, doc.y, { width });
    const ruleY = doc.y + 2;
    doc
      .moveTo(left, ruleY)
      .lineTo(left + width, ruleY)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc.moveDown(0.5);
    for (const f of fields) {
      if (doc.y > PAGE.height - PAGE.margin - 60) doc.addPage();
      const top = doc.y;
      doc
        .font('Helvetica-Bold')
        .fontSize(10)
        .text(printable(f.label), left, top, { width: LABEL_WIDTH - 8 });
      const labelBottom = doc.y;
      doc
        .font('Helvetica')
        .fontSize(10)
        .text(f.value === null || f.value === '' ? '—' : printable(shown(f.value)), left + LABEL_WIDTH, top, {
          width: width - LABEL_WIDTH,
        });
      doc.y = Math.max(doc.y, labelBottom) + 4;
    }
    doc.moveDown(0.8);
  };
  section(
    'Patient',
    form.fields.filter((f) => f.source === 'patient'),
  );
  section(
    'Order details',
    form.fields.filter((f) => f.source === 'staff'),
  );

  if (doc.y > PAGE.height - PAGE.margin - 90) doc.addPage();
  doc.moveDown(1.5);
  const signY = doc.y + 20;
  doc
    .moveTo(left, signY)
    .lineTo(left + 3 * INCH, signY)
    .lineWidth(0.5)
    .strokeColor('#000000')
    .stroke();
  doc
    .moveTo(left + 3.5 * INCH, signY)
    .lineTo(left + width, signY)
    .stroke();
  doc
    .font('Helvetica')
    .fontSize(8)
    .text('Signature', left, signY + 4)
    .text('Date', left + 3.5 * INCH, signY + 4);

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin: without this pdfkit would start a new page for it.
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#555555')
      .text(
        `CONFIDENTIAL: contains protected health information. If you received this in error, destroy it and tell the sender. Page ${i + 1} of ${range.count}.`,
        left,
        PAGE.height - PAGE.margin + 12,
        { width, align: 'center', lineBreak: false, height: 12 },
      );
  }
  doc.end();
  return done;
}
