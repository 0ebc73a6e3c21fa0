// The session's questions over ACP, against a stand-in client that records what it is sent.
import type { AgentContext, SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { AcpUi } from "../../../src/cli/acp/acp-ui.js";

function fakeClient(answer: (params: any) => unknown) {
	const requests: { method: string; params: any }[] = [];
	const sent: SessionUpdate[] = [];
	const logged: string[] = [];
	const client = {
		async request(method: string, params: any) {
			requests.push({ method, params });
			return answer(params);
		},
		async notify() {},
	} as unknown as AgentContext;
	const ui = new AcpUi({
		client,
		sessionId: () => "s1",
		send: async (updates) => void sent.push(...updates),
		notices: false,
		log: (text) => logged.push(text),
	});
	ui.open();
	return { ui, requests, sent, logged };
}

describe("AcpUi", () => {
	it("asks a question that is not about a tool call on a stand-in call that shows it", async () => {
		const { ui, requests, sent } = fakeClient((params) => ({ outcome: { outcome: "selected", optionId: params.options[0].optionId } }));
		expect(await ui.confirm("Trust this project?", "It has extensions of its own.")).toBe(true);
		expect(sent[0]).toMatchObject({
			sessionUpdate: "tool_call",
			toolCallId: "loom-question-1",
			title: "Trust this project?",
			kind: "other",
			content: [{ type: "content", content: { type: "text", text: "It has extensions of its own." } }],
		});
		expect(requests[0]).toMatchObject({ method: "session/request_permission", params: { sessionId: "s1", toolCall: { toolCallId: "loom-question-1" } } });
		expect(sent[1]).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: "loom-question-1", status: "completed" });
	});

	it("answers a choice with the value the user picked, and nothing when the client cancels", async () => {
		const picked = fakeClient(() => ({ outcome: { outcome: "selected", optionId: "1" } }));
		const choices = [
			{ label: "gpt", value: "openai/gpt" },
			{ label: "claude", value: "anthropic/claude", description: "200k" },
		];
		expect(await picked.ui.select({ title: "Model" }, choices)).toBe("anthropic/claude");
		expect(picked.requests[0]!.params.options.map((o: any) => o.name)).toEqual(["gpt", "claude (200k)"]);
		const cancelled = fakeClient(() => ({ outcome: { outcome: "cancelled" } }));
		expect(await cancelled.ui.select({ title: "Model" }, choices)).toBeUndefined();
	});

	it("asks the approval question on its tool call, its answers as permission kinds; a denial's reason is not asked", async () => {
		const { ui, requests, sent, logged } = fakeClient((params) => ({ outcome: { outcome: "selected", optionId: params.options[2].optionId } }));
		const approval = { toolCallId: "call_1", toolName: "bash" };
		const choices = [
			{ label: "Allow once", value: "once" },
			{ label: "Allow for this session", value: "session" },
			{ label: "Deny", value: "deny" },
		];
		expect(await ui.select({ title: "Allow bash?", approval }, choices)).toBe("deny");
		expect(sent).toEqual([]);
		expect(requests[0]!.params).toMatchObject({ toolCall: { toolCallId: "call_1" } });
		expect(requests[0]!.params.options.map((o: any) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
		expect(await ui.input("Why not?", { approval })).toBeUndefined();
		expect(logged).toEqual([]);
	});

	it("does not ask once the run is stopped, nor free text or a picker of many items, and says so on stderr", async () => {
		const { ui, requests, logged } = fakeClient(() => ({ outcome: { outcome: "cancelled" } }));
		const stopped = AbortSignal.abort();
		expect(await ui.select({ title: "Allow?", signal: stopped, approval: { toolCallId: "c", toolName: "edit" } }, [{ label: "Allow once", value: "once" }])).toBeUndefined();
		expect(requests).toEqual([]);
		expect(await ui.input("Name the branch")).toBeUndefined();
		expect(await ui.select({ title: "Model", filter: true }, [{ label: "a", value: "a" }])).toBeUndefined();
		expect(requests).toEqual([]);
		ui.notify("warning", "The server is slow.");
		expect(logged).toEqual([
			"loom: not asked (ACP has no text questions): Name the branch",
			"loom: not asked (a picker of 1 choices is not offered over ACP): Model",
			"loom: warning: The server is slow.",
		]);
	});
});
