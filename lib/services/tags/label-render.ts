import { readFileSync } from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import sharp from "sharp";

/**
 * Drawing a tag's printable label: a call to action for the finder over the QR code of its scan URL, the
 * printed code, the /found address for a finder without a camera, and the item name. One layout, in
 * millimetres, drawn three ways: SVG (vector, text as text), PNG (that SVG rasterised at PNG_DPI) and PDF
 * (pdfkit, vector modules, DejaVu fonts embedded so any item name prints as written). Pure functions of
 * the label's content: the service (labels.ts) checks who may print what.
 */

export type LabelSize = "small" | "medium" | "large";
export type LabelFormat = "svg" | "png" | "pdf";
export type Paper = "a4" | "letter";

/**
 * Portrait stickers, 1 : 1.24 (a call to action, the QR square, four lines of text under it). Small is a 25 mm sticker
 * for a collar tag or a key fob, medium (38 mm, 1.5 in) a bag or a phone case, large (50 mm, 2 in) a
 * bike frame, a suitcase or a car window. The small one's QR modules are still about 0.45–0.5 mm wide
 * (version 4–5 for a scan URL of 45–60 characters), above the ~0.33 mm a phone camera needs at close range.
 */
export const labelSizes: Record<LabelSize, { widthMm: number; heightMm: number; title: string }> = {
  small: { widthMm: 25, heightMm: 31, title: "Small" },
  medium: { widthMm: 38, heightMm: 47, title: "Medium" },
  large: { widthMm: 50, heightMm: 62, title: "Large" },
};

export const papers: Record<Paper, { widthMm: number; heightMm: number; title: string }> = {
  a4: { widthMm: 210, heightMm: 297, title: "A4" },
  letter: { widthMm: 215.9, heightMm: 279.4, title: "US Letter" },
};

/** Print resolution of the PNG: 600 dpi keeps the QR modules' edges sharp (about 12 px per module). */
export const PNG_DPI = 600;
/** The quiet zone around the QR code, in modules: the four the QR specification asks for. */
export const QR_QUIET_ZONE = 4;
/**
 * Error correction: M (15 %) on the small label keeps its modules large enough to scan; Q (25 %) on the
 * larger ones, which have room for the extra modules and survive a scratched or curved sticker better.
 */
const errorCorrection: Record<LabelSize, "M" | "Q"> = { small: "M", medium: "Q", large: "Q" };

/** Sheet page margin (most printers cannot print the outer 4–6 mm) and the gap between labels to cut in. */
export const SHEET_MARGIN_MM = 10;
export const SHEET_GUTTER_MM = 4;

export interface LabelContent {
  /** As printed: XXXXX-XXXXX. */
  code: string;
  scanUrl: string;
  /** The short address where a finder types the code, without scheme: `example.com/found`. */
  foundAddress: string;
  itemName: string | null;
  /** The finder's words, in the language the owner prints in (label-words.ts). */
  callToAction: string;
  noCamera: string;
}

type FontRole = "code" | "text" | "strong";

interface TextLine {
  text: string;
  role: FontRole;
  /** Centre of the line and its baseline, in mm from the label's top left. */
  x: number;
  y: number;
  sizeMm: number;
}

interface LabelDrawing {
  widthMm: number;
  heightMm: number;
  /** Dark modules as horizontal runs, in mm: one rectangle per run. */
  qrRuns: { x: number; y: number; width: number; height: number }[];
  lines: TextLine[];
}

const MM_PER_PT = 25.4 / 72;
const ptFromMm = (mm: number) => mm / MM_PER_PT;

/**
 * The PDF embeds DejaVu (from the dejavu-fonts-ttf package, so every server has it): the PDF standard
 * fonts only encode WinAnsi, which printed a Greek, Cyrillic or Arabic item name as "?". DejaVu covers
 * Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and Arabic; pdfkit embeds only the glyphs used.
 * The SVG asks for DejaVu first too, so its text has the widths the layout measured.
 */
