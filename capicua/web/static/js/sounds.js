// The table's sounds, made with WebAudio (no files): a tile laid down, a knock for a pass, a chime for my
// turn, the galo's crow and the slam of a batida. Muting is remembered (localStorage).
const KEY = "capicua.mute";
let ctx = null;

export const muted = () => localStorage.getItem(KEY) === "1";
export function setMuted(on) { localStorage.setItem(KEY, on ? "1" : "0"); }

let gestured = false; // a click or a key on the page yet: until then no sound is even tried

// The audio context, made (or resumed) only after the page's first gesture: browsers refuse to start audio
// before one, and say so in the console for every context tried too early.
function audio() {
  if (!gestured) return null;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) ctx = new AC();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// Browsers start audio only after a gesture: open it at the first one.
export function unlockOnGesture() {
  const unlock = () => {
    gestured = true;
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
    if (!muted()) audio();
  };
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);
}

function tone(ac, { type = "sine", from, to = from, at = 0, dur = 0.15, gain = 0.2 }) {
  const o = ac.createOscillator();
  const g = ac.createGain();
  const t0 = ac.currentTime + at;
  o.type = type;
  o.frequency.setValueAtTime(from, t0);
  o.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(ac.destination);
  o.start(t0);
  o.stop(t0 + dur + 0.05);
}

function knock(ac, { at = 0, freq = 1800, gain = 0.5, dur = 0.06 }) {
  const n = Math.floor(ac.sampleRate * dur);
  const buffer = ac.createBuffer(1, n, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = ac.createBufferSource();
  const filter = ac.createBiquadFilter();
  const g = ac.createGain();
  src.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = 1.2;
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(ac.destination);
  src.start(ac.currentTime + at);
}

const SOUNDS = {
  play: (ac) => { knock(ac, { freq: 2400, gain: 0.7 }); tone(ac, { from: 900, to: 500, dur: 0.05, gain: 0.05 }); },
  pass: (ac) => { knock(ac, { freq: 500, gain: 0.9, dur: 0.09 }); knock(ac, { at: 0.16, freq: 500, gain: 0.9, dur: 0.09 }); },
  turn: (ac) => { tone(ac, { from: 660, dur: 0.18, gain: 0.12 }); tone(ac, { from: 990, at: 0.12, dur: 0.28, gain: 0.1 }); },
  galo: (ac) => {
    tone(ac, { type: "sawtooth", from: 500, to: 900, dur: 0.12, gain: 0.08 });
    tone(ac, { type: "sawtooth", from: 900, to: 1100, at: 0.14, dur: 0.12, gain: 0.08 });
    tone(ac, { type: "sawtooth", from: 1100, to: 700, at: 0.3, dur: 0.35, gain: 0.08 });
  },
  batida: (ac) => { knock(ac, { freq: 180, gain: 1.2, dur: 0.2 }); knock(ac, { at: 0.02, freq: 2200, gain: 0.6 });
    tone(ac, { from: 120, to: 50, dur: 0.3, gain: 0.3 }); },
};

export function sound(name) {
  if (muted() || !SOUNDS[name]) return;
  document.documentElement.dataset.lastSound = name; // what was heard last, for the tests (gesture or not)
  try { const ac = audio(); if (ac) SOUNDS[name](ac); } catch { /* no audio: silence */ }
}
