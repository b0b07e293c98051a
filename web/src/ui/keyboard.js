// Page-wide shortcuts (MuJoCo style). bindings: key (KeyboardEvent.key) -> action.
// Nothing fires while the user types in a field, with Ctrl/Alt/Meta held, or behind a modal dialog.
function isTyping(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  return !['button', 'checkbox', 'radio', 'range', 'reset', 'submit', 'file'].includes(target.type);
}

// Space toggles a focused checkbox or radio button, or opens a focused <summary>: the
// keyboard's only way to operate them. (On a focused button Space stays the play/pause
// shortcut: after a mouse click the button keeps the focus, and Space should not repeat it.)
function spaceOperates(target) {
  if (!(target instanceof Element)) return false;
  return target.tagName === 'SUMMARY' || (target.tagName === 'INPUT' && ['checkbox', 'radio'].includes(target.type));
}

export function installKeyboard(bindings) {
  window.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey || isTyping(event.target)) return;
    // behind an open modal dialog the page's shortcuts wait (Space and Enter operate the
    // dialog's buttons); Esc and ? still reach it
    if (document.querySelector('dialog[open]') && event.key !== 'Escape' && event.key !== '?') return;
    if (event.key === ' ' && spaceOperates(event.target)) return;
    const action = bindings[event.key];
    if (!action) return;
    // Space on a focused button would also click it
    event.preventDefault();
    action();
  });
}
