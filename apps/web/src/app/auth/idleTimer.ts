/** What counts as activity for the inactivity sign-out (01 §4). */
export const ACTIVITY_EVENTS = [
  'mousemove',
  'mousedown',
  'keydown',
  'touchstart',
  'scroll',
  'wheel',
] as const;

export interface IdleTimerOptions {
  timeoutMs: number;
  onIdle: () => void;
  /**
   * When the server last saw the session (0: unknown). The server ends a session `timeoutMs` after its last
   * request, while the user may be active without making any: see `onKeepAlive`.
   */
  serverContactAt?: () => number;
  /** Called on user activity when the server has not seen the session for `keepAliveMs`. */
  onKeepAlive?: () => void;
  keepAliveMs?: number;
  /** Sign out this long before the server would, so the logout log is still accepted. */
  marginMs?: number;
  target?: Window;
}

/** Keep-alive at most once a minute (or a quarter of a short time-out); a margin of 5 s (or a tenth). */
export function idleTimings(timeoutMs: number): { keepAliveMs: number; marginMs: number } {
  return { keepAliveMs: Math.min(60_000, timeoutMs / 4), marginMs: Math.min(5_000, timeoutMs / 10) };
}

/**
 * Calls `onIdle` once `timeoutMs` after the last user activity, or just before the server's own idle expiry if
 * that comes first. Activity only records a time stamp (mousemove fires often); one timer re-arms itself.
 */
export function startIdleTimer(options: IdleTimerOptions): () => void {
  const { timeoutMs, onIdle, serverContactAt, onKeepAlive, target = window } = options;
  const defaults = idleTimings(timeoutMs);
  const keepAliveMs = options.keepAliveMs ?? defaults.keepAliveMs;
  const marginMs = options.marginMs ?? defaults.marginMs;
  let lastActivity = Date.now();
  let lastKeepAlive = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const serverDeadline = () => {
    const contact = serverContactAt?.() ?? 0;
    return contact > 0 ? contact + timeoutMs - marginMs : Number.POSITIVE_INFINITY;
  };
  const deadline = () => Math.min(lastActivity + timeoutMs, serverDeadline());

  const markActivity = () => {
    const now = Date.now();
    lastActivity = now;
    const contact = serverContactAt?.() ?? 0;
    if (onKeepAlive && contact > 0 && now - contact >= keepAliveMs && now - lastKeepAlive >= keepAliveMs) {
      lastKeepAlive = now;
      onKeepAlive();
    }
  };
  const check = () => {
    if (stopped) return;
    const remaining = deadline() - Date.now();
    if (remaining <= 0) {
      stop();
      onIdle();
      return;
    }
    timer = setTimeout(check, remaining);
  };
  function stop() {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    for (const event of ACTIVITY_EVENTS) target.removeEventListener(event, markActivity, true);
  }

  for (const event of ACTIVITY_EVENTS) {
    target.addEventListener(event, markActivity, { capture: true, passive: true });
  }
  check();
  return stop;
}
