// An invite to a seat: the link to copy, the phone's share sheet where there is one, and a QR
// code to scan across the table (drawn here by the vendored encoder, vendor/qrcode.mjs, MIT).

import { el } from "./dom.js";
import { t } from "./i18n.js";
import qrcode from "./vendor/qrcode.mjs";

/** A QR code of `text` as an inline SVG element (dark on light, scales with its box). */
export function qrSvg(text) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const box = el("span", { class: "invite-qr" });
  box.innerHTML = qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
  const svg = box.querySelector("svg");
  if (svg) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", t("invite.qr")); }
  return box;
}

/** Copies `text` to the clipboard; resolves to whether it went. */
async function copyText(text, fallbackNode) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    // No clipboard API (plain http on a phone): select the text for a manual copy.
    const range = document.createRange();
    range.selectNodeContents(fallbackNode);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try { return document.execCommand("copy"); } catch (_) { return false; }
  }
}

/** The invite of seat `name` to `url` (absolute): the link, Copy, Share, and its QR code. */
export function renderInvite(name, url, { qr = true } = {}) {
  const link = el("code", { class: "invite-url", translate: "no" }, url);
  const note = el("span", { class: "invite-note", role: "status" });
  const copy = el("button", { type: "button", class: "invite-copy" }, t("invite.copy"));
  copy.addEventListener("click", async () => {
    note.textContent = (await copyText(url, link)) ? t("invite.copied") : t("invite.copy_by_hand");
  });
  const buttons = el("span", { class: "invite-buttons" }, copy);
  if (navigator.share) {
    const share = el("button", { type: "button", class: "invite-share" }, t("invite.share"));
    share.addEventListener("click", () => {
      navigator.share({ title: t("invite.share_title"), text: t("invite.share_text", { name }), url }).catch(() => {});
    });
    buttons.append(share);
  }
  const text = el("div", { class: "invite-text" }, el("b", { class: "invite-name", translate: "no" }, name), link, buttons, note);
  return el("div", { class: "invite" }, qr ? qrSvg(url) : null, text);
}
