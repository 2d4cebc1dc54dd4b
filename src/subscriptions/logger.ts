/** The slice of a structured logger (pino's shape) the subscription machinery writes to. */
export interface Logger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const ignore = () => {};

export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
