// The Reconstruct panel's own module worker: its own WebAssembly instance, so parsing,
// cleaning and reconstructing a large cloud never blocks the simulator's worker. One job at a
// time; the page cancels a job by terminating this worker and starting a new one. The message
// loop is worker/loop.js's; the page's side is reconstruct/client.js.
//
// requests:
//   { id, type: 'parse', name, bytes: Uint8Array }
//   { id, type: 'clean', positions: Float64Array, options }         (cleanCloud options)
//   { id, type: 'reconstruct', positions: Float64Array, options }   (reconstructCloud options)
//   { id, type: 'scene', name }                                     a built-in scene's JSON
import createTela from '../wasm/tela.mjs';
import { serveMessages } from '../worker/loop.js';

let tela = null;

function handle(message, { stage }) {
  switch (message.type) {
    case 'parse':
      stage(`parsing ${(message.bytes.length / 2 ** 20).toFixed(1)} MB`);
      return tela.parseCloud(message.bytes, message.name ?? '');
    case 'clean':
      stage('cleaning');
      return tela.cleanCloud(message.positions, message.options ?? {});
    case 'reconstruct':
      stage(`reconstructing ${message.positions.length / 3} points`);
      return tela.reconstructCloud(message.positions, message.options ?? {});
    case 'scene':
      return { ok: true, json: tela.sceneJson(message.name) };
    default:
      return { ok: false, error: `unknown request ${message.type}` };
  }
}

const verb = { parse: 'Reading the cloud', clean: 'Cleaning', reconstruct: 'The reconstruction' };
serveMessages({
  load: async () => (tela = await createTela()),
  handle,
  name: 'reconstruction',
  what: (message) => verb[message.type] ?? message.type,
  next: 'It has been restarted. A cloud this large may need more memory than the page can give it: crop or downsample it (voxel size) first, or use the command-line tool (tela reconstruct).',
  loadError: 'the reconstruction module could not be loaded',
  restart: true,
});
