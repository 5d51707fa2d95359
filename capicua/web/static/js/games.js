// The games the server offers (GET /api/variants: their options, calls, sides and referees), fetched once.
import { api } from "./api.js";
import { hasWord, t } from "./i18n.js";

let games = null;

export async function loadGames() {
  if (!games) games = await api("/api/variants");
  return games;
}

// Every game, in the server's order ([] before loadGames).
export const allGames = () => games || [];

// A game by name.
export const gameNamed = (name) => allGames().find((g) => g.name === name);

// A table option's help in the page's words (the server's own help is English), or none.
export const optionHelp = (o) => (hasWord(`${o.name}_help`) ? t(`${o.name}_help`) : null);
