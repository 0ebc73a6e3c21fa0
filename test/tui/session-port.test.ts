// The AgentSession must be usable as the screen's SessionPort as it is (checked by the type checker,
// `npx tsc -p tsconfig.test.json`); the runtime part checks the members the screen reads exist.
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AgentSession } from "../../src/core/session/index.js";
import type { SessionPort } from "../../src/tui/session-port.js";

describe("SessionPort", () => {
	it("is satisfied structurally by AgentSession", () => {
		expectTypeOf<AgentSession>().toMatchTypeOf<SessionPort>();
		const accept = (port: SessionPort) => port.subscribe;
		const asPort = (session: AgentSession) => accept(session);
		expect(typeof asPort).toBe("function");
	});
});
