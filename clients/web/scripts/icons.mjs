// The app's icons, drawn at build time as PNGs: a white card with a red heart on the table's
// green, crossed by a gold finish line. Full bleed, with everything that matters inside the
// maskable safe zone (the centre circle of 80% of the size), so one drawing serves as both
// an "any" and a "maskable" icon.
import { deflateSync } from "node:zlib";

const FELT = [0x0f, 0x3b, 0x2e];
const CARD = [0xfd, 0xfa, 0xf3];
const HEART = [0xc0, 0x18, 0x2b];
const GOLD = [0xe0, 0xa5, 0x26];
const SAMPLES = 4; // per axis: 16 samples a pixel smooth the edges

/** The colour at (x, y), both in 0..1 from the top left. */
function colourAt(x, y) {
  const inCard = roundedBox(x, y, 0.5, 0.5, 0.19, 0.26, 0.035);
  if (inCard && isHeart((x - 0.5) / 0.13, (0.47 - y) / 0.13)) return HEART;
  if (inCard) return CARD;
  if (Math.abs(x - 0.5) < 0.018 && y > 0.14 && y < 0.86) return GOLD;
  return FELT;
}

function roundedBox(x, y, cx, cy, halfWidth, halfHeight, radius) {
  const dx = Math.max(Math.abs(x - cx) - (halfWidth - radius), 0);
  const dy = Math.max(Math.abs(y - cy) - (halfHeight - radius), 0);
  return dx * dx + dy * dy <= radius * radius;
}

/** The heart curve (x² + y² − 1)³ ≤ x² y³, about 2.3 units wide. */
function isHeart(x, y) {
  const a = x * x + y * y - 1;
  return a * a * a - x * x * y * y * y <= 0;
}

/** A square RGB PNG of `size` pixels. */
export function iconPng(size) {
  const row = 1 + size * 3;
  const raw = Buffer.alloc(row * size);
  for (let py = 0; py < size; py++) {
    raw[py * row] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = colourAt((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size);
          for (let c = 0; c < 3; c++) sum[c] += colour[c];
        }
      }
      for (let c = 0; c < 3; c++) raw[py * row + 1 + px * 3 + c] = Math.round(sum[c] / (SAMPLES * SAMPLES));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a channel, RGB, deflate, no filter, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
