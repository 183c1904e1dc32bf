// House rules as form controls built from the rule set's description (`GET /api/rulesets`):
// a check box for a yes/no option, a number box within the allowed range, a menu for a choice,
// a text box for a written form; each labelled with its meaning in the chosen language. The
// form gives back the options that differ from the defaults.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { optionMeaning, allowedText, optionValueName } from "./words.js";

/** A default as the server writes it ("true", "3", "\"white\"", "null") read as a value. */
function defaultOf(o) {
  if (typeof o.default !== "string") return o.default;
  try { return JSON.parse(o.default); } catch (_) { return o.default; }
}

function control(o, value) {
  const a = o.allowed || {};
  const id = "opt-" + o.key;
  const attrs = { id, "data-option": o.key, "data-kind": a.kind || "text" };
  switch (a.kind) {
    case "bool": return el("input", { ...attrs, type: "checkbox", checked: value ? "" : null });
    case "whole":
    case "whole_or_none":
      return el("input", { ...attrs, type: "number", inputmode: "numeric", min: String(a.min), max: a.max > 1e12 ? null : String(a.max), value: value === null || value === undefined ? "" : String(value), placeholder: a.kind === "whole_or_none" ? t("rules_form.none") : null });
    case "one_of":
      return el("select", attrs, ...a.values.map((v) => el("option", { value: v, selected: v === value ? "" : null }, optionValueName(v))));
    default:
      return el("input", { ...attrs, type: "text", value: value ?? "", translate: "no", placeholder: (a.examples || []).join(" ") });
  }
}

/** What an option takes, in words; the examples of a written form stay as they are typed. */
function allowedLine(o) {
  const a = o.allowed || {};
  if (a.kind !== "form") return el("small", { class: "opt-allowed" }, allowedText(o));
  return el("small", { class: "opt-allowed" }, t("allowed.form", { examples: "" }), el("code", { translate: "no" }, (a.examples || []).join(" ")));
}

/** Fills `box` with a control per option of `ruleset` (leaving out `skip` keys), set to
 * `values` (else the defaults); `onChange` is called after every change. */
export function renderRuleForm(box, ruleset, values = {}, { skip = [], onChange = () => {}, disabled = false } = {}) {
  box.replaceChildren();
  if (!ruleset) return;
  for (const o of ruleset.options.filter((x) => !skip.includes(x.key))) {
    const value = o.key in values ? values[o.key] : defaultOf(o);
    const input = control(o, value);
    input.disabled = disabled;
    input.addEventListener("change", onChange);
    const isBox = (o.allowed || {}).kind === "bool";
    const text = el("span", { class: "opt-text" }, el("span", { class: "opt-meaning" }, optionMeaning(ruleset.name, o)),
      allowedLine(o));
    box.append(el("label", { class: "row opt" + (isBox ? " check" : ""), for: input.id }, isBox ? input : null, text, isBox ? null : input));
  }
}

/** The options in `box` that differ from `ruleset`'s defaults, as the server takes them. An
 * unreadable number is refused with an error naming the option. */
export function readRuleForm(box, ruleset) {
  const out = {};
  if (!ruleset) return out;
  for (const input of box.querySelectorAll("[data-option]")) {
    const o = ruleset.options.find((x) => x.key === input.dataset.option);
    if (!o) continue;
    let v;
    const kind = input.dataset.kind;
    if (kind === "bool") v = input.checked;
    else if (kind === "whole" || kind === "whole_or_none") {
      if (input.value.trim() === "") v = kind === "whole_or_none" ? null : defaultOf(o);
      else {
        v = Number(input.value);
        if (!Number.isInteger(v)) throw new Error(t("rules_form.not_whole", { meaning: optionMeaning(ruleset.name, o) }));
      }
    } else v = input.value.trim();
    if (JSON.stringify(v) !== JSON.stringify(defaultOf(o))) out[o.key] = v;
  }
  return out;
}
