import { describe, expect, it } from "vitest";
import { DialogQueue } from "../../../src/tui/dialogs/dialog-queue.js";

const choices = [
	{ label: "one", value: 1 },
	{ label: "two", value: 2 },
];

function queue(interactive = true) {
	const notices: string[] = [];
	const ui = new DialogQueue((level, text) => notices.push(`${level}: ${text}`), interactive);
	let changes = 0;
	ui.subscribe(() => changes++);
	return { ui, notices, changes: () => changes };
}

describe("DialogQueue (the screen's SessionUi)", () => {
	it("shows one dialog at a time; the others wait, in the order they were asked", async () => {
		const { ui } = queue();
		const first = ui.select({ title: "first" }, choices);
		const second = ui.confirm("second");
		const third = ui.input("third");
		expect(ui.current()).toMatchObject({ kind: "select", options: { title: "first" } });

		const open = ui.current();
		if (open?.kind !== "select") throw new Error("expected the picker");
		open.finish(2);
		expect(await first).toBe(2);
		expect(ui.current()).toMatchObject({ kind: "confirm", title: "second" });

		const confirm = ui.current();
		if (confirm?.kind !== "confirm") throw new Error("expected the confirmation");
		confirm.finish(true);
		expect(await second).toBe(true);

		const input = ui.current();
		if (input?.kind !== "input") throw new Error("expected the input");
		input.finish("typed");
		expect(await third).toBe("typed");
		expect(ui.current()).toBeUndefined();
	});

	it("tells its subscribers when the current dialog changes, and only then", async () => {
		const { ui, changes } = queue();
		void ui.select({ title: "a" }, choices);
		expect(changes()).toBe(1);
		void ui.select({ title: "b" }, choices);
		expect(changes()).toBe(1);
		ui.current()?.finish(undefined as never);
		expect(changes()).toBe(2);
		expect(ui.current()).toMatchObject({ options: { title: "b" } });
	});

	it("closes an open dialog with no answer when its signal aborts", async () => {
		const { ui } = queue();
		const controller = new AbortController();
		const picked = ui.select({ title: "a", signal: controller.signal }, choices);
		const confirmed = ui.confirm("b", undefined, new AbortController().signal);
		controller.abort();
		expect(await picked).toBeUndefined();
		expect(ui.current()).toMatchObject({ kind: "confirm", title: "b" });
		void confirmed;
	});

	it("removes a waiting dialog whose signal aborts before its turn, and answers it with nothing", async () => {
		const { ui, changes } = queue();
		void ui.select({ title: "open" }, choices);
		const controller = new AbortController();
		const waiting = ui.confirm("waiting", undefined, controller.signal);
		const input = ui.input("later", { signal: controller.signal });
		controller.abort();
		expect(await waiting).toBe(false);
		expect(await input).toBeUndefined();
		expect(changes()).toBe(1);
		ui.current()?.finish(undefined as never);
		expect(ui.current()).toBeUndefined();
	});

	it("answers at once with nothing when the signal is already aborted", async () => {
		const { ui } = queue();
		const signal = AbortSignal.abort();
		expect(await ui.select({ title: "a", signal }, choices)).toBeUndefined();
		expect(await ui.confirm("b", undefined, signal)).toBe(false);
		expect(await ui.input("c", { signal })).toBeUndefined();
		expect(ui.current()).toBeUndefined();
	});

	it("answers nothing when nobody can type (no terminal), and still passes notices on", async () => {
		const { ui, notices } = queue(false);
		expect(ui.interactive).toBe(false);
		expect(await ui.select({ title: "a" }, choices)).toBeUndefined();
		expect(await ui.confirm("b")).toBe(false);
		expect(await ui.input("c")).toBeUndefined();
		ui.notify("warning", "careful");
		expect(notices).toEqual(["warning: careful"]);
	});

	it("closeAll answers every dialog, open or waiting, with nothing", async () => {
		const { ui } = queue();
		const answers = Promise.all([ui.select({ title: "a" }, choices), ui.confirm("b"), ui.input("c")]);
		ui.closeAll();
		expect(await answers).toEqual([undefined, false, undefined]);
		expect(ui.current()).toBeUndefined();
	});

	it("a dialog answered twice keeps its first answer", async () => {
		const { ui } = queue();
		const picked = ui.select({ title: "a" }, choices);
		const open = ui.current();
		open?.finish(1 as never);
		open?.finish(2 as never);
		expect(await picked).toBe(1);
	});
});
