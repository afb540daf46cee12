// Passkeys: signing in with one (the sign-in screen), and the account's own passkeys, added
// and removed (the Devices screen). The browser's WebAuthn does the work through
// @simplewebauthn/browser; the server checks every answer (docs/accounts.md#passkeys).
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import { arena, refusal } from "./api";
import { accountProblem } from "./accountwords";
import { thisDevice } from "./device";
import { h } from "./dom";
import { dateText } from "./i18n/figures";
import { setText } from "./i18n/live";
import { msg, type Words } from "./i18n/messages";
import type { Passkey } from "./gen/photofinish/client/v1/account_pb";
import { tokens } from "./session";
import type { Session } from "./store";

const when = (date: Date) => () => dateText(date, { dateStyle: "medium" }); // formatted when shown

/** The sign-in screen's passkey button: no name, no password; the device unlocks it. */
export function passkeySignIn(done: (session: Session) => void): HTMLElement {
  const error = h("p.error#passkey-error", { role: "alert" });
  const button = h("button#passkey-sign-in", { type: "button" }, msg("passkeys.sign_in")) as HTMLButtonElement;
  button.onclick = async () => {
    button.disabled = true;
    error.textContent = "";
    let rpId = "";
    try {
      const asked = await arena.beginPasskeySignIn({});
      const options = JSON.parse(asked.optionsJson);
      rpId = options.rpId;
      const answer = await startAuthentication({ optionsJSON: options });
      const request = { challengeId: asked.challengeId, credentialJson: JSON.stringify(answer), device: thisDevice() };
      done(await tokens.signInWith((options) => arena.passkeySignIn(request, options)));
    } catch (e) {
      setText(error, passkeyProblem(e, rpId));
    } finally {
      button.disabled = false;
    }
  };
  if (!browserSupportsWebAuthn()) {
    button.disabled = true;
    setText(error, msg("passkeys.unsupported"));
  }
  return h("div.passkey-way", button, error);
}

/** The account's passkeys, each with Remove, and Add a passkey. */
export class PasskeysPanel {
  readonly root = h("section.passkeys#passkeys");
  private readonly list = h("ul.passkey-list#passkey-list");
  private readonly status = h("p.passkeys-status#passkeys-status", { role: "status" });
  private readonly add = h("button.primary#add-passkey", { type: "button" }, msg("passkeys.add")) as HTMLButtonElement;

  constructor(private readonly signal: AbortSignal) {
    this.add.onclick = () => void this.adding();
    this.root.append(
      h("h3", msg("passkeys.title")),
      h("p.hint", msg("passkeys.hint")),
      this.list,
      this.add,
      this.status,
    );
    if (!browserSupportsWebAuthn()) {
      this.add.disabled = true;
      setText(this.status, msg("passkeys.unsupported"));
    }
  }

  async load(): Promise<void> {
    try {
      this.show((await arena.listPasskeys({}, { signal: this.signal })).passkeys);
    } catch (error) {
      if (!this.signal.aborted) setText(this.status, msg("passkeys.unavailable", { problem: accountProblem(refusal(error)) }));
    }
  }

  private show(passkeys: Passkey[]): void {
    this.list.replaceChildren(...passkeys.map((p) => this.row(p)));
    if (!passkeys.length) this.list.append(h("li.passkey.none", msg("passkeys.none")));
  }

  private row(p: Passkey): HTMLElement {
    const added = new Date(Number(p.addedAtUnix) * 1000);
    const used = Number(p.lastUsedAtUnix) ? msg("passkeys.last_used", { when: when(new Date(Number(p.lastUsedAtUnix) * 1000)) }) : msg("passkeys.not_used");
    return h(
      "li.passkey",
      { dataset: { credential: p.credentialId } },
      h("div.passkey-name", h("strong", p.name || msg("passkeys.a_passkey")), h("span.passkey-times", msg("passkeys.times", { added: when(added), used }))),
      h("button.remove-passkey", { type: "button", "aria-label": msg("passkeys.remove_label", { name: p.name, added: when(added) }), onclick: () => void this.remove(p) }, msg("passkeys.remove")),
    );
  }

  private async adding(): Promise<void> {
    this.add.disabled = true;
    this.status.textContent = "";
    let rpId = "";
    try {
      const asked = await arena.beginAddPasskey({});
      const options = JSON.parse(asked.optionsJson);
      rpId = options.rp.id;
      const made = await startRegistration({ optionsJSON: options });
      await arena.addPasskey({ challengeId: asked.challengeId, credentialJson: JSON.stringify(made), name: thisDevice() });
      await this.load(); // listed first, then said: "added" never comes before the list shows it
      if (!this.status.textContent) setText(this.status, msg("passkeys.added"));
    } catch (e) {
      setText(this.status, passkeyProblem(e, rpId));
    } finally {
      this.add.disabled = false;
    }
  }

  private async remove(p: Passkey): Promise<void> {
    try {
      this.show((await arena.removePasskey({ credentialId: p.credentialId })).passkeys);
      setText(this.status, msg("passkeys.removed"));
    } catch (e) {
      setText(this.status, accountProblem(refusal(e)));
    }
  }
}

/** What went wrong, from the browser's WebAuthn or from the server, in a person's words
 * (`rpId`: the name the server gives passkeys, "" before it answered). */
function passkeyProblem(e: unknown, rpId: string): Words {
  const name = e instanceof WebAuthnError ? (e.cause as Error | undefined)?.name ?? e.name : e instanceof Error ? e.name : "";
  if (e instanceof WebAuthnError && e.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return msg("passkeys.already");
  if (name === "NotAllowedError" || name === "AbortError") return msg("passkeys.cancelled");
  if (name === "SecurityError") return msg("passkeys.wrong_name", { name: rpId, address: `${location.protocol}//${rpId}${location.port ? `:${location.port}` : ""}`, here: location.host });
  if (e instanceof WebAuthnError || name === "InvalidStateError" || name === "NotSupportedError") return msg("passkeys.unusable");
  return accountProblem(refusal(e));
}
