// Passkeys: signing in with one (the sign-in screen), and the account's own passkeys, added
// and removed (the Devices screen). The browser's WebAuthn does the work through
// @simplewebauthn/browser; the server checks every answer (docs/accounts.md#passkeys).
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import { arena, refusal } from "./api";
import { accountProblem } from "./accountwords";
import { thisDevice } from "./device";
import { h } from "./dom";
import type { Passkey } from "./gen/photofinish/client/v1/account_pb";
import { tokens } from "./session";
import type { Session } from "./store";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** The sign-in screen's passkey button: no name, no password; the device unlocks it. */
export function passkeySignIn(done: (session: Session) => void): HTMLElement {
  const error = h("p.error#passkey-error", { role: "alert" });
  const button = h("button#passkey-sign-in", { type: "button" }, "Sign in with a passkey") as HTMLButtonElement;
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
      error.textContent = passkeyProblem(e, rpId);
    } finally {
      button.disabled = false;
    }
  };
  if (!browserSupportsWebAuthn()) {
    button.disabled = true;
    error.textContent = "This browser has no passkeys here (they need a secure page, such as http://localhost).";
  }
  return h("div.passkey-way", button, error);
}

/** The account's passkeys, each with Remove, and Add a passkey. */
export class PasskeysPanel {
  readonly root = h("section.passkeys#passkeys");
  private readonly list = h("ul.passkey-list#passkey-list");
  private readonly status = h("p.passkeys-status#passkeys-status", { role: "status" });
  private readonly add = h("button.primary#add-passkey", { type: "button" }, "Add a passkey") as HTMLButtonElement;

  constructor(private readonly signal: AbortSignal) {
    this.add.onclick = () => void this.adding();
    this.root.append(
      h("h3", "Passkeys"),
      h("p.hint", "Sign in with this device's own unlock (fingerprint, face or PIN) instead of the password."),
      this.list,
      this.add,
      this.status,
    );
    if (!browserSupportsWebAuthn()) {
      this.add.disabled = true;
      this.status.textContent = "This browser has no passkeys here (they need a secure page, such as http://localhost).";
    }
  }

  async load(): Promise<void> {
    try {
      this.show((await arena.listPasskeys({}, { signal: this.signal })).passkeys);
    } catch (error) {
      if (!this.signal.aborted) this.status.textContent = `The passkeys are not available right now. ${accountProblem(refusal(error))}`;
    }
  }

  private show(passkeys: Passkey[]): void {
    this.list.replaceChildren(...passkeys.map((p) => this.row(p)));
    if (!passkeys.length) this.list.append(h("li.passkey.none", "No passkey yet."));
  }

  private row(p: Passkey): HTMLElement {
    const added = new Date(Number(p.addedAtUnix) * 1000);
    const used = Number(p.lastUsedAtUnix) ? `last used ${when.format(new Date(Number(p.lastUsedAtUnix) * 1000))}` : "not used yet";
    return h(
      "li.passkey",
      { dataset: { credential: p.credentialId } },
      h("div.passkey-name", h("strong", p.name || "A passkey"), h("span.passkey-times", `added ${when.format(added)}, ${used}`)),
      h("button.remove-passkey", { type: "button", "aria-label": `Remove the passkey ${p.name}, added ${when.format(added)}`, onclick: () => void this.remove(p) }, "Remove"),
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
      if (!this.status.textContent) this.status.textContent = "Passkey added: next time, sign in with it.";
    } catch (e) {
      this.status.textContent = passkeyProblem(e, rpId);
    } finally {
      this.add.disabled = false;
    }
  }

  private async remove(p: Passkey): Promise<void> {
    try {
      this.show((await arena.removePasskey({ credentialId: p.credentialId })).passkeys);
      this.status.textContent = "Passkey removed. Remove it from the device too, in its passkey settings.";
    } catch (e) {
      this.status.textContent = accountProblem(refusal(e));
    }
  }
}

/** What went wrong, from the browser's WebAuthn or from the server, in a person's words
 * (`rpId`: the name the server gives passkeys, "" before it answered). */
function passkeyProblem(e: unknown, rpId: string): string {
  const name = e instanceof WebAuthnError ? (e.cause as Error | undefined)?.name ?? e.name : e instanceof Error ? e.name : "";
  if (e instanceof WebAuthnError && e.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return "This device holds a passkey for this account already.";
  if (name === "NotAllowedError" || name === "AbortError") return "No passkey was used: it was cancelled, or took too long.";
  if (name === "SecurityError") return `Passkeys work only at this arena's own name, ${rpId}: open the arena at ${location.protocol}//${rpId}${location.port ? `:${location.port}` : ""} instead of ${location.host}.`;
  if (e instanceof WebAuthnError || name === "InvalidStateError" || name === "NotSupportedError") return "This device could not use a passkey here.";
  return accountProblem(refusal(e));
}
