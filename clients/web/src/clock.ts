// Match clocks for display: the server's figures, counted down locally between updates.
import type { ClockView } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { decimal } from "./i18n/figures";

export interface SeatTime {
  graceMs: number;
  bankMs: number;
}

/**
 * Each seat's time `elapsedMs` after the server measured `clock`, if nothing else happened:
 * only the running seat's time moves, its grace first, then its bank; never below zero.
 */
export function countDown(clock: ClockView | undefined, elapsedMs: number): SeatTime[] {
  if (!clock) return [];
  const times = clock.seats.map((seat) => ({ graceMs: Number(seat.graceMs), bankMs: Number(seat.bankMs) }));
  const running = clock.running;
  if (clock.enabled && running >= 0 && running < times.length && elapsedMs > 0) {
    const now = times[running];
    const over = Math.max(0, elapsedMs - now.graceMs);
    times[running] = { graceMs: Math.max(0, now.graceMs - elapsedMs), bankMs: Math.max(0, now.bankMs - over) };
  }
  return times;
}

/** m:ss rounded down: a display never promises time that is not there. */
export function formatMs(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return `${decimal(Math.floor(seconds / 60))}:${decimal(seconds % 60, 0, 2)}`;
}

/** Seconds with tenths, rounded down, for the grace. */
export function formatGrace(ms: number): string {
  return decimal(Math.floor(Math.max(0, ms) / 100) / 10, 1);
}
