// The text of a user's recording: UTF-8, or else Windows-1252 (Motive and Nexus on a
// Western-European Windows write take and marker names in the system code page), decoded as
// the core decodes the CLI's files (wasm/core/scenario/text_encoding.cpp: the same table, the
// five unassigned bytes as U+FFFD; TextDecoder('windows-1252') is Latin-1 in some engines);
// a leading byte-order mark is dropped.
const WINDOWS_1252_HIGH = [
  0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039,
  0x0152, 0xfffd, 0x017d, 0xfffd, 0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
  0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178];

export function recordingText(bytes) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // every code point is below U+10000: one UTF-16 unit per byte
    const units = new Uint16Array(bytes.length);
    for (let i = 0; i < bytes.length; ++i) {
      const b = bytes[i];
      units[i] = b >= 0x80 && b < 0xa0 ? WINDOWS_1252_HIGH[b - 0x80] : b;
    }
    text = new TextDecoder('utf-16le').decode(units);
  }
  return text.replace(/^\uFEFF/, '');
}
