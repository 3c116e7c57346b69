/**
 * Draws the shop's product pictures into public/products/ as SVG: each tag as it looks, with a real QR
 * code (of a demo scan address) on it, lit from the top left on a soft backdrop. Run after changing the
 * catalogue's look: `npx tsx scripts/draw-product-images.ts`; the files it writes are committed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import QRCode from "qrcode";

const OUT = join(process.cwd(), "public", "products");
const SIZE = 800;

/** QR modules as one SVG path, `size` px wide at (x, y), in `colour`. */
function qrPath(text: string, x: number, y: number, size: number, colour: string): string {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const count = qr.modules.size;
  const cell = size / count;
  let d = "";
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.modules.get(row, col)) d += `M${(x + col * cell).toFixed(2)} ${(y + row * cell).toFixed(2)}h${cell.toFixed(2)}v${cell.toFixed(2)}h-${cell.toFixed(2)}z`;
    }
  }
  return `<path d="${d}" fill="${colour}"/>`;
}

function frame(title: string, backdrop: [string, string], body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}" role="img" aria-label="${title}">
<title>${title}</title>
<defs>
  <radialGradient id="bg" cx="35%" cy="30%" r="85%"><stop offset="0" stop-color="${backdrop[0]}"/><stop offset="1" stop-color="${backdrop[1]}"/></radialGradient>
  <filter id="shadow" x="-20%" y="-20%" width="140%" height="150%"><feDropShadow dx="0" dy="18" stdDeviation="18" flood-color="#0f172a" flood-opacity="0.28"/></filter>
  <linearGradient id="sheen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="0.45" stop-color="#ffffff" stop-opacity="0"/></linearGradient>
  <linearGradient id="metal" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f1f5f9"/><stop offset="0.5" stop-color="#94a3b8"/><stop offset="1" stop-color="#e2e8f0"/></linearGradient>
</defs>
<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>
${body}
</svg>
`;
}

const demoUrl = (n: number) => `https://tagservice.example/t/demo-${n}-Xk3QmP9tR2`;

/** A square QR tag with a ring hole: `fill` is the tag's colour. Centred at (cx, cy), `w` wide, turned `angle` degrees. */
function qrTag(cx: number, cy: number, w: number, fill: string, n: number, angle = 0, code = "7K3QX-M9P2T"): string {
  const h = w * 1.28;
  const x = cx - w / 2;
  const y = cy - h / 2;
  const qrSize = w * 0.72;
  return `<g transform="rotate(${angle} ${cx} ${cy})" filter="url(#shadow)">
  <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${w * 0.14}" fill="${fill}"/>
  <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${w * 0.14}" fill="url(#sheen)"/>
  <circle cx="${cx}" cy="${y + w * 0.12}" r="${w * 0.055}" fill="#0f172a" fill-opacity="0.55"/>
  <circle cx="${cx}" cy="${y + w * 0.12}" r="${w * 0.09}" fill="none" stroke="url(#metal)" stroke-width="${w * 0.03}"/>
  <rect x="${cx - qrSize / 2 - w * 0.04}" y="${y + w * 0.22}" width="${qrSize + w * 0.08}" height="${qrSize + w * 0.08}" rx="${w * 0.04}" fill="#ffffff"/>
  ${qrPath(demoUrl(n), cx - qrSize / 2, y + w * 0.26, qrSize, "#0f172a")}
  <text x="${cx}" y="${y + h - w * 0.1}" text-anchor="middle" font-family="ui-monospace, Menlo, Consolas, monospace" font-weight="700" font-size="${w * 0.085}" fill="#ffffff" letter-spacing="${w * 0.01}">${code}</text>
</g>`;
}

function nfcDisc(cx: number, cy: number, r: number): string {
  const qrSize = r * 0.8;
  return `<g filter="url(#shadow)">
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="#0f172a"/>
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#sheen)"/>
  <circle cx="${cx}" cy="${cy}" r="${r * 0.93}" fill="none" stroke="#334155" stroke-width="${r * 0.02}"/>
  <rect x="${cx - qrSize / 2 - r * 0.05}" y="${cy - qrSize / 2 - r * 0.3}" width="${qrSize + r * 0.1}" height="${qrSize + r * 0.1}" rx="${r * 0.05}" fill="#ffffff"/>
  ${qrPath(demoUrl(2), cx - qrSize / 2, cy - qrSize / 2 - r * 0.25, qrSize, "#0f172a")}
  <g fill="none" stroke="#60a5fa" stroke-width="${r * 0.045}" stroke-linecap="round">
    <path d="M${cx - r * 0.1} ${cy + r * 0.58} a${r * 0.1} ${r * 0.1} 0 0 1 ${r * 0.2} 0"/>
    <path d="M${cx - r * 0.2} ${cy + r * 0.58} a${r * 0.2} ${r * 0.2} 0 0 1 ${r * 0.4} 0"/>
    <path d="M${cx - r * 0.3} ${cy + r * 0.58} a${r * 0.3} ${r * 0.3} 0 0 1 ${r * 0.6} 0"/>
  </g>
  <text x="${cx}" y="${cy + r * 0.8}" text-anchor="middle" font-family="ui-sans-serif, system-ui, sans-serif" font-weight="700" font-size="${r * 0.11}" fill="#e2e8f0">TAP OR SCAN</text>
</g>`;
}

