// An ACP prompt's content blocks as the prompt loom runs.
import { describe, expect, it } from "vitest";
import { promptInput } from "../../../src/cli/acp/prompt-content.js";

describe("ACP prompt content", () => {
	it("reads mentions inline, puts embedded files first as <file> blocks, and attaches images", () => {
		const input = promptInput([
			{ type: "text", text: "Compare " },
			{ type: "resource", resource: { uri: "file:///p/a.ts", text: "const a = 1;" } },
			{ type: "text", text: " with " },
			{ type: "resource_link", uri: "file:///p/b%20c.ts", name: "b c.ts" },
			{ type: "text", text: " and this:" },
			{ type: "image", data: "aGk=", mimeType: "image/png" },
			{ type: "resource", resource: { uri: "file:///p/logo.png", blob: "aGk=", mimeType: "image/png" } },
			{ type: "resource", resource: { uri: "file:///p/data.bin", blob: "AAE=", mimeType: "application/octet-stream" } },
		]);
		expect(input.text).toBe(
			[
				'<file name="/p/a.ts">\nconst a = 1;\n</file>',
				'<file name="/p/data.bin">(binary, not included)</file>',
				"Compare /p/a.ts with /p/b c.ts and this: /p/logo.png /p/data.bin",
			].join("\n\n"),
		);
		expect(input.images).toEqual([
			{ type: "image", data: "aGk=", mimeType: "image/png" },
			{ type: "image", data: "aGk=", mimeType: "image/png" },
		]);
	});
});
