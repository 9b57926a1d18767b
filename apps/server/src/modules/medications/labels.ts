import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';

export type Label = { barcode: string; title: string; detail: string };

/**
 * Letter sheets of 30 address labels (Avery 5160 / 8160 layout: 3 × 10 labels of 2⅝ × 1 in, 0.5 in top margin,
 * 3/16 in side margins, ⅛ in between columns), in points (72 per inch). Every label holds a Code 128
 * barcode of the pod code, the code in print, and one line of what the pod holds.
 */
const INCH = 72;
const SHEET = { width: 8.5 * INCH, height: 11 * INCH };
const LABEL = { width: 2.625 * INCH, height: 1 * INCH, columns: 3, rows: 10 };
const MARGIN = { top: 0.5 * INCH, left: 0.1875 * INCH, gap: 0.125 * INCH };

async function barcodePng(code: string): Promise<Buffer> {
  // scale 3 at 0.15 in bar height keeps the narrowest bar ~0.25 mm: readable by handheld and dispenser scanners.
  return bwipjs.toBuffer({
    bcid: 'code128',
    text: code,
    scale: 3,
    height: 9,
    includetext: false,
    paddingwidth: 6,
  });
}

/** The labels as one PDF document, streamed; a label sheet is started every 30 labels. */
export async function labelSheet(labels: readonly Label[], title: string): Promise<NodeJS.ReadableStream> {
  const images = await Promise.all(labels.map((l) => barcodePng(l.barcode)));
  const doc = new PDFDocument({
    size: [SHEET.width, SHEET.height],
    margin: 0,
    autoFirstPage: false,
    info: { Title: title, Creator: 'CareDeck' },
  });
  labels.forEach((label, i) => {
    const slot = i % (LABEL.columns * LABEL.rows);
    if (slot === 0) doc.addPage();
    const x = MARGIN.left + (slot % LABEL.columns) * (LABEL.width + MARGIN.gap);
    const y = MARGIN.top + Math.floor(slot / LABEL.columns) * LABEL.height;
    const inner = { x: x + 6, width: LABEL.width - 12 };
    doc.image(images[i]!, inner.x, y + 4, { fit: [inner.width, LABEL.height * 0.5], align: 'center' });
    doc
      .font('Courier-Bold')
      .fontSize(9)
      .text(label.barcode, inner.x, y + LABEL.height * 0.56, { width: inner.width, align: 'center' });
    doc
      .font('Helvetica')
      .fontSize(7)
      .text(`${label.title} · ${label.detail}`, inner.x, y + LABEL.height * 0.74, {
        width: inner.width,
        align: 'center',
        height: 10,
        ellipsis: true,
      });
  });
  doc.end();
  return doc;
}
