// Files dropped anywhere on the page, or chosen with Open…: the content is sniffed
// (web/src/io/sniff.js) and routed: a scenario loads into Simulate; recordings, point clouds
// and meshes go to the panel that registered for their format; anything else gets a message
// in the page saying what tela accepts now.
import { FORMATS, sniffFormat } from './sniff.js';
import { acceptedFormats, panelFor } from '../app/panels.js';

// Point clouds may be as large as the CLI and the core's readers take (2 GiB; whether a cloud
// fits beyond that is up to the Reconstruct worker's 4 GB module, which says so when it runs
// out). Other files stay under 512 MiB, the size their panels were tried with.
const MAX_BYTES = 2 * 2 ** 30;
const MAX_OTHER_BYTES = 512 * 2 ** 20;

function acceptedNow() {
  const names = ['tela scenario JSON', ...acceptedFormats().map((f) => FORMATS[f]?.label ?? f)];
  return names.join(', ');
}

// name: shown in messages; bytes: Uint8Array
export async function routeFile(app, name, bytes) {
  if (bytes.length === 0) {
    app.showError(`“${name}” is empty (0 bytes): nothing to open. Was it saved or exported completely?`);
    return { ok: false };
  }
  const found = sniffFormat(bytes);
  if (!found) {
    app.showError(`“${name}” is not a file tela recognises (by its content). tela opens now: ${acceptedNow()}. ` +
      'Recordings (OptiTrack, Vicon, Qualisys, C3D, mocap CSV) go to Fit, point clouds (PLY, PCD, XYZ) to Reconstruct, OBJ meshes to Classify.');
    return { ok: false };
  }
  if (found.kind !== 'point-cloud' && bytes.length > MAX_OTHER_BYTES) {
    app.showError(`“${name}” (${found.label}) is ${(bytes.length / 2 ** 20).toFixed(1)} MiB, more than tela opens (512 MiB; only point clouds may be up to 2 GiB).`);
    return { ok: false };
  }
  if (found.format === 'scenario') {
    const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
    const answer = await app.loadScenario(text, { play: true });
    if (!answer.ok) {
      app.showError(`“${name}” is a scenario file, but it cannot be simulated: ${answer.message}`);
      return { ok: false };
    }
    app.showPanel('simulate');
    app.showNotice(`Loaded the scenario “${name}”.`);
    return { ok: true, format: found.format };
  }
  const panel = panelFor(found.format);
  if (panel) {
    app.showPanel(panel.id);
    await panel.open({ name, bytes, format: found.format }, app);
    return { ok: true, format: found.format };
  }
  app.showError(`“${name}” looks like a ${found.label}. This version of tela cannot use it yet; ` +
    `it opens now: ${acceptedNow()}.`);
  return { ok: false, format: found.format };
}

// Several files at once: each is routed in turn, and the refusals are shown together at the
// end (a later file that opened cleared an earlier file's message).
async function routeFiles(app, files) {
  const refused = [];
  const collecting = { ...app, showError: (message) => { refused.push(message); app.showError(message); } };
  for (const file of files) {
    if (file.size > MAX_BYTES) {
      collecting.showError(`“${file.name}” is ${(file.size / 2 ** 30).toFixed(1)} GiB, more than tela opens (2 GiB for point clouds, 512 MiB for other files).`);
      continue;
    }
    try {
      await routeFile(collecting, file.name, new Uint8Array(await file.arrayBuffer()));
    } catch (err) {
      collecting.showError(`“${file.name}” could not be read: ${err?.message ?? err}`);
    }
  }
  if (files.length > 1 && refused.length) app.showError(refused.join(' '));
}

export function installFileInput({ app, button, input, dropzone }) {
  button.addEventListener('click', () => input.click());
  input.addEventListener('change', async () => {
    const files = [...input.files];
    input.value = '';
    await routeFiles(app, files);
  });

  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  window.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    dropzone.hidden = false;
  });
  window.addEventListener('dragover', (e) => {
    if (hasFiles(e)) e.preventDefault();
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) dropzone.hidden = true;
  });
  window.addEventListener('drop', async (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    dropzone.hidden = true;
    await routeFiles(app, [...e.dataTransfer.files]);
  });
}
