import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { UiChoice } from "../../../src/core/session/session-ui.js";
import { DialogHost } from "../../../src/tui/components/DialogHost.js";
import { DialogQueue } from "../../../src/tui/dialogs/dialog-queue.js";
import { plain, typeKeys, waitForFrame } from "../render-helpers.js";

const ENTER = "\r";
const ESC = "\u001b";
const UP = "\u001b[A";
const DOWN = "\u001b[B";
const LEFT = "\u001b[D";
const PAGE_DOWN = "\u001b[6~";
const HOME = "\u001b[H";
const END = "\u001b[F";
const BACKSPACE = "\u007f";

const unmounts: Array<() => void> = [];
afterEach(() => {
	for (const unmount of unmounts.splice(0)) unmount();
});

/** Shows the queue's current dialog the way the screen does, re-rendering when it changes. */
function host(options: { width?: number; maxRows?: number } = {}) {
	const ui = new DialogQueue(() => {}, true);
	const heights: number[] = [];
	const element = () => {
		const dialog = ui.current();
		return dialog ? <DialogHost dialog={dialog} width={options.width ?? 60} maxRows={options.maxRows ?? 20} active onHeightChange={(rows) => heights.push(rows)} /> : <></>;
	};
	const app = render(element());
	unmounts.push(app.unmount);
	ui.subscribe(() => app.rerender(element()));
	const frame = () => plain(app.lastFrame());
	return {
		ui,
		heights,
		frame,
		press: (...keys: string[]) => typeKeys(app.stdin, ...keys),
		until: (check: (frame: string) => boolean) => waitForFrame(app.lastFrame, check),
	};
}

const fruits: UiChoice<string>[] = ["apple", "banana", "cherry", "damson", "elderberry"].map((name) => ({ label: name, value: name.toUpperCase() }));

function many(count: number): UiChoice<number>[] {
	return Array.from({ length: count }, (_, index) => ({ label: `item ${index + 1}`, value: index + 1, description: `number ${index + 1}` }));
}

