// What a prompt waits for before its run starts (tools still arriving: MCP servers starting), so the run starts
// with them. Each gate bounds its own wait; an abort ends the wait at once.

/** A wait before a prompt's run; it ends early when `signal` aborts. */
export type RunGate = (signal: AbortSignal) => Promise<void>;

export class RunGates {
	private readonly gates = new Set<RunGate>();
	/** Ends the wait of the prompt waiting at the gates now. */
	private waiting: AbortController | undefined;

	/** Returns the function that removes the gate. */
	add(gate: RunGate): () => void {
		this.gates.add(gate);
		return () => this.gates.delete(gate);
	}

	/** Waits at every gate together; a gate that fails is passed. */
	async pass(): Promise<void> {
		if (this.gates.size === 0) return;
		const wait = new AbortController();
		this.waiting = wait;
		try {
			await Promise.all([...this.gates].map((gate) => gate(wait.signal).catch(() => {})));
		} finally {
			if (this.waiting === wait) this.waiting = undefined;
		}
	}

	/** Ends the current wait (the prompt waiting was stopped). */
	abort(): void {
		this.waiting?.abort();
	}
}
