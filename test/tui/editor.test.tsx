import { afterEach, describe, expect, it, vi } from "vitest";
import { mountEditor } from "./mount-editor.js";
import { waitForFrame } from "./render-helpers.js";

const ENTER = "\r";
const ESC = "\u001b";
const UP = "\u001b[A";
const DOWN = "\u001b[B";

const setup = mountEditor;

afterEach(() => {
	vi.restoreAllMocks();
});

describe("Editor", () => {
	it("sends the text on Enter and clears the editor", async () => {
		const { press, sent, frame, app } = setup();
		await press("hello world");
		await expect.poll(frame).toContain("› hello world");
		await press(ENTER);
		expect(sent).toEqual(["hello world"]);
		await expect.poll(frame).not.toContain("hello world");
		app.unmount();
	});

	it("does not send an empty or blank text", async () => {
		const { press, sent, app } = setup();
		await press(ENTER, "   ", ENTER);
		expect(sent).toEqual([]);
		app.unmount();
	});

	it("inserts a newline with Shift+Enter, Alt+Enter and Ctrl+J, and sends all lines with Enter", async () => {
		const { press, sent, frame, app } = setup();
		await press("one", "\u001b[13;2u", "two", `${ESC}\r`, "three", "\n", "four");
		await expect.poll(frame).toMatch(/› one\s*│\n│\s+two/);
		await press(ENTER);
		expect(sent).toEqual(["one\ntwo\nthree\nfour"]);
		app.unmount();
	});

	it("turns a trailing backslash into a newline instead of sending", async () => {
		const { press, sent, app } = setup();
		await press("first\\", ENTER, "second", ENTER);
		expect(sent).toEqual(["first\nsecond"]);
		app.unmount();
	});

	it("recalls sent prompts with Up and returns to the draft with Down", async () => {
		const { press, frame, app } = setup();
		await press("alpha", ENTER, "beta", ENTER, "draft");
		await press(UP);
		await expect.poll(frame).toContain("› beta");
		await press(UP);
		await expect.poll(frame).toContain("› alpha");
		await press(DOWN, DOWN);
		await expect.poll(frame).toContain("› draft");
		app.unmount();
	});

	it("keeps a large bracketed paste intact, newlines included, without sending it: one marker in the editor, sent whole", async () => {
		const { press, sent, frame, app } = setup();
		const lines = Array.from({ length: 2000 }, (_, i) => `pasted line ${i}`);
		await press("\u001b[200~", lines.join("\r"), "\u001b[201~");
		expect(sent).toEqual([]);
		await expect.poll(frame).toContain("› [pasted 2000 lines]");
		expect(frame()).not.toContain("pasted line 1999");
		await press(ENTER);
		expect(sent).toHaveLength(1);
		expect(sent[0].split("\n")).toEqual(lines);
		app.unmount();
	});

	it("keeps an unbracketed multi-line paste intact, but treats text + Enter in one chunk as typed", async () => {
		const { press, sent, app } = setup();
		await press("a\rb\rc\r");
		expect(sent).toEqual([]);
		await press(ENTER);
		expect(sent).toEqual(["a\nb\nc\n"]);
		await press("typed ahead\r");
		expect(sent).toEqual(["a\nb\nc\n", "typed ahead"]);
		app.unmount();
	});

	it("Esc while running interrupts and puts the queued texts back into the editor", async () => {
		const onInterrupt = vi.fn(() => ["queued one", "queued two"]);
		const { press, frame, app } = setup({ running: true, onInterrupt });
		await press("current");
		await press(ESC);
		await waitForFrame(app.lastFrame, (f) => f.includes("queued two"));
		expect(onInterrupt).toHaveBeenCalledTimes(1);
		expect(frame()).toMatch(/› queued one[\s│]*\n│\s+queued two\s*│\n│\s+current/);
		app.unmount();
	});

	it("Esc while idle does nothing", async () => {
		const onInterrupt = vi.fn(() => []);
		const { press, app } = setup({ onInterrupt });
		await press("x", ESC);
		expect(onInterrupt).not.toHaveBeenCalled();
		app.unmount();
	});

	it("Ctrl+C clears the editor; a second Ctrl+C within two seconds exits", async () => {
		const onExit = vi.fn();
		const { press, frame, app } = setup({ onExit });
		await press("some text", "\u0003");
		// The hint and the cleared editor come in one render.
		await expect.poll(frame).toContain("Press Ctrl+C again to exit.");
		expect(frame()).not.toContain("some text");
		expect(onExit).not.toHaveBeenCalled();
		await press("\u0003");
		expect(onExit).toHaveBeenCalledTimes(1);
		app.unmount();
	});

	it("Ctrl+C during a run interrupts it as Esc does when the editor is empty; a second within two seconds exits", async () => {
		const onExit = vi.fn();
		const onInterrupt = vi.fn(() => []);
		const { press, frame, app } = setup({ onExit, onInterrupt, running: true });
		await press("\u0003");
		expect(onInterrupt).toHaveBeenCalledTimes(1);
		await expect.poll(frame).toContain("Press Ctrl+C again to exit.");
		expect(onExit).not.toHaveBeenCalled();
		await press("\u0003");
		expect(onExit).toHaveBeenCalledTimes(1);
		expect(onInterrupt).toHaveBeenCalledTimes(1);
		app.unmount();
	});

	it("a second Ctrl+C after an interrupt clears the queued text it put back instead of exiting; one more with the editor empty exits", async () => {
		const onExit = vi.fn();
		const onInterrupt = vi.fn(() => ["queued steer"]);
		const { press, frame, app } = setup({ onExit, onInterrupt, running: true });
		await press("\u0003");
		expect(onInterrupt).toHaveBeenCalledTimes(1);
		await expect.poll(frame).toContain("› queued steer");
		expect(frame()).toContain("Press Ctrl+C again to clear the editor.");
		await press("\u0003");
		await expect.poll(frame).not.toContain("queued steer");
		expect(onExit).not.toHaveBeenCalled();
		expect(frame()).toContain("Press Ctrl+C again to exit.");
		await press("\u0003");
		expect(onExit).toHaveBeenCalledTimes(1);
		expect(onInterrupt).toHaveBeenCalledTimes(1);
		app.unmount();
	});

	it("Ctrl+C during a run with text in the editor clears the text and leaves the run alone", async () => {
		const onInterrupt = vi.fn(() => []);
		const { press, frame, app } = setup({ onInterrupt, running: true });
		await press("a thought", "\u0003");
		await expect.poll(frame).not.toContain("a thought");
		expect(onInterrupt).not.toHaveBeenCalled();
		app.unmount();
	});

	it("reads control keys typed ahead in one chunk as keys, not text (two Ctrl+C on a busy machine exit)", async () => {
		const onExit = vi.fn();
		const { press, frame, sent, app } = setup({ onExit });
		await press("abc\u0015xyz");
		await expect.poll(frame).toContain("› xyz");
		expect(frame()).not.toContain("abc");
		await press("\u007f\u007fq\r");
		expect(sent).toEqual(["xq"]);
		await press("\u0003\u0003");
		expect(onExit).toHaveBeenCalledTimes(1);
		expect(frame()).not.toContain("\\x03");
		app.unmount();
	});

	it("a second Ctrl+C after two seconds only clears again", async () => {
		const onExit = vi.fn();
		let now = 1_000_000;
		vi.spyOn(Date, "now").mockImplementation(() => now);
		const { press, frame, app } = setup({ onExit });
		await press("\u0003");
		now += 2500;
		await press("again");
		await expect.poll(frame).toContain("› again");
		await press("\u0003");
		expect(onExit).not.toHaveBeenCalled();
		await expect.poll(frame).not.toContain("› again");
		app.unmount();
	});

	it("Ctrl+D exits on an empty editor only", async () => {
		const onExit = vi.fn();
		const { press, app } = setup({ onExit });
		await press("x", "\u0004");
		expect(onExit).not.toHaveBeenCalled();
		await press("\u007f", "\u0004");
		expect(onExit).toHaveBeenCalledTimes(1);
		app.unmount();
	});

	it("puts the text back when the screen says it could not be sent", async () => {
		const { press, frame, app } = setup({ onSubmit: async () => "not sent" });
		await press("not sent", ENTER);
		await waitForFrame(app.lastFrame, (f) => f.includes("› not sent"));
		expect(frame()).toContain("› not sent");
		app.unmount();
	});

	it("Ctrl+T asks to toggle thinking", async () => {
		const onToggleThinking = vi.fn();
		const { press, app } = setup({ onToggleThinking });
		await press("\u0014");
		expect(onToggleThinking).toHaveBeenCalledTimes(1);
		app.unmount();
	});

	it("renders without taking input when there is no TTY", () => {
		const { app, frame } = setup({ inputActive: false });
		expect(frame()).toContain("Ask loom");
		app.unmount();
	});
});
