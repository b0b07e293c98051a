// The page: the app (app/app.js: the simulator, its view and readout, the commands), the four
// tabs (one folder each: simulate/, fit/, reconstruct/, classify/), share links, file drop and
// the keyboard. window.__tela mirrors what the page shows, for tests and the benchmark:
// { ready, scene, time, steps, hash, playing, error, notice, frames, ... }.
import { createApp } from './app/app.js';
import { installHelp } from './app/help.js';
import { createMessages } from './app/messages.js';
import { registerPanel } from './app/panels.js';
import { installShareLinks } from './app/share_links.js';
import { mountTabs } from './app/tabs.js';
import { classifyPanel } from './classify/panel.js';
import { fitPanel } from './fit/panel.js';
import { installFileInput } from './io/drop.js';
import { reconstructPanel } from './reconstruct/panel.js';
import { simulatePanel } from './simulate/panel.js';
import { createView } from './simulate/view.js';
import { byId } from './ui/dom.js';
import { installKeyboard } from './ui/keyboard.js';

const tela = (window.__tela = {
  ready: false, scene: '', time: 0, steps: 0, hash: '', playing: false,
  error: null, notice: null, frames: 0, obstacles: [], contacts: 0, renders: 0, firstFrameMs: null, rtf: null, steppingMs: 0, busyMs: 0, pausedAt: null, firstStepFrameMs: null,
});

const messages = createMessages(tela);
window.addEventListener('error', (event) => messages.showError(`page error: ${event.message}`));
window.addEventListener('unhandledrejection', (event) =>
  messages.showError(`page error: ${event.reason?.message ?? event.reason}`));

let view = null;
try {
  view = createView(byId('view'));
} catch (err) {
  messages.showError(`WebGL is not available, so the cloth cannot be drawn: ${err.message}`);
}
// for tests: what the view draws now (functions, so apart from the plain data in __tela)
window.__telaView = { obstacleCenters: () => view?.obstacleCenters() ?? [] };

const app = createApp({ tela, view, messages });
registerPanel(simulatePanel);
registerPanel(fitPanel);
registerPanel(reconstructPanel);
registerPanel(classifyPanel);
mountTabs(app, messages);
// once the simulator is ready: a share link's scene, ?scene=NAME or the default one
app.on('scenes', installShareLinks(app));

installFileInput({ app, button: byId('open'), input: byId('file'), dropzone: byId('dropzone') });
const toggleHelp = installHelp();
installKeyboard({
  ' ': () => app.togglePlay(),
  Backspace: () => app.reset(),
  '.': () => app.step(),
  '?': () => toggleHelp(),
  Escape: () => toggleHelp(false),
});
