// Recognises a dropped or opened file by its content (never by its extension).
// sniffFormat(bytes: Uint8Array) -> { format, label, kind, detail? } or null when unknown.
// kind: 'scenario' | 'recording' | 'point-cloud' | 'mesh' | 'database'.

export const FORMATS = {
  scenario: { label: 'tela scenario (JSON)', kind: 'scenario' },
  'optitrack-csv': { label: 'OptiTrack Motive CSV recording', kind: 'recording' },
  'vicon-csv': { label: 'Vicon Nexus CSV recording', kind: 'recording' },
  'qualisys-tsv': { label: 'Qualisys TSV recording', kind: 'recording' },
  c3d: { label: 'C3D motion-capture recording', kind: 'recording' },
  'mocap-csv': { label: 'motion-capture CSV (time + marker columns)', kind: 'recording' },
  ply: { label: 'PLY point cloud or mesh', kind: 'point-cloud' },
  pcd: { label: 'PCD point cloud', kind: 'point-cloud' },
  'xyz-points': { label: 'XYZ/CSV point cloud', kind: 'point-cloud' },
  obj: { label: 'Wavefront OBJ mesh', kind: 'mesh' },
  'dgli-database': { label: 'tela dGLI database (JSON)', kind: 'database' },
};

const SCENARIO_KEYS = ['version', 'mesh', 'material', 'solver', 'controls', 'duration'];

function result(format, detail) {
  return { format, ...FORMATS[format], ...(detail ? { detail } : {}) };
}

function isBinary(bytes) {
  const n = Math.min(bytes.length, 4096);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control > n * 0.05;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^nan$/i;

// rows of numbers with a constant column count of 3 or >= 6 after at most a few header lines;
// a few broken rows (at most one in ten: a cut last line, a stray word) still make a point file,
// whose parser then names the line, rather than "not a file tela recognises"
function looksLikePoints(lines) {
  let header = 0;
  let columns = -1;
  let rows = 0;
  let broken = 0;
  for (const line of lines) {
    const t = line.trim();
    if (!t || t.startsWith('#') || t.startsWith('//')) continue;
    const cells = t.split(/[\s,;]+/);
    if (!cells.every((c) => NUMBER.test(c))) {
      if (rows === 0 && header < 3) { header++; continue; }
      broken++;
      continue;
    }
    if (columns < 0) columns = cells.length;
    if (cells.length !== columns) broken++;
    else rows++;
  }
  return rows >= 1 && (columns === 3 || columns >= 6) && broken <= Math.max(1, rows / 10);
}

export function sniffFormat(bytes) {
  if (bytes.length === 0) return null;
  // C3D: first byte the parameter-section block (>= 2), second the key byte 0x50 (PNG has it
  // too), and that section's fourth byte a processor type (84 Intel, 85 DEC, 86 MIPS), as the
  // core's looks_like_c3d
  const processor = (bytes[0] - 1) * 512 + 3;
  if (bytes.length >= 512 && bytes[1] === 0x50 && bytes[0] >= 2 && processor < bytes.length &&
      bytes[processor] >= 84 && bytes[processor] <= 86) return result('c3d');

  const HEAD = 65536;
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, HEAD));
  const text = head.replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();

  // PLY and PCD headers are text even when the body is binary
  if (/^ply\s*\r?\n\s*format\s+(ascii|binary_little_endian|binary_big_endian)\b/.test(trimmed)) return result('ply');
  if (/^#\s*\.PCD/m.test(trimmed.slice(0, 200)) || (/^VERSION\s/m.test(trimmed) && /^FIELDS\s/m.test(trimmed))) return result('pcd');
  if (isBinary(bytes)) return null;

  if (trimmed.startsWith('{')) {
    let value;
    try {
      value = JSON.parse(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ''));
    } catch {
      // broken JSON that names itself goes where its parser says where it breaks
      if (/"format"\s*:\s*"tela-dgli-database"/.test(text)) return result('dgli-database');
      if (SCENARIO_KEYS.some((k) => text.includes(`"${k}"`))) return result('scenario');
      return null;
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && value.format === 'tela-dgli-database') {
      return result('dgli-database');
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && SCENARIO_KEYS.some((k) => k in value)) {
      return result('scenario');
    }
    return null;
  }

  const lines = text.split(/\r?\n/);
  // a longer file's head ends inside a line: that fragment is not evidence of anything
  if (bytes.length > HEAD && lines.length > 1) lines.pop();
  const first = lines[0] ?? '';
  if (/(^|,)Format Version,/.test(first)) return result('optitrack-csv');
  if (/^NO_OF_FRAMES\t/m.test(text.slice(0, 2000)) && /^MARKER_NAMES\t/m.test(text)) return result('qualisys-tsv');
  const firstLine = lines.find((l) => l.trim()) ?? '';
  if (/^(Trajectories|Devices|Model Outputs|Joints|Segments)\s*,*\s*$/.test(firstLine.trim()) &&
      /^Frame,Sub Frame/m.test(text)) return result('vicon-csv');

  const meaningful = lines.filter((l) => l.trim() && !/^\s*#/.test(l));
  if (meaningful.some((l) => /^\s*v\s+\S+\s+\S+\s+\S+/.test(l)) && meaningful.every((l) => /^\s*(v|vt|vn|vp|f|l|o|g|s|usemtl|mtllib)\b/.test(l))) {
    return result('obj');
  }
  // a header naming a time or frame column, then numeric rows: a generic recording
  const header = meaningful[0] ?? '';
  if (/(^|[,\t;])\s*"?(time|frame)\b/i.test(header) && /[,\t;]/.test(header) && meaningful.length > 1 &&
      meaningful.slice(1, 20).every((l) => l.split(/[,\t;]/).every((c) => c.trim() === '' || NUMBER.test(c.trim())))) {
    return result('mocap-csv');
  }
  if (looksLikePoints(lines.slice(0, 2000))) return result('xyz-points');
  return null;
}
