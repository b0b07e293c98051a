// The keyboard help (the dialog in index.html): ? or the ? button opens it; Esc, Close or a
// click on the backdrop closes it, and the focus goes back where it was.
import { byId } from '../ui/dom.js';

// -> toggle(on = !open)
export function installHelp() {
  const help = byId('help');
  let focusBeforeHelp = null;
  function toggle(on = !help.open) {
    if (on === help.open) return;
    if (on) {
      focusBeforeHelp = document.activeElement;
      help.showModal();
      byId('help-close').focus();
    } else {
      help.close();
    }
  }
  help.addEventListener('close', () => { focusBeforeHelp?.focus?.({ preventScroll: true }); focusBeforeHelp = null; });
  byId('help-button').addEventListener('click', () => toggle(true));
  byId('help-close').addEventListener('click', () => toggle(false));
  help.addEventListener('click', (e) => { if (e.target === help) toggle(false); }); // the backdrop
  // Tab cycles inside the help (a modal dialog alone lets it leave for the browser's own controls)
  help.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const stops = [...help.querySelectorAll('button, a[href], input, select, textarea')];
    const edge = e.shiftKey ? stops[0] : stops.at(-1);
    if (!stops.includes(document.activeElement) || document.activeElement === edge) {
      e.preventDefault();
      (e.shiftKey ? stops.at(-1) : stops[0]).focus();
    }
  });
  return toggle;
}
