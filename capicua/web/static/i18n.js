// The players' words in their languages: pt-BR (Amazonas, individual), es (Dominousa), en.
export const LANGS = { "pt-BR": "Português", es: "Español", en: "English" };

const T = {
  "pt-BR": {
    sign_up: "Criar conta", log_in: "Entrar", log_out: "Sair da conta", username: "Usuário", password: "Senha", profile: "Perfil", history: "Partidas", guest: "convidado", won: "venceu", lost: "perdeu", prev: "Anterior", next: "Próxima", first: "Início", last: "Fim", step: "Lance", account: "Conta", 
    title: "capicua — dominó",
    lobby: "Mesas", create: "Criar mesa", quick: "Jogo rápido", join: "Sentar", watch: "Assistir",
    variant: "Jogo", amazonense: "Dominó Amazonense", individual: "Individual", dominousa: "Dominousa",
    players: "Jogadores", target: "Pontos para vencer", strict: "Modo estrito (multas)",
    move_seconds: "Segundos por jogada", match_minutes: "Minutos da partida", private: "Mesa privada",
    lead: "Saída", lead_highest: "Maior pedra", lead_winner: "Quem venceu sai",
    bots_after: "Completar com robôs após (s)", bot: "Nível dos robôs",
    random: "aleatório", greedy: "guloso", expert: "experiente",
    no_tables: "Nenhuma mesa aberta. Crie uma!", seat: "Lugar", empty_seat: "vago", you: "você",
    start: "Começar", fill_bots: "Completar com robôs", leave: "Sair", rematch: "Revanche",
    invite: "Convite", copy_link: "Link de convite",
    your_turn: "Sua vez", turn_of: "Vez de", waiting: "Aguardando jogadores",
    pass: "Passar", draw: "Comprar do morto", galo: "Galo!", announce: "Anunciar 4 carroças",
    redeal: "Nova distribuição", keep: "Ficar com as carroças (+50)", claim: "Ninguém mais joga",
    galo_armed: "Galo será cantado com a próxima jogada",
    choose_end: "Onde jogar", end_W: "Oeste", end_E: "Leste", end_N: "Norte", end_S: "Sul",
    end_L: "Esquerda", end_R: "Direita",
    count: "Pontas", boneyard: "Morto", tiles: "pedras", team: "Dupla", score: "Placar",
    hand_no: "Mão", away: "ausente", bot_label: "robô",
    kind_table: "pontas", kind_pass: "passe", kind_galo: "galo", "kind_galo-wrong": "galo errado",
    "kind_doubles-4": "4 carroças", "kind_doubles-5": "5 carroças", "kind_no-double": "sem carroça",
    kind_batida: "batida", "kind_batida-double": "batida de carroça", kind_tranca: "tranca",
    kind_fine: "multa", kind_referee: "árbitro",
    end_batida: "Batida", end_tranca: "Tranca", end_annulled: "Mão anulada", end_redeal: "Nova distribuição",
    end_awarded: "Decisão do árbitro",
    match_over: "Fim da partida", winner: "Vencedor", download: "Baixar registro", replay: "Rever partida",
    back: "Voltar", error: "Erro", reconnecting: "Reconectando…", name: "Seu nome", save: "Salvar",
    clock: "Relógio", hands_revealed: "Pedras na mão", carroca: "carroça",
  },
  es: {
    sign_up: "Crear cuenta", log_in: "Entrar", log_out: "Cerrar sesión", username: "Usuario", password: "Contraseña", profile: "Perfil", history: "Partidos", guest: "invitado", won: "ganó", lost: "perdió", prev: "Anterior", next: "Siguiente", first: "Inicio", last: "Final", step: "Jugada", account: "Cuenta", 
    title: "capicua — dominó",
    lobby: "Mesas", create: "Crear mesa", quick: "Partida rápida", join: "Sentarse", watch: "Mirar",
    variant: "Juego", amazonense: "Dominó Amazonense", individual: "Individual", dominousa: "Dominousa",
    players: "Jugadores", target: "Puntos para ganar", strict: "Modo estricto (multas)",
    move_seconds: "Segundos por jugada", match_minutes: "Minutos del partido", private: "Mesa privada",
    lead: "Salida", lead_highest: "Ficha más alta", lead_winner: "Sale el ganador",
    bots_after: "Completar con bots tras (s)", bot: "Nivel de los bots",
    random: "aleatorio", greedy: "codicioso", expert: "experto",
    no_tables: "No hay mesas abiertas. ¡Crea una!", seat: "Puesto", empty_seat: "libre", you: "tú",
    start: "Empezar", fill_bots: "Completar con bots", leave: "Salir", rematch: "Revancha",
    invite: "Invitación", copy_link: "Enlace de invitación",
    your_turn: "Tu turno", turn_of: "Turno de", waiting: "Esperando jugadores",
    pass: "Paso", draw: "Robar del pozo", galo: "¡Galo!", announce: "Anunciar 4 dobles",
    redeal: "Volver a repartir", keep: "Quedarse con los dobles (+50)", claim: "Nadie más juega",
    galo_armed: "Se cantará galo con la próxima jugada",
    choose_end: "Dónde jugar", end_W: "Oeste", end_E: "Este", end_N: "Norte", end_S: "Sur",
    end_L: "Izquierda", end_R: "Derecha",
    count: "Puntas", boneyard: "Pozo", tiles: "fichas", team: "Pareja", score: "Marcador",
    hand_no: "Mano", away: "ausente", bot_label: "bot",
    kind_table: "puntas", kind_pass: "pase", kind_galo: "galo", "kind_galo-wrong": "galo errado",
    "kind_doubles-4": "4 dobles", "kind_doubles-5": "5 dobles", "kind_no-double": "sin doble",
    kind_batida: "dominó", "kind_batida-double": "dominó con doble", kind_tranca: "tranque",
    kind_fine: "multa", kind_referee: "árbitro",
    end_batida: "Dominó", end_tranca: "Tranque", end_annulled: "Mano anulada", end_redeal: "Nuevo reparto",
    end_awarded: "Decisión del árbitro",
    match_over: "Fin del partido", winner: "Ganador", download: "Descargar registro", replay: "Repetición",
    back: "Volver", error: "Error", reconnecting: "Reconectando…", name: "Tu nombre", save: "Guardar",
    clock: "Reloj", hands_revealed: "Fichas en mano", carroca: "doble",
  },
  en: {
    sign_up: "Sign up", log_in: "Log in", log_out: "Log out", username: "Username", password: "Password", profile: "Profile", history: "Matches", guest: "guest", won: "won", lost: "lost", prev: "Back", next: "Forward", first: "Start", last: "End", step: "Step", account: "Account", 
    title: "capicua — dominoes",
    lobby: "Tables", create: "Create table", quick: "Quick play", join: "Sit", watch: "Watch",
    variant: "Game", amazonense: "Dominó Amazonense", individual: "Individual", dominousa: "Dominousa",
    players: "Players", target: "Points to win", strict: "Strict mode (fines)",
    move_seconds: "Seconds per move", match_minutes: "Match minutes", private: "Private table",
    lead: "Lead", lead_highest: "Highest tile", lead_winner: "Winner leads",
    bots_after: "Fill with bots after (s)", bot: "Bot level",
    random: "random", greedy: "greedy", expert: "expert",
    no_tables: "No open tables. Create one!", seat: "Seat", empty_seat: "empty", you: "you",
    start: "Start", fill_bots: "Fill with bots", leave: "Leave", rematch: "Rematch",
    invite: "Invite", copy_link: "Invite link",
    your_turn: "Your turn", turn_of: "Turn of", waiting: "Waiting for players",
    pass: "Pass", draw: "Draw from the boneyard", galo: "Galo!", announce: "Announce 4 doubles",
    redeal: "Redeal", keep: "Keep the doubles (+50)", claim: "Nobody else can play",
    galo_armed: "Galo will be called with your next play",
    choose_end: "Where to play", end_W: "West", end_E: "East", end_N: "North", end_S: "South",
    end_L: "Left", end_R: "Right",
    count: "Ends", boneyard: "Boneyard", tiles: "tiles", team: "Team", score: "Score",
    hand_no: "Hand", away: "away", bot_label: "bot",
    kind_table: "table count", kind_pass: "pass", kind_galo: "galo", "kind_galo-wrong": "wrong galo",
    "kind_doubles-4": "4 doubles", "kind_doubles-5": "5 doubles", "kind_no-double": "no double",
    kind_batida: "batida (domino)", "kind_batida-double": "batida with a double", kind_tranca: "tranca (blocked)",
    kind_fine: "fine", kind_referee: "referee",
    end_batida: "Batida", end_tranca: "Tranca", end_annulled: "Hand annulled", end_redeal: "Redeal",
    end_awarded: "Referee's decision",
    match_over: "Match over", winner: "Winner", download: "Download record", replay: "Replay",
    back: "Back", error: "Error", reconnecting: "Reconnecting…", name: "Your name", save: "Save",
    clock: "Clock", hands_revealed: "Tiles in hand", carroca: "double",
  },
};

export function pickLanguage() {
  const saved = localStorage.getItem("capicua.lang");
  if (saved && T[saved]) return saved;
  for (const lang of navigator.languages || [navigator.language || "pt-BR"]) {
    if (lang.toLowerCase().startsWith("pt")) return "pt-BR";
    if (lang.toLowerCase().startsWith("es")) return "es";
    if (lang.toLowerCase().startsWith("en")) return "en";
  }
  return "pt-BR";
}

let current = "pt-BR";
export function setLanguage(lang) {
  current = T[lang] ? lang : "pt-BR";
  localStorage.setItem("capicua.lang", current);
  document.documentElement.lang = current;
}
export function t(key) {
  return (T[current] && T[current][key]) || T.en[key] || key;
}
