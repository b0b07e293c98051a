// What a number field holds, as typed. A type="number" field that the browser cannot read as a
// number ("1e", "--") reports an empty value, the same as an empty field; read through
// validity.badInput instead, it becomes NOT_A_NUMBER, a string the core refuses by the option's
// name, rather than the default (empty) or 0 without a word.
export const NOT_A_NUMBER = 'not a number';

// undefined: empty (the option's default); a number; or the text when it is not one
export function typedNumber(input) {
  if (input.validity?.badInput) return NOT_A_NUMBER;
  const text = input.value.trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}
