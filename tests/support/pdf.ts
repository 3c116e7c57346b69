import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Print checks through poppler (pdftotext, pdftoppm, pdffonts; .ci/run installs poppler-utils): what a
 * PDF viewer or a printer would make of our files, not what we meant to write into them.
 */
function withPdfFile<T>(pdf: Uint8Array, read: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-check-"));
  try {
    const file = path.join(dir, "in.pdf");
    writeFileSync(file, pdf);
    return read(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF's text lines as poppler extracts them, in the order drawn (`-raw`), blank lines left out. */
export function pdfLines(pdf: Uint8Array): string[] {
  const text = withPdfFile(pdf, (file) => execFileSync("pdftotext", ["-raw", "-enc", "UTF-8", file, "-"], { encoding: "utf8" }));
  return text
    .split(/\r?\n|\f/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** One page of the PDF rendered as a PNG at `dpi`, as a printer would rasterise it. */
export function pdfPagePng(pdf: Uint8Array, dpi: number, page = 1): Buffer {
  return withPdfFile(pdf, (file, dir) => {
    execFileSync("pdftoppm", ["-png", "-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", file, path.join(dir, "page")]);
    return readFileSync(path.join(dir, "page.png"));
  });
}

/** The PDF's fonts: name (subset prefix removed), whether embedded, whether it maps to Unicode. */
export function pdfFonts(pdf: Uint8Array): { name: string; embedded: boolean; unicode: boolean }[] {
  const listing = withPdfFile(pdf, (file) => execFileSync("pdffonts", [file], { encoding: "utf8" }));
  return listing
    .split("\n")
    .slice(2)
    .filter(Boolean)
    .map((row) => {
      const columns = row.trim().split(/\s+/);
      // name … emb sub uni objectId generation
      const [emb, , uni] = columns.slice(-5, -2);
      return { name: columns[0]!.replace(/^[A-Z]{6}\+/, ""), embedded: emb === "yes", unicode: uni === "yes" };
    });
}

export interface PdfWord {
  text: string;
  /** In points from the page's top left. */
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word on the first page with its box, from `pdftotext -bbox`. */
export function pdfWords(pdf: Uint8Array): PdfWord[] {
  const html = withPdfFile(pdf, (file) => execFileSync("pdftotext", ["-bbox", "-enc", "UTF-8", "-f", "1", "-l", "1", file, "-"], { encoding: "utf8" }));
  const unescape = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((match) => ({
    text: unescape(match[5]!),
    xMin: Number(match[1]),
    yMin: Number(match[2]),
    xMax: Number(match[3]),
    yMax: Number(match[4]),
  }));
}
