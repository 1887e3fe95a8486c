/**
 * The connections of a closing server, ended as soon as none of their requests is under way. Node's `server.close()`
 * ends the keep-alive connections that are idle at that moment and waits for all others, and it counts as busy a
 * connection that was opened but never carried a request (a client that aborts a call while its connection is being
 * made leaves one behind) and a keep-alive connection whose request was under way when the close began, long after its
 * answer went. Each of those held a close up until a timeout of a minute or more: a team server stopped, or the Local
 * workspace at the app's quit, waited that long for nothing. Requests under way still get their answers.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Ends the connections of a server that is closing. */
export interface ClosingConnections {
  /** Ends every connection without a request under way now, and each other one once its requests are answered. */
  closing(): void;
}

/** Follows the requests under way on each connection of `server`, from before it listens. */
export function closeConnectionsWhenIdle(server: Server): ClosingConnections {
  const underWay = new Map<Socket, number>();
  let closing = false;
  const endIfIdle = (socket: Socket): void => {
    if (closing && underWay.get(socket) === 0) socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    underWay.set(socket, 0);
    socket.once('close', () => underWay.delete(socket));
    endIfIdle(socket);
  });
  server.on('request', (request, response) => {
    const { socket } = request;
    const count = underWay.get(socket);
    if (count === undefined) return;
    underWay.set(socket, count + 1);
    response.once('close', () => {
      const left = underWay.get(socket);
      if (left === undefined) return;
      underWay.set(socket, left - 1);
      endIfIdle(socket);
    });
  });
  return {
    closing() {
      closing = true;
      for (const socket of underWay.keys()) endIfIdle(socket);
    },
  };
}
