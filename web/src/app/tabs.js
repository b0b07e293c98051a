// The tab bar: one tab and one panel body per registered panel (app/panels.js), the first
// shown; app.showPanel(id) switches.
import { byId } from '../ui/dom.js';
import { panels } from './panels.js';

export function mountTabs(app, messages) {
  const tabs = byId('tabs');
  const container = byId('panel');

  app.showPanel = (id) => {
    // a notice is about what the panel left was doing (e.g. the end of the scenario's duration)
    if (app.state.panel !== id) {
      messages.showNotice('');
      // each panel opens at its top (the panels share one scrolling column; on narrow screens
      // the column under the view scrolls with it: back to where the panel starts)
      container.scrollTop = 0;
      const layout = byId('layout');
      const top = container.getBoundingClientRect().top - layout.getBoundingClientRect().top + layout.scrollTop;
      if (layout.scrollTop > top) layout.scrollTop = top;
    }
    app.state.panel = id;
    messages.showPanel(id);
    for (const panel of panels()) {
      const selected = panel.id === id;
      byId(`tab-${panel.id}`).setAttribute('aria-selected', String(selected));
      byId(`panel-${panel.id}`).hidden = !selected;
    }
    // the others first: a panel with its own view over the simulator's sets the viewport's
    // overlay state when activated, after the others have cleared theirs
    for (const panel of panels()) if (panel.id !== id) panel.deactivate?.();
    panels().find((p) => p.id === id)?.activate?.();
  };

  panels().forEach((panel, i) => {
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.setAttribute('role', 'tab');
    tab.id = `tab-${panel.id}`;
    tab.textContent = panel.title;
    tab.setAttribute('aria-selected', String(i === 0));
    const body = document.createElement('div');
    body.id = `panel-${panel.id}`;
    body.className = 'panel-body';
    body.setAttribute('role', 'tabpanel');
    body.setAttribute('aria-labelledby', tab.id);
    body.hidden = i !== 0;
    tab.addEventListener('click', () => app.showPanel(panel.id));
    tabs.append(tab);
    container.append(body);
    panel.mount(body, app);
  });
}
