// An async-iterable push queue: producers push events, one consumer iterates, `result()` resolves at the end.
export class EventStream<T, R = T> implements AsyncIterable<T> {
	// A head index instead of shift(): shift is O(n) when a slow consumer lets the queue grow.
	private queue: T[] = [];
	private head = 0;
	private waiting: ((value: IteratorResult<T>) => void)[] = [];
	/** A batch consumer waiting in whenReady(). */
	private readyWaiter: (() => void) | undefined;
	/** Set once someone takes events (iterating, takeQueued, whenReady): a caller awaiting only result() never does. */
	private consuming = false;
	/** A producer waiting in behind() for the consumer to take events. */
	private takenWaiter: { promise: Promise<void>; resolve: () => void } | undefined;
	private done = false;
	private resolveResult!: (result: R) => void;
	private readonly resultPromise: Promise<R>;

	constructor(
		private readonly isComplete: (event: T) => boolean,
		private readonly extractResult: (event: T) => R,
	) {
		this.resultPromise = new Promise((resolve) => (this.resolveResult = resolve));
	}

	push(event: T): void {
		if (this.done) return;
		if (this.isComplete(event)) {
			this.done = true;
			this.resolveResult(this.extractResult(event));
		}
		const waiter = this.waiting.shift();
		if (waiter) waiter({ value: event, done: false });
		else this.queue.push(event);
		if (this.done) {
			this.flushWaiters();
			this.releaseProducer();
		}
		this.wakeReady();
	}

	/** Ends the stream; `result` is used when no completing event was pushed. */
	end(result?: R): void {
		if (!this.done) {
			this.done = true;
			if (result !== undefined) this.resolveResult(result);
		}
		this.flushWaiters();
		this.releaseProducer();
		this.wakeReady();
	}

	result(): Promise<R> {
		return this.resultPromise;
	}

	/**
	 * For a producer that can wait (one reading a network stream): undefined while the consumer keeps up, else a
	 * promise that resolves once it takes events again or the stream ends. Only a consumer that takes events holds
	 * a producer back; `limit` is how many untaken events count as behind.
	 */
	behind(limit: number): Promise<void> | undefined {
		if (!this.consuming || this.done || this.queue.length - this.head < limit) return undefined;
		if (!this.takenWaiter) {
			let resolve = () => {};
			const promise = new Promise<void>((settle) => (resolve = settle));
			this.takenWaiter = { promise, resolve };
		}
		return this.takenWaiter.promise;
	}

	/**
	 * For a consumer that handles events in batches instead of iterating (the agent loop: one await per
	 * network read rather than per event). Removes and returns every queued event. Not to be mixed with
	 * iteration.
	 */
	takeQueued(): T[] {
		const events = this.head === 0 ? this.queue : this.queue.slice(this.head);
		this.queue = [];
		this.head = 0;
		this.taken();
		return events;
	}

	/** True once the stream has ended and every event was taken. */
	get drained(): boolean {
		return this.done && this.head >= this.queue.length;
	}

	/** Resolves when an event is queued or the stream ends (at once if either is already so). */
	whenReady(): Promise<void> {
		this.consuming = true;
		if (this.done || this.head < this.queue.length) return Promise.resolve();
		return new Promise((resolve) => {
			this.readyWaiter = resolve;
		});
	}

	/** A consumer took events: it reads, and a producer it held back goes on. */
	private taken(): void {
		this.consuming = true;
		this.releaseProducer();
	}

	private releaseProducer(): void {
		const waiter = this.takenWaiter;
		if (!waiter) return;
		this.takenWaiter = undefined;
		waiter.resolve();
	}

	private wakeReady(): void {
		const waiter = this.readyWaiter;
		if (!waiter) return;
		this.readyWaiter = undefined;
		waiter();
	}

	private flushWaiters(): void {
		if (this.head < this.queue.length) return;
		for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
	}

	async *[Symbol.asyncIterator](): AsyncIterator<T> {
		this.consuming = true;
		while (true) {
			if (this.head < this.queue.length) {
				const event = this.queue[this.head++]!;
				if (this.head === this.queue.length) {
					this.queue = [];
					this.head = 0;
				}
				this.taken();
				yield event;
			} else if (this.done) {
				return;
			} else {
				const next = await new Promise<IteratorResult<T>>((resolve) => this.waiting.push(resolve));
				if (next.done) return;
				yield next.value;
			}
		}
	}
}
