// Share links (the codec: share/link.js): the Share link button makes one of the scene, its
// step and the view; a link opened (at start, or pasted into the address bar) rebuilds them.
// Without a link the page opens ?scene=NAME, or the default scene.
import { decodeShareHash, encodeShareHash } from '../share/link.js';
import { byId } from '../ui/dom.js';
import { panels } from './panels.js';

const DEFAULT_SCENE = 'hang-7x9';
// the Classify panel's result is a function of the scene and step, so a link made there opens
// there; a panel with a shareState() (Reconstruct, Fit) adds what it needs to redo its result
const LINKED_PANELS = ['simulate', 'classify'];

// -> start(): opens the page's link or scene, once the simulator is ready
export function installShareLinks(app) {
  const { showError, showNotice } = app;

  // -> { url, note }: note says what the active panel put in the link, or ''
  app.shareLink = async () => {
    const s = app.state;
    const shared = panels().find((p) => p.id === s.panel)?.shareState?.() ?? null;
    const hash = await encodeShareHash({
      scenario: s.scenario,
      steps: s.steps,
      view: {
        camera: app.view?.cameraState(), field: s.field, wireframe: s.wireframe, pins: s.pins, playing: false,
        ...(LINKED_PANELS.includes(s.panel) || shared ? { panel: s.panel } : {}),
      },
      ...(shared ? { panels: { [s.panel]: shared.state } } : {}),
    });
    history.replaceState(null, '', hash);
    return { url: location.href, note: shared?.note ?? '' };
  };

  // a long share link's replay can be ended where it is (openFromHash says what is shown)
  byId('stop-replay').addEventListener('click', () => app.stopReplay());

  byId('share').addEventListener('click', async () => {
    await app.pause();
    const { url, note } = await app.shareLink();
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // clipboard refused (permissions, insecure context): the address bar has the link
    }
    const where = copied ? 'copied to the clipboard' : 'is in the address bar';
    showNotice(note
      ? `Share link ${where}. It holds the Simulate scene at step ${app.state.steps} and ${note}.`
      : `Share link for step ${app.state.steps} (state ${app.state.hash}) ${where}.`);
  });

  async function openFromHash() {
    const decoded = await decodeShareHash(location.hash);
    if (decoded.kind === 'none') return false;
    if (decoded.kind === 'bad') {
      showError(`${decoded.message} Showing the default scene instead.`);
      return false;
    }
    const { scenario, steps, view: v, panels: panelStates } = decoded;
    if (v.camera) app.expectCamera(v.camera);
    if (typeof v.field === 'string') app.setField(v.field);
    if (typeof v.wireframe === 'boolean') app.setWireframe(v.wireframe);
    if (typeof v.pins === 'boolean') app.setPins(v.pins);
    app.emit('scene', app.state); // let panels show the view options
    const answer = await app.loadScenario(scenario, { steps, play: v.playing === true });
    byId('stop-replay').hidden = true;
    if (answer.cancelled) return true; // the user chose another scene meanwhile
    if (!answer.ok) {
      app.expectCamera(null);
      showError(`This share link’s scenario is not valid here: ${answer.message}. Showing the default scene instead.`);
      return false;
    }
    const panel = panels().find((p) => p.id === v.panel);
    const linked = panel && (LINKED_PANELS.includes(panel.id) || panelStates[panel.id]);
    if (linked) app.showPanel(panel.id);
    const stoppedAt = answer.scene?.stoppedAt;
    showNotice((stoppedAt === undefined
      ? `Opened a shared scene at step ${steps}: state hash ${app.state.hash}.`
      : `Stopped rebuilding the shared scene at step ${stoppedAt} of ${steps}: this is not the shared state. ` +
        'Play goes on from here; open the link again to rebuild it.') +
      (app.cameraRefused() ? ' Its camera would show nothing, so the view frames the cloth.' : ''));
    if (linked) {
      if (panelStates[panel.id] && panel.restoreState && !(await panel.restoreState(panelStates[panel.id]))) {
        showError(`This share link’s ${panel.title} settings are not readable here; the panel opens with its defaults.`);
      }
    }
    return true;
  }

  // a link pasted into the address bar of an open page
  window.addEventListener('hashchange', async () => {
    if (!location.hash || (await openFromHash())) return;
    await app.loadScene(DEFAULT_SCENE, { keepMessages: true });
  });

  return async function start() {
    const opened = await openFromHash();
    if (opened) return;
    const query = new URLSearchParams(location.search).get('scene');
    const name = query || DEFAULT_SCENE;
    if (!app.state.scenes.some((x) => x.name === name)) {
      showError(`unknown scene "${name}"; built-in scenes: ${app.state.scenes.map((x) => x.name).join(', ')}`);
      if (name === DEFAULT_SCENE) return;
    }
    await app.loadScene(app.state.scenes.some((x) => x.name === name) ? name : DEFAULT_SCENE, { keepMessages: true });
  };
}
