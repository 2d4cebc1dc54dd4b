/**
 * The interface version of the spec ("Versioning"). Every HTTP response names it in
 * `Service-Api-Version`, so a client can log which contract answered; webhook deliveries carry the
 * same value.
 */
export const API_VERSION = '2026-06-09';
export const API_VERSION_HEADER = 'Service-Api-Version';
