// How the page was opened: inside Discord (its frame parameters in the query) or outside it,
// where the SDK's mock stands in and ``?user_id=`` says who you are.

export interface Launch {
  /** Outside Discord: no ``frame_id`` in the query. */
  mock: boolean;
  /** The mock's user (``?user_id=``), else null. */
  userId: string | null;
  /** The Activity instance (the mock's ``?instance_id=``; inside Discord the SDK's). */
  instanceId: string | null;
  channelId: string | null;
  guildId: string | null;
  /** Where the backend answers: Discord's proxy inside Discord, the same origin outside. */
  apiBase: string;
  /** Outside Discord, ``?dialogs=record``: the mock stands in for Discord's share and invite
   * dialogs too, recording each call in ``window.discordDialogs`` (the browser tests). */
  recordDialogs: boolean;
}

export function launchFrom(search: string): Launch {
  const query = new URLSearchParams(search);
  const mock = !query.get("frame_id");
  return {
    mock,
    userId: mock ? query.get("user_id") || "1" : null,
    instanceId: query.get("instance_id"),
    channelId: query.get("channel_id"),
    guildId: query.get("guild_id"),
    apiBase: mock ? "/api" : "/.proxy/api",
    recordDialogs: mock && query.get("dialogs") === "record",
  };
}

/** The websocket's address for a page at ``location`` (ws: or wss: as the page's scheme). */
export function liveUrl(location: { protocol: string; host: string }, apiBase: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${apiBase}/live`;
}

/** How long to wait before the ``attempt``-th reconnection (1 s doubling, at most 30 s). */
export function backoff(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
}
