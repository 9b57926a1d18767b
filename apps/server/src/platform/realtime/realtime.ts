import { createHmac } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { Config } from '../../config';
import { visiblePrograms } from '../../modules/tenancy/tenancy.queries';
import { liveSessionIds, sessionLimits, touchSession } from '../auth/sessions';
import type { TokenService } from '../auth/tokens';
import type { Database } from '../db/client';
import { AppError } from '../http/errors';

export const userChannel = (adminId: number) => `private-user.${adminId}`;
export const programChannel = (programId: number) => `private-program.${programId}`;
export const guestChannel = (conversationId: number) => `guest-conversation.${conversationId}`;
/** The device fleet's operators (controller realm): fleet changes go here. */
export const CONTROLLER_ROOM = 'controller.fleet';
/** Internal room of one sign-in session, so that signing out closes its sockets on every process. */
const sessionRoom = (sessionId: number) => `session.${sessionId}`;

export type Realtime = {
  /**
   * Serves the console's sockets on the API's HTTP server; without one (a worker or gateway process, ADR
   * 061) it only emits, through Redis, to the sockets of the API processes.
   */
  attach(server: HttpServer | null): Promise<void>;
  /** Emits to every socket of one staff user, on any API process when Redis is configured. */
  toUser(adminId: number, event: string, payload: unknown): void;
  toProgram(programId: number, event: string, payload: unknown): void;
  /** Emits to the sockets of the controller realm (the /controller fleet console). */
  toControllers(event: string, payload: unknown): void;
  /**
   * How a guest's socket proves itself (the messenger's guest links): a token answers the one conversation
   * it opens, or null. Guest sockets join that conversation's guest channel only.
   */
  verifyGuest(verify: GuestVerifier): void;
  /** Emits to the guests connected to one conversation (the guest channel). */
  toGuests(conversationId: number, event: string, payload: unknown): void;
  /** Closes the sockets of one session (sign-out) or of every session of a user (revocation). */
  endSession(sessionId: number): void;
  disconnectUser(adminId: number): void;
  /** Re-aligns a user's sockets with the programs they may now see (after a role change). */
  refreshMemberships(adminId: number): Promise<void>;
  keys(): { key: string; cluster: string; path: string };
  authorizeChannel(adminId: number, socketId: string, channel: string): Promise<{ auth: string }>;
  close(): Promise<void>;
};

type SocketData = { adminId: number; sessionId: number; guestToken?: string; controllerId?: number };
export type GuestVerifier = (token: string) => Promise<{ conversationId: number; inviteId: number } | null>;

/**
 * socket.io on the API's own port. A socket authenticates with the access token, joins its user's
 * private channel and its programs' channels. With REDIS_URL the adapter fans events out across processes.
 */
