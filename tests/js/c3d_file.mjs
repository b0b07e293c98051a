// A small C3D writer for the JS and browser tests, written from the C3D User Guide apart from
// the core's mocap/c3d_writer.cpp (so the two check each other): Intel processor (84), float
// data (POINT:SCALE -1), a POINT and an ANALOG group, analog channels of one sample per frame
// interleaved after each frame's points, missing points as (0, 0, 0) with residual -1.
// Also reads the marker columns of a Motive CSV export (the shipped sample) to feed it.

// Motive CSV -> { names, rate, units, frames: [Float64Array(3 #names) per frame, NaN = missing] }
export function motiveMarkers(text) {
  const lines = text.split(/\r?\n/);
  const meta = lines[0].split(',');
  const rate = Number(meta[meta.indexOf('Export Frame Rate') + 1]);
  const units = meta[meta.indexOf('Length Units') + 1] === 'Meters' ? 'm' : 'mm';
  const nameRow = lines.find((l) => l.startsWith(',Name,')).split(',');
  const names = [];
  for (let c = 2; c < nameRow.length; c += 3) names.push(nameRow[c]);
  const header = lines.findIndex((l) => l.startsWith('Frame,'));
  const frames = [];
  for (const line of lines.slice(header + 1)) {
    if (!line.trim()) continue;
    const cells = line.split(',');
    frames.push(Float64Array.from({ length: 3 * names.length }, (_, k) => (cells[k + 2] === '' || cells[k + 2] === undefined ? NaN : Number(cells[k + 2]))));
  }
  return { names, rate, units, frames };
}

const ascii = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const blocks = (n) => Math.ceil(n / 512) * 512;

function word(value) {
  const b = new Uint8Array(2);
  new DataView(b.buffer).setInt16(0, value, true);
  return b;
}
function float(value) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, value, true);
  return b;
}

// a parameter's body: data type, dimensions, data, an empty description
function parameter(type, dimensions, data) {
  return concat([Uint8Array.of(type & 0xff, dimensions.length, ...dimensions), data, Uint8Array.of(0)]);
}
function strings(values) {
  const length = Math.max(1, ...values.map((v) => v.length));
  return parameter(-1, [length, values.length], concat(values.map((v) => ascii(v.padEnd(length, ' ')))));
}

// records [{ id, name, body }] -> the parameter section, chained by offsets, in whole blocks
function section(records) {
  const parts = [Uint8Array.of(1, 0x50, 0, 84)];
  records.forEach((r, k) => {
    const last = k === records.length - 1;
    parts.push(Uint8Array.of(r.name.length, r.id & 0xff), ascii(r.name), word(last ? 0 : 2 + r.body.length), r.body);
  });
  const bytes = concat(parts);
  const out = new Uint8Array(blocks(bytes.length));
  out.set(bytes);
  out[2] = out.length / 512;
  return out;
}

// { names (at most 255), rate (Hz), units ('mm' | 'cm' | 'm', of the frames' values), frames,
//   yScreen ('+Y', '+Z', ... or null), analogChannels } -> Uint8Array of a .c3d file
export function writeC3d({ names, rate, units = 'mm', frames, yScreen = null, analogChannels = 0 }) {
  if (names.length > 255) throw new Error('writeC3d: at most 255 labels');
  const records = (dataBlock) => [
    { id: -1, name: 'POINT', body: Uint8Array.of(0) },
    { id: -2, name: 'ANALOG', body: Uint8Array.of(0) },
    { id: 1, name: 'USED', body: parameter(2, [], word(names.length)) },
    { id: 1, name: 'FRAMES', body: parameter(2, [], word(Math.min(frames.length, 65535))) },
    { id: 1, name: 'SCALE', body: parameter(4, [], float(-1)) },
    { id: 1, name: 'RATE', body: parameter(4, [], float(rate)) },
    { id: 1, name: 'DATA_START', body: parameter(2, [], word(dataBlock)) },
    { id: 1, name: 'UNITS', body: parameter(-1, [units.length], ascii(units)) },
    { id: 1, name: 'LABELS', body: strings(names) },
    ...(yScreen ? [{ id: 1, name: 'Y_SCREEN', body: parameter(-1, [2], ascii(yScreen)) }] : []),
    { id: 2, name: 'USED', body: parameter(2, [], word(analogChannels)) },
    { id: 2, name: 'RATE', body: parameter(4, [], float(rate)) },
  ];
  const parameters = section(records(2 + section(records(0)).length / 512));
  const dataBlock = 2 + parameters.length / 512;

  const header = new Uint8Array(512);
  const h = new DataView(header.buffer);
  header[0] = 2;
  header[1] = 0x50;
  h.setUint16(2, names.length, true);
  h.setUint16(4, analogChannels, true);
  h.setUint16(6, 1, true);
  h.setUint16(8, Math.min(frames.length, 65535), true);
  h.setFloat32(12, -1, true);
  h.setUint16(16, dataBlock, true);
  h.setUint16(18, 1, true);
  h.setFloat32(20, rate, true);

  const frameBytes = 16 * names.length + 4 * analogChannels;
  const data = new Uint8Array(blocks(frameBytes * frames.length));
  const d = new DataView(data.buffer);
  frames.forEach((values, f) => {
    let at = f * frameBytes;
    for (let p = 0; p < names.length; p++, at += 16) {
      const x = values.subarray(3 * p, 3 * p + 3);
      const valid = x.every(Number.isFinite);
      for (let a = 0; a < 3; a++) d.setFloat32(at + 4 * a, valid ? x[a] : 0, true);
      d.setFloat32(at + 12, valid ? 0 : -1, true);
    }
    for (let c = 0; c < analogChannels; c++) d.setFloat32(at + 4 * c, -100 - ((f + c) % 50), true);
  });
  return concat([header, parameters, data]);
}
