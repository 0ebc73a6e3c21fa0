// A one-line live status on stderr for text mode (only when stderr is a terminal), erased at the end.
import type { SessionEvent, ToolCallState } from "../../core/index.js";
import { isSettledCall, showControls, stripToOneLine } from "../../core/index.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export class StatusLine {
	private readonly started = Date.now();
	private activity = "waiting for the model";
	private retry: { attempt: number; maxRetries: number; until: number; reason: string } | undefined;
	private frame = 0;
	private timer: NodeJS.Timeout | undefined;
	private drawn = false;

	/** `calls`: the session's tool calls (session.toolCalls), read at each draw. */
	constructor(
		private readonly stream: NodeJS.WriteStream,
		private readonly calls: () => ReadonlyMap<string, ToolCallState>,
	) {}

	start(): void {
		this.timer = setInterval(() => this.draw(), 100);
		this.timer.unref();
		this.draw();
	}

	update(event: SessionEvent): void {
		switch (event.type) {
			case "message_update": {
				const kind = event.assistantMessageEvent.type;
				this.activity = kind.startsWith("thinking") ? "thinking" : kind.startsWith("toolcall") ? "preparing a tool call" : "writing";
				this.retry = undefined;
				break;
			}
			case "tool_execution_end":
				// Once the batch is done the results go back to the model.
				this.activity = "waiting for the model";
				break;
			case "turn_start":
				this.activity = "waiting for the model";
				break;
			case "retry_scheduled":
				this.retry = { attempt: event.attempt, maxRetries: event.maxRetries, until: Date.now() + event.delayMs, reason: event.reason };
				break;
			case "retry_finished":
				this.retry = undefined;
				break;
		}
		this.draw();
	}

	/** Erases the line; call before printing the answer or exiting. */
	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
		if (this.drawn) this.stream.write("\r\x1b[2K");
		this.drawn = false;
	}

	private draw(): void {
		if (this.timer === undefined) return;
		this.frame = (this.frame + 1) % FRAMES.length;
		const elapsed = `${((Date.now() - this.started) / 1000).toFixed(1)}s`;
		const open = [...this.calls().values()].filter((call) => !isSettledCall(call) && call.status !== "queued");
		const waiting = open.some((call) => call.status === "awaiting_approval") ? " (waiting for approval)" : "";
		const what = open.length > 0 ? `running ${showControls(summarise(open.map((call) => call.name)))}${waiting}` : this.activity;
		const retry = this.retry
			? ` · ${stripToOneLine(this.retry.reason)}; retry ${this.retry.attempt}/${this.retry.maxRetries} in ${Math.max(0, Math.ceil((this.retry.until - Date.now()) / 1000))}s`
			: "";
		const line = `${FRAMES[this.frame]} ${what} · ${elapsed}${retry}`;
		const width = this.stream.columns || 80;
		this.stream.write(`\r\x1b[2K${line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
		this.drawn = true;
	}
}

/** ["bash", "bash", "read"] → "bash ×2, read". */
function summarise(names: string[]): string {
	const counts = new Map<string, number>();
	for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
	return [...counts].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(", ");
}
