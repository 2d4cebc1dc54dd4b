/**
 * A request the webhook administration refuses, with a message fit for an operator (and, later, for
 * the settings page). `kind` lets callers map it without parsing text: the CLI prints the message
 * and exits 1; an HTTP caller would map `not_found` to 404, `invalid` to 422, `conflict` to 409.
 */
export class WebhookAdminError extends Error {
  override readonly name = 'WebhookAdminError';
  constructor(
    readonly kind: 'invalid' | 'not_found' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}
