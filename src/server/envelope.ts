import type { FastifyReply } from 'fastify';
import type { ApiError } from './errors.js';

export interface ResponseMeta {
  request_id: string;
}

export interface DataEnvelope<T> {
  data: T;
  meta: ResponseMeta;
}

export interface ErrorEnvelope {
  error: { code: string; message: string; details: unknown };
  meta: ResponseMeta;
}

export function dataEnvelope<T>(requestId: string, data: T): DataEnvelope<T> {
  return { data, meta: { request_id: requestId } };
}

/** `details` is always present, null when there is nothing to add, so clients see one shape. */
export function errorEnvelope(requestId: string, error: ApiError): ErrorEnvelope {
  return {
    error: { code: error.code, message: error.message, details: error.details ?? null },
    meta: { request_id: requestId },
  };
}

/** Sends a success: `{data, meta: {request_id}}` with the given status. Return it from the handler. */
export function sendData<T>(reply: FastifyReply, status: number, data: T): FastifyReply {
  return reply.code(status).send(dataEnvelope(reply.request.id, data));
}
