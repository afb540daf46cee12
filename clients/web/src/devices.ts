// Devices: the account's sessions that can still refresh (device, signed in, last seen,
// this device), each with Sign out, and Sign out everywhere; then the account's passkeys.
import { arena, refusal } from "./api";
import { accountProblem } from "./accountwords";
import { h } from "./dom";
import { dateText, relativeText } from "./i18n/figures";
import { setText } from "./i18n/live";
import { msg } from "./i18n/messages";
import type { Device } from "./gen/photofinish/client/v1/account_pb";
import { PasskeysPanel } from "./passkeys";

export interface DevicesActions {
  back(): void;
  signedOut(everywhere: boolean): void; // this device's session ended: to the sign-in screen
  deleted(): void; // the account is deleted: to the sign-in screen, saying so
}

const WHEN: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
const when = (date: Date) => () => dateText(date, WHEN); // formatted when shown, in that language
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];

export class DevicesPage {
  readonly root = h("section.devices");
  private readonly list = h("ul.device-list#device-list");
  private readonly status = h("p.devices-status", { role: "status" });
  private readonly abort = new AbortController();
  private readonly passkeys = new PasskeysPanel(this.abort.signal);

  constructor(private readonly actions: DevicesActions) {
    this.root.append(
      h("header.lobby-head", h("h2", msg("devices.title")), h("button.link#devices-back", { type: "button", onclick: () => actions.back() }, msg("common.back_to_lobby"))),
      h("p.hint", msg("devices.hint")),
      this.status,
      this.list,
      h("button.danger#sign-out-everywhere", { type: "button", onclick: () => void this.signOut("", true) }, msg("devices.sign_out_everywhere")),
      this.passkeys.root,
      this.deleting(),
    );
  }

  /** Delete the account, its password asked again: signed out everywhere, for good. */
  private deleting(): HTMLElement {
    const password = h("input#delete-password", { type: "password", required: true, autocomplete: "current-password", maxlength: "256", "aria-describedby": "delete-hint" }) as HTMLInputElement;
    const error = h("p.error#delete-error", { role: "alert" });
    const button = h("button.danger#delete-account", { type: "submit" }, msg("devices.delete")) as HTMLButtonElement;
    const submit = async (event: Event) => {
      event.preventDefault();
      button.disabled = true;
      error.textContent = "";
      try {
        await arena.deleteAccount({ password: password.value });
        this.actions.deleted();
      } catch (e) {
        const why = refusal(e);
        setText(error, why.reason === "bad_credentials" ? msg("devices.wrong_password") : accountProblem(why));
        password.focus();
      } finally {
        button.disabled = false;
      }
    };
    return h(
      "details.delete-account",
      h("summary", msg("devices.delete")),
      h(
        "p.hint#delete-hint",
        msg("devices.delete_hint"),
      ),
      h("form.account", { onsubmit: submit }, h("label", { for: password.id }, msg("devices.your_password")), password, button),
      error,
    );
  }

  start(): void {
    void this.load();
    void this.passkeys.load();
  }

  stop(): void {
    this.abort.abort();
  }

  private async load(): Promise<void> {
    try {
      const reply = await arena.listDevices({}, { signal: this.abort.signal });
      // This device first, then the others, the most recently seen first (as the server lists them).
      const devices = [...reply.devices.filter((d) => d.thisDevice), ...reply.devices.filter((d) => !d.thisDevice)];
      this.list.replaceChildren(...devices.map((d) => this.row(d)));
    } catch (error) {
      if (!this.abort.signal.aborted) setText(this.status, msg("devices.unavailable", { problem: accountProblem(refusal(error)) }));
    }
  }

  private row(d: Device): HTMLElement {
    const signedIn = new Date(Number(d.signedInAtUnix) * 1000);
    const seen = new Date(Number(d.lastSeenAtUnix) * 1000);
    return h(
      `li.device${d.thisDevice ? ".this" : ""}`,
      { dataset: { session: d.sessionId } },
      h("div.device-name", h("strong", d.device || msg("devices.a_device")), d.thisDevice ? h("span.this-device", msg("devices.this_device")) : null),
      h(
        "p.device-times",
        msg("devices.signed_in", { when: h("time", { datetime: signedIn.toISOString() }, when(signedIn)) }),
        h("br"),
        msg("devices.last_seen", { when: h("time", { datetime: seen.toISOString(), title: when(seen) }, () => ago(seen)) }),
      ),
      h("button.sign-out-one", { type: "button", "aria-label": msg("devices.sign_out_label", { device: d.device || msg("devices.this_device_lower"), when: when(signedIn) }), onclick: () => void this.signOut(d.sessionId, false, d.thisDevice) }, msg("devices.sign_out")),
    );
  }

  private async signOut(sessionId: string, everywhere: boolean, mine = false): Promise<void> {
    const buttons = [...this.root.querySelectorAll<HTMLButtonElement>(".device button, #sign-out-everywhere")];
    for (const button of buttons) button.disabled = true;
    try {
      await arena.signOut({ sessionId, everywhere });
      if (everywhere || mine) return this.actions.signedOut(everywhere);
      setText(this.status, msg("devices.signed_out"));
      await this.load();
    } catch (error) {
      setText(this.status, accountProblem(refusal(error)));
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  }
}

/** "now", "5 minutes ago", "yesterday": how long ago, in the reader's language. */
function ago(then: Date): string {
  const seconds = (then.getTime() - Date.now()) / 1000;
  const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? ["second", 1];
  return unit === "second" ? relativeText(0, "second") : relativeText(Math.round(seconds / size), unit);
}
