// Outside Discord (a local host, the tests) the page signs in without the Embedded App SDK:
// this stand-in answers authorize with the code the local fake accepts ("mock:<user_id>"),
// as the SDK's own mock does, so the SDK is only fetched inside Discord.

import type { IDiscordSDK } from "@discord/embedded-app-sdk";

// The instance the SDK's mock names when the query gives none.
const MOCK_INSTANCE = "123456789012345678";

/** The part of the SDK the sign-in uses outside Discord; ``dialogs``, the share and invite
 * commands' answers where a test records them (``?dialogs=record``). */
export function standIn(userId: string, channelId: string | null, dialogs: Partial<IDiscordSDK["commands"]> = {}): IDiscordSDK {
  const sdk = {
    instanceId: MOCK_INSTANCE,
    channelId,
    ready: async () => undefined,
    commands: { authorize: async () => ({ code: `mock:${userId}` }), ...dialogs },
  };
  return sdk as unknown as IDiscordSDK; // only these members are read outside Discord
}