function collarTag(fill: string): string {
  const cx = 400;
  const cy = 470;
  const r = 190;
  const qrSize = r * 0.9;
  return `<g filter="url(#shadow)">
  <path d="M120 150 C 260 250, 540 250, 680 150" fill="none" stroke="#7c2d12" stroke-width="46" stroke-linecap="round"/>
  <path d="M120 150 C 260 250, 540 250, 680 150" fill="none" stroke="#9a3412" stroke-width="30" stroke-linecap="round" stroke-dasharray="2 16"/>
  <circle cx="${cx}" cy="236" r="40" fill="none" stroke="url(#metal)" stroke-width="14"/>
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#sheen)"/>
  <circle cx="${cx}" cy="${cy - r + 26}" r="15" fill="#0f172a" fill-opacity="0.6"/>
  <rect x="${cx - qrSize / 2 - 12}" y="${cy - qrSize / 2 - 12}" width="${qrSize + 24}" height="${qrSize + 24}" rx="14" fill="#ffffff"/>
  ${qrPath(demoUrl(3), cx - qrSize / 2, cy - qrSize / 2, qrSize, "#0f172a")}
  <g fill="#ffffff" fill-opacity="0.9" transform="translate(${cx} ${cy + r * 0.72})">
    <ellipse cx="0" cy="6" rx="17" ry="13"/><circle cx="-19" cy="-10" r="7"/><circle cx="-7" cy="-18" r="7"/><circle cx="7" cy="-18" r="7"/><circle cx="19" cy="-10" r="7"/>
  </g>
</g>`;
}

function luggageTag(fill: string): string {
  const x = 190;
  const y = 170;
  const w = 420;
  const h = 520;
  const qrSize = 250;
  return `<g filter="url(#shadow)" transform="rotate(-8 400 430)">
  <path d="M400 ${y + 30} C 330 60, 250 40, 210 90" fill="none" stroke="#0f172a" stroke-width="22" stroke-linecap="round"/>
  <path d="M${x + 60} ${y} H${x + w - 60} L${x + w} ${y + 60} V${y + h - 24} a24 24 0 0 1 -24 24 H${x + 24} a24 24 0 0 1 -24 -24 V${y + 60} Z" fill="${fill}"/>
  <path d="M${x + 60} ${y} H${x + w - 60} L${x + w} ${y + 60} V${y + h - 24} a24 24 0 0 1 -24 24 H${x + 24} a24 24 0 0 1 -24 -24 V${y + 60} Z" fill="url(#sheen)"/>
  <rect x="${400 - 34}" y="${y + 26}" width="68" height="24" rx="12" fill="#0f172a" fill-opacity="0.6"/>
  <rect x="${400 - qrSize / 2 - 16}" y="${y + 90}" width="${qrSize + 32}" height="${qrSize + 32}" rx="16" fill="#ffffff"/>
  ${qrPath(demoUrl(4), 400 - qrSize / 2, y + 106, qrSize, "#0f172a")}
  <text x="400" y="${y + 430}" text-anchor="middle" font-family="ui-sans-serif, system-ui, sans-serif" font-weight="800" font-size="34" fill="#ffffff">IF FOUND, SCAN ME</text>
  <text x="400" y="${y + 476}" text-anchor="middle" font-family="ui-monospace, Menlo, Consolas, monospace" font-weight="700" font-size="28" fill="#ffffff" fill-opacity="0.85">4HQ2Z-W8RNC</text>
</g>`;
}

const colours = { blue: "#1d4ed8", red: "#b91c1c", black: "#1e293b", green: "#15803d", orange: "#c2410c" };

const images: Record<string, string> = {
  "qr-tag": frame("A QR tag in blue with its ring", ["#eff6ff", "#bfdbfe"], qrTag(400, 420, 380, colours.blue, 1)),
  "qr-tag-black": frame("A QR tag in black with its ring", ["#f8fafc", "#cbd5e1"], qrTag(400, 420, 380, colours.black, 1)),
  "nfc-tag": frame("A round NFC tag with a QR code", ["#f0f9ff", "#bae6fd"], nfcDisc(400, 400, 280)),
  "pet-collar-tag": frame("A round pet tag in blue on a leather collar", ["#fffbeb", "#fde68a"], collarTag(colours.blue)),
  "pet-collar-tag-red": frame("A round pet tag in red on a leather collar", ["#fff7ed", "#fed7aa"], collarTag(colours.red)),
  "pet-collar-tag-green": frame("A round pet tag in green on a leather collar", ["#f0fdf4", "#bbf7d0"], collarTag(colours.green)),
  "luggage-tag": frame("A luggage tag in orange with its strap", ["#fff7ed", "#fdba74"], luggageTag(colours.orange)),
  "luggage-tag-black": frame("A luggage tag in black with its strap", ["#f8fafc", "#cbd5e1"], luggageTag(colours.black)),
  "pack-5": frame(
    "Five QR tags fanned out",
    ["#eef2ff", "#c7d2fe"],
    [colours.green, colours.orange, colours.red, colours.black, colours.blue]
      .map((fill, i) => qrTag(400 + (i - 2) * 70, 430 + Math.abs(i - 2) * 14, 250, fill, 10 + i, (i - 2) * 11, `TAG-${i + 1}`))
      .join("\n"),
  ),
  "pack-10": frame(
    "Ten QR tags in two rows",
    ["#f5f3ff", "#ddd6fe"],
    Array.from({ length: 10 }, (_, i) => {
      const fill = Object.values(colours)[i % 5]!;
      const col = i % 5;
      const row = Math.floor(i / 5);
      return qrTag(128 + col * 136, 240 + row * 320, 126, fill, 20 + i, (col - 2) * 3, `TAG-${String(i + 1).padStart(2, "0")}`);
    }).join("\n"),
  ),
};

mkdirSync(OUT, { recursive: true });
for (const [name, svg] of Object.entries(images)) {
  writeFileSync(join(OUT, `${name}.svg`), svg);
  console.log(`public/products/${name}.svg (${(svg.length / 1024).toFixed(1)} KB)`);
}
