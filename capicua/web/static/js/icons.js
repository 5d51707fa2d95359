// Small SVG icons (no icon font, no glyph that a font may lack): arrows, clock, sound, chat, list…
import { svg } from "./dom.js";

const PATHS = {
  arrow: "M4 12h14M12 5l7 7-7 7", // pointing right; rotated for the other directions
  clock: "M12 8v5l3 2M9 2h6M12 4a9 9 0 1 0 0.01 0",
  sound: "M4 9h4l5-4v14l-5-4H4zM16 8a5 5 0 0 1 0 8M18.5 5.5a9 9 0 0 1 0 13",
  mute: "M4 9h4l5-4v14l-5-4H4zM16 9l6 6M22 9l-6 6",
  chat: "M4 5h16v11H9l-5 4z",
  list: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01",
  play: "M7 4l13 8-13 8z",
  pause: "M7 4v16M17 4v16",
  first: "M6 5v14M19 5l-9 7 9 7",
  prev: "M16 5l-8 7 8 7",
  next: "M8 5l8 7-8 7",
  last: "M18 5v14M5 5l9 7-9 7",
  close: "M6 6l12 12M18 6L6 18",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8M4 21c1-4 4-6 8-6s7 2 8 6",
  bot: "M6 9h12v10H6zM12 5v4M9 13h.01M15 13h.01M9 16h6",
  eye: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6",
  menu: "M4 6h16M4 12h16M4 18h16",
  chart: "M4 4v16h16M7 15l4-4 3 3 5-6",
  help: "M12 3a9 9 0 1 0 .01 0M9.5 9.5a2.5 2.5 0 1 1 3.4 2.3c-.6.3-.9.8-.9 1.5v.5M12 17h.01",
  copy: "M9 9h11v11H9zM5 15H4V4h11v1",
  share: "M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6M6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6M18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6M8.6 13.5l6.8 4M15.4 6.5l-6.8 4",
  trophy: "M8 4h8v5a4 4 0 0 1-8 0zM8 6H5a3 3 0 0 0 3 4.5M16 6h3a3 3 0 0 1-3 4.5M12 13v4M8 20h8M10 17h4v3h-4z",
};
const TURN = { right: 0, down: 90, left: 180, up: 270 };

// icon("clock"), icon("arrow", "left"): an SVG drawn with the text's colour, hidden from screen readers.
export function icon(name, direction = "right") {
  const rotate = TURN[direction] ? `rotate(${TURN[direction]} 12 12)` : null;
  return svg("svg", { class: `icon icon-${name}`, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: PATHS[name], transform: rotate }));
}

// Which way each end of the table points, for its arrow.
export const END_DIRECTION = { W: "left", E: "right", N: "up", S: "down", L: "left", R: "right" };
