import { useCallback, useRef, useState } from "react";

/**
 * State whose latest value a key handler can read at once: keys typed faster than React renders each see
 * the value the previous key left (a closure over the rendered state would see an old one).
 */
export function useRefState<T>(initial: () => T): [T, { readonly current: T }, (next: T) => void] {
	const ref = useRef<T | undefined>(undefined);
	if (ref.current === undefined) ref.current = initial();
	const [state, setState] = useState(ref.current);
	const set = useCallback((next: T) => {
		ref.current = next;
		setState(next);
	}, []);
	return [state, ref as { readonly current: T }, set];
}