const fontFiles: Record<FontRole, string> = { code: "DejaVuSansMono-Bold.ttf", text: "DejaVuSans.ttf", strong: "DejaVuSans-Bold.ttf" };
const svgFonts: Record<FontRole, { family: string; weight: number }> = {
  code: { family: "'DejaVu Sans Mono', 'Courier New', 'Liberation Mono', Menlo, Consolas, monospace", weight: 700 },
  text: { family: "'DejaVu Sans', Verdana, Arial, 'Liberation Sans', sans-serif", weight: 400 },
  strong: { family: "'DejaVu Sans', Verdana, Arial, 'Liberation Sans', sans-serif", weight: 700 },
};

let fontData: Record<FontRole, Buffer> | undefined;

/**
 * Read once per process. `next start` runs from the project directory, where node_modules lives
 * (next.config.ts traces these files into the standalone output of the routes that print).
 */
function fonts(): Record<FontRole, Buffer> {
  fontData ??= Object.fromEntries(
    Object.entries(fontFiles).map(([role, file]) => [role, readFileSync(path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf", file))]),
  ) as Record<FontRole, Buffer>;
  return fontData;
}

/** A PDF document with the three roles' fonts registered under their role names. */
function pdfDocument(options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  const doc = new PDFDocument(options);
  for (const [role, data] of Object.entries(fonts())) doc.registerFont(role, data);
  return doc;
}

let measuring: PDFKit.PDFDocument | undefined;

/** Width in mm of a line set in the role's font. */
function textWidthMm(text: string, role: FontRole, sizeMm: number): number {
  measuring ??= pdfDocument({ autoFirstPage: false });
  return measuring.font(role).fontSize(ptFromMm(sizeMm)).widthOfString(text) * MM_PER_PT;
}

/** The size at which a line fits the width (never larger than asked). */
function fittedSize(text: string, role: FontRole, sizeMm: number, maxWidthMm: number): number {
  const width = textWidthMm(text, role, sizeMm);
  return width <= maxWidthMm ? sizeMm : sizeMm * (maxWidthMm / width);
}

/** The item name at its size, shrunk to 80 % at most, then cut with an ellipsis to fit the width. */
function fittedName(name: string, sizeMm: number, maxWidthMm: number): { text: string; sizeMm: number } {
  const size = Math.max(sizeMm * 0.8, fittedSize(name, "strong", sizeMm, maxWidthMm));
  if (textWidthMm(name, "strong", size) <= maxWidthMm) return { text: name, sizeMm: size };
  const chars = Array.from(name);
  let keep = chars.length;
  while (keep > 1 && textWidthMm(`${chars.slice(0, keep).join("").trimEnd()}…`, "strong", size) > maxWidthMm) keep -= 1;
  return { text: `${chars.slice(0, keep).join("").trimEnd()}…`, sizeMm: size };
}

/**
 * The label's drawing in mm. Positions are fractions of the width so the three sizes are the same
 * label scaled; text that would not fit (a long host name, a long item name) is made smaller or cut.
 */
export function labelDrawing(content: LabelContent, size: LabelSize): LabelDrawing {
  const { widthMm: w, heightMm: h } = labelSizes[size];
  const qr = QRCode.create(content.scanUrl, { errorCorrectionLevel: errorCorrection[size] });
  const count = qr.modules.size;
  // Under the call to action; 0.74 of the width keeps the small label's modules about 0.4 mm wide.
  const qrBlock = w * 0.74;
  const moduleMm = qrBlock / (count + 2 * QR_QUIET_ZONE);
  const qrLeft = (w - qrBlock) / 2 + QR_QUIET_ZONE * moduleMm;
  const qrTop = w * 0.095 + QR_QUIET_ZONE * moduleMm;

  const qrRuns: LabelDrawing["qrRuns"] = [];
  for (let row = 0; row < count; row++) {
    let start = -1;
    for (let col = 0; col <= count; col++) {
      const dark = col < count && qr.modules.get(row, col) === 1;
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        qrRuns.push({ x: qrLeft + start * moduleMm, y: qrTop + row * moduleMm, width: (col - start) * moduleMm, height: moduleMm });
        start = -1;
      }
    }
  }

  const textWidth = w * 0.92;
  const centre = w / 2;
  const line = (text: string, role: FontRole, y: number, sizeMm: number): TextLine => ({ text, role, x: centre, y: y * w, sizeMm: fittedSize(text, role, sizeMm * w, textWidth) });
  const lines = [
    line(content.callToAction, "strong", 0.07, 0.062),
    line(content.code, "code", 0.925, 0.11),
    line(content.noCamera, "text", 1.0, 0.058),
    line(content.foundAddress, "strong", 1.07, 0.058),
  ];
  const name = content.itemName?.trim();
  if (name) {
    const fitted = fittedName(name, 0.075 * w, textWidth);
    lines.push({ text: fitted.text, role: "strong", x: centre, y: 1.17 * w, sizeMm: fitted.sizeMm });
  }
  return { widthMm: w, heightMm: h, qrRuns, lines };
}

const num = (value: number) => String(Math.round(value * 10_000) / 10_000);

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char]!);
}

