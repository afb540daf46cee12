// The sign-in screen: play as a guest, sign in to an account, or sign up; and the guest's
// own sign-up ("Sign up to keep your games"), sent with the guest's token so that the guest
// becomes the account, its player id and games with it.
import { arena, explain, refusal } from "./api";
import { accountProblem } from "./accountwords";
import { thisDevice } from "./device";
import { h } from "./dom";
import { setText } from "./i18n/live";
import { msg, type Words } from "./i18n/messages";
import { passkeySignIn } from "./passkeys";
import { tokens } from "./session";
import type { Session } from "./store";

type SignedIn = (session: Session) => void;

/** The screen shown to nobody signed in; `notice` says why a session just ended ("" for none). */
export function signInScreen(notice: Words, done: SignedIn): HTMLElement {
  return h(
    "section.sign-in",
    notice ? h("p.signed-out#signed-out", { role: "status", tabindex: "-1" }, notice) : null,
    h("div.sign-in-ways", guestWay(done), accountForm("in", done), accountForm("up", done)),
  );
}

/** A guest's sign-up: the account takes over the guest's player id and its games. */
export function keepGamesScreen(guest: Session, done: SignedIn, back: () => void): HTMLElement {
  return h(
    "section.sign-in.keep-games",
    h("header.lobby-head", h("h2", msg("signin.keep_games")), h("button.link#keep-back", { type: "button", onclick: back }, msg("common.back_to_lobby"))),
    h("p.hint", msg("signin.keep_games_hint", { name: guest.name })),
    h("div.sign-in-ways", accountForm("up", done, false)),
  );
}

function guestWay(done: SignedIn): HTMLElement {
  const name = h("input#name", { required: true, maxlength: "24", autocomplete: "nickname", placeholder: msg("signin.display_name_placeholder"), "aria-label": msg("signin.display_name") }) as HTMLInputElement;
  const error = h("p.error", { role: "alert" });
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      const reply = await arena.signIn({ displayName: name.value.trim() });
      const session: Session = { token: reply.token, playerId: reply.playerId, name: reply.displayName, expiresAtUnix: Number(reply.expiresAtUnix) };
      tokens.signedInGuest(session);
      done(session);
    } catch (e) {
      const why = refusal(e);
      setText(error, why.reason === "bad_name" ? msg("signin.bad_name") : msg("signin.could_not", { detail: explain(why) }));
    }
  };
  return h(
    "section.way#guest-way",
    h("h2", msg("signin.guest")),
    h("p.hint", msg("signin.guest_hint")),
    h("form.guest", { onsubmit: submit }, name, h("button.primary#sign-in", { type: "submit" }, msg("signin.play"))),
    error,
  );
}

/** Sign in ("in") or sign up ("up"): username and password; each refusal in words. */
function accountForm(kind: "in" | "up", done: SignedIn, titled = true): HTMLElement {
  const up = kind === "up";
  const id = up ? "new" : "account";
  const username = h(`input#${id}-name`, { required: true, autocomplete: "username", autocapitalize: "none", spellcheck: "false", "aria-describedby": up ? `${id}-name-hint` : null }) as HTMLInputElement;
  const password = h(`input#${id}-password`, { type: "password", required: true, autocomplete: up ? "new-password" : "current-password", minlength: up ? "8" : null, maxlength: "256", "aria-describedby": up ? `${id}-password-hint` : null }) as HTMLInputElement;
  const button = h(`button.primary#${up ? "sign-up" : "account-sign-in"}`, { type: "submit" }, up ? msg("account.sign_up") : msg("signin.sign_in")) as HTMLButtonElement;
  const error = h(`p.error#${id}-error`, { role: "alert" });
  const submit = async (event: Event) => {
    event.preventDefault();
    button.disabled = true;
    error.textContent = "";
    const request = { username: username.value.trim(), password: password.value, device: thisDevice() };
    try {
      done(await tokens.signInWith((options) => (up ? arena.signUp(request, options) : arena.signInAccount(request, options))));
    } catch (e) {
      setText(error, accountProblem(refusal(e)));
      (refusal(e).reason === "taken" || refusal(e).reason.startsWith("name_") ? username : password).focus();
    } finally {
      button.disabled = false;
    }
  };
  return h(
    `section.way#${id}-way`,
    titled ? h("h2", up ? msg("account.sign_up") : msg("signin.sign_in")) : null,
    titled ? h("p.hint", up ? msg("signin.sign_up_hint") : msg("signin.sign_in_hint")) : null,
    h(
      "form.account",
      { onsubmit: submit },
      h("label", { for: username.id }, msg("signin.username")),
      username,
      up ? h(`p.field-hint#${id}-name-hint`, msg("signin.username_hint")) : null,
      h("label", { for: password.id }, msg("signin.password")),
      password,
      up ? h(`p.field-hint#${id}-password-hint`, msg("signin.password_hint")) : null,
      button,
    ),
    error,
    up ? null : passkeySignIn(done),
  );
}
