import { Text, render } from "ink";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useWhenIdle } from "../../src/tui/hooks/use-when-idle.js";
import { sleep } from "../support/wait-for.js";
import { TestStdin, TestStdout } from "./terminal-streams.js";

function Idle({ task, busy }: { task: () => void; busy: boolean }) {
	useWhenIdle(task, { busy, quietMs: 80, inputActive: true });
	return <Text>screen</Text>;
}

const unmounts: Array<() => void> = [];
afterEach(() => {
	for (const unmount of unmounts.splice(0)) unmount();
});

function mount(task: () => void, busy: boolean) {
	const stdin = new TestStdin();
	const options = { stdin: stdin as unknown as NodeJS.ReadStream, stdout: new TestStdout() as unknown as NodeJS.WriteStream, debug: true, exitOnCtrlC: false, patchConsole: false };
	const instance = render(<Idle task={task} busy={busy} />, options);
	unmounts.push(() => instance.unmount());
	return { stdin, rerender: (next: boolean) => instance.rerender(<Idle task={task} busy={next} />) };
}

describe("useWhenIdle", () => {
	it("runs the task once the screen has been quiet long enough, and only once", async () => {
		const task = vi.fn();
		mount(task, false);
		await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1));
		await sleep(200);
		expect(task).toHaveBeenCalledTimes(1);
	});

	it("waits while keys are typed and while a run goes on", async () => {
		const task = vi.fn();
		const screen = mount(task, false);
		for (let i = 0; i < 5; i++) {
			screen.stdin.write("a");
			await sleep(40);
		}
		expect(task).not.toHaveBeenCalled();
		screen.rerender(true);
		await sleep(200);
		expect(task).not.toHaveBeenCalled();
		screen.rerender(false);
		await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1));
	});
});