/**
 * The label as an SVG document: user units are millimetres; its width and height are in mm (for
 * printing at size), or in pixels when rasterised.
 */
export function labelSvg(content: LabelContent, size: LabelSize, pixels?: { width: number; height: number }): string {
  const drawing = labelDrawing(content, size);
  const { widthMm: w, heightMm: h } = drawing;
  const width = pixels ? String(pixels.width) : `${num(w)}mm`;
  const height = pixels ? String(pixels.height) : `${num(h)}mm`;
  const path = drawing.qrRuns.map((run) => `M${num(run.x)} ${num(run.y)}h${num(run.width)}v${num(run.height)}h-${num(run.width)}z`).join("");
  const texts = drawing.lines.map((line) => {
    const font = svgFonts[line.role];
    return `<text x="${num(line.x)}" y="${num(line.y)}" font-family="${escapeXml(font.family)}" font-weight="${font.weight}" font-size="${num(line.sizeMm)}" text-anchor="middle" fill="#000">${escapeXml(line.text)}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${num(w)} ${num(h)}">`,
    `<title>Tag ${escapeXml(content.code)}</title>`,
    `<rect width="${num(w)}" height="${num(h)}" fill="#fff"/>`,
    `<path d="${path}" fill="#000" shape-rendering="crispEdges"/>`,
    ...texts,
    `</svg>`,
  ].join("\n");
}

/** The label's pixel size in the PNG. */
export function labelPixels(size: LabelSize): { width: number; height: number } {
  const { widthMm, heightMm } = labelSizes[size];
  return { width: Math.round((widthMm / 25.4) * PNG_DPI), height: Math.round((heightMm / 25.4) * PNG_DPI) };
}

/** The SVG rasterised at PNG_DPI (librsvg through sharp), with the resolution recorded in the file. */
export async function labelPng(content: LabelContent, size: LabelSize): Promise<Uint8Array> {
  const svg = labelSvg(content, size, labelPixels(size));
  const png = await sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).png({ compressionLevel: 9 }).withMetadata({ density: PNG_DPI }).toBuffer();
  return new Uint8Array(png);
}

/** Draws a label with its top left at (leftMm, topMm) of the current page. */
function drawLabelOnPdf(doc: PDFKit.PDFDocument, drawing: LabelDrawing, leftMm: number, topMm: number): void {
  for (const run of drawing.qrRuns) doc.rect(ptFromMm(leftMm + run.x), ptFromMm(topMm + run.y), ptFromMm(run.width), ptFromMm(run.height));
  doc.fillColor("#000000").fill();
  for (const line of drawing.lines) {
    const sizePt = ptFromMm(line.sizeMm);
    doc.font(line.role).fontSize(sizePt);
    const width = doc.widthOfString(line.text);
    doc.text(line.text, ptFromMm(leftMm + line.x) - width / 2, ptFromMm(topMm + line.y), { lineBreak: false, baseline: "alphabetic" });
  }
}

