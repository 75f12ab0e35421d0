// Signing in: the Embedded App SDK's authorize (scope identify) and the backend's /api/token,
// or, outside Discord, the SDK's mock whose code ("mock:<user_id>") the local fake accepts.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import type { Launch } from "./launch";
import type { User } from "./protocol";

export interface SignedIn {
  session: string;
  user: User;
  instanceId: string;
  channelId: string | null;
  locale: string | null;
}

async function clientId(apiBase: string): Promise<string> {
  const built = import.meta.env["VITE_DISCORD_CLIENT_ID"] as string | undefined;
  if (built) return built;
  const answer = await fetch(`${apiBase}/config`);
  if (!answer.ok) throw new Error(`config: HTTP ${answer.status}`);
  const data = (await answer.json()) as { client_id?: string };
  if (!data.client_id) throw new Error("config: no client id");
  return data.client_id;
}

async function exchange(apiBase: string, code: string): Promise<{ access_token: string; session: string; user: User }> {
  const answer = await fetch(`${apiBase}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!answer.ok) throw new Error(`token: HTTP ${answer.status}`);
  return (await answer.json()) as { access_token: string; session: string; user: User };
}

export async function signIn(launch: Launch): Promise<SignedIn> {
  if (launch.mock) {
    const userId = launch.userId ?? "1";
    const sdk = new DiscordSDKMock("mock", launch.guildId, launch.channelId, null);
    sdk._updateCommandMocks({ authorize: async () => ({ code: `mock:${userId}` }) });
    await sdk.ready();
    const { code } = await sdk.commands.authorize({ client_id: "mock", response_type: "code", state: "", prompt: "none", scope: ["identify"] });
    const token = await exchange(launch.apiBase, code);
    return { session: token.session, user: token.user, instanceId: launch.instanceId ?? sdk.instanceId, channelId: launch.channelId, locale: navigator.language };
  }
  const id = await clientId(launch.apiBase);
  const sdk = new DiscordSDK(id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({ client_id: id, response_type: "code", state: "", prompt: "none", scope: ["identify"] });
  const token = await exchange(launch.apiBase, code);
  await sdk.commands.authenticate({ access_token: token.access_token });
  let locale: string | null = null;
  try {
    locale = (await sdk.commands.userSettingsGetLocale()).locale;
  } catch {
    locale = null;
  }
  return { session: token.session, user: token.user, instanceId: sdk.instanceId, channelId: sdk.channelId, locale };
}
