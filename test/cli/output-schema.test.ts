// --output-schema end to end against the scripted model server, in the test's process: each wire format's
// structured-output request, exactly the JSON on stdout, a second chance with the errors, then exit 3.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../support/temp-dir.js";
import { jsonLines, serverFlags, useScriptedServer } from "../support/loom-process.js";
import { runLoomInProcess } from "../support/loom-in-process.js";

const server = useScriptedServer();

const SCHEMA = {
	title: "Verdict",
	type: "object",
	properties: { verdict: { enum: ["pass", "fail"] }, count: { type: "integer" } },
	required: ["verdict", "count"],
	additionalProperties: false,
};

function withSchema(schema: object = SCHEMA) {
	const ws = workspace();
	writeFileSync(join(ws.cwd, "schema.json"), JSON.stringify(schema));
	return ws;
}

describe("loom -p --output-schema", () => {
	it("asks each wire format for structured output and prints exactly the valid JSON", async () => {
		const ws = withSchema();
		const answer = { verdict: "pass", count: 3 };
		// Claude answers through the forced output tool; the others in text.
		server.enqueue(
			{ text: JSON.stringify(answer) },
			{ text: JSON.stringify(answer) },
			{ text: JSON.stringify(answer) },
			{ toolCalls: [{ name: "structured_output", arguments: answer }] },
		);
		const runs = [
			await runLoomInProcess(["-p", "--output-schema", "schema.json", ...serverFlags(server.openaiBaseUrl), "judge"], ws),
			await runLoomInProcess(["-p", "--output-schema", "schema.json", "-m", "gpt-5.6-terra", "--api-key", "k", "--base-url", server.openaiBaseUrl, "judge"], ws),
			await runLoomInProcess(["-p", "--output-schema", "schema.json", "-m", "gemini-3.5-flash", "--api-key", "k", "--base-url", server.googleBaseUrl, "judge"], ws),
			await runLoomInProcess(["-p", "--output-schema", "schema.json", "-m", "claude-sonnet-5-5", "--api-key", "k", "--base-url", server.anthropicBaseUrl, "judge"], ws),
		];
		for (const run of runs) {
			expect(run.stderr).toBe("");
			expect(run.code).toBe(0);
			expect(run.stdout).toBe('{"verdict":"pass","count":3}\n');
		}
		const [completions, responses, gemini, anthropic] = server.requests.map((request) => request.body);
		expect(completions.response_format).toEqual({ type: "json_schema", json_schema: { name: "Verdict", schema: SCHEMA, strict: false } });
		expect(responses.text).toEqual({ format: { type: "json_schema", name: "Verdict", schema: SCHEMA, strict: false } });
		expect(gemini.generationConfig).toMatchObject({ responseMimeType: "application/json", responseJsonSchema: SCHEMA });
		expect(anthropic.tool_choice).toEqual({ type: "any" });
		expect(anthropic.tools.at(-1)).toMatchObject({ name: "structured_output", input_schema: SCHEMA });
		// Every model is told the form too (the instruct-and-validate path for servers without structured output).
		expect(JSON.stringify(completions.messages[0])).toContain("valid against this JSON Schema");
		expect(server.requests).toHaveLength(4);
	});

	it("asks once more with the validation errors, and ends with exit 3 and nothing on stdout after a second bad answer", async () => {
		const ws = withSchema();
		server.enqueue({ text: "It passed, three times." }, { text: '{"verdict":"maybe","count":3}' });
		const result = await runLoomInProcess(["-p", "--output-schema", "schema.json", ...serverFlags(server.openaiBaseUrl), "judge"], ws);
		expect(result.code).toBe(3);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("not valid against --output-schema");
		expect(result.stderr).toContain("/verdict must be equal to one of the allowed values");
		expect(server.requests).toHaveLength(2);
		const retry = JSON.stringify(server.requests[1]!.body.messages.at(-1));
		expect(retry).toContain("the answer is not JSON");
	});

	it("repairs an answer on the second try; JSON mode ends with a result event", async () => {
		const ws = withSchema({ type: "array", items: { type: "string" } });
		server.enqueue({ text: '["a", 1]' }, { text: '["a", "b"]' });
		const result = await runLoomInProcess(["-p", "--mode", "json", "--output-schema", "schema.json", ...serverFlags(server.openaiBaseUrl), "list"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		const events = jsonLines(result.stdout);
		expect(events.at(-1)).toEqual({ type: "result", status: "ok", result: ["a", "b"] });
		expect(events.filter((event) => event.type === "run_end")).toHaveLength(2);
		expect(JSON.stringify(server.requests[1]!.body.messages.at(-1))).toContain("/1 must be string");
	});

	it("refuses a schema file that is not JSON, as a usage error", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "bad.json"), "{ not json");
		const result = await runLoomInProcess(["-p", "--output-schema", "bad.json", ...serverFlags(server.openaiBaseUrl), "x"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("--output-schema bad.json: not JSON");
		expect(server.requests).toHaveLength(0);
	});
});
