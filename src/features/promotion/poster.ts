import { encode } from 'uqr';

/**
 * The invite poster, drawn on a canvas so it can be saved as a PNG and shared as an image. It is a picture to hand
 * on, so it has its own fixed colours (the dark brand look) in either theme; the QR code sits on white with its
 * quiet zone so phones read it.
 */
export const POSTER_WIDTH = 720;
export const POSTER_HEIGHT = 1080;

export interface PosterTexts {
  appName: string;
  headline: string;
  subline: string;
  codeLabel: string;
  code: string;
  invitedBy: string;
  /** The link, shown small under the code for anyone who cannot scan. */
  link: string;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif';
const MARGIN = 56;

/**
 * Lines of `text` that fit `width`: broken at spaces, and inside a word (or a script without spaces, such as
 * Japanese or Thai) where one word alone is too wide. At most `max` lines; the last one ends in "…" when cut.
 */
export function wrapText(measure: (s: string) => number, text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  const push = (s: string) => {
    if (s) lines.push(s);
  };
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const joined = line ? `${line} ${word}` : word;
    if (measure(joined) <= width) {
      line = joined;
      continue;
    }
    push(line);
    line = '';
    for (const ch of Array.from(word)) {
      if (measure(line + ch) > width && line) {
        push(line);
        line = '';
      }
      line += ch;
    }
  }
  push(line);
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  let last = kept[max - 1] ?? '';
  while (last && measure(`${last}…`) > width) last = Array.from(last).slice(0, -1).join('');
  kept[max - 1] = `${last}…`;
  return kept;
}

function roundRect(g: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}

/** Draws the poster onto `canvas` (resized to POSTER_WIDTH × POSTER_HEIGHT). False when the browser gives no 2D context. */
export function drawPoster(canvas: HTMLCanvasElement, texts: PosterTexts): boolean {
  canvas.width = POSTER_WIDTH;
  canvas.height = POSTER_HEIGHT;
  const g = canvas.getContext('2d');
  if (!g) return false;
  const inner = POSTER_WIDTH - 2 * MARGIN;

  const bg = g.createLinearGradient(0, 0, POSTER_WIDTH * 0.4, POSTER_HEIGHT);
  bg.addColorStop(0, '#1b3466');
  bg.addColorStop(0.5, '#10203f');
  bg.addColorStop(1, '#0b0f19');
  g.fillStyle = bg;
  g.fillRect(0, 0, POSTER_WIDTH, POSTER_HEIGHT);
  // A soft accent circle behind the title, for some depth.
  g.fillStyle = 'rgba(87, 156, 255, 0.16)';
  g.beginPath();
  g.arc(POSTER_WIDTH - 40, 90, 220, 0, Math.PI * 2);
  g.fill();

  g.textBaseline = 'alphabetic';
  g.textAlign = 'left';
  g.fillStyle = '#579cff';
  g.font = `700 40px ${FONT}`;
  g.fillText(texts.appName, MARGIN, 104);

  let y = 190;
  g.fillStyle = '#ffffff';
  g.font = `800 54px ${FONT}`;
  for (const line of wrapText((s) => g.measureText(s).width, texts.headline, inner, 2)) {
    g.fillText(line, MARGIN, y);
    y += 66;
  }
  g.fillStyle = '#c3cbe0';
  g.font = `400 30px ${FONT}`;
  for (const line of wrapText((s) => g.measureText(s).width, texts.subline, inner, 2)) {
    g.fillText(line, MARGIN, y);
    y += 40;
  }

  // The QR code of the link on a white card, centred.
  const card = 380;
  const cardX = (POSTER_WIDTH - card) / 2;
  const cardY = 390;
  g.fillStyle = '#ffffff';
  roundRect(g, cardX, cardY, card, card, 28);
  g.fill();
  const qr = encode(texts.link, { ecc: 'M', border: 2 });
  const cell = Math.floor((card - 20) / qr.size);
  const offset = (card - cell * qr.size) / 2;
  g.fillStyle = '#000000';
  qr.data.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (dark) g.fillRect(cardX + offset + c * cell, cardY + offset + r * cell, cell, cell);
    });
  });

  g.textAlign = 'center';
  const mid = POSTER_WIDTH / 2;
  g.fillStyle = '#c3cbe0';
  g.font = `500 28px ${FONT}`;
  g.fillText(texts.codeLabel, mid, 840);
  g.fillStyle = '#ffffff';
  g.font = `800 64px ${FONT}`;
  g.fillText(texts.code, mid, 914, inner);
  g.fillStyle = '#c3cbe0';
  g.font = `400 26px ${FONT}`;
  g.fillText(wrapText((s) => g.measureText(s).width, texts.invitedBy, inner, 1)[0] ?? '', mid, 966);
  // The link for anyone who cannot scan: it has no spaces, so it breaks where the width ends.
  g.fillStyle = '#8fa0c4';
  g.font = `400 20px ${FONT}`;
  let linkY = 1016;
  for (const line of wrapText((s) => g.measureText(s).width, texts.link, inner, 2)) {
    g.fillText(line, mid, linkY);
    linkY += 26;
  }
  return true;
}

/** The canvas as a PNG, or null when the browser cannot make one. */
export const posterPng = (canvas: HTMLCanvasElement): Promise<Blob | null> =>
  new Promise((resolve) => {
    try {
      canvas.toBlob((blob) => resolve(blob), 'image/png');
    } catch {
      // A tainted or zero-sized canvas throws instead of answering null.
      resolve(null);
    }
  });

/**
 * Offers `blob` as a download named `name` through an `<a download>` and a blob URL (the one way that works in
 * every browser without a server round trip); the URL is released once the click has been handled.
 */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
