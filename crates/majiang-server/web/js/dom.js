// Small DOM helpers shared by the pages.

/** The first element matching `sel`. */
export const $ = (sel) => document.querySelector(sel);

/** A new element with attributes (`class`, `on…` listeners, others as attributes) and children. */
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids.flat()) {
    if (k === null || k === undefined || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

/** A CSS class for a signed amount: `pos`, `neg` or none. */
export function signClass(n) { return n > 0 ? "pos" : n < 0 ? "neg" : ""; }

/** A signed amount as text: `+8`, `-8`, `0`. */
export function signed(n) { return (n > 0 ? "+" : "") + n; }
