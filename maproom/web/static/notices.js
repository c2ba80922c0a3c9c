// What the page tells its viewer: the legend, short-lived toasts, and dismissable notices.

// The colour of a legend item's swatch.
const colorOf = (paint) =>
  (paint || {})["fill-color"] || (paint || {})["line-color"] || (paint || {})["circle-color"] || "#3b82f6";

export function toast(parts) {
  const box = document.getElementById("toasts");
  const note = document.createElement("div");
  note.className = "toast";
  note.append(...parts);
  box.append(note);
  setTimeout(() => note.remove(), 8000);
}

// A link element, as text and an address (never HTML from the stream).
export function link(text, href) {
  const a = document.createElement("a");
  a.textContent = text;
  a.href = href;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  return a;
}

// A notice that stays until dismissed; one per `key`.
export function notice(key, text) {
  const box = document.getElementById("notices");
  if (box.querySelector(`[data-key="${key}"]`)) return;
  const note = document.createElement("div");
  note.className = "notice";
  note.dataset.key = key;
  note.setAttribute("role", "status");
  const words = document.createElement("span");
  words.textContent = text;
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "×";
  close.title = "Dismiss";
  close.addEventListener("click", () => note.remove());
  note.append(words, close);
  box.append(note);
}

// The legend the server compiled (`metadata["maproom:legend"]`: visible layers, top first).
export function drawLegend(legend) {
  const box = document.getElementById("legend");
  box.replaceChildren();
  for (const entry of legend) {
    const title = document.createElement("h4");
    title.textContent = entry.title;
    box.append(title);
    for (const item of entry.items) {
      const row = document.createElement("div");
      row.className = "item";
      if (item.ramp) {
        const ramp = document.createElement("div");
        ramp.className = "ramp";
        ramp.style.width = "120px";
        const stops = item.ramp.map((s) => s.color).filter(Boolean);
        ramp.style.background = `linear-gradient(to right, ${stops.join(", ") || "#ccc, #333"})`;
        row.append(ramp);
      } else {
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = colorOf(item.paint);
        row.append(swatch);
      }
      const label = document.createElement("span");
      label.textContent = item.label ?? "";
      row.append(label);
      box.append(row);
    }
  }
  box.hidden = !box.childElementCount;
}
