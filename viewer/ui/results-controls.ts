/** A labelled drop-down for the results toolbars; choosing changes the URL hash, which redraws. */
export function selectControl(id: string, label: string, options: [value: string, text: string][], value: string, change: (value: string) => void): HTMLLabelElement {
  const wrap = document.createElement("label");
  wrap.append(`${label} `);
  const select = document.createElement("select");
  select.id = id;
  for (const [v, text] of options) select.append(new Option(text, v, false, v === value));
  select.addEventListener("change", () => change(select.value));
  wrap.append(select);
  return wrap;
}
