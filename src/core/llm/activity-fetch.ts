// A fetch that reports every received chunk, keep-alives included, so the idle timeout measures silence on
// the wire: the SDKs swallow Anthropic `ping` events and SSE comments before we would see them.

export interface ActivityFetch {
	fetch: typeof fetch;
	/** Called when response headers arrive and on every body chunk; set per attempt. */
	onActivity: () => void;
}

export function createActivityFetch(): ActivityFetch {
	const activity: ActivityFetch = {
		onActivity: () => {},
		fetch: async (input, init) => {
			const response = await fetch(input, init);
			activity.onActivity();
			if (!response.body) return response;
			const body = response.body.pipeThrough(
				new TransformStream<Uint8Array, Uint8Array>({
					transform(chunk, controller) {
						activity.onActivity();
						controller.enqueue(chunk);
					},
				}),
			);
			return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
		},
	};
	return activity;
}
