// Who I am: my token and my name (a guest or an account), remembered in localStorage; and the invite of a
// private table, from the address (#/table/ID?invite=CODE).

let token = localStorage.getItem("capicua.token");
let me = JSON.parse(localStorage.getItem("capicua.me") || "null");

export const myToken = () => token;
export const myself = () => me; // {id, name, guest, admin} or null (admin: a moderator, docs/operations.md)

export function setIdentity(newToken, who) {
  token = newToken;
  me = who;
  localStorage.setItem("capicua.token", newToken);
  localStorage.setItem("capicua.me", JSON.stringify(who));
}

export function clearIdentity() {
  token = null;
  me = null;
  localStorage.removeItem("capicua.token");
  localStorage.removeItem("capicua.me");
}

// The invite code of a private table, from the address.
export function inviteCode() {
  return new URLSearchParams(location.hash.split("?")[1] || "").get("invite");
}
