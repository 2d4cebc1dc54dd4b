import { validate } from 'uuid';
import { describe, expect, it } from 'vitest';
import { completedEventIds, failedEventIds, startedEventIds } from './checkEventIds.js';

describe('check event ids', () => {
  it('are UUIDs derived from the check: the same on every call', () => {
    const id = startedEventIds('ABC123456-1', 1)(0);
    expect(validate(id)).toBe(true);
    expect(startedEventIds('ABC123456-1', 1)(0)).toBe(id);
    expect(completedEventIds('ABC123456-1')(0)).toBe(completedEventIds('ABC123456-1')(0));
  });

  it('differ per attempt for CheckStarted, but not for the outcome, which any attempt appends once', () => {
    const ids = new Set([
      startedEventIds('ABC123456-1', 1)(0),
      startedEventIds('ABC123456-1', 2)(0),
      startedEventIds('ABC123456-1', 1)(1),
      startedEventIds('ABC123456-2', 1)(0),
      completedEventIds('ABC123456-1')(0),
      completedEventIds('ABC123456-1')(1),
      completedEventIds('ABC123456-2')(0),
      failedEventIds('ABC123456-1')(0),
    ]);
    expect(ids.size).toBe(8);
  });
});
