import { describe, expect, it } from "vitest";
import { previewToolArgs } from "../../src/tui/tool-args.js";
import { projectToolDetails } from "../../src/tui/tool-details.js";

describe("previewToolArgs", () => {
	it("summarises each known tool by what matters", () => {
		expect(previewToolArgs("bash", { command: "cd src &&\n  ls -la" }).summary).toBe("cd src && ls -la");
		expect(previewToolArgs("read", { path: "src/a.ts", offset: 10, limit: 50 })).toEqual({ summary: "src/a.ts:10-59", path: "src/a.ts" });
		expect(previewToolArgs("read", { path: "src/a.ts", offset: 10 }).summary).toBe("src/a.ts:10-");
		expect(previewToolArgs("read", { path: "src/a.ts" }).summary).toBe("src/a.ts");
		expect(previewToolArgs("write", { path: "out.txt", content: "x".repeat(10_000) })).toEqual({ summary: "out.txt", path: "out.txt" });
		expect(previewToolArgs("edit", { path: "b.ts", oldText: "a", newText: "b" }).summary).toBe("b.ts");
	});

	it("never trusts the raw arguments' shape", () => {
		expect(previewToolArgs("bash", null).summary).toBe("");
		expect(previewToolArgs("bash", { command: 42 }).summary).toBe('{"command":42}');
		expect(previewToolArgs("read", "not an object").summary).toBe("not an object");
		expect(previewToolArgs("read", { path: "a", offset: "ten" }).summary).toBe("a");
		const circular: Record<string, unknown> = {};
		circular.self = circular;
		expect(previewToolArgs("mystery", circular).summary).toBe("");
		expect(previewToolArgs("mystery", { q: "x".repeat(500) }).summary.length).toBeLessThanOrEqual(200);
	});
});

describe("projectToolDetails", () => {
	it("keeps only known fields of the right type", () => {
		expect(projectToolDetails({ exitCode: 2, signal: "SIGTERM", timedOut: false, truncated: true, fullOutputPath: "/tmp/x", extra: 1 })).toEqual({
			exitCode: 2,
			signal: "SIGTERM",
			timedOut: false,
			truncated: true,
			fullOutputPath: "/tmp/x",
		});
		expect(projectToolDetails({ exitCode: "2", bytes: Number.NaN, diff: 5 })).toBeUndefined();
		expect(projectToolDetails(undefined)).toBeUndefined();
		expect(projectToolDetails("details")).toBeUndefined();
		expect(projectToolDetails({ exitCode: null, bytes: 12 })).toEqual({ bytes: 12 });
	});
});