function pdfBytes(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
    doc.end();
  });
}

/** One page the size of the label. */
export function labelPdf(content: LabelContent, size: LabelSize): Promise<Uint8Array> {
  const drawing = labelDrawing(content, size);
  const doc = pdfDocument({
    size: [ptFromMm(drawing.widthMm), ptFromMm(drawing.heightMm)],
    margin: 0,
    info: { Title: `Tag label ${content.code}`, Creator: "Tag Service" },
  });
  drawLabelOnPdf(doc, drawing, 0, 0);
  return pdfBytes(doc);
}

/** How a sheet of one paper holds labels of one size: a centred grid inside the margins. */
export function sheetGrid(size: LabelSize, paper: Paper) {
  const label = labelSizes[size];
  const page = papers[paper];
  const fit = (pageMm: number, labelMm: number) => Math.floor((pageMm - 2 * SHEET_MARGIN_MM + SHEET_GUTTER_MM) / (labelMm + SHEET_GUTTER_MM));
  const columns = fit(page.widthMm, label.widthMm);
  const rows = fit(page.heightMm, label.heightMm);
  const gridWidth = columns * label.widthMm + (columns - 1) * SHEET_GUTTER_MM;
  const gridHeight = rows * label.heightMm + (rows - 1) * SHEET_GUTTER_MM;
  return { columns, rows, perPage: columns * rows, left: (page.widthMm - gridWidth) / 2, top: (page.heightMm - gridHeight) / 2 };
}

/**
 * Labels laid out on as many pages as they need, left to right and top to bottom, each inside a thin
 * dashed cut line with a gutter between them; a footer says how to cut and which page this is.
 */
export function labelSheetPdf(contents: LabelContent[], size: LabelSize, paper: Paper): Promise<Uint8Array> {
  const grid = sheetGrid(size, paper);
  const page = papers[paper];
  const label = labelSizes[size];
  const pages = Math.max(1, Math.ceil(contents.length / grid.perPage));
  const doc = pdfDocument({
    size: [ptFromMm(page.widthMm), ptFromMm(page.heightMm)],
    margin: 0,
    autoFirstPage: false,
    info: { Title: `Tag labels (${contents.length}, ${label.title.toLowerCase()}, ${page.title})`, Creator: "Tag Service" },
  });
  for (let pageIndex = 0; pageIndex < pages; pageIndex++) {
    doc.addPage({ size: [ptFromMm(page.widthMm), ptFromMm(page.heightMm)], margin: 0 });
    const onPage = contents.slice(pageIndex * grid.perPage, (pageIndex + 1) * grid.perPage);
    onPage.forEach((content, index) => {
      const left = grid.left + (index % grid.columns) * (label.widthMm + SHEET_GUTTER_MM);
      const top = grid.top + Math.floor(index / grid.columns) * (label.heightMm + SHEET_GUTTER_MM);
      doc
        .save()
        .lineWidth(ptFromMm(0.2))
        .dash(ptFromMm(1), { space: ptFromMm(1) })
        .strokeColor("#9ca3af")
        .rect(ptFromMm(left), ptFromMm(top), ptFromMm(label.widthMm), ptFromMm(label.heightMm))
        .stroke()
        .restore();
      drawLabelOnPdf(doc, labelDrawing(content, size), left, top);
    });
    const footer = `Tag labels · ${label.title} ${label.widthMm} × ${label.heightMm} mm on ${page.title} · cut along the dashed lines · page ${pageIndex + 1} of ${pages}`;
    doc.font("text").fontSize(7).fillColor("#4b5563");
    doc.text(footer, ptFromMm(page.widthMm / 2) - doc.widthOfString(footer) / 2, ptFromMm(page.heightMm - SHEET_MARGIN_MM / 2), { lineBreak: false, baseline: "alphabetic" });
  }
  return pdfBytes(doc);
}
