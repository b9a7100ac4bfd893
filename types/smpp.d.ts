declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer } from 'node:net';

  export interface PDU {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    response(options?: Record<string, unknown>): PDU;
  }

  export interface Session extends EventEmitter {
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void): boolean;
    deliver_sm(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    unbind(options?: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    on(event: string, listener: (pdu: PDU) => void): this;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function createServer(options: Record<string, unknown>, listener: (session: Session) => void): Server;
}
