// ask_user where nobody can answer: in print mode the call fails with the documented message, which tells the
// model to decide itself and say what it assumed; the run goes on and ends well.
import { describe, expect, it } from "vitest";
import { NOBODY_TO_ASK } from "../../../src/tools/index.js";
import { runLoomInProcess } from "../../support/loom-in-process.js";
import { serverFlags } from "../../support/loom-process.js";
import { workspace } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const server = useScriptedServer();

describe("ask_user in print mode", () => {
	it("returns the error telling the model to decide itself, and the run ends with exit 0", async () => {
		server.enqueue(
			{ toolCalls: [{ id: "q", name: "ask_user", arguments: { question: "Tabs or spaces?", choices: ["Tabs", "Spaces"] } }] },
			{ text: "I assumed spaces." },
		);
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "format it"], workspace());
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("I assumed spaces.");
		const toolMessage = server.requests[1]!.body.messages.find((message: any) => message.role === "tool");
		expect(String(toolMessage.content)).toBe(NOBODY_TO_ASK);
	});
});
