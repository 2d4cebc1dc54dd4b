/** The time, injected where a rule or a record depends on it, so tests can set it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
