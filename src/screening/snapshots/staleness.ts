/**
 * When a source snapshot is too old to screen against (docs/screening-sources.md, "Staleness").
 * Pure functions: the callers pass `now`.
 */

/** Default of SOURCE_STALE_AFTER: OFAC publishes several times a week, the UN regenerates its list
 * daily and the CSL is rebuilt daily, so two weeks without a newer list means the sync is broken,
 * while a quiet publisher week (holidays) does not take screening down. */
export const DEFAULT_STALE_AFTER = '14d';

const UNIT_MS = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 } as const;
type Unit = keyof typeof UNIT_MS;

/** `7d`, `36h`, `1d12h`, `90m`, `2w`, `3600s`: one or more whole numbers with a unit, summed. */
export function parseDuration(text: string): { ok: true; value: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  const invalid = { ok: false as const, message: 'must be a duration such as 7d, 36h, 1d12h or 90m' };
  if (!/^(\d+[wdhms])+$/.test(trimmed)) return invalid;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)([wdhms])/g)) {
    total += Number(amount) * UNIT_MS[unit as Unit];
  }
  if (total <= 0) return { ok: false, message: 'must be longer than zero' };
  if (!Number.isSafeInteger(total)) return { ok: false, message: 'is too long' };
  return { ok: true, value: total };
}

/** The two largest units: `3d 4h`, `14d`, `5h 12m`, `42s`; negative ages (a publisher clock ahead) as `-1h 2m`. */
export function formatDuration(ms: number): string {
  if (ms < 0) return `-${formatDuration(-ms)}`;
  const parts: string[] = [];
  let rest = Math.floor(ms / 1000) * 1000;
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const amount = Math.floor(rest / UNIT_MS[unit]);
    rest -= amount * UNIT_MS[unit];
    if (amount > 0 || parts.length > 0) parts.push(`${amount}${unit}`);
    if (parts.length === 2) break;
  }
  if (parts.length === 2 && parts[1]!.startsWith('0')) parts.pop();
  return parts.length > 0 ? parts.join(' ') : '0s';
}

/**
 * How old a snapshot's list is, measured from the publisher's date of the list (never from the load:
 * a list loaded today may have been published years ago). A snapshot without a publisher's date
 * (loaded before every load needed one, see docs/screening-sources.md) has no known age and is
 * stale: nothing shows that its list is recent.
 */
export type Freshness = { ageMs: number; stale: boolean } | { ageMs: null; stale: true };

export function freshness(
  snapshot: { publishedAt: Date | null },
  now: Date,
  staleAfterMs: number,
): Freshness {
  if (!snapshot.publishedAt) return { ageMs: null, stale: true };
  const ageMs = now.getTime() - snapshot.publishedAt.getTime();
  return { ageMs, stale: ageMs > staleAfterMs };
}
