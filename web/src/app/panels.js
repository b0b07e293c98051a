// The panel registry. A panel is a module that registers
//   { id, title, accepts: [format ids of web/src/io/sniff.js], mount(container, app),
//     open?(file: { name, bytes, format }, app)   (may take the bytes: Reconstruct moves
//                                                them to its worker), activate?(), deactivate?(),
//     shareState?() -> { state, note } | null   what a share link made on this panel carries to
//                                                redo its result (never uploaded data); note: a
//                                                phrase for the notice, e.g. "the sample cloud, …"
//     restoreState?(state) -> Promise<bool>      a link's state back (false: not readable) }
// Simulate comes first; each panel lives in its own folder (web/src/<id>/panel.js, with its
// worker, client and view) and is registered by one registerPanel line in web/src/main.js.
//
// What a panel gets as `app` (app/app.js, app/tabs.js, app/share_links.js):
//   app.state                 { scenes, scenario, scenarioText, name, steps, time, hash, playing,
//                               field, wireframe, pins, dt, nodes,
//                               bounds: { min, max } of the cloth in the scene's first frame, core frame }
//   app.on(event, fn)         'scenes' | 'scene' | 'frame' | 'playing'
//   app.loadScenario(objectOrJson, { steps, play }) -> Promise<{ ok, message }>
//   app.loadScene(name, { play }), app.play(), app.pause(), app.step(), app.reset()
//   app.showPanel(id), app.showError(text), app.clearError(), app.showNotice(text),
//   app.setStatus(text, panelId = 'simulate')  the status line under the view, shown while that panel is
//                         active (the simulator's line where a panel has none)
//   app.view                  the simulator's three.js view (simulate/view.js), or null without WebGL
// A panel that needs the simulator for long jobs (fits) starts its own worker.
const registry = [];

export function registerPanel(panel) {
  if (!panel?.id || registry.some((p) => p.id === panel.id)) {
    throw new Error(`panel "${panel?.id}" is missing an id or registered twice`);
  }
  registry.push({ accepts: [], ...panel });
}

export function panels() {
  return registry.slice();
}

// the panel that takes files of this format, if any
export function panelFor(format) {
  return registry.find((p) => p.accepts.includes(format) && typeof p.open === 'function') ?? null;
}

// format ids some registered panel opens
export function acceptedFormats() {
  return [...new Set(registry.flatMap((p) => (typeof p.open === 'function' ? p.accepts : [])))];
}
