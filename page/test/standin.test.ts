import { describe, expect, it } from "vitest";
import { standIn } from "../src/standin";

describe("the sign-in's stand-in outside Discord", () => {
  it("answers authorize with the local fake's code for the user", async () => {
    const sdk = standIn("42", "7");
    await sdk.ready();
    const answer = await sdk.commands.authorize({ client_id: "mock", response_type: "code", state: "", prompt: "none", scope: ["identify"] });
    expect(answer.code).toBe("mock:42");
    expect(sdk.channelId).toBe("7");
    expect(sdk.instanceId).toBe("123456789012345678");
  });
});
