// A client of `loom --mode rpc` for tests: writes command lines, collects every line loom writes, and waits
// for the response to a command or for a line that matches.
import { waitFor } from "../../support/wait-for.js";

export type Line = Record<string, any>;

export class RpcTestClient {
	/** Every line loom wrote, parsed, in order. */
	readonly lines: Line[] = [];
	/** Lines that were not JSON (there must be none). */
	readonly badLines: string[] = [];
	private buffer = "";
	private nextId = 1;

	constructor(
		private readonly stdin: NodeJS.WritableStream,
		stdout: NodeJS.ReadableStream,
	) {
		stdout.setEncoding("utf8");
		stdout.on("data", (chunk: string) => {
			this.buffer += chunk;
			let end = this.buffer.indexOf("\n");
			while (end !== -1) {
				const line = this.buffer.slice(0, end);
				this.buffer = this.buffer.slice(end + 1);
				try {
					this.lines.push(JSON.parse(line));
				} catch {
					this.badLines.push(line);
				}
				end = this.buffer.indexOf("\n");
			}
		});
	}

	/** Writes a raw line (e.g. a malformed one). */
	writeLine(text: string): void {
		this.stdin.write(`${text}\n`);
	}

	/** Sends a command without an id. */
	send(command: Line): void {
		this.writeLine(JSON.stringify(command));
	}

	/** Sends a command with a fresh id and resolves with its response. */
	async request(command: Line, timeoutMs?: number): Promise<Line> {
		const id = `req-${this.nextId++}`;
		this.send({ ...command, id });
		return this.waitForLine((line) => line.type === "response" && line.id === id, `the response to ${command.type} (${id})`, timeoutMs);
	}

	/** The first line (from `from` on) that matches. */
	async waitForLine(match: (line: Line) => boolean, what: string, timeoutMs = 10_000, from = 0): Promise<Line> {
		return waitFor(
			() => this.lines.slice(from).find(match),
			(line) => line !== undefined,
			{ timeoutMs, what, show: () => `Lines so far:\n${this.outline().join("\n")}` },
		) as Promise<Line>;
	}

	/** Resolves once loom has written `type` (from line `from` on). */
	waitForEvent(type: string, from = 0, timeoutMs?: number): Promise<Line> {
		return this.waitForLine((line) => line.type === type, `a ${type} line`, timeoutMs, from);
	}

	/** Types of the lines so far (message_update collapsed), for failure messages and order checks. */
	outline(from = 0): string[] {
		const out: string[] = [];
		for (const line of this.lines.slice(from)) {
			const label = line.type === "response" ? `response:${line.command}:${line.success}` : line.type === "extension_ui_request" ? `ui:${line.method}` : line.type;
			if (label === "message_update" && out.at(-1) === label) continue;
			out.push(label);
		}
		return out;
	}

	/** Ends stdin: loom aborts what runs and exits. */
	end(): void {
		this.stdin.end();
	}
}
