// The one reading of a message's content as text, shared by the screen, the modes, compaction, session lists and
// MCP results: strings as they are, text blocks joined, images only when told how they read, junk ignored.
import { describe, expect, it } from "vitest";
import { answerText, emptyAssistantMessage, textFromContent } from "../../../src/core/ai/messages.js";

const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

describe("textFromContent", () => {
	it("returns string content as it is", () => {
		expect(textFromContent("hello\nworld")).toBe("hello\nworld");
	});

	it("joins the text blocks with newlines, keeping empty ones, and leaves images and other blocks out", () => {
		const content = [{ type: "text", text: "a" }, image, { type: "thinking", thinking: "hmm" }, { type: "text", text: "" }, { type: "text", text: "b" }];
		expect(textFromContent(content)).toBe("a\n\nb");
	});

	it("joins with the separator given", () => {
		expect(textFromContent([{ type: "text", text: "a" }, { type: "text", text: "b" }], { separator: "" })).toBe("ab");
		expect(textFromContent([{ type: "text", text: "a" }, { type: "text", text: "b" }], { separator: " " })).toBe("a b");
	});

	it("shows each image as the caller says, in its place", () => {
		const content = [{ type: "text", text: "look" }, image, { type: "text", text: "there" }];
		expect(textFromContent(content, { image: (block) => `[image ${block.mimeType}]` })).toBe("look\n[image image/png]\nthere");
	});

	it("leaves out blocks that read as nothing when told to (an image-only prompt's empty text)", () => {
		const content = [{ type: "text", text: "" }, image, { type: "text", text: "b" }];
		expect(textFromContent(content, { image: () => "[image]", dropEmpty: true })).toBe("[image]\nb");
		expect(textFromContent(content, { image: () => "[image]" })).toBe("\n[image]\nb");
	});

	it("reads nothing from content that is not a string or a list, nor from malformed blocks", () => {
		expect(textFromContent(undefined)).toBe("");
		expect(textFromContent({ type: "text", text: "x" })).toBe("");
		expect(textFromContent([null, 3, "loose", { type: "text" }, { type: "text", text: 7 }, { type: "text", text: "kept" }])).toBe("kept");
	});
});

describe("answerText", () => {
	it("is an assistant message's text blocks joined as streamed, without its thinking or tool calls", () => {
		const message = {
			...emptyAssistantMessage({ api: "openai-completions", provider: "openai", id: "gpt" }),
			content: [
				{ type: "thinking" as const, thinking: "plan" },
				{ type: "text" as const, text: "Hello, " },
				{ type: "toolCall" as const, id: "c1", name: "read", arguments: {} },
				{ type: "text" as const, text: "world" },
			],
		};
		expect(answerText(message)).toBe("Hello, world");
	});
});
