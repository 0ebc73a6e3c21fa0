import { useCallback, useEffect, useRef, useState } from "react";
import { subagentLink } from "../../core/index.js";
import { DeltaBatch, RENDER_INTERVAL_MS, type ScreenEvent, deltaLength, nextRenderInterval, reduceView } from "../screen/index.js";
import { historyItems, promptHistory } from "../transcript/index.js";
import type { SessionPort } from "../session-port.js";
import type { ScreenView } from "../transcript/index.js";

export interface SessionView {
	view: ScreenView;
	/** Always the newest view, also between throttled renders. */
	latest(): ScreenView;
	dispatch(event: ScreenEvent): void;
	/** Renders the newest view now instead of at the next tick (before exiting). */
	flush(): void;
}

/**
 * The one subscription of the screen: every session event goes through the pure reducer (streamed deltas
 * joined first, see delta-batch.ts), and the rendered view is refreshed on a timer, so a fast stream never
 * queues up renders; the timer's interval is longer under a fast stream (frame-pacing.ts).
 */
export function useSessionView(
	session: SessionPort,
	initial: () => ScreenView,
	/** Called right before each new view is set, so other state set in it joins the same render (the clock). */
	beforeRender?: () => void,
): SessionView {
	const viewRef = useRef<ScreenView | undefined>(undefined);
	if (viewRef.current === undefined) viewRef.current = initial();
	const batch = useRef<DeltaBatch | undefined>(undefined);
	batch.current ??= new DeltaBatch();
	const sessionRef = useRef(session);
	sessionRef.current = session;
	/** The session's event, reduced with the session's current tool presentations. */
	const reduce = useCallback((event: ScreenEvent) => {
		viewRef.current = reduceView(viewRef.current as ScreenView, event, Date.now());
	}, []);
	/** The view with every event so far reduced, the batched deltas included. */
	const current = useCallback(() => {
		for (const event of (batch.current as DeltaBatch).take()) reduce(event);
		return viewRef.current as ScreenView;
	}, [reduce]);
	const [view, setView] = useState<ScreenView>(viewRef.current);
	const timer = useRef<NodeJS.Timeout | undefined>(undefined);
	const before = useRef(beforeRender);
	before.current = beforeRender;

	const renderedAt = useRef(0);
	/** The wait between frames, and the characters streamed since the last frame, which set the next wait. */
	const interval = useRef(RENDER_INTERVAL_MS);
	const streamed = useRef(0);
	/** Shows the newest view, and paces the next frame by what streamed since the previous one. */
	const render = useCallback(() => {
		const at = performance.now();
		interval.current = nextRenderInterval(streamed.current, at - renderedAt.current);
		streamed.current = 0;
		renderedAt.current = at;
		before.current?.();
		setView(current());
	}, [current]);
	const dispatch = useCallback((event: ScreenEvent) => {
		streamed.current += deltaLength(event);
		const ready = (batch.current as DeltaBatch).add(event);
		for (const next of ready) reduce(next);
		if (timer.current) return;
		// The first event after a quiet spell is shown at once (after the events of the same tick); a
		// stream then renders every interval.
		const wait = Math.max(0, renderedAt.current + interval.current - performance.now());
		timer.current = setTimeout(() => {
			timer.current = undefined;
			render();
		}, wait);
	}, [reduce, render]);

	useEffect(() => {
		const unsubscribe = session.subscribe((event) => {
			dispatch(event);
			// A compacted conversation is smaller at once: the footer shows the session's estimate of it, not the
			// last answer's (pre-compaction) figure, until the next answer reports its own.
			if (event.type === "compaction_end" && !event.aborted && !event.error) {
				dispatch({ type: "ui_usage_baseline", usage: { ...session.usageTotals }, contextTokens: session.contextUsage?.tokens });
			}
			// A subagent's result brings what the child spent: the session has counted it, the event stream has not.
			if (event.type === "message_end" && subagentLink(event.message)) {
				dispatch({ type: "ui_usage_baseline", usage: { ...session.usageTotals } });
			}
			// A resumed session already has totals; the session knows them, the event stream does not.
			if (event.type === "session_open") {
				dispatch({ type: "ui_usage_baseline", usage: { ...session.usageTotals }, contextTokens: session.contextUsage?.tokens });
				if (event.messageCount > 0 && session.messages) {
					// The conversation as it opened: an event replayed late (a prompt sent before the screen was up) finds more.
					const messages = session.messages.slice(0, event.messageCount);
					dispatch({ type: "ui_history", items: historyItems(messages, session.tools, event.cwd), prompts: promptHistory(messages) });
				}
			}
		});
		return () => {
			unsubscribe();
			clearTimeout(timer.current);
			timer.current = undefined;
		};
	}, [session, dispatch]);

	const latest = current;
	const flush = useCallback(() => {
		clearTimeout(timer.current);
		timer.current = undefined;
		render();
	}, [render]);
	return { view, latest, dispatch, flush };
}
