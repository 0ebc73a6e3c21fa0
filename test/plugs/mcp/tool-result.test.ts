// What the model reads of an MCP tool result: text, images, resources and links; long text cut like read's,
// the whole of it kept in a file.
import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_BYTES } from "../../../src/core/lib/text/truncate.js";
import { convertToolResult } from "../../../src/plugs/mcp/tool-result.js";

const PNG = "iVBORw0KGgo=";

describe("convertToolResult", () => {
	it("keeps text and images in order", async () => {
		const result = await convertToolResult(
			{ content: [{ type: "text", text: "Here:" }, { type: "image", data: PNG, mimeType: "image/png" }, { type: "text", text: "the logo" }] },
			"everything",
			"get-tiny-image",
		);
		expect(result).toEqual({
			content: [
				{ type: "text", text: "Here:" },
				{ type: "image", data: PNG, mimeType: "image/png" },
				{ type: "text", text: "the logo" },
			],
			details: { server: "everything", tool: "get-tiny-image" },
			isError: false,
		});
	});

	it("gives a resource's text, decodes a text blob, shows an image blob, and says what a binary blob or a link is", async () => {
		const { content } = await convertToolResult(
			{
				content: [
					{ type: "resource", resource: { uri: "demo://text/1", mimeType: "text/plain", text: "Resource 1" } },
					{ type: "resource", resource: { uri: "demo://blob/2", mimeType: "application/json", blob: Buffer.from('{"a":1}').toString("base64") } },
					{ type: "resource", resource: { uri: "demo://img", mimeType: "image/png", blob: PNG } },
					{ type: "resource", resource: { uri: "demo://zip", mimeType: "application/gzip", blob: Buffer.alloc(3000).toString("base64") } },
					{ type: "resource_link", uri: "demo://text/3", name: "Text 3", mimeType: "text/plain", description: "a text" },
					{ type: "audio", data: Buffer.alloc(10).toString("base64"), mimeType: "audio/wav" },
				],
			},
			"s",
			"t",
		);
		expect(content).toEqual([
			{ type: "text", text: "[resource <demo://text/1> (text/plain)]\nResource 1" },
			{ type: "text", text: '[resource <demo://blob/2> (application/json)]\n{"a":1}' },
			{ type: "text", text: "[resource <demo://img> (image/png)]" },
			{ type: "image", data: PNG, mimeType: "image/png" },
			{ type: "text", text: "[resource <demo://zip> (application/gzip), 2.9 KB: binary, not shown]" },
			{ type: "text", text: "[resource link: Text 3 <demo://text/3> (text/plain): a text]" },
			{ type: "text", text: "[audio (audio/wav), 10 B: not shown, loom cannot play audio]" },
		]);
	});

	it("shows structured content as JSON when there is no text, and says when there is nothing", async () => {
		expect((await convertToolResult({ content: [], structuredContent: { t: 33 } }, "s", "t")).content).toEqual([{ type: "text", text: '{\n  "t": 33\n}' }]);
		expect((await convertToolResult({}, "s", "t")).content).toEqual([{ type: "text", text: "(no output)" }]);
		expect((await convertToolResult({ content: [{ type: "text", text: "bad" }], isError: true }, "s", "t")).isError).toBe(true);
	});

	it("cuts long text to its start and keeps the whole of it in a file readable by its user only", async () => {
		const lines = Array.from({ length: 5000 }, (_, index) => `line ${index + 1}`);
		const result = await convertToolResult(
			{ content: [{ type: "text", text: lines.join("\n") }, { type: "image", data: PNG, mimeType: "image/png" }] },
			"fs server",
			"read/file",
		);
		const text = (result.content[0] as { text: string }).text;
		expect(text.startsWith("line 1\nline 2\n")).toBe(true);
		expect(text).not.toContain("line 2001\n");
		expect(text).toMatch(/\n\n\[Output cut: showing the first 2000 lines \(.+\) of 5000 lines \(.+\)\. Full output: (.+)\]$/);
		expect(result.content[1]).toEqual({ type: "image", data: PNG, mimeType: "image/png" });
		expect(result.details.truncated).toBe(true);
		const file = result.details.fullOutputPath!;
		expect(text).toContain(file);
		expect(file).toMatch(/mcp-fs_server-read_file-[0-9a-f]{8}\.txt$/);
		expect(readFileSync(file, "utf8")).toBe(lines.join("\n"));
		expect(statSync(file).mode & 0o777).toBe(0o600);
	});

	it("cuts by bytes too: one line over the limit is not shown, the file has it", async () => {
		const result = await convertToolResult({ content: [{ type: "text", text: "x".repeat(DEFAULT_MAX_BYTES + 1) }] }, "s", "t");
		const text = (result.content[0] as { text: string }).text;
		expect(text).toMatch(/^\[Output cut: showing nothing \(its first line alone is over 50\.0 KB\) of 1 line /);
		expect(readFileSync(result.details.fullOutputPath!, "utf8")).toHaveLength(DEFAULT_MAX_BYTES + 1);
	});
});
