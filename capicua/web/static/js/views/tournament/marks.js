// The tournaments' own small icons (SVG, drawn with the text's colour, like icons.js): the bracket of a
// tournament, the referee's whistle, a printer, a check, a sheet, the standings' download.
import { svg } from "../../dom.js";

const PATHS = {
  bracket: "M3 5h5v4H3zM3 15h5v4H3zM8 7h3v10H8M11 12h4M15 9.5h6v5h-6z",
  whistle: "M12 14a5 5 0 1 1-10 0a5 5 0 0 1 10 0M8.5 9.3L21 6v4.5l-9 2.2M7 14h.01",
  print: "M7 9V3h10v6M7 17H4v-7h16v7h-3M7 14h10v7H7z",
  check: "M5 12l5 5 9-10",
  sheet: "M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  users: "M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7M2 20c.8-3.5 3.4-5.5 7-5.5s6.2 2 7 5.5M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14.5c2 .6 3.4 2.5 4 5.5",
  clock: "M12 8v5l3 2M12 3a9 9 0 1 0 0.01 0",
};

export function mark(name) {
  return svg("svg", { class: `icon icon-${name}`, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: PATHS[name] }));
}
