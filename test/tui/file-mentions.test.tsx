import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";
import { FakeSession } from "./fake-session.js";
import { mount } from "./mount-app.js";

const ENTER = "\r";
/** The smallest PNG: its signature is what marks it as an image. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4da0000000049454e44ae426082", "hex");

function inProject(): FakeSession {
	const session = new FakeSession();
	session.cwd = tempDir("loom-mentions-");
	writeFileSync(join(session.cwd, "notes.txt"), "alpha\nbeta\n");
	mkdirSync(join(session.cwd, "dir with space"));
	writeFileSync(join(session.cwd, "dir with space", "file name.txt"), "spaced out\n");
	writeFileSync(join(session.cwd, "shot.png"), PNG);
	writeFileSync(join(session.cwd, "blob.bin"), Buffer.from([1, 2, 0, 3]));
	return session;
}

async function ready(session: FakeSession) {
	const screen = mount(session);
	await screen.until((f) => f.includes("Ask loom"));
	return screen;
}

describe("@file typed in the screen", () => {
	it("inlines the file ahead of the prompt, as loom -p @file does, and shows what was attached, not its text", async () => {
		const session = inProject();
		const screen = await ready(session);
		await screen.type("look at @notes.txt and @\"dir with space/file name.txt\", please", ENTER);
		const frame = await screen.until((f) => f.includes("ready") && session.calls.prompts.length === 1 && f.includes("attached"));
		expect(session.calls.prompts[0]).toBe(
			`<file name="${join(session.cwd, "notes.txt")}">\nalpha\nbeta\n</file>\n\n<file name="${join(session.cwd, "dir with space", "file name.txt")}">\nspaced out\n</file>\n\nlook at @notes.txt and @"dir with space/file name.txt", please`,
		);
		expect(session.promptOptions[0]).toEqual({ typed: 'look at @notes.txt and @"dir with space/file name.txt", please' });
		expect(frame).toContain('› look at @notes.txt and @"dir with space/file name.txt", please');
		expect(frame).toContain("attached notes.txt (10 B)");
		expect(frame).toContain("attached dir with space/file name.txt (10 B)");
		expect(frame).not.toContain("› <file");
	});

	it("leaves a mention that names no file as text (an e-mail address, a handle, a folder)", async () => {
		const session = inProject();
		const screen = await ready(session);
		await screen.type("ask @someone at me@example.com about @dir", ENTER);
		await screen.until(() => session.calls.prompts.length === 1);
		expect(session.calls.prompts[0]).toBe("ask @someone at me@example.com about @dir");
		expect(session.promptOptions[0]).toEqual({});
		await screen.type("and @missing.txt", ENTER);
		await screen.until(() => session.calls.prompts.length === 2);
		expect(session.calls.prompts[1]).toBe("and @missing.txt");
	});

	it("attaches an image where the model takes images; elsewhere says so and sends nothing", async () => {
		const session = inProject();
		session.model = { id: "text-only", provider: "test", contextWindow: 100_000, input: ["text"] };
		const screen = await ready(session);
		await screen.type("what is in @shot.png", ENTER);
		let frame = await screen.until((f) => f.includes("takes text only") && f.includes("│› what is in @shot.png"));
		expect(frame).toContain("@shot.png is an image, and test/text-only takes text only");
		expect(frame).toContain("› what is in @shot.png");
		expect(session.calls.prompts).toEqual([]);

		session.model = { id: "seeing", provider: "test", contextWindow: 100_000, input: ["text", "image"] };
		await screen.type(ENTER);
		frame = await screen.until((f) => f.includes("attached shot.png (image,"));
		expect(session.calls.prompts[0]).toBe(`<file name="${join(session.cwd, "shot.png")}">(image attached)</file>\n\nwhat is in @shot.png`);
		expect(session.promptOptions[0]?.images).toEqual([{ type: "image", mimeType: "image/png", data: PNG.toString("base64") }]);
	});

	it("refuses a file that cannot go along, saying why, and keeps the prompt in the editor", async () => {
		const session = inProject();
		const screen = await ready(session);
		await screen.type("read @blob.bin", ENTER);
		const frame = await screen.until((f) => f.includes("binary file") && f.includes("│› read @blob.bin"));
		expect(frame).toContain("› read @blob.bin");
		expect(session.calls.prompts).toEqual([]);
	});
});
