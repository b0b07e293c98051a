// Share links: the URL hash carries a versioned, compressed payload, `#v1=<base64url of the
// deflate-raw compressed JSON>`. The payload holds the scenario (never uploaded data), the
// exact step count and the view. Every version ever written keeps a decoder here.
//
// v1 payload: { scenario: {...scenario file...}, steps: integer >= 0,
//               view: { camera?: [px,py,pz,tx,ty,tz], field?: string, wireframe?: bool,
//                       pins?: bool, playing?: bool, panel?: string },
//               panels?: { [panel id]: that panel's state (its shareState) } }
// (panel: the tab the link opens on; a link without it opens on Simulate.
// panels: what a panel needs to redo its result, e.g. Reconstruct's settings and the name and
// SHA-256 of its cloud — never the cloud)
export const CURRENT_VERSION = 1;
const MAX_STEPS = 1000000; // the core's limit on a run's length (sim/simulation.cpp)

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('it contains characters that base64url does not use');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  const binary = atob(padded);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const response = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await response.arrayBuffer());
}

const deflate = (bytes) => pipe(bytes, new CompressionStream('deflate-raw'));
const inflate = (bytes) => pipe(bytes, new DecompressionStream('deflate-raw'));

// payload -> '#v1=...'
export async function encodeShareHash(payload) {
  const json = new TextEncoder().encode(JSON.stringify(payload));
  return `#v${CURRENT_VERSION}=${toBase64Url(await deflate(json))}`;
}

function checkV1(payload) {
  if (typeof payload !== 'object' || payload === null) throw new Error('the payload is not an object');
  if (typeof payload.scenario !== 'object' || payload.scenario === null) throw new Error('it holds no scenario');
  if (!Number.isSafeInteger(payload.steps) || payload.steps < 0) throw new Error('its step count is not a whole number ≥ 0');
  if (payload.steps > MAX_STEPS) throw new Error(`its step count ${payload.steps} is more than tela replays (${MAX_STEPS})`);
  const view = typeof payload.view === 'object' && payload.view !== null ? payload.view : {};
  const panels = typeof payload.panels === 'object' && payload.panels !== null && !Array.isArray(payload.panels) ? payload.panels : {};
  return { scenario: payload.scenario, steps: payload.steps, view, panels };
}

// decoders by version: bytes of the hash value -> { scenario, steps, view, panels }
const DECODERS = {
  1: async (text) => {
    let json;
    try {
      json = new TextDecoder('utf-8', { fatal: true }).decode(await inflate(fromBase64Url(text)));
    } catch (err) {
      // the stream's own message ("Failed to fetch", ...) says nothing useful here
      throw new Error(/base64url/.test(err?.message) ? err.message : 'its data does not decompress (cut short or altered?)');
    }
    let payload;
    try {
      payload = JSON.parse(json);
    } catch {
      throw new Error('its content is not JSON');
    }
    return checkV1(payload);
  },
};

// A URL hash -> { kind: 'none' } | { kind: 'link', version, scenario, steps, view }
//             | { kind: 'bad', message }
export async function decodeShareHash(hash) {
  const text = hash.replace(/^#/, '');
  if (!text) return { kind: 'none' };
  const match = /^v(\d+)=(.*)$/s.exec(text);
  if (!match) return { kind: 'bad', message: 'This link’s address does not hold a tela scene (expected #v1=…).' };
  const version = Number(match[1]);
  const decoder = DECODERS[version];
  if (!decoder) {
    return {
      kind: 'bad',
      message: `This link was made by a version of tela this page does not know (link format v${version}; this page reads v${Object.keys(DECODERS).join(', v')}).`,
    };
  }
  try {
    return { kind: 'link', version, ...(await decoder(match[2])) };
  } catch (err) {
    return { kind: 'bad', message: `This share link is damaged: ${err.message}.` };
  }
}