describe("picker dialog", () => {
	it("shows the title and the choices, moves with the arrows and chooses with Enter", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick a fruit" }, fruits);
		let frame = await screen.until((f) => f.includes("Pick a fruit"));
		expect(frame).toContain("› [a] apple");
		await screen.press(DOWN, DOWN);
		frame = await screen.until((f) => f.includes("› [c] cherry"));
		expect(frame).not.toContain("› [a] apple");
		await screen.press(UP, ENTER);
		expect(await answer).toBe("BANANA");
		await screen.until((f) => !f.includes("Pick a fruit"));
	});

	it("answers nothing on Esc", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick" }, fruits);
		await screen.until((f) => f.includes("› [a] apple"));
		await screen.press(ESC);
		expect(await answer).toBeUndefined();
	});

	it("starts on initialIndex and wraps around from the top with Up", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick", initialIndex: 0 }, fruits);
		await screen.until((f) => f.includes("› [a] apple"));
		await screen.press(UP);
		await screen.until((f) => f.includes("› [e] elderberry"));
		await screen.press(ENTER);
		expect(await answer).toBe("ELDERBERRY");
		const second = screen.ui.select({ title: "Again", initialIndex: 3 }, fruits);
		await screen.until((f) => f.includes("› [d] damson"));
		await screen.press(ENTER);
		expect(await second).toBe("DAMSON");
	});

	it("scrolls a long list: ten rows at most, PageDown, End and Home, with the position in the hint", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick a number" }, many(50));
		let frame = await screen.until((f) => f.includes("› item 1 "));
		expect(frame).toContain("item 10");
		expect(frame).not.toContain("item 11");
		expect(frame).toContain("1/50");
		await screen.press(PAGE_DOWN);
		frame = await screen.until((f) => f.includes("› item 11"));
		expect(frame).toContain("11/50");
		expect(frame).not.toMatch(/item 1 /);
		await screen.press(END);
		frame = await screen.until((f) => f.includes("› item 50"));
		expect(frame).toContain("item 41");
		await screen.press(HOME);
		await screen.until((f) => f.includes("› item 1 "));
		await screen.press(DOWN, ENTER);
		expect(await answer).toBe(2);
	});

	it("filters as you type when asked, matching fuzzily; Backspace widens again; Enter takes the best match", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick", filter: true }, fruits);
		await screen.until((f) => f.includes("type to narrow"));
		await screen.press("e", "r", "y");
		let frame = await screen.until((f) => f.includes("filter: ery"));
		expect(frame).toContain("› cherry");
		expect(frame).toContain("elderberry");
		expect(frame).not.toContain("apple");
		expect(frame).not.toContain("banana");
		await screen.press(DOWN, ENTER);
		expect(await answer).toBe("ELDERBERRY");

		const again = screen.ui.select({ title: "Pick", filter: true }, fruits);
		await screen.until((f) => f.includes("type to narrow"));
		await screen.press("x", "z");
		frame = await screen.until((f) => f.includes("no match"));
		await screen.press(BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE);
		frame = await screen.until((f) => f.includes("type to narrow"));
		expect(frame).toContain("apple");
		await screen.press("dmsn", ENTER);
		expect(await again).toBe("DAMSON");
	});

	it("takes a filter typed ahead with its Enter in one chunk as the filter, then the choice", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick", filter: true }, fruits);
		await screen.until((f) => f.includes("type to narrow"));
		await screen.press("dmsn\r");
		expect(await answer).toBe("DAMSON");
	});

	it("keeps lines that arrive in one chunk without an Enter at their end as the filter (a paste without brackets)", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick", filter: true }, fruits);
		await screen.until((f) => f.includes("type to narrow"));
		await screen.press("cher\rry\r");
		await screen.until((f) => f.includes("filter: cher ry"));
		await screen.press(ENTER);
		expect(await answer).toBe("CHERRY");
	});

	it("does not filter unless asked: a letter that is no choice's key does nothing", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick" }, fruits);
		await screen.until((f) => f.includes("› [a] apple"));
		await screen.press("x", DOWN, ENTER);
		expect(await answer).toBe("BANANA");
	});

	it("answers a yes/no question with one key, shown beside each choice and in the hint", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Trust this project folder?" }, [
			{ label: "Yes, trust this folder and run its code", value: true },
			{ label: "No, do not run it", value: false },
		]);
		const frame = await screen.until((f) => f.includes("Trust this project folder?"));
		expect(frame).toContain("› [y] Yes, trust this folder and run its code");
		expect(frame).toContain("  [n] No, do not run it");
		expect(frame).toContain("y/n or ↑↓ enter");
		await screen.press("n");
		expect(await answer).toBe(false);
	});

	it("numbers the choices when two begin with the same letter, and takes the number", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Allow bash to run this command?" }, [
			{ label: "Allow once", value: "once" },
			{ label: "Allow for this session", value: "session" },
			{ label: "Deny, and say why (optional)", value: "deny" },
		]);
		const frame = await screen.until((f) => f.includes("Allow bash"));
		expect(frame).toContain("[2] Allow for this session");
		await screen.press("2");
		expect(await answer).toBe("session");
	});

	it("keeps letters for the filter in a picker that filters: no keys are shown", async () => {
		const screen = host();
		const answer = screen.ui.select({ title: "Pick", filter: true }, fruits);
		const frame = await screen.until((f) => f.includes("› apple"));
		expect(frame).not.toContain("[a]");
		await screen.press("c");
		await screen.until((f) => f.includes("filter: c"));
		await screen.press(ENTER);
		expect(await answer).toBe("CHERRY");
	});

	it("shows a body above the choices, and cuts a long one so the dialog fits its rows", async () => {
		const screen = host({ maxRows: 16 });
		const body = Array.from({ length: 40 }, (_, index) => ({ text: `+ added line ${index + 1}`, style: "added" as const }));
		const answer = screen.ui.select({ title: "Apply this edit?", body }, [
			{ label: "Allow", value: "allow" },
			{ label: "Deny", value: "deny" },
		]);
		const frame = await screen.until((f) => f.includes("Apply this edit?"));
		expect(frame).toContain("+ added line 1");
		expect(frame).toMatch(/… \d+ more lines/);
		expect(frame).not.toContain("+ added line 40");
		expect(frame.indexOf("+ added line 1")).toBeLessThan(frame.indexOf("Allow"));
		expect(frame.split("\n").length).toBeLessThanOrEqual(16);
		expect(screen.heights.at(-1)).toBeLessThanOrEqual(16);
		await screen.press(DOWN, ENTER);
		expect(await answer).toBe("deny");
	});

	it("cuts a long label rather than its description, which stays whole while the label keeps half the row", async () => {
		const screen = host({ width: 50 });
		void screen.ui.select({ title: "Pick", filter: true }, [
			{ label: "a label far too long to share its row with anything else at all", value: 1, description: "3d ago · 9 messages" },
			{ label: "short", value: 2, description: "2025-11-03 · 4 messages" },
			{ label: "no description, long enough to be cut at the end of the row", value: 3 },
		]);
		const rows = (await screen.until((f) => f.includes("Pick"))).split("\n");
		expect(rows.find((row) => row.includes("a label far"))).toMatch(/a label far too long.*… +3d ago · 9 messages│$/);
		expect(rows.find((row) => row.includes("short"))).toMatch(/short +2025-11-03 · 4 messages│$/);
		expect(rows.find((row) => row.includes("no description"))).toMatch(/no description, long enough to be cut at .*…│$/);
		// Half the row at least is the label's: a description too long for the rest is cut instead.
		const narrow = host({ width: 30 });
		void narrow.ui.select({ title: "Pick", filter: true }, [{ label: "a label of some length", value: 1, description: "a description longer than the row" }]);
		expect((await narrow.until((f) => f.includes("Pick"))).split("\n").find((row) => row.includes("a label"))).toMatch(/› a label of \S*… {2}a desc\S*…│$/);
	});

	it("shortens the keys' hint to fit a narrow dialog instead of cutting it", async () => {
		const screen = host({ width: 36 });
		void screen.ui.select({ title: "Pick a number", filter: true }, many(50));
		const frame = await screen.until((f) => f.includes("Pick a number"));
		const hint = frame.split("\n").at(-1)!;
		expect(hint).toContain("1/50");
		expect(hint).toContain("esc");
		expect(hint).not.toContain("…");
		const confirm = host({ width: 30 });
		void confirm.ui.confirm("Sure?");
		const confirmHint = (await confirm.until((f) => f.includes("Sure?"))).split("\n").at(-1)!;
		expect(confirmHint).toMatch(/y\/n/);
		expect(confirmHint).not.toContain("…");
	});

	it("draws labels, descriptions and the title without their escape sequences", async () => {
		const screen = host();
		void screen.ui.select({ title: "Pick \u001b]0;pwned\u0007now" }, [{ label: "a\u001b[31mred", value: 1, description: "d\u001b[2Jesc" }]);
		const raw = await waitForFrame(() => screen.frame(), (f) => f.includes("Pick"));
		expect(raw).not.toContain("\u001b");
		expect(raw).toContain("Pick now");
		expect(raw).toContain("ared");
		expect(raw).toContain("desc");
	});
});