export function createRealtime(deps: {
  db: Database;
  tokens: TokenService;
  config: Config;
  log: FastifyBaseLogger;
}): Realtime {
  const { db, tokens, config, log } = deps;
  let io: Server | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  let guestVerifier: GuestVerifier | null = null;
  const redis: Redis[] = [];

  /**
   * Sessions end without an event too (idle expiry, absolute lifetime, revocation by another process,
   * a disabled owner): every REALTIME_SESSION_CHECK_MS each process checks the sessions of its own
   * sockets in one query and closes those whose session is no longer live.
   */
  async function closeEndedSessions(): Promise<void> {
    if (!io) return;
    const all = await io.local.fetchSockets();
    // Guests: each link is checked again once, however many sockets hold it (revoked or expired: they close).
    const tokens = [
      ...new Set(all.map((s) => (s.data as SocketData).guestToken).filter((t) => t !== undefined)),
    ];
    const liveLinks = new Set<string>();
    for (const token of tokens) if (await guestVerifier?.(token)) liveLinks.add(token);
    for (const socket of all) {
      const token = (socket.data as SocketData).guestToken;
      if (token && !liveLinks.has(token)) socket.disconnect(true);
    }
    const sockets = all.filter((s) => !(s.data as SocketData).guestToken);
    const ids = [...new Set(sockets.map((s) => (s.data as SocketData).sessionId).filter(Boolean))];
    if (ids.length === 0) return;
    const live = new Set(await liveSessionIds(db, ids, sessionLimits(config)));
    for (const socket of sockets) {
      if (!live.has((socket.data as SocketData).sessionId)) socket.disconnect(true);
    }
  }

  async function canJoin(adminId: number, channel: string): Promise<boolean> {
    const user = /^private-user\.(\d+)$/.exec(channel);
    if (user) return Number(user[1]) === adminId;
    const program = /^private-program\.(\d+)$/.exec(channel);
    if (program) return (await visiblePrograms(db, adminId)).some((p) => p.id === Number(program[1]));
    return false;
  }

  function sign(socketId: string, channel: string): string {
    return `caredeck:${createHmac('sha256', config.JWT_SECRET).update(`${socketId}:${channel}`).digest('hex')}`;
  }

  return {
    async attach(server) {
      io = new Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>(
        server ?? undefined,
        {
          path: '/socket.io',
          serveClient: false,
          cors: { origin: false },
        },
      );
      if (config.REDIS_URL) {
        const pub = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
        const sub = pub.duplicate();
        await Promise.all([pub.connect(), sub.connect()]);
        redis.push(pub, sub);
        io.adapter(createAdapter(pub, sub));
      }
      if (!server) return;
      sweeper = setInterval(() => {
        closeEndedSessions().catch((err: Error) =>
          log.warn({ err: { type: err.name } }, 'realtime session check failed'),
        );
      }, config.REALTIME_SESSION_CHECK_MS);
      sweeper.unref();
      io.use(async (socket, next) => {
        try {
          const guest = typeof socket.handshake.auth?.guest === 'string' ? socket.handshake.auth.guest : '';
          if (guest) {
            const session = guestVerifier ? await guestVerifier(guest) : null;
            if (!session) return next(new Error('unauthorized'));
            socket.data.guestToken = guest;
            await socket.join(guestChannel(session.conversationId));
            return next();
          }
          // The controller realm (/controller): its own token and session; it joins the fleet room only.
          const controller =
            typeof socket.handshake.auth?.controller === 'string' ? socket.handshake.auth.controller : '';
          if (controller) {
            const claims = await tokens.verifyAccess(controller, 'controller');
            const session =
              claims &&
              (await touchSession(db, { publicId: claims.sid }, 'controller', sessionLimits(config)));
            if (!claims || !session || session.ownerId !== claims.sub) return next(new Error('unauthorized'));
            socket.data.adminId = 0;
            socket.data.controllerId = claims.sub;
            socket.data.sessionId = session.id;
            await socket.join([sessionRoom(session.id), CONTROLLER_ROOM]);
            return next();
          }
          const token = typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : '';
          const claims = token ? await tokens.verifyAccess(token, 'staff') : null;
          const session =
            claims && (await touchSession(db, { publicId: claims.sid }, 'staff', sessionLimits(config)));
          if (!claims || !session || session.scope !== 'full' || session.ownerId !== claims.sub)
            return next(new Error('unauthorized'));
          socket.data.adminId = claims.sub;
          socket.data.sessionId = session.id;
          const programs = await visiblePrograms(db, claims.sub);
          await socket.join([
            sessionRoom(session.id),
            userChannel(claims.sub),
            ...programs.map((p) => programChannel(p.id)),
          ]);
          next();
        } catch (err) {
          log.warn({ err: { type: (err as Error).name } }, 'realtime authentication failed');
          next(new Error('unauthorized'));
        }
      });
    },
    toUser(adminId, event, payload) {
      io?.to(userChannel(adminId)).emit(event, payload);
    },
    toProgram(programId, event, payload) {
      io?.to(programChannel(programId)).emit(event, payload);
    },
    toControllers(event, payload) {
      io?.to(CONTROLLER_ROOM).emit(event, payload);
    },
    verifyGuest(verify) {
      guestVerifier = verify;
    },
    toGuests(conversationId, event, payload) {
      io?.to(guestChannel(conversationId)).emit(event, payload);
    },
    endSession(sessionId) {
      io?.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    disconnectUser(adminId) {
      io?.in(userChannel(adminId)).disconnectSockets(true);
    },
    async refreshMemberships(adminId) {
      if (!io) return;
      const allowed = new Set((await visiblePrograms(db, adminId)).map((p) => programChannel(p.id)));
      let sockets: Awaited<ReturnType<Server['fetchSockets']>>;
      try {
        // Every process's sockets of the user (through the adapter): a process that does not answer in time
        // must not fail the change that was already committed; its sockets are closed instead.
        sockets = await io.in(userChannel(adminId)).fetchSockets();
      } catch (err) {
        log.warn({ err: { type: (err as Error).name } }, 'realtime re-scope failed: closing the sockets');
        io.in(userChannel(adminId)).disconnectSockets(true);
        return;
      }
      for (const socket of sockets) {
        for (const room of socket.rooms) {
          if (room.startsWith('private-program.') && !allowed.has(room)) socket.leave(room);
        }
        socket.join([...allowed]);
      }
    },
    keys() {
      return { key: 'caredeck', cluster: 'local', path: '/socket.io' };
    },
    async authorizeChannel(adminId, socketId, channel) {
      if (!(await canJoin(adminId, channel))) throw AppError.forbidden('You may not join this channel.');
      if (io) {
        // Only the caller's own socket can be subscribed; fetchSockets() sees every process via the adapter.
        const sockets = await io.in(socketId).fetchSockets();
        const own = sockets.filter((s) => (s.data as SocketData).adminId === adminId);
        for (const s of own) s.join(channel);
      }
      return { auth: sign(socketId, channel) };
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      if (io) {
        // Not io.close(): that would also close the HTTP server, which Fastify closes itself.
        io.disconnectSockets(true);
        io.engine.close();
        io = null;
      }
      await Promise.all(redis.map((r) => r.quit().catch(() => undefined)));
    },
  };
}
