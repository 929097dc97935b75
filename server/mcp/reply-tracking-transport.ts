import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { unreadableLineReply } from './unreadable-line.js';

/**
 * Wraps a transport and counts the requests received and not yet answered, so a process can write
 * every pending reply before it shuts down: an MCP client that pipes a call and closes stdin at once
 * still gets the answer. A line the transport cannot read is answered with its JSON-RPC error (-32700, -32600).
 */
export class ReplyTrackingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly pending = new Set<RequestId>();
  private waiters: (() => void)[] = [];

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) this.pending.add(message.id);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => {
      // A line that does not parse gets its JSON-RPC error instead of silence, which left a client waiting.
      const reply = unreadableLineReply(error);
      if (reply) void inner.send(reply).catch((err: unknown) => this.onerror?.(err as Error));
      this.onerror?.(error);
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
    } finally {
      if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
        this.pending.delete(message.id);
        if (this.pending.size === 0) this.wake();
      }
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Resolves once every request received so far has had its reply written. */
  settled(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
