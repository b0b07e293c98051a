// The DOM helpers every panel uses.

// an element: el('button', { type: 'button', textContent: 'Play' }, ...children); null and
// undefined children are left out
export function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

export const byId = (id) => document.getElementById(id);

// a number to `digits` significant digits, without trailing zeros; '–' when it is not finite
export function fmt(x, digits = 3) {
  return Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : '–';
}
