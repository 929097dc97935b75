import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC 2.0 error codes for a message that could not be read. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/**
 * The JSON-RPC error reply (id null, as JSON-RPC 2.0 asks when the id could not be read) to a stdio line the
 * transport could not read: -32700 for a line that is not JSON, -32600 for JSON that is no JSON-RPC message;
 * null for any other transport error (a closed pipe), which gets no reply.
 */
export function unreadableLineReply(error: Error): JSONRPCMessage | null {
  let code: number;
  let message: string;
  if (error instanceof SyntaxError) {
    [code, message] = [PARSE_ERROR, `Parse error: the line is not JSON (${error.message})`];
  } else if (error.name === 'ZodError') {
    [code, message] = [INVALID_REQUEST, 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 request, notification or response'];
  } else {
    return null;
  }
  // The SDK's types give every error an id; JSON-RPC 2.0 answers an unreadable one with null.
  return { jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage;
}