describe("confirm dialog", () => {
	it("answers yes on y and no on n", async () => {
		const screen = host();
		const yes = screen.ui.confirm("Trust this project?", "It has extensions in .loom/extensions.");
		let frame = await screen.until((f) => f.includes("Trust this project?"));
		expect(frame).toContain("It has extensions in .loom/extensions.");
		expect(frame).toContain("Yes");
		await screen.press("y");
		expect(await yes).toBe(true);
		const no = screen.ui.confirm("Again?");
		frame = await screen.until((f) => f.includes("Again?"));
		await screen.press("n");
		expect(await no).toBe(false);
	});

	it("highlights No first: Enter alone says no; an arrow then Enter says yes; Esc says no", async () => {
		const screen = host();
		const first = screen.ui.confirm("First?");
		await screen.until((f) => f.includes("First?"));
		await screen.press(ENTER);
		expect(await first).toBe(false);
		const second = screen.ui.confirm("Second?");
		await screen.until((f) => f.includes("Second?"));
		await screen.press(LEFT, ENTER);
		expect(await second).toBe(true);
		const third = screen.ui.confirm("Third?");
		await screen.until((f) => f.includes("Third?"));
		await screen.press(ESC);
		expect(await third).toBe(false);
	});

	it("cuts a long message to fit its rows", async () => {
		const screen = host({ maxRows: 10 });
		void screen.ui.confirm("Run it?", Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n"));
		const frame = await screen.until((f) => f.includes("Run it?"));
		expect(frame).toMatch(/… \d+ more lines/);
		expect(frame.split("\n").length).toBeLessThanOrEqual(10);
	});
});

describe("input dialog", () => {
	it("takes a line of text: typing, Backspace, arrows and Enter", async () => {
		const screen = host();
		const answer = screen.ui.input("Name the session", { placeholder: "a short name" });
		let frame = await screen.until((f) => f.includes("Name the session"));
		expect(frame).toContain("a short name");
		await screen.press("hellp", BACKSPACE, "o", LEFT, LEFT, "X");
		frame = await screen.until((f) => f.includes("helXlo"));
		await screen.press(ENTER);
		expect(await answer).toBe("helXlo");
	});

	it("starts from the initial text, answers nothing on Esc, and takes a paste as one line", async () => {
		const screen = host();
		const dismissed = screen.ui.input("Edit", { initial: "draft" });
		await screen.until((f) => f.includes("draft"));
		await screen.press(ESC);
		expect(await dismissed).toBeUndefined();
		const pasted = screen.ui.input("Paste here");
		await screen.until((f) => f.includes("Paste here"));
		await screen.press("\u001b[200~", "one\rtwo", "\u001b[201~", ENTER);
		expect(await pasted).toBe("one two");
	});

	it("takes text typed ahead with its Enter in one chunk as typed, then accepts it", async () => {
		const screen = host();
		const answer = screen.ui.input("Why not?");
		await screen.until((f) => f.includes("Why not?"));
		await screen.press("luna\r");
		expect(await answer).toBe("luna");
	});
});

describe("dialog queue on screen", () => {
	it("shows the dialogs one after another, in the order asked", async () => {
		const screen = host();
		const first = screen.ui.confirm("First question");
		const second = screen.ui.select({ title: "Second question" }, fruits);
		let frame = await screen.until((f) => f.includes("First question"));
		expect(frame).not.toContain("Second question");
		await screen.press("y");
		frame = await screen.until((f) => f.includes("Second question"));
		await screen.press(ENTER);
		expect(await Promise.all([first, second])).toEqual([true, "APPLE"]);
	});

	it("closes the open dialog when its signal aborts, and shows the next", async () => {
		const screen = host();
		const controller = new AbortController();
		const first = screen.ui.select({ title: "Aborted soon", signal: controller.signal }, fruits);
		void screen.ui.confirm("Next one");
		await screen.until((f) => f.includes("Aborted soon"));
		controller.abort();
		expect(await first).toBeUndefined();
		await screen.until((f) => f.includes("Next one") && !f.includes("Aborted soon"));
	});
});
