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

/** A labelled number field; the value goes to the URL as typed, so the server judges it. */
export function numberControl(id: string, label: string, value: string, change: (value: string) => void): HTMLLabelElement {
  const wrap = document.createElement("label");
  wrap.append(`${label} `);
  const input = document.createElement("input");
  input.id = id;
  input.type = "number";
  input.min = "0";
  input.value = value;
  input.addEventListener("change", () => change(input.value));
  wrap.append(input);
  return wrap;
}
