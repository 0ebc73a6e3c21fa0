// Who hears a session: its listeners, in subscription order, each awaited before the next event; every event
// (the agent's and the session's own) after the ones before it.
import { OrderedDelivery, callInOrder } from "../engine/index.js";
import type { SessionListener } from "./agent-session-types.js";
import type { SessionEvent } from "./session-events.js";

const DELIVERED: Promise<void> = Promise.resolve();

export class SessionListeners {
	/** Replaced, never changed in place: a delivery in progress keeps the list it started with. */
	private listeners: readonly SessionListener[] = [];
	private readonly delivery = new OrderedDelivery<SessionEvent>((event) => callInOrder(this.listeners, (listener) => listener(event)));

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
		return this.delivery.deliver(event);
	}

	/** deliver(), always as a promise. */
	emit(event: SessionEvent): Promise<void> {
		return this.delivery.deliver(event) ?? DELIVERED;
	}
}
