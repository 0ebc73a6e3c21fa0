// Who hears a session: its listeners, in subscription order, each awaited before the next event; every event
// (the agent's and the session's own) after the ones before it. The session's own state is reduced from each
// event as it is emitted (reduceWith), and the events that yields are delivered just before it.
import { OrderedDelivery, callInOrder } from "../engine/index.js";
import type { SessionListener } from "./agent-session-types.js";
import type { SessionEvent } from "./session-events.js";

const DELIVERED: Promise<void> = Promise.resolve();

export class SessionListeners {
	/** Replaced, never changed in place: a delivery in progress keeps the list it started with. */
	private listeners: readonly SessionListener[] = [];
	private readonly delivery = new OrderedDelivery<SessionEvent>((event) => callInOrder(this.listeners, (listener) => listener(event)));
	private reduce: ((event: SessionEvent) => readonly SessionEvent[]) | undefined;

	/** Sets what reduces the session's state from each event emitted; what it returns is delivered before the event. */
	reduceWith(reduce: (event: SessionEvent) => readonly SessionEvent[]): void {
		this.reduce = reduce;
	}

	/** Returns the function that removes this listener only. */
	add(listener: SessionListener): () => void {
		this.listeners = [...this.listeners, listener];
		return () => {
			const index = this.listeners.indexOf(listener);
			if (index >= 0) this.listeners = this.listeners.filter((_, i) => i !== index);
		};
	}

	clear(): void {
		this.listeners = [];
	}

	/** Delivers one event after the events before it; undefined when that happened synchronously (a stream's updates). */
	deliver(event: SessionEvent): Promise<void> | undefined {
		const preceding = this.reduce?.(event);
		if (!preceding || preceding.length === 0) return this.delivery.deliver(event);
		const pending: Promise<void>[] = [];
		for (const before of [...preceding, event]) {
			const delivered = this.delivery.deliver(before);
			if (delivered) pending.push(delivered);
		}
		return pending.length === 0 ? undefined : Promise.all(pending).then(() => {});
	}

	/** deliver(), always as a promise. */
	emit(event: SessionEvent): Promise<void> {
		return this.deliver(event) ?? DELIVERED;
	}
}
