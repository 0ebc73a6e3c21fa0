import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Agent, type ToolResultMessage } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { createWriteTool } from "../../../../src/tools/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { tempDir } from "../../../support/temp-dir.js";
import { PROTOCOLS, serverModel, TEST_KEY } from "./helpers.js";

const server = useScriptedServer();

const CUT_OFF = '{"path":"w1.txt","content":"line1\\nline2 and the rest was cut';

function resultText(message: ToolResultMessage): string {
	return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

// Gemini sends a call's arguments as one JSON object, never as text that can be cut off (its malformed calls:
// google-generative-ai.test.ts).
const STREAMED_ARGUMENTS = PROTOCOLS.filter((api) => api !== "google-generative-ai");

describe.each(STREAMED_ARGUMENTS)("tool calls whose streamed arguments are not valid JSON, over %s", (api) => {
	async function runWrite(badArguments: string) {
		const dir = tempDir();
		server.enqueue(
			{ text: "Writing.", toolCalls: [{ id: "call_bad", name: "write", arguments: badArguments }], chunkSize: 7 },
			{ toolCalls: [{ id: "call_good", name: "write", arguments: { path: "w1.txt", content: "line1\nline2\n" } }] },
			{ text: "Written." },
		);
		let existedBeforeRetry: boolean | undefined;
		server.setResponder((_body, index) => {
			if (index === 1) existedBeforeRetry = existsSync(join(dir, "w1.txt"));
			return undefined;
		});
		const agent = new Agent({
			initialState: { model: serverModel(server, api), tools: [createWriteTool(dir)] },
			streamFn: streamModel,
			getApiKey: () => TEST_KEY,
		});
		await agent.prompt("write w1.txt");
		return { agent, dir, existedBeforeRetry };
	}

	it("are not executed: the model gets an error result saying the arguments were malformed, and its retry runs", async () => {
		const { agent, dir, existedBeforeRetry } = await runWrite(CUT_OFF);

		expect(existedBeforeRetry).toBe(false);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "toolResult", "assistant"]);
		const refused = agent.state.messages[2] as ToolResultMessage;
		expect(refused).toMatchObject({ toolCallId: "call_bad", toolName: "write", isError: true });
		expect(resultText(refused)).toMatch(/not executed: its arguments were malformed \(not complete, valid JSON/);
		expect(readFileSync(join(dir, "w1.txt"), "utf8")).toBe("line1\nline2\n");

		// The second request tells the model why its call did not run.
		const second = server.requests[1]!.body;
		if (api === "anthropic-messages") {
			expect(second.messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "call_bad", is_error: true });
			expect(JSON.stringify(second.messages[2].content[0].content)).toMatch(/arguments were malformed/);
		} else if (api === "openai-responses") {
			expect(second.input.at(-1)).toMatchObject({ type: "function_call_output", call_id: "call_bad" });
			expect(second.input.at(-1).output).toMatch(/arguments were malformed/);
		} else {
			expect(second.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_bad" });
			expect(second.messages.at(-1).content).toMatch(/arguments were malformed/);
		}
	});

	it("are not executed when the JSON is complete but not an object", async () => {
		const { agent, existedBeforeRetry } = await runWrite('["w1.txt", "line1"]');
		expect(existedBeforeRetry).toBe(false);
		const refused = agent.state.messages[2] as ToolResultMessage;
		expect(refused.isError).toBe(true);
		expect(resultText(refused)).toMatch(/arguments were malformed \(not a JSON object/);
	});
});
