// The lines over the view: the error, the notice and the status line. Each is mirrored in
// window.__tela (error, notice). The status line belongs to a panel: each panel's latest line
// is kept and the active panel's is shown; a panel without one (Fit before a recording,
// Classify on the simulated frame) shows the view of the simulation, and with it the
// simulator's line.
import { byId } from '../ui/dom.js';

export function createMessages(tela) {
  const statuses = {};
  let panel = 'simulate';
  function showStatus() {
    byId('status').textContent = statuses[panel] ?? statuses.simulate ?? '';
  }
  return {
    showError(message) {
      tela.error = message;
      byId('error').textContent = message;
      byId('error').hidden = false;
    },
    clearError() {
      tela.error = null;
      byId('error').hidden = true;
    },
    showNotice(message) {
      tela.notice = message;
      byId('notice').textContent = message;
      byId('notice').hidden = !message;
    },
    setStatus(message, of = 'simulate') {
      statuses[of] = message;
      showStatus();
    },
    // the panel shown now: its status line is the one on show
    showPanel(id) {
      panel = id;
      showStatus();
    },
  };
}
