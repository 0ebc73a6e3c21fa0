// Ordered delivery of events to a handler (a listener list): one event at a time, each handler's promise
// awaited before the next event. A stream delivers tens of thousands of events a second; when the handler
// is synchronous and nothing is pending, an event is delivered at once, without a promise or a microtask.

const noop = () => {};

export class OrderedDelivery<E> {
	/** The end of the unfinished work (settles, never rejects); undefined when nothing is pending. */
	private pending: Promise<void> | undefined;
	private delivering = false;
	/** Created when an event arrives while one is being delivered synchronously: later events wait on it. */
	private gate: { promise: Promise<void>; open: () => void } | undefined;

	constructor(private readonly handle: (event: E) => Promise<void> | void) {}

	/**
	 * Delivers `event` after every event given before it. Returns undefined when it was delivered
	 * synchronously, else a promise that settles (or rejects with the handler's error) once it has been.
	 */
	deliver(event: E): Promise<void> | undefined {
		if (this.delivering) {
			// Re-entered from inside the handler: this event waits until the current one is done.
			if (!this.gate) {
				let open = noop;
				const promise = new Promise<void>((resolve) => (open = resolve));
				this.gate = { promise, open };
				this.pending = promise;
			}
			return this.enqueue(event);
		}
		if (this.pending !== undefined) return this.enqueue(event);

		this.delivering = true;
		let outcome: Promise<void> | void;
		try {
			outcome = this.handle(event);
		} catch (error) {
			outcome = Promise.reject(error);
		} finally {
			this.delivering = false;
		}
		const gate = this.gate;
		this.gate = undefined;
		if (gate) {
			// Events queued meanwhile are chained behind the gate; it opens when this one is done.
			if (outcome) outcome.then(gate.open, gate.open);
			else gate.open();
			return outcome ?? undefined;
		}
		if (!outcome) return undefined;
		this.track(outcome);
		return outcome;
	}

	private enqueue(event: E): Promise<void> {
		const previous = this.pending ?? Promise.resolve();
		const work = previous.then(() => this.handle(event));
		this.track(work);
		return work;
	}

	private track(work: Promise<void>): void {
		const settled = work.then(noop, noop);
		this.pending = settled;
		void settled.then(() => {
			if (this.pending === settled) this.pending = undefined;
		});
	}
}

/**
 * Calls each listener in order, awaiting a promise one returns before calling the next. Synchronous (and
 * returning undefined) as long as the listeners are.
 */
export function callInOrder<L>(listeners: readonly L[], call: (listener: L) => Promise<void> | void): Promise<void> | undefined {
	for (let i = 0; i < listeners.length; i++) {
		const result = call(listeners[i]!);
		if (result && typeof result.then === "function") return finishInOrder(result, listeners, i + 1, call);
	}
	return undefined;
}

async function finishInOrder<L>(first: Promise<void>, listeners: readonly L[], from: number, call: (listener: L) => Promise<void> | void): Promise<void> {
	await first;
	for (let i = from; i < listeners.length; i++) await call(listeners[i]!);
}
